/* Checker for the lesson 06 exercise: verifies transpose_diagonal_2d (exercise.cu, or solution.cu for
 * the reference) against the CPU transpose on square and rectangular grids, then times it against
 * the plain NaiveRow. */
#include "args.h"
#include "exercise.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "transpose_matrix.h"

#include <stdio.h>

/* The checker's --help summary. */
static const char SUMMARY[] =
    "Lesson 06 exercise: verifies your transpose_diagonal_2d (exercise.cu) on square and\n"
    "rectangular grids, then times it against the plain NaiveRow.";

/* Your kernel's 2-D grid: a block per tile of blockDim.x columns x blockDim.y rows. */
static dim3 tiles(const tctx_t *c) { return dim3(div_up(c->nx, c->block.x), div_up(c->ny, c->block.y)); }

static void launch_yours(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    transpose_diagonal_2d<<<tiles(c), c->block, 0, s>>>(c->out, c->in, c->nx, c->ny);
}

/* The grid in each check line: the source's mapping is right on square ones only. */
static void grid_note(const tctx_t *c, char *buf, size_t len)
{
    dim3 grid = tiles(c);
    snprintf(buf, len, " grid %ux%u%s", grid.x, grid.y, grid.x == grid.y ? " (square)" : "");
}

/* NaiveRow (t[0]) against yours (t[1]) on the timed grid */
static void takeaway(const tbench_t *b, const dim3 *blocks, const timing_t *t, char *take, size_t len)
{
    tctx_t c = tmatrix_ctx(&b->m, blocks[1]);
    dim3 grid = tiles(&c);
    snprintf(take, len, "on this %ux%u grid the diagonal order runs at %.0f%% of the row-major order.", grid.x, grid.y,
             100.0 * t[0].median_ms / t[1].median_ms);
}

int main(int argc, char **argv)
{
    /* with 32x8 blocks: 1x1, 256x64 and 8192x2048 make square grids (1x1, 8x8, 256x256); the rest
     * rectangular ones, tall (1x40009), wide (40009x1) and odd (33x31, 1000x777, 8191x4097); at
     * most 40009 rows, so no grid is more than 65535 blocks high */
    static const int shapes[][2] = {{1, 1}, {256, 64}, {33, 31}, {64, 64}, {1000, 777}, {1, 40009},
                                    {40009, 1}, {4097, 13}, {8192, 2048}, {8191, 4097}};
    const dim3 check_blocks[] = {dim3(32, 8), dim3(16, 16)};
    const tkernel_t ks[] = {{"NaiveRow (given)", launch_naive_row, TMATRIX_TRANSPOSE},
                            {"NaiveRow diagonal (yours)", launch_yours, TMATRIX_TRANSPOSE}};
    const tkernel_t yours = {"transpose_diagonal_2d", launch_yours, TMATRIX_TRANSPOSE};
    args_t a;
    gpu_info_t g;
    int nx, ny, rc;
    dim3 blocks[2];

    texercise_args(argc, argv, &a, SUMMARY, 1, &nx, &ny);
    blocks[0] = blocks[1] = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);   /* NaiveRow's and yours */
    if (div_up(ny, blocks[0].y) > 65535)
        args_reject("bad --size '%s': with %u-row blocks the grid would be more than 65535 blocks high",
                    args_raw_value(argc, argv, "--size"), blocks[0].y);
    report_init("06_unroll_diagonal_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 06 exercise - a diagonal order for every grid", &a);

    /* Correct first: every element, on poisoned output; a tile no block takes stays NaN.  With
     * --quick not 8192x2048 and 8191x4097. */
    report_say("\nVerification against the CPU transpose (grid = tiles across x tiles down):\n");
    rc = texercise_verify(&yours, "the mapping", shapes, (int)(sizeof shapes / sizeof shapes[0]), 2, check_blocks, 2,
                          grid_note, &a);
    if (rc >= 0) return rc;

    /* Then fast: plain NaiveRow and yours at the full size, each verified again first. */
    return texercise_time(&g, &a, nx, ny, "NaiveRow in row-major and in diagonal block order:", ks, blocks, 2, takeaway);
}
