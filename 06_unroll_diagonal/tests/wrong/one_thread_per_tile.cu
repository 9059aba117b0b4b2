/* expect: short
 * Correct but slow: the mapping is right (the reference's), but the first thread of each block
 * copies the whole tile alone, element after element, while the other threads of the block idle.
 * Every element is written once, so it verifies; but each block now waits for blockDim.x x
 * blockDim.y dependent loads in a row instead of one, and at 8192 x 8192 that is a fraction of
 * NaiveRow's speed, short of the goal of 0.75x. */
#include "exercise.h"

__global__ void transpose_diagonal_2d(float *out, const float *in, int nx, int ny)
{
    unsigned gx = gridDim.x, gy = gridDim.y;
    unsigned b = blockIdx.x + gx * blockIdx.y;
    unsigned block_x = b % gx;
    unsigned block_y = (b / gx + block_x) % gy;
    unsigned tx, ty;

    if (threadIdx.x != 0 || threadIdx.y != 0) return;   /* SLOW: one thread per tile */
    for (ty = 0; ty < blockDim.y; ty++)
        for (tx = 0; tx < blockDim.x; tx++) {
            unsigned c = block_x * blockDim.x + tx, r = block_y * blockDim.y + ty;
            if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
        }
}
