/* Lesson 08 exercise: the float2 2x2 register-tile transpose. */
#ifndef EXERCISE_H
#define EXERCISE_H

#include "grid.cuh"

/* YOUR kernel (exercise.cu).  `in` has ny rows of nx floats; write out[c * ny + r] = in[r * nx + c]
 * for every element, any nx, ny >= 1.  Thread (x, y) of the grid -- x = blockIdx.x * blockDim.x +
 * threadIdx.x, y likewise -- moves the 2x2 block of rows 2y, 2y+1 and columns 2x, 2x+1 (the parts
 * of it inside the matrix).  Any 2-D block shape; the grid is ceil(nx / (2 blockDim.x)) x
 * ceil(ny / (2 blockDim.y)), as the launch below makes it.  in and out come from cudaMalloc
 * (256-byte aligned). */
__global__ void transpose_reg2x2(float *__restrict__ out, const float *__restrict__ in, int nx, int ny);

/* Its launch, as the checker makes it: `block` threads per block, one thread per 2x2 block. */
static inline void launch_transpose_reg2x2(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    transpose_reg2x2<<<dim3(div_up(nx, 2 * block.x), div_up(ny, 2 * block.y)), block, 0, s>>>(out, in, nx, ny);
}

#endif
