/* Lesson 01's kernels: what a partly used line costs.  Read this file first; dram_burst.cu only
 * verifies, times and prints them.
 *
 * Indices.  n, the floats a kernel copies, may pass 2^31 (--size takes any count the GPU memory
 * holds), so every index is a size_t; every grid is 1-D, div_up(n, block) blocks of one thread per
 * float (common/grid.cuh).
 * Launch.  Each kernel is followed by its launcher, launch_<kernel>(outputs, inputs, sizes, block,
 * stream): the grid it needs. */
#ifndef LESSON01_KERNELS_CUH
#define LESSON01_KERNELS_CUH

#include <stddef.h>
#include "grid.cuh"
#include "segments.h"

/* Experiment 1.  The one-float copy: one float per thread, consecutive threads on consecutive
 * floats, so every warp reads and writes 128 consecutive bytes. */
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

/* Experiment 2.  The first SEG_BYTES bytes of every 128-byte line of `in`, the lines in order,
 * copied to `out` contiguously.  Thread i copies one float: float i % f of line i / f, with
 * f = SEG_BYTES / 4 floats per segment, so out[i] = in[i / f * 32 + i % f] (segments.h's
 * segment_per_line_index; f is a power of two, so the division is a shift).  A warp's stores
 * write 128 consecutive bytes; how many lines and sectors its loads touch is the README's
 * prediction 2.  Below 128 bytes the segments start 128 bytes apart, with gaps between them; at
 * 128 bytes every float of every line is copied: the one-float copy's addresses (experiment 1). */
template <int SEG_BYTES>
__global__ void copy_segment_per_line(float *out, const float *in, size_t n)
{
    static_assert(SEG_BYTES >= 4 && SEG_BYTES <= 128 && (SEG_BYTES & (SEG_BYTES - 1)) == 0,
                  "a segment is a power of two of bytes, 4 to 128: it fits its line");
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[segment_per_line_index(i, SEG_BYTES / 4)];
}

/* Grid: div_up(n, block.x) blocks of 1-D blocks. */
template <int SEG_BYTES>
static inline void launch_copy_segment_per_line(float *out, const float *in, size_t n, dim3 block, cudaStream_t s)
{
    copy_segment_per_line<SEG_BYTES><<<div_up(n, block.x), block, 0, s>>>(out, in, n);
}

/* Experiment 3 (--order; the README's exercise 3).  Experiment 2's copy with the segments'
 * lines taken in the order `order` (segments.h's permuted_line_index): segment k at the start
 * of line (k x order.mult) & order.mask.  mult = 1 reads experiment 2's addresses; a large
 * mult puts neighbouring segments far apart.  Both orders run the same instructions and read the
 * same lines, so the same bytes and the same sectors: only the order of the addresses changes. */
template <int SEG_BYTES>
__global__ void copy_segment_per_permuted_line(float *out, const float *in, size_t n, line_order_t order)
{
    static_assert(SEG_BYTES >= 4 && SEG_BYTES <= 128 && (SEG_BYTES & (SEG_BYTES - 1)) == 0,
                  "a segment is a power of two of bytes, 4 to 128: it fits its line");
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[permuted_line_index(i, SEG_BYTES / 4, order)];
}

/* Grid: div_up(n, block.x) blocks of 1-D blocks. */
template <int SEG_BYTES>
static inline void launch_copy_segment_per_permuted_line(float *out, const float *in, size_t n, line_order_t order,
                                                         dim3 block, cudaStream_t s)
{
    copy_segment_per_permuted_line<SEG_BYTES><<<div_up(n, block.x), block, 0, s>>>(out, in, n, order);
}

#endif
