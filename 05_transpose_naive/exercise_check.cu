/* Checker for the lesson 05 exercise: verifies transpose_warp_patch (exercise.cu, or solution.cu for
 * the reference) against the CPU transpose at odd shapes, then times it against the naive
 * transposes of the lesson. */
#include "args.h"
#include "exercise.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "sectors.h"
#include "transpose_matrix.h"

#include <stdio.h>

/* The checker's --help summary. */
static const char SUMMARY[] =
    "Lesson 05 exercise: verifies your transpose_warp_patch (exercise.cu) at odd shapes, then\n"
    "times it against NaiveRow and NaiveCol.";

/* Your kernel: 1-D blocks of PATCH_THREADS, a block per PATCH_TILE_H x PATCH_TILE_W tile (exercise.h). */
static void launch_yours(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    dim3 grid(div_up(c->nx, PATCH_TILE_W), div_up(c->ny, PATCH_TILE_H));
    transpose_warp_patch<<<grid, PATCH_THREADS, 0, s>>>(c->out, c->in, c->nx, c->ny);
}

/* Sectors per warp, load + store (sectors.h), of a naive transpose with bx x by blocks. */
static double sectors(kernel_kind_t kind, const dim3 b, int nx, int ny)
{
    warp_sectors_t w = warp_sectors(kind, (int)b.x, (int)b.y, nx, ny);
    return w.ld + w.st;
}

/* the given kernels (t[0..2]), then yours (t[3]), in the order of the table */
static const tkernel_t KS[] = {{"NaiveRow 32x8 (given)", launch_naive_row, TMATRIX_TRANSPOSE},
                               {"NaiveCol 32x8 (given)", launch_naive_col, TMATRIX_TRANSPOSE},
                               {"NaiveRow 8x32 (given)", launch_naive_row, TMATRIX_TRANSPOSE},
                               {"warp patch 8x4 (yours)", launch_yours, TMATRIX_TRANSPOSE}};

static void takeaway(const tbench_t *b, const dim3 *blocks, const timing_t *t, char *take, size_t len)
{
    int k, best = 0;
    (void)b;
    (void)blocks;
    for (k = 1; k < 3; k++)
        if (t[k].median_ms < t[best].median_ms) best = k;
    snprintf(take, len, "yours runs at %.2fx the fastest given kernel (%s).", t[best].median_ms / t[3].median_ms,
             KS[best].label);
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {8, 4}, {7, 3}, {32, 8}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {2048, 512}, {8191, 4097}};
    const dim3 blocks[] = {dim3(32, 8), dim3(32, 8), dim3(8, 32), dim3(PATCH_THREADS)};
    const tkernel_t yours = {"transpose_warp_patch (yours)", launch_yours, TMATRIX_TRANSPOSE};
    args_t a;
    gpu_info_t g;
    int nx, ny, rc;

    texercise_args(argc, argv, &a, SUMMARY, 0, &nx, &ny);
    if (div_up(ny, PATCH_TILE_H) > 65535)
        args_reject("bad --size '%s': at most %d rows here (gridDim.y <= 65535 tiles of %d rows)",
                    args_raw_value(argc, argv, "--size"), 65535 * PATCH_TILE_H, PATCH_TILE_H);
    report_init("05_transpose_naive_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 05 exercise - the shape of a warp", &a);

    /* Correct first: every element of the transpose, on poisoned output, at shapes that are
     * multiples of nothing (partial tiles, partial patches, a single row or column); with --quick
     * not 2048x512 and 8191x4097. */
    report_say("\nVerification against the CPU transpose:\n");
    rc = texercise_verify(&yours, "transpose_warp_patch", shapes, (int)(sizeof shapes / sizeof shapes[0]), 2,
                          &blocks[3], 1, NULL, &a);
    if (rc >= 0) return rc;

    /* Then fast: the given kernels and yours at the full size, each verified again first. */
    report_say("\nSectors per warp (load + store, from the addresses): NaiveRow 32x8 %.0f, NaiveCol 32x8 %.0f, "
               "NaiveRow 8x32 %.0f;\nyours, with 8 x 4 warps: 4 + 8 = 12.\n",
               sectors(KIND_NAIVE_ROW, blocks[0], nx, ny), sectors(KIND_NAIVE_COL, blocks[1], nx, ny),
               sectors(KIND_NAIVE_ROW, blocks[2], nx, ny));
    return texercise_time(&g, &a, nx, ny, "Transposes of the whole matrix:", KS, blocks, 4, takeaway);
}
