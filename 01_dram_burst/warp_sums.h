/* Lesson 01: the CPU reference of a per-warp sum.  Plain C99 (tests/test_dram_burst.c checks it
 * without a GPU); exercise_check.cu checks the exercise's mass sums with it. */
#ifndef LESSON01_WARP_SUMS_H
#define LESSON01_WARP_SUMS_H

#include <stddef.h>

/* Sums of each group of 32 consecutive values, added in exactly the order warp_sum_xor()
 * (common/warp.cuh) adds them on the GPU (butterfly, offsets 16, 8, 4, 2, 1; values past n count
 * as 0), so GPU and CPU results can be compared exactly.  out gets (n + 31) / 32 sums: lane 0's,
 * the one the kernels store. */
static inline void cpu_warp_sums_f32(const float *vals, size_t n, float *out)
{
    size_t w, nw = (n + 31) / 32;
    for (w = 0; w < nw; w++) {
        float v[32], t[32];
        int l, o;
        for (l = 0; l < 32; l++) v[l] = (w * 32 + (size_t)l < n) ? vals[w * 32 + (size_t)l] : 0.0f;
        for (o = 16; o > 0; o >>= 1) {
            for (l = 0; l < 32; l++) t[l] = v[l] + v[l ^ o];
            for (l = 0; l < 32; l++) v[l] = t[l];
        }
        out[w] = v[0];
    }
}

#endif
