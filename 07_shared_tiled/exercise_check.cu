/* Checker for the lesson 07 exercise: verifies transpose_tile_noconflict (exercise.cu, or
 * solution.cu for the reference) at odd sizes against the CPU, reports how much shared memory it
 * declares, then times it against cudaMemcpy at the lesson's default size. */
#include "args.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"
#include "verify.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const float *in;
    float *out;
    int nx, ny;
} ctx_t;

static void launch_yours(void *p)
{
    const ctx_t *c = (const ctx_t *)p;
    dim3 block(EX_TILE, EX_ROWS);
    dim3 grid((unsigned)((c->nx + EX_TILE - 1) / EX_TILE), (unsigned)((c->ny + EX_TILE - 1) / EX_TILE));
    transpose_tile_noconflict<<<grid, block>>>(c->in, c->out, c->nx, c->ny);
}

#define MAX_ROWS (65535 * EX_TILE)
#define MAX_COLS (INT_MAX - 1024)
#define LABEL "yours [32][32] no padding"

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    struct cudaFuncAttributes attr;
    int nx, ny, def, s, fails = 0, checks = 0, nshapes;
    char size[64];
    mismatch_t mm;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 07 exercise: verifies your transpose_tile_noconflict (exercise.cu) at odd sizes,\n"
                       "then times it against cudaMemcpy.",
                       "matrix NXxNY to time (default 8192x8192, 2048x2048 with --quick); N means NxN", NULL, 0);
    def = a.quick ? 2048 : 8192;
    matrix_size_or_exit(&a, def, def, &nx, &ny);
    if (ny > MAX_ROWS) args_reject("bad --size '%dx%d': at most %d rows", nx, ny, MAX_ROWS);
    if (nx > MAX_COLS) args_reject("bad --size '%dx%d': at most %d columns", nx, ny, MAX_COLS);
    if (a.bx) args_reject("bad --block '%dx%d': the exercise's kernel runs with %dx%d threads", a.bx, a.by, EX_TILE, EX_ROWS);
    report_init("07_shared_tiled_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 07 exercise - a tile transpose without bank conflicts or padding", &a);

    /* Correct first: every odd shape, on poisoned output, compared exactly with the CPU. */
    report_say("\nVerification (compared exactly with the CPU transpose):\n");
    nshapes = tmatrix_check_count(a.quick);
    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        ctx_t c;
        tmatrix_init(&m, TMATRIX_CHECK_SHAPES[s][0], TMATRIX_CHECK_SHAPES[s][1], a.seed, 0);
        c.in = m.d_in;
        c.out = m.d_out;
        c.nx = m.nx;
        c.ny = m.ny;
        snprintf(size, sizeof size, "%dx%d", m.nx, m.ny);
        verify_launch_f32(launch_yours, &c, m.d_out, m.want, m.got, m.n, &mm);
        if (!a.csv) fails += verify_print(stdout, "transpose_tile_noconflict", size, &mm, m.n, (size_t)m.ny);
        else fails += mm.count != 0;
        checks++;
        tmatrix_free(&m);
    }
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix transpose_tile_noconflict in exercise.cu "
                        "(no timing until it passes).\n", fails, checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", checks, checks);

    CHECK(cudaFuncGetAttributes(&attr, transpose_tile_noconflict));
    report_say("Your kernel declares %zu bytes of shared memory per block", attr.sharedSizeBytes);
    if (attr.sharedSizeBytes > (size_t)EX_TILE * EX_TILE * sizeof(float))
        report_say(": more than the %zu of a [32][32] tile -- the exercise asks for no padding.\n",
                   (size_t)EX_TILE * EX_TILE * sizeof(float));
    else
        report_say(" (a [32][32] tile: no padding).\n");
    if (a.check) {
        gpu_finish();
        return EXIT_OK;
    }

    {
        tmatrix_t m;
        ctx_t c;
        timing_t t_d2d, t;
        double bytes, d2d, pct;
        int flush;
        char take[240];
        tmatrix_init(&m, nx, ny, a.seed, 0);
        c.in = m.d_in;
        c.out = m.d_out;
        c.nx = nx;
        c.ny = ny;
        bytes = 2.0 * (double)m.n * sizeof(float);
        flush = gpu_flush_wanted(&g, &a, 2 * m.n * sizeof(float));
        d2d = gpu_d2d_gbs(m.d_out, m.d_in, m.n * sizeof(float), &a, flush, &t_d2d);
        report_set_ceilings(d2d, g.peak_gbs);
        if (!verify_then_time(LABEL, launch_yours, &c, m.d_out, m.want, m.got, m.n, (size_t)ny, &a, flush, &t)) {
            fprintf(stderr, "FAILED verification at %dx%d: no timing reported.\n", nx, ny);
            tmatrix_free(&m);
            gpu_finish();
            return EXIT_VERIFY;
        }
        report_begin("exercise", "Your transpose against the copy of the same bytes:", NULL);
        report_row("cudaMemcpy D2D", &t_d2d, bytes, NAN);
        report_row(LABEL, &t, bytes, NAN);
        pct = 100.0 * stats_gbs(bytes, t.median_ms) / d2d;
        snprintf(take, sizeof take,
                 "%.0f%% of the copy (the lesson's goal for a conflict-free 32x32 tile: >= 85%%, %s); compare with the "
                 "[32][32] and [32][33] rows of experiment 2.", pct, pct >= 85.0 ? "PASS" : "MISS");
        report_end(take);
        tmatrix_free(&m);
    }
    gpu_finish();
    return EXIT_OK;
}
