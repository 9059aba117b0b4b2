/* Lesson 05 exercise: choose the shape of your warps. */
#ifndef EXERCISE_H
#define EXERCISE_H

#define PATCH_TILE_W 32    /* columns of the input one block transposes */
#define PATCH_TILE_H 8     /* rows of the input one block transposes    */
#define PATCH_THREADS 256  /* threads per block, a 1-D block: 8 warps   */

/* YOUR kernel (exercise.cu).  Launched with 1-D blocks of PATCH_THREADS threads and the grid
 * (ceil(nx / PATCH_TILE_W), ceil(ny / PATCH_TILE_H)): block (blockIdx.x, blockIdx.y) transposes the
 * PATCH_TILE_H x PATCH_TILE_W tile of `in` whose top-left element is (row PATCH_TILE_H * blockIdx.y,
 * column PATCH_TILE_W * blockIdx.x), one element per thread: out[c * ny + r] = in[r * nx + c] for
 * every (r, c) of the tile that lies inside the ny x nx matrix. */
__global__ void transpose_warp_patch(float *out, const float *in, int nx, int ny);

#endif
