/* Lesson 05 exercise: choose the shape of your warps.
 *
 * Goal: a naive transpose (one element per thread, no shared memory) faster than NaiveRow in its
 * best block shape.  The checker's test: yours at 1.10x or more the speed of the faster NaiveRow,
 * in 32x8 or 8x32 blocks, that it times beside yours in the same run (1.10x leaves room for
 * noise).  The README's exercise 4 states the same goal.
 *
 * Constraints: 1-D blocks of PATCH_THREADS = 256 threads; each block transposes one tile of
 * TILE_H rows x TILE_W columns of the input (TILE_W * TILE_H = 256), one element per thread; the
 * kernel below is given.  What you choose is the tile and the map: which element of the tile
 * thread t moves.  Threads 32w .. 32w+31 form warp w, so the map decides the shape of every warp,
 * hence the sectors its load and its store touch, and which warps share a sector.
 *
 * Think before you write (experiment 1 and the sector arithmetic of the README):
 *   - 32 floats on 32 different rows touch 32 sectors; 8 neighbouring floats fill one.  What is
 *     the fewest sectors a warp's load + store can touch?  Can both sides be whole sectors?
 *   - If one side must use only part of each sector, experiment 1 says which side it should be,
 *     the loads or the stores: why (the README's What it means, point 1)?  (NaiveRow and
 *     NaiveCol touch the same 36 sectors per warp.)
 *   - Which warps of your block read or write the other part of those sectors?
 * The checker prints, from your map, the sectors per warp on each side and the lines per block, and
 * how much of them is used, before it times your kernel against NaiveRow and NaiveCol.  Predict its
 * numbers first (the README's exercise 4: the lines, and whether yours beats NaiveCol 8x32).
 *
 * TODO 1: choose the tile.  TODO 2: write patch_map.  Then `make exercise`. */
#include "exercise.h"

#define TILE_W 32 /* TODO 1: columns of the input per tile */
#define TILE_H 8  /* TODO 1: rows of the input per tile; TILE_W * TILE_H == PATCH_THREADS */
static_assert(TILE_W * TILE_H == PATCH_THREADS, "a tile has one element per thread");

/* TODO 2: thread t (0 .. 255) of the block -> row *dr (0 .. TILE_H-1) and column *dc
 * (0 .. TILE_W-1) of the tile; every element of the tile exactly once. */
__host__ __device__ static inline void patch_map(int t, int *dr, int *dc)
{
    (void)t;
    *dr = 0; /* TODO */
    *dc = 0; /* TODO */
}

/* ---- given: what the checker reads, and the kernel (no need to change them) ---------------- */
const int patch_tile_w = TILE_W, patch_tile_h = TILE_H;
void patch_map_host(int t, int *dr, int *dc) { patch_map(t, dr, dc); }

__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny)
{
    int dr, dc;
    patch_map((int)threadIdx.x, &dr, &dc);
    size_t r = (size_t)blockIdx.y * TILE_H + (size_t)dr, c = (size_t)blockIdx.x * TILE_W + (size_t)dc;
    if (r < (size_t)ny && c < (size_t)nx) out[c * (size_t)ny + r] = in[r * (size_t)nx + c];
}
