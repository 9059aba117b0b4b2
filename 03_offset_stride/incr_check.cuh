/* Lesson 03: the check of a kernel that adds 1 in place to part of a buffer (the offset and stride
 * kernels of offset_stride.cu, the exercise's increments): the buffer is filled with known values
 * (incr_fill), the kernel runs once, and EVERY value of the buffer is compared on the GPU with what
 * it must hold (incr_compare: offset_stride.h's incr_expected) -- a buffer of several GiB is checked
 * in milliseconds, where reading it back to the host would take seconds.
 *
 * Harness, not lesson content: each program includes this file once (offset_stride.cu, and
 * exercise_check.cu for the checker). */
#ifndef LESSON03_INCR_CHECK_CUH
#define LESSON03_INCR_CHECK_CUH

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cuda_check.h"
#include "gpu.h"
#include "offset_stride.h"
#include "rng.h"
#include "verify.h"

/* d[j] = rng_float(seed, j) as a double for j < n: gpu_fill_random_f32's double twin. */
__global__ void fill_random_f64(double *d, size_t n, uint64_t seed)
{
    size_t j;
    for (j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
        d[j] = (double)rng_float(seed, j);
}

static inline void gpu_fill_random_f64(double *d, size_t n, uint64_t seed)
{
    if (n == 0) return;
    fill_random_f64<<<1024, 256, 0, gpu_stream()>>>(d, n, seed);
    CHECK_LAST();
}

/* The values of ic's buffer: one per float (comps per element), or one per double. */
static inline size_t incr_values(const incr_check_t *ic) { return ic->f64 ? ic->elems : ic->elems * (size_t)ic->comps; }

/* Before the launch: every value of the buffer from its rng stream. */
static inline void incr_fill(const incr_check_t *ic)
{
    if (ic->f64) gpu_fill_random_f64((double *)ic->buf, ic->elems, ic->seed);
    else gpu_fill_random_f32((float *)ic->buf, incr_values(ic), ic->seed);
}

/* What the comparison found: [0] how many values differ, [1] the index of the first (lowest). */
__device__ unsigned long long incr_found[2];

/* Every value of the buffer against incr_expected, grid-stride.  Atomics only where a value differs,
 * so a correct buffer costs one read of it. */
__global__ void incr_compare_values(incr_check_t ic, size_t nvals)
{
    size_t v;
    for (v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < nvals; v += (size_t)gridDim.x * blockDim.x) {
        double got = ic.f64 ? ((const double *)ic.buf)[v] : (double)((const float *)ic.buf)[v];
        if (!(got == incr_expected(ic, v))) {   /* a NaN never matches */
            atomicAdd(&incr_found[0], 1ull);
            atomicMin(&incr_found[1], (unsigned long long)v);
        }
    }
}

/* After the launch: every value compared on the GPU.  Fills *m (m->first: the ELEMENT of the first
 * differing value, with that value expected and got; verify_describe's "of n" is ic->elems) and
 * returns the number of values that differ. */
static inline size_t incr_compare(const incr_check_t *ic, mismatch_t *m)
{
    size_t nvals = incr_values(ic);
    unsigned long long found[2] = {0ull, ~0ull};
    /* gpu_stream() synchronises with the default stream: these copies order with its kernels */
    CHECK(cudaMemcpyToSymbol(incr_found, found, sizeof found));
    incr_compare_values<<<2048, 256, 0, gpu_stream()>>>(*ic, nvals);
    CHECK_LAST();
    CHECK(cudaMemcpyFromSymbol(found, incr_found, sizeof found));
    memset(m, 0, sizeof *m);
    if (found[0]) {
        size_t v = (size_t)found[1];
        m->count = (size_t)found[0];
        m->first = ic->f64 ? v : v / (size_t)ic->comps;
        m->expected = incr_expected(*ic, v);
        if (ic->f64) {
            CHECK(cudaMemcpy(&m->got, (const double *)ic->buf + v, sizeof(double), cudaMemcpyDeviceToHost));
        } else {
            float g;
            CHECK(cudaMemcpy(&g, (const float *)ic->buf + v, sizeof g, cudaMemcpyDeviceToHost));
            m->got = g;
        }
    }
    return m->count;
}

#endif
