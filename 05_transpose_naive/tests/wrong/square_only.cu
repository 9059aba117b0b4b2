/* expect: wrong "differ"
 * A kernel written for square matrices: it tests both indices against nx, as if ny == nx.  On a
 * tall matrix (31x33, 1x40009) the rows past nx are never written and stay poisoned; on a wide one
 * the threads of rows ny .. ny + 7 of the last partial tile read up to 7 rows past the input (the
 * poison of its guard zone) and write those NaNs over the next output rows.  The comparison
 * reports elements that differ (at 31x33 at the latest).  The map is the reference's. */
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
    if (r < (size_t)nx && c < (size_t)nx) out[c * (size_t)ny + r] = in[r * (size_t)nx + c];   /* BUG: r < nx */
}
