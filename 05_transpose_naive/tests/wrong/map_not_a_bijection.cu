/* expect: wrong "both get"
 * A map that is not a bijection: the column is 4 * warp + lane / 16 instead of lane / 8, so lanes 0
 * and 8 of a warp (and every such pair) get the same element of the tile, and columns 4w + 2 and
 * 4w + 3 get none.  Two threads would write one element and some elements never be written; the
 * checker's map check finds it before any launch ("threads 0 and 8 both get (row 0, column 0)"). */
#include "exercise.h"

#define TILE_W 32
#define TILE_H 8
static_assert(TILE_W * TILE_H == PATCH_THREADS, "a tile has one element per thread");

__host__ __device__ static inline void patch_map(int t, int *dr, int *dc)
{
    int warp = t / 32, lane = t % 32;
    *dr = lane % 8;
    *dc = 4 * warp + lane / 16;   /* BUG: lane / 8 */
}

const int patch_tile_w = TILE_W, patch_tile_h = TILE_H;
void patch_map_host(int t, int *dr, int *dc) { patch_map(t, dr, dc); }

__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny)
{
    int dr, dc;
    patch_map((int)threadIdx.x, &dr, &dc);
    size_t r = (size_t)blockIdx.y * TILE_H + (size_t)dr, c = (size_t)blockIdx.x * TILE_W + (size_t)dc;
    if (r < (size_t)ny && c < (size_t)nx) out[c * (size_t)ny + r] = in[r * (size_t)nx + c];
}
