/* Lesson 05 exercise: choose the shape of your warps.
 *
 * A warp is 32 threads with consecutive thread numbers; whatever the block shape, the 32 elements
 * a warp moves decide how many 32-byte sectors its load and its store touch.  NaiveRow with 32x8
 * blocks has warps of 32 columns x 1 row: 4 sectors per load, 32 per store (36).  A warp that
 * covers 8 columns x 4 rows reads 4 rows of 8 floats (4 whole sectors) and writes 8 rows of the
 * output with 4 floats each (8 half sectors): 12 sectors.  No 32-element warp can do better than
 * that on both sides at once -- whole sectors on both sides need 8 x 8 = 64 elements.
 *
 * TODO: write transpose_warp_patch (see exercise.h for the launch).  Each block of 256 threads
 * transposes a tile of 8 rows x 32 columns.  Cut the tile into eight patches of 4 rows x 8 columns
 * and give one patch to each warp:
 *   warp  w = threadIdx.x / 32 takes the patch in patch-column w % 4 and patch-row w / 4;
 *   lane  l = threadIdx.x % 32 takes row l / 8 and column l % 8 inside that patch.
 * Compute the element's (r, c) in the matrix, and if it lies inside (r < ny, c < nx) write
 * out[c * ny + r] = in[r * nx + c].
 *
 * Before you run it, predict: sectors per load and per store request in `ncu` for your kernel, and
 * whether it beats NaiveRow and NaiveCol with 32x8 blocks (the checker times all three, and NaiveRow
 * with 8x32 blocks, whose warps have the same shape as yours).  Then `make exercise`. */
#include "exercise.h"

__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny)
{
    /* TODO: your code here */
    (void)out;
    (void)in;
    (void)nx;
    (void)ny;
}
