/* Lesson 01 exercise: the mass of many particles, stored two ways. */
#ifndef EXERCISE_H
#define EXERCISE_H

#include <stddef.h>

/* Array of structures: one particle is 8 floats = 32 bytes = exactly one sector. */
typedef struct {
    float x, y, z, vx, vy, vz, mass, charge;
} particle_t;

/* YOUR kernel (exercise.cu): per-warp sums of the masses, read from a structure of arrays where
 * mass[i] is the mass of particle i.  Launched with 1-D blocks of a multiple of 32 threads and
 * enough blocks for one thread per particle; warp_sums[w] = sum of mass[32w .. 32w+31].  The output
 * comes first, as in every kernel of the course (and in cudaMemcpy). */
__global__ void mass_sums_soa(float *warp_sums, const float *mass, size_t n);

#endif
