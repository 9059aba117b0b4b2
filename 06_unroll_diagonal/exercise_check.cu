/* Checker for the lesson 06 exercise: verifies transpose_diagonal_2d (exercise.cu, or solution.cu for
 * the reference) against the CPU transpose on square and rectangular grids, then times it against
 * the plain NaiveRow. */
#include "args.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
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
    tbench_t tb;
    char size[80], take[300];
    int s, b, nx, ny, fails = 0, checks = 0, ok_row, ok_yours;
    timing_t t_row, t_yours;
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
        nshapes -= 2;  /* not 8192x2048 and 8191x4097 */
    }
    report_init("06_unroll_diagonal_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 06 exercise - a diagonal order for every grid", &a);

    /* Correct first: every element, on poisoned output; a tile no block takes stays NaN.  No
     * PASS/FAIL lines with --csv (stdout is only CSV then). */
    report_say("\nVerification against the CPU transpose (grid = tiles across x tiles down):\n");
    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a.seed, 0);
        c.out = m.d_out;
        c.in = m.d_in;
        c.nx = m.nx;
        c.ny = m.ny;
        for (b = 0; b < 2; b++) {
            c.block = a.bx ? dim3(a.bx, a.by) : dim3(blocks[b][0], blocks[b][1]);
            grid = tile_grid(&c);
            if (grid.y > 65535) continue;
            snprintf(size, sizeof size, "%dx%d block %ux%u grid %ux%u%s", c.nx, c.ny, c.block.x, c.block.y, grid.x,
                     grid.y, grid.x == grid.y ? " (square)" : "");
            fails += tmatrix_check(&m, TMATRIX_TRANSPOSE, "transpose_diagonal_2d", size, launch_yours, &c,
                                   a.csv ? NULL : stdout);
            checks++;
            if (a.bx) break;
        }
        tmatrix_free(&m);
    }
    if (fails)
        fprintf(stderr, "FAILED: %d of %d checks failed; fix the mapping in exercise.cu (no timing until it passes).\n",
                fails, checks);
    else
        report_say("OK: %d of %d checks passed\n", checks, checks);
    if (fails || a.check) {
        gpu_finish();
        return fails ? EXIT_VERIFY : EXIT_OK;
    }

    /* Then fast: plain NaiveRow and yours at the full size, each verified again first. */
    tbench_init(&tb, &g, &a, nx, ny, 0);
    c.out = tb.m.d_out;
    c.in = tb.m.d_in;
    c.nx = nx;
    c.ny = ny;
    c.block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    grid = tile_grid(&c);
    report_begin("exercise", "NaiveRow in row-major and in diagonal block order:", NULL);
    report_row("cudaMemcpy D2D", &tb.t_d2d, tb.bytes, NAN);
    ok_row = tbench_verify_then_time(&tb, TMATRIX_TRANSPOSE, "NaiveRow (given)", launch_row, &c, &t_row);
    if (ok_row) report_row("NaiveRow (given)", &t_row, tb.bytes, NAN);
    else report_row_failed("NaiveRow (given)");
    ok_yours = tbench_verify_then_time(&tb, TMATRIX_TRANSPOSE, "NaiveRow diagonal (yours)", launch_yours, &c, &t_yours);
    if (ok_yours) report_row("NaiveRow diagonal (yours)", &t_yours, tb.bytes, NAN);
    else report_row_failed("NaiveRow diagonal (yours)");
    if (ok_row && ok_yours) {
        snprintf(take, sizeof take, "on this %ux%u grid the diagonal order runs at %.0f%% of the row-major order.",
                 grid.x, grid.y, 100.0 * t_row.median_ms / t_yours.median_ms);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    tbench_free(&tb);
    gpu_finish();
    return ok_row && ok_yours ? EXIT_OK : EXIT_VERIFY;
}
