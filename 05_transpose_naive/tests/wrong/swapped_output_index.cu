/* expect: wrong "differ"
 * Swapped indices in the output: out[r * nx + c], the input's own layout (r and c swapped, and nx
 * where the output's row length ny belongs), so the kernel copies instead of transposing.  Right
 * only where the two layouts agree (1x1, one row, one column); at 8x4 the comparison reports
 * elements that differ.  Every index stays inside the matrix.  (The other swap, out[c * nx + r],
 * would write up to nx * nx floats -- gigabytes past the output at 40009x1, beyond any guard zone:
 * the GPU would fault, and a fault is not a verdict.)  The map is the reference's. */
#include "exercise.h"

#define TILE_W 32
#define TILE_H 8
static_assert(TILE_W * TILE_H == PATCH_THREADS, "a tile has one element per thread");

__host__ __device__ static inline void patch_map(int t, int *dr, int *dc)
{
    int warp = t / 32, lane = t % 32;
    *dr = lane % 8;
    *dc = 4 * warp + lane / 8;
}

const int patch_tile_w = TILE_W, patch_tile_h = TILE_H;
void patch_map_host(int t, int *dr, int *dc) { patch_map(t, dr, dc); }

__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny)
{
    int dr, dc;
    patch_map((int)threadIdx.x, &dr, &dc);
    size_t r = (size_t)blockIdx.y * TILE_H + (size_t)dr, c = (size_t)blockIdx.x * TILE_W + (size_t)dc;
    if (r < (size_t)ny && c < (size_t)nx) out[r * (size_t)nx + c] = in[r * (size_t)nx + c];   /* BUG: not c * ny + r */
}
