/* expect: short
 * Correct but no faster than the goal's baseline: the map of NaiveRow with 8x32 blocks.  Each warp
 * covers 8 columns x 4 rows of the input: its load touches 4 whole sectors, its store 8 half-used
 * ones -- the partial side on the stores, where lesson 05 found it costs more.  The tile is 32 rows
 * x 8 columns and thread t takes column t % 8 of row t / 8, exactly the threads of a NaiveRow block
 * of 8x32, so it runs at about 1.00x NaiveRow 8x32 (1.20x for the reference), short of 1.10x. */
#include "exercise.h"

#define TILE_W 8
#define TILE_H 32
static_assert(TILE_W * TILE_H == PATCH_THREADS, "a tile has one element per thread");

__host__ __device__ static inline void patch_map(int t, int *dr, int *dc)
{
    *dr = t / TILE_W;
    *dc = t % TILE_W;
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
