/* Lesson 03 exercise: every thread handles several elements -- in which order? */
#ifndef EXERCISE_H
#define EXERCISE_H

#include <stddef.h>

/* Elements each thread handles. */
#define ELEMS_PER_THREAD 16

/* YOUR kernel (exercise.cu): a[i] += 1 for every i < n, and nothing else.  Launched with 1-D blocks
 * and ceil(n / (blockDim.x * ELEMS_PER_THREAD)) blocks: block b owns the tile of
 * T = blockDim.x * ELEMS_PER_THREAD elements starting at b * T (the last tile may be cut short by n),
 * and each of its threads increments ELEMS_PER_THREAD elements of that tile. */
__global__ void add_one_interleaved(float *a, size_t n);

#endif
