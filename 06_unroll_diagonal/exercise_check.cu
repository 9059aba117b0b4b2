/* Checker for the lesson 06 exercise: verifies transpose_diagonal_2d (exercise.cu, or solution.cu for
 * the reference) against the CPU transpose on square and rectangular grids, then times it against
 * the plain NaiveRow. */
#include "args.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    float *out;
    const float *in;
    int nx, ny;
    dim3 block;
} ctx_t;

static dim3 tile_grid(const ctx_t *c)
{
    return dim3(((unsigned)c->nx + c->block.x - 1) / c->block.x, ((unsigned)c->ny + c->block.y - 1) / c->block.y);
}

static void launch_yours(void *p)
{
    ctx_t *c = (ctx_t *)p;
    transpose_diagonal_2d<<<tile_grid(c), c->block>>>(c->out, c->in, c->nx, c->ny);
}

static void launch_row(void *p)
{
    ctx_t *c = (ctx_t *)p;
    transpose_naive_row<<<grid_2d(c->nx, c->ny, c->block), c->block>>>(c->out, c->in, c->nx, c->ny);
}

static void fill(ctx_t *c, float *h_in, float *h_t, uint64_t seed)
{
    size_t i, n = (size_t)c->nx * c->ny;
    gpu_fill_random_f32((float *)c->in, n, seed);
    for (i = 0; i < n; i++) h_in[i] = rng_float(seed, i);
    cpu_transpose_f32(h_in, h_t, c->nx, c->ny);
}

int main(int argc, char **argv)
{
    /* with 32x8 blocks: 1x1, 256x64 and 8192x2048 make square grids (1x1, 8x8, 256x256); the rest
     * rectangular ones, tall (1x40009), wide (40009x1) and odd (33x31, 1000x777, 8191x4097) */
    static const int shapes[][2] = {{1, 1}, {256, 64}, {33, 31}, {64, 64}, {1000, 777}, {1, 40009},
                                    {40009, 1}, {4097, 13}, {8192, 2048}, {8191, 4097}};
    static const int blocks[][2] = {{32, 8}, {16, 16}};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    args_t a;
    gpu_info_t g;
    ctx_t c;
    mismatch_t m;
    char size[80], take[300];
    int s, b, nx, ny, fails = 0, checks = 0, flush, ok_row, ok_yours;
    size_t n, max_n = 0;
    float *d_in, *d_out, *h_in, *h_t, *got;
    timing_t t_d2d, t_row, t_yours;
    double bytes;
    dim3 grid;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 06 exercise: verifies your transpose_diagonal_2d (exercise.cu) on square and\n"
                       "rectangular grids, then times it against the plain NaiveRow.",
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)",
                       NULL, 0);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    c.block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    if (((long)ny + c.block.y - 1) / c.block.y > 65535)
        args_reject("bad --size '%dx%d': with %u-row blocks the grid would be more than 65535 blocks high", nx, ny,
                    c.block.y);
    if (a.quick) {
        a.reps = 5;
        a.warmup = 1;
        nshapes -= 2;  /* not 8192x2048 and 8191x4097 */
    }
    report_init("06_unroll_diagonal_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 06 exercise - a diagonal order for every grid", &a);

    for (s = 0; s < nshapes; s++)
        if ((size_t)shapes[s][0] * shapes[s][1] > max_n) max_n = (size_t)shapes[s][0] * shapes[s][1];
    n = (size_t)nx * ny;
    if (!a.check && n > max_n) max_n = n;
    d_in = (float *)gpu_alloc(max_n * sizeof(float), "the input matrix");
    d_out = (float *)gpu_alloc(max_n * sizeof(float), "the output matrix");
    h_in = (float *)host_alloc(max_n * sizeof(float), "the input matrix (host copy)");
    h_t = (float *)host_alloc(max_n * sizeof(float), "the transposed matrix (CPU reference)");
    got = host_alloc_pinned_f32(max_n, "the output matrix (host copy)");
    c.out = d_out;
    c.in = d_in;

    /* Correct first: every element, on poisoned output; a tile no block takes stays NaN. */
    report_say("\nVerification against the CPU transpose (grid = tiles across x tiles down):\n");
    for (s = 0; s < nshapes; s++) {
        c.nx = shapes[s][0];
        c.ny = shapes[s][1];
        n = (size_t)c.nx * c.ny;
        fill(&c, h_in, h_t, a.seed);
        for (b = 0; b < 2; b++) {
            c.block = a.bx ? dim3(a.bx, a.by) : dim3(blocks[b][0], blocks[b][1]);
            grid = tile_grid(&c);
            if (grid.y > 65535) continue;
            snprintf(size, sizeof size, "%dx%d block %ux%u grid %ux%u%s", c.nx, c.ny, c.block.x, c.block.y, grid.x,
                     grid.y, grid.x == grid.y ? " (square)" : "");
            verify_launch_f32(launch_yours, &c, d_out, h_t, got, n, &m);
            if (!a.csv) fails += verify_print(stdout, "transpose_diagonal_2d", size, &m, n, (size_t)c.ny);
            else fails += m.count != 0;
            checks++;
            if (a.bx) break;
        }
    }
    if (fails)
        fprintf(stderr, "FAILED: %d of %d checks failed; fix the mapping in exercise.cu (no timing until it passes).\n",
                fails, checks);
    else
        report_say("OK: %d of %d checks passed\n", checks, checks);
    if (fails || a.check) {
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        free(h_in);
        free(h_t);
        CHECK(cudaFreeHost(got));
        gpu_finish();
        return fails ? EXIT_VERIFY : EXIT_OK;
    }

    /* Then fast: plain NaiveRow and yours at the full size, each verified again first. */
    c.nx = nx;
    c.ny = ny;
    c.block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    n = (size_t)nx * ny;
    bytes = 2.0 * (double)n * sizeof(float);
    flush = gpu_flush_wanted(&g, &a, 2 * n * sizeof(float));
    fill(&c, h_in, h_t, a.seed);
    report_set_ceilings(gpu_d2d_gbs(d_out, d_in, n * sizeof(float), &a, flush, &t_d2d), g.peak_gbs);
    grid = tile_grid(&c);
    report_begin("exercise", "NaiveRow in row-major and in diagonal block order:", NULL);
    report_row("cudaMemcpy D2D", &t_d2d, bytes, NAN);
    ok_row = verify_then_time("NaiveRow (given)", launch_row, &c, d_out, h_t, got, n, (size_t)ny, &a, flush, &t_row);
    if (ok_row) report_row("NaiveRow (given)", &t_row, bytes, NAN);
    else report_row_failed("NaiveRow (given)");
    ok_yours = verify_then_time("NaiveRow diagonal (yours)", launch_yours, &c, d_out, h_t, got, n, (size_t)ny, &a, flush,
                                &t_yours);
    if (ok_yours) report_row("NaiveRow diagonal (yours)", &t_yours, bytes, NAN);
    else report_row_failed("NaiveRow diagonal (yours)");
    if (ok_row && ok_yours) {
        snprintf(take, sizeof take, "on this %ux%u grid the diagonal order runs at %.0f%% of the row-major order.",
                 grid.x, grid.y, 100.0 * t_row.median_ms / t_yours.median_ms);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    free(h_t);
    CHECK(cudaFreeHost(got));
    gpu_finish();
    return ok_row && ok_yours ? EXIT_OK : EXIT_VERIFY;
}
