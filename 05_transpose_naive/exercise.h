/* Lesson 05 exercise: choose the shape of your warps. */
#ifndef EXERCISE_H
#define EXERCISE_H

#define PATCH_THREADS 256 /* threads per block, a 1-D block: 8 warps */

/* What exercise.cu chooses, as the checker sees it:
 *   patch_tile_w x patch_tile_h  the tile of the input one block transposes (columns x rows),
 *                                patch_tile_w * patch_tile_h == PATCH_THREADS;
 *   patch_map_host               the map the kernel uses (exercise.cu defines both from one
 *                                __host__ __device__ function): thread t (0 .. PATCH_THREADS-1) of a
 *                                block -> row *dr and column *dc inside the tile.
 * The checker launches 1-D blocks of PATCH_THREADS threads on the grid
 * (ceil(nx / patch_tile_w), ceil(ny / patch_tile_h)); it computes from patch_map_host the sectors
 * each warp touches, verifies the kernel against the CPU transpose and times it. */
extern const int patch_tile_w, patch_tile_h;
void patch_map_host(int t, int *dr, int *dc);

/* YOUR kernel (exercise.cu): out[c * ny + r] = in[r * nx + c], one element per thread. */
__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny);

#endif
