/* Lesson 02 exercise: row sums of a row-major matrix, read the coalesced way. */
#ifndef EXERCISE_H
#define EXERCISE_H

/* YOUR kernel (exercise.cu): sums[r] = m[r][0] + m[r][1] + ... + m[r][cols - 1] for a row-major
 * rows x cols matrix, ONE WARP PER ROW.  Launched with 1-D blocks of a multiple of 32 threads and
 * enough blocks for 32 threads per row: global warp w = (blockIdx.x * blockDim.x + threadIdx.x) / 32
 * owns row w (warps past the last row have nothing to do).  The output comes first, as in every
 * kernel of the course (and in cudaMemcpy). */
__global__ void row_sums_warp_per_row(float *sums, const float *m, int rows, int cols);

#endif
