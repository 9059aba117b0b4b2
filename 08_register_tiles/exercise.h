/* Lesson 08 exercise: the float2 2x2 register-tile transpose. */
#ifndef EXERCISE_H
#define EXERCISE_H

/* YOUR kernel (exercise.cu).  `in` has ny rows of nx floats; write out[c * ny + r] = in[r * nx + c]
 * for every element, any nx, ny >= 1.  Thread (x, y) of the grid -- x = blockIdx.x * blockDim.x +
 * threadIdx.x, y likewise -- moves the 2x2 block of rows 2y, 2y+1 and columns 2x, 2x+1 (the parts
 * of it inside the matrix).  Any 2-D block shape; the grid is ceil(nx / (2 blockDim.x)) x
 * ceil(ny / (2 blockDim.y)).  in and out come from cudaMalloc (256-byte aligned). */
__global__ void transpose_reg2x2(const float *__restrict__ in, float *__restrict__ out, int nx, int ny);

#endif
