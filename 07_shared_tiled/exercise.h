/* Lesson 07 exercise: a tile transpose without bank conflicts and without padding. */
#ifndef EXERCISE_H
#define EXERCISE_H

#define EX_TILE 32  /* the tile is EX_TILE x EX_TILE floats                 */
#define EX_ROWS 8   /* threads per block: EX_TILE x EX_ROWS, 4 elements each */

/* YOUR kernel (exercise.cu).  `in` has ny rows of nx floats; write out[c * ny + r] = in[r * nx + c]
 * for every element, any nx, ny >= 1.  Launched with blocks of EX_TILE x EX_ROWS threads and a grid
 * of ceil(nx / EX_TILE) x ceil(ny / EX_TILE) blocks; block (bx, by) moves the tile whose top-left
 * input element is row by * EX_TILE, column bx * EX_TILE.  Its shared tile must stay
 * float[EX_TILE][EX_TILE] (4096 bytes): no padding. */
__global__ void transpose_tile_noconflict(float *__restrict__ out, const float *__restrict__ in, int nx, int ny);

#endif
