/* Checker for the lesson 06 exercise (common/checker.h's pattern): verifies transpose_diagonal_2d
 * (exercise.cu, or solution.cu for the reference) against the CPU transpose on square and
 * rectangular grids, then times it against the plain NaiveRow and gives the verdict.
 *
 * The goal: your kernel at 0.75x the speed of NaiveRow in row-major order or more.  The exercise is
 * a bug hunt, the speed a guard rail: a diagonal order should cost little (lesson 06's experiment 2:
 * 87% of row-major for NaiveRow with block_order.h's mapping, 103% for NaiveCol, on the H100), and
 * the reference's mapping ran at 100% of NaiveRow (results/NVIDIA_H100_80GB_HBM3/answers/
 * 06_unroll_diagonal.txt, ./solution at 8192 x 8192).  0.75 passes any correct diagonal mapping of
 * either orientation with a margin and stops a kernel that serialises its tile. */
#include "args.h"
#include "checker.h"
#include "exercise.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>

/* The checker's --help summary. */
static const char SUMMARY[] =
    "Lesson 06 exercise: verifies your transpose_diagonal_2d (exercise.cu) on square and\n"
    "rectangular grids, then times it against the plain NaiveRow.";

static const checker_t CK = {"06_unroll_diagonal_exercise", "Lesson 06 exercise - a diagonal order for every grid",
                             SUMMARY, TMATRIX_SIZE_HELP, NULL, "any 2-D block of at most 1024 threads", NULL,
                             "transpose_diagonal_2d", "NaiveRow in row-major order", 0.75, "memcheck",
                             8 /* --size: blocks of --block, 32x8 by default, a block per 8 rows */};

/* Your kernel's 2-D grid: a block per tile of blockDim.x columns x blockDim.y rows. */
static dim3 tiles(int nx, int ny, dim3 block) { return dim3(div_up(nx, block.x), div_up(ny, block.y)); }

static void launch_yours(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    transpose_diagonal_2d<<<tiles(nx, ny, block), block, 0, s>>>(out, in, nx, ny);
}

/* The grid in each check line: the source's mapping is right on square ones only. */
static void grid_note(int nx, int ny, dim3 block, char *buf, size_t len)
{
    dim3 grid = tiles(nx, ny, block);
    snprintf(buf, len, " grid %ux%u%s", grid.x, grid.y, grid.x == grid.y ? " (square)" : "");
}

static const trow_t NAIVE_ROW = {"NaiveRow (given)", launch_transpose_naive_row, TMATRIX_TRANSPOSE};
static const trow_t YOURS = {"NaiveRow diagonal (yours)", launch_yours, TMATRIX_TRANSPOSE};

int main(int argc, char **argv)
{
    /* with 32x8 blocks: 1x1, 256x64 and 8192x2048 make square grids (1x1, 8x8, 256x256); the rest
     * rectangular ones, tall (1x40009), wide (40009x1) and odd (33x31, 1000x777, 8191x4097); at
     * most 40009 rows, so no grid is more than 65535 blocks high; --quick leaves out the last two */
    static const int shapes[][2] = {{1, 1}, {256, 64}, {33, 31}, {64, 64}, {1000, 777}, {1, 40009},
                                    {40009, 1}, {4097, 13}, {8192, 2048}, {8191, 4097}};
    const dim3 check_blocks[] = {dim3(32, 8), dim3(16, 16)};
    const trow_t yours = {"transpose_diagonal_2d", launch_yours, TMATRIX_TRANSPOSE};
    args_t a;
    gpu_info_t g;
    tbench_t b;
    timing_t t_row, t_yours;
    check_tally_t t = {0, 0, stdout};
    int nx, ny, rc, row_ok, yours_ok;
    double ratio;
    dim3 block, grid;
    char take[300];

    checker_start(&CK, argc, argv, &a, &g);
    tmatrix_size_or_exit(&a, 0, &nx, &ny);
    block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);   /* NaiveRow's and yours */

    /* Correct first: every element, on poisoned output inside guard zones; a tile no block takes
     * stays NaN. */
    t.out = a.csv ? NULL : stdout;
    report_say("\nVerification against the CPU transpose (grid = tiles across x tiles down):\n");
    tcheck_sweep(&yours, 1, shapes, (int)(sizeof shapes / sizeof shapes[0]), 2, check_blocks, 2, grid_note, &a, &t);
    if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc;

    /* Then fast: plain NaiveRow and yours at the full size, each verified again first. */
    tbench_init(&b, &g, &a, nx, ny, TMATRIX_TRANSPOSE);
    report_begin("exercise", "NaiveRow in row-major and in diagonal block order:", NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    row_ok = trow_measure(&b, &NAIVE_ROW, block, NAN, &t_row);
    yours_ok = trow_measure(&b, &YOURS, block, NAN, &t_yours);
    grid = tiles(nx, ny, block);
    if (row_ok && yours_ok) {
        snprintf(take, sizeof take, "on this %ux%u grid the diagonal order runs at %.0f%% of the row-major order.", grid.x,
                 grid.y, 100.0 * t_row.median_ms / t_yours.median_ms);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    ratio = row_ok && yours_ok ? t_row.median_ms / t_yours.median_ms : NAN;   /* speed of yours / NaiveRow's */
    tbench_free(&b);
    return checker_verdict(&CK, ratio);
}
