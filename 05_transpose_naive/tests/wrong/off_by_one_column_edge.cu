/* expect: wrong "wrote outside"
 * Off by one at the edge: the kernel tests c <= nx instead of c < nx.  In a partial tile the
 * threads of column nx read in[r * nx + nx], the first element of the next row (real data), and
 * write it to out[nx * ny + r], past the end of the output: into the guard zone behind `out`,
 * which the checker names ("wrote outside `out`") at 8x4, the first shape with two rows and a
 * partial tile.  (At 1x1 the only such thread copies the poison behind `in` onto the poison
 * behind `out`, which no guard can see.)  The map is the reference's. */
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
    if (r < (size_t)ny && c <= (size_t)nx) out[c * (size_t)ny + r] = in[r * (size_t)nx + c];   /* BUG: <= */
}
