/* Lesson 06 exercise: a diagonal block order that is right for every grid. */
#ifndef EXERCISE_H
#define EXERCISE_H

/* YOUR kernel (exercise.cu): NaiveRow with the blocks taking their tiles in diagonal order (or, in
 * the exercise's optional step 4, in an order of your own).
 * Launched with 2-D blocks of any shape on the 2-D grid (ceil(nx / blockDim.x), ceil(ny / blockDim.y))
 * (the checker keeps that at most 65535 high); the tile (x, y) a block takes covers columns
 * x * blockDim.x ... and rows y * blockDim.y ... of the ny x nx input, and every tile of the grid
 * must be taken by exactly one block: out[c * ny + r] = in[r * nx + c] for every r < ny, c < nx. */
__global__ void transpose_diagonal_2d(float *out, const float *in, int nx, int ny);

#endif
