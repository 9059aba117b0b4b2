/* Lesson 01's kernels: what a small scattered read costs.  Read this file first; dram_burst.cu only
 * verifies, times and prints them.
 *
 * Indices.  n, the floats a kernel handles, may pass 2^31 (--size takes any count the GPU memory
 * holds), so every index is a size_t; the grids are 1-D: div_up(n, block) blocks for the copy,
 * div_up(n, block x GATHER_ILP) for the gather (common/grid.cuh).
 * Launch.  Each kernel is followed by its launcher, launch_<kernel>(outputs, inputs, sizes, block,
 * stream): the grid it needs. */
#ifndef LESSON01_KERNELS_CUH
#define LESSON01_KERNELS_CUH

#include <stddef.h>
#include "gather.h"
#include "grid.cuh"
#include "warp.cuh"

/* The simplest copy: one float per thread, consecutive threads on consecutive floats, so every
 * warp reads and writes four whole 32-byte sectors. */
__global__ void copy_one_per_thread(float *out, const float *in, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

/* Grid: div_up(n, block.x) blocks of 1-D blocks. */
static inline void launch_copy_one_per_thread(float *out, const float *in, size_t n, dim3 block, cudaStream_t s)
{
    copy_one_per_thread<<<div_up(n, block.x), block, 0, s>>>(out, in, n);
}

/* The segment gather: element i is read from src[gather_src_index(i, g)] (gather.h: segments of S
 * bytes, each alone in a slot of max(S, 128) bytes, visited in a scattered or sequential order).
 * Each thread loads GATHER_ILP floats, each from some segment: S/4 consecutive threads read one
 * segment, so the instruction count is the same for every S and every order, and only the
 * addresses change.  All the loads are issued before any is used, so several are in flight per
 * thread rather than one (how many bytes in flight DRAM needs is lesson 04's Little's-law
 * measurement).  Each warp adds every group of 32 values so the result can be checked and only one
 * float per 32 is written back: warp_sums[i / 32].  Blocks: a multiple of 32 threads (warp_sum_xor
 * needs whole warps). */
#define GATHER_ILP 4
__global__ void gather_segments(float *warp_sums, const float *src, size_t n, gather_geom_t g)
{
    size_t base = blockIdx.x * (size_t)blockDim.x * GATHER_ILP + threadIdx.x;
    float v[GATHER_ILP];
    int u;
#pragma unroll
    for (u = 0; u < GATHER_ILP; u++) {
        size_t i = base + (size_t)u * blockDim.x;
        v[u] = (i < n) ? src[gather_src_index(i, g)] : 0.0f;
    }
#pragma unroll
    for (u = 0; u < GATHER_ILP; u++) {
        size_t i = base + (size_t)u * blockDim.x;
        float sum = warp_sum_xor(v[u]);  /* every lane takes part, in range or not */
        if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = sum;
    }
}

/* Grid: div_up(n, block.x x GATHER_ILP) blocks of 1-D blocks (block.x a multiple of 32). */
static inline void launch_gather_segments(float *warp_sums, const float *src, size_t n, gather_geom_t g, dim3 block,
                                          cudaStream_t s)
{
    gather_segments<<<div_up(n, block.x * GATHER_ILP), block, 0, s>>>(warp_sums, src, n, g);
}

#endif
