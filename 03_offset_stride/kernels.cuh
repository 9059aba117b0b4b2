/* Lesson 03's kernels: a warp's addresses shifted (offset) and spread apart (stride).  Read this file
 * first; offset_stride.cu only verifies, times and prints them.
 *
 * Two classic kernels add 1 to n elements of an array:
 *   offset: a[i + o] += 1, o = 0 .. 32   -- the warp's 32 elements are still consecutive, but
 *                                           start o elements into a 128-byte line;
 *   stride: a[i * s] += 1, s = 1 .. 32   -- consecutive threads are s elements apart, so a warp
 *                                           touches up to 32 sectors and uses a few bytes of each.
 *
 * Launch.  1-D blocks, one element per thread: div_up(n, block) blocks (common/grid.cuh).  Each
 * kernel is followed by its launcher, launch_<kernel>(array, n, offset or stride, block, stream):
 * the array is both what the kernel reads and what it writes.
 * Indices.  n may pass 2^31 (--size takes any count the GPU memory holds), and i * s passes it
 * for the big strides: every index is a size_t. */
#ifndef LESSON03_KERNELS_CUH
#define LESSON03_KERNELS_CUH

#include <stddef.h>
#include "grid.cuh"

/* One element per thread.  With o = 0 a warp's 32 floats fill the 4 sectors of one 128-byte line;
 * with o = 1 they straddle one more sector and one more line (5 sectors in 2 lines). */
__global__ void offset_f32(float *a, size_t n, int offset)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) a[i + offset] += 1.0f;
}

static inline void launch_offset_f32(float *a, size_t n, int offset, dim3 block, cudaStream_t s)
{
    offset_f32<<<div_up(n, block.x), block, 0, s>>>(a, n, offset);
}

/* The same with 8-byte elements: at o = 0 a warp's 256 bytes fill the 8 sectors of two lines. */
__global__ void offset_f64(double *a, size_t n, int offset)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) a[i + offset] += 1.0;
}

static inline void launch_offset_f64(double *a, size_t n, int offset, dim3 block, cudaStream_t s)
{
    offset_f64<<<div_up(n, block.x), block, 0, s>>>(a, n, offset);
}

/* Consecutive threads s elements apart, d = s x 4 bytes: a warp request's 32 lanes span 32 x d
 * bytes, d sectors of 32 bytes (the two 32s cancel), and once d reaches 32 bytes every lane
 * touches a sector of its own and uses only its element of it.  The index is computed in size_t:
 * i * s passes 2^31 for the big strides. */
__global__ void stride_f32(float *a, size_t n, int stride)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) a[i * stride] += 1.0f;
}

static inline void launch_stride_f32(float *a, size_t n, int stride, dim3 block, cudaStream_t s)
{
    stride_f32<<<div_up(n, block.x), block, 0, s>>>(a, n, stride);
}

/* 8-byte elements, d = s x 8: a request touches 8 sectors at s = 1, and a lane has a sector of
 * its own from s = 4 on. */
__global__ void stride_f64(double *a, size_t n, int stride)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) a[i * stride] += 1.0;
}

static inline void launch_stride_f64(double *a, size_t n, int stride, dim3 block, cudaStream_t s)
{
    stride_f64<<<div_up(n, block.x), block, 0, s>>>(a, n, stride);
}

/* 16-byte elements (one 128-bit load and store per thread), d = s x 16: 16 sectors per request
 * at s = 1, and a sector per lane (32 per request) from s = 2 on. */
__global__ void stride_f128(float4 *a, size_t n, int stride)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = a[i * stride];
        v.x += 1.0f;
        v.y += 1.0f;
        v.z += 1.0f;
        v.w += 1.0f;
        a[i * stride] = v;
    }
}

static inline void launch_stride_f128(float4 *a, size_t n, int stride, dim3 block, cudaStream_t s)
{
    stride_f128<<<div_up(n, block.x), block, 0, s>>>(a, n, stride);
}

#endif
