/* Checker for the lesson 05 exercise: verifies transpose_warp_patch (exercise.cu, or solution.cu for
 * the reference) against the CPU transpose at odd shapes, then times it against the naive
 * transposes of the lesson. */
#include "args.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "sectors.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    float *out;
    const float *in;
    int nx, ny;
    dim3 block;
} ctx_t;

static void launch_yours(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 grid((c->nx + PATCH_TILE_W - 1) / PATCH_TILE_W, (c->ny + PATCH_TILE_H - 1) / PATCH_TILE_H);
    transpose_warp_patch<<<grid, PATCH_THREADS>>>(c->out, c->in, c->nx, c->ny);
}

static void launch_row(void *p)
{
    ctx_t *c = (ctx_t *)p;
    transpose_naive_row<<<grid_2d(c->nx, c->ny, c->block), c->block>>>(c->out, c->in, c->nx, c->ny);
}

static void launch_col(void *p)
{
    ctx_t *c = (ctx_t *)p;
    transpose_naive_col<<<grid_2d(c->ny, c->nx, c->block), c->block>>>(c->out, c->in, c->nx, c->ny);
}

typedef struct {
    const char *label;
    launch_fn_t launch;
    kernel_kind_t kind;
    unsigned bx, by;
} given_t;

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {8, 4}, {7, 3}, {32, 8}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {2048, 512}, {8191, 4097}};
    static const given_t given[] = {{"NaiveRow 32x8 (given)", launch_row, KIND_NAIVE_ROW, 32, 8},
                 {"NaiveCol 32x8 (given)", launch_col, KIND_NAIVE_COL, 32, 8},
                 {"NaiveRow 8x32 (given)", launch_row, KIND_NAIVE_ROW, 8, 32}};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    args_t a;
    gpu_info_t g;
    ctx_t c;
    tbench_t b;
    char size[64], take[300];
    int s, k, nx, ny, fails = 0, checks = 0, ok_yours, best = -1;
    timing_t t_given[3], t_yours;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 05 exercise: verifies your transpose_warp_patch (exercise.cu) at odd shapes, then\n"
                       "times it against NaiveRow and NaiveCol.",
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)",
                       NULL, 0);
    if (a.bx) args_reject("bad --block '%dx%d': the exercise's blocks are fixed (exercise.h)", a.bx, a.by);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    if (((long)ny + PATCH_TILE_H - 1) / PATCH_TILE_H > 65535)
        args_reject("bad --size '%dx%d': at most %d rows here (gridDim.y <= 65535 tiles of %d rows)", nx, ny,
                    65535 * PATCH_TILE_H, PATCH_TILE_H);
    if (a.quick) {
        nshapes -= 2;  /* not 2048x512 and 8191x4097 */
    }
    report_init("05_transpose_naive_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 05 exercise - the shape of a warp", &a);

    /* Correct first: every element of the transpose, on poisoned output, at shapes that are
     * multiples of nothing (partial tiles, partial patches, a single row or column); no PASS/FAIL
     * lines with --csv (stdout is only CSV then). */
    report_say("\nVerification against the CPU transpose:\n");
    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a.seed, 0);
        c.out = m.d_out;
        c.in = m.d_in;
        c.nx = m.nx;
        c.ny = m.ny;
        snprintf(size, sizeof size, "%dx%d", c.nx, c.ny);
        fails += tmatrix_check(&m, TMATRIX_TRANSPOSE, "transpose_warp_patch (yours)", size, launch_yours, &c,
                               a.csv ? NULL : stdout);
        checks++;
        tmatrix_free(&m);
    }
    if (fails)
        fprintf(stderr, "FAILED: %d of %d checks failed; fix transpose_warp_patch in exercise.cu (no timing until it passes).\n",
                fails, checks);
    else
        report_say("OK: %d of %d checks passed\n", checks, checks);
    if (fails || a.check) {
        gpu_finish();
        return fails ? EXIT_VERIFY : EXIT_OK;
    }

    /* Then fast: the given kernels and yours at the full size, each verified again first. */
    tbench_init(&b, &g, &a, nx, ny, 0);
    c.out = b.m.d_out;
    c.in = b.m.d_in;
    c.nx = nx;
    c.ny = ny;
    report_say("\nSectors per warp (load + store, from the addresses): NaiveRow 32x8 %.0f, NaiveCol 32x8 %.0f, "
               "NaiveRow 8x32 %.0f;\nyours, with 8 x 4 warps: 4 + 8 = 12.\n",
               warp_sectors(KIND_NAIVE_ROW, 32, 8, nx, ny).ld + warp_sectors(KIND_NAIVE_ROW, 32, 8, nx, ny).st,
               warp_sectors(KIND_NAIVE_COL, 32, 8, nx, ny).ld + warp_sectors(KIND_NAIVE_COL, 32, 8, nx, ny).st,
               warp_sectors(KIND_NAIVE_ROW, 8, 32, nx, ny).ld + warp_sectors(KIND_NAIVE_ROW, 8, 32, nx, ny).st);
    report_begin("exercise", "Transposes of the whole matrix:", NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    for (k = 0; k < 3; k++) {
        c.block = dim3(given[k].bx, given[k].by);
        if (tbench_verify_then_time(&b, TMATRIX_TRANSPOSE, given[k].label, given[k].launch, &c, &t_given[k])) {
            report_row(given[k].label, &t_given[k], b.bytes, NAN);
            if (best < 0 || t_given[k].median_ms < t_given[best].median_ms) best = k;
        } else {
            report_row_failed(given[k].label);
        }
    }
    ok_yours = tbench_verify_then_time(&b, TMATRIX_TRANSPOSE, "warp patch 8x4 (yours)", launch_yours, &c, &t_yours);
    if (ok_yours) report_row("warp patch 8x4 (yours)", &t_yours, b.bytes, NAN);
    else report_row_failed("warp patch 8x4 (yours)");
    if (ok_yours && best >= 0) {
        snprintf(take, sizeof take, "yours runs at %.2fx the fastest given kernel (%s).",
                 t_given[best].median_ms / t_yours.median_ms, given[best].label);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    tbench_free(&b);
    gpu_finish();
    return ok_yours && best >= 0 ? EXIT_OK : EXIT_VERIFY;
}
