/* Lesson 03 exercise, reference solution: the same tile per block, interleaved inside it.  At
 * step k the warp's lanes touch tile + k * blockDim.x + lane: 32 consecutive floats, four whole
 * sectors per request.  See exercise.cu for the task. */
#include "exercise.h"

__global__ void add_one_interleaved(float *a, size_t n)
{
    size_t tile = blockIdx.x * (size_t)blockDim.x * ELEMS_PER_THREAD;
    int k;
#pragma unroll
    for (k = 0; k < ELEMS_PER_THREAD; k++) {
        size_t i = tile + (size_t)k * blockDim.x + threadIdx.x;
        if (i < n) a[i] += 1.0f;
    }
}
