/* Lesson 05 exercise, reference solution.  See exercise.cu for the task.
 *
 * 12 sectors per warp is the least one element per thread allows (whole sectors on both sides
 * would need 8 x 8 = 64 elements), so one side must be partial.  Put it on the loads: each warp
 * covers 8 rows x 4 columns of the input, so its load touches 8 half sectors (16 of their 32 bytes)
 * and its store 4 whole sectors (8 consecutive floats of 4 output rows).  The other half of each
 * load sector is read by the neighbouring warp of the same block, an L1 hit; no store sector is
 * partly written.  NaiveRow 8x32 touches 12 sectors too, but with the partial side on the stores.
 * The tile is 8 rows x 32 columns, warp w taking columns 4w .. 4w+3: the same warps and tiles as
 * NaiveCol with 8x32 blocks, written as a map. */
#include "exercise.h"

#define TILE_W 32
#define TILE_H 8
static_assert(TILE_W * TILE_H == PATCH_THREADS, "a tile has one element per thread");

__host__ __device__ static inline void patch_map(int t, int *dr, int *dc)
{
    int warp = t / 32, lane = t % 32;
    *dr = lane % 8;            /* 8 rows: the store's 8 consecutive floats, one whole sector */
    *dc = 4 * warp + lane / 8; /* 4 columns: half a load sector, the other half is warp w^1's */
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
