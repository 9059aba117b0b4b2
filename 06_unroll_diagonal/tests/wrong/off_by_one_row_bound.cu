/* expect: wrong
 * Off by one at the bottom edge: the mapping is right (the reference's), but the bounds test reads
 * r <= ny.  In a tile that sticks out below the matrix the threads of row ny read the row after the
 * last one -- past the end of `in`, into the poison of its guard zone -- and write it into column 0
 * of the next output row (over the right value, if they come after it) or, for the last column,
 * just past `out`.  Whether the comparison sees the NaN depends on the order the blocks ran in; if
 * it does not, the read past `in` is still there for compute-sanitizer's run, on buffers of exactly
 * the matrix's size (1x1 already reads in[1]).  So the verdict is wrong either way, by one
 * mechanism or the other: no text is expected. */
#include "exercise.h"

__global__ void transpose_diagonal_2d(float *out, const float *in, int nx, int ny)
{
    unsigned gx = gridDim.x, gy = gridDim.y;
    unsigned b = blockIdx.x + gx * blockIdx.y;
    unsigned block_x = b % gx;
    unsigned block_y = (b / gx + block_x) % gy;

    unsigned c = block_x * blockDim.x + threadIdx.x, r = block_y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r <= (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];   /* BUG: <= */
}
