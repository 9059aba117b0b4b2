/* Lesson 01's kernels: what a small scattered read costs.  Read this file first; dram_burst.cu only
 * verifies, times and prints them.
 *
 * Indices.  n, the floats a kernel handles, may pass 2^31 (--size takes any count the GPU memory
 * holds), so every index is a size_t; the grids are 1-D: div_up(n, block) blocks for the copy,
 * div_up(n, block x GATHER_ILP) for the gather (common/grid.cuh). */
#ifndef LESSON01_KERNELS_CUH
#define LESSON01_KERNELS_CUH

#include <stddef.h>
#include "warp.cuh"

/* `static`: each program compiles its own copy; `unused`: a program that launches only some of
 * them builds without a warning. */

/* The simplest copy: one float per thread, consecutive threads on consecutive floats, so every
 * warp reads and writes four whole 32-byte sectors. */
static __global__ __attribute__((unused)) void copy_one_per_thread(float *dst, const float *src, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

/* Where segment-gather element i lives.  Element i belongs to segment k = i / seg_floats; segment
 * k sits alone in slot (k * mult) mod nslots, slots being max(S, 128) bytes apart.  mult is odd
 * and nslots a power of two, so this is a permutation of the slots, and no two segments ever share
 * a 32-byte sector (or a 128-byte line).  S is a power of two, so the division is a shift.
 * The order is only the choice of mult (experiment 3 compares the two):
 *   scattered  (mult large): neighbouring segments land far apart, almost never in one DRAM row;
 *   sequential (mult = 1):   segment k in slot k, next to segment k + 1, so a warp's segments lie
 *                            in consecutive 128-byte lines, many of them in one DRAM row.
 * Both orders read the same slots (all of them when nslots = number of segments, as at the timed
 * size), so the same bytes, the same sectors and the same lines: only the addresses' order differs. */
typedef struct {
    unsigned seg_shift;    /* log2(S / 4): floats per segment = 1 << seg_shift */
    unsigned slot_floats;  /* max(S, 128) / 4                                  */
    size_t nslots;         /* power of two >= number of segments               */
    size_t mult;           /* odd: a bijection modulo nslots                   */
} gather_geom_t;

static __host__ __device__ __attribute__((unused)) size_t gather_src_index(size_t i, gather_geom_t g)
{
    size_t k = i >> g.seg_shift, within = i & (((size_t)1 << g.seg_shift) - 1);
    size_t slot = (k * g.mult) & (g.nslots - 1);
    return slot * g.slot_floats + within;
}

typedef enum { GATHER_SCATTERED, GATHER_SEQUENTIAL } gather_order_t;

/* The geometry of gathering n floats as segments of seg_bytes (a power of two, 4 to 512) visited
 * in the given order. */
static __attribute__((unused)) gather_geom_t make_geom(size_t n, int seg_bytes, gather_order_t order)
{
    gather_geom_t g;
    size_t nseg, seg_floats = (size_t)seg_bytes / 4;
    g.seg_shift = 0;
    while (((size_t)1 << g.seg_shift) < seg_floats) g.seg_shift++;
    g.slot_floats = (unsigned)((seg_bytes > 128 ? seg_bytes : 128) / 4);
    nseg = (n + seg_floats - 1) / seg_floats;
    g.nslots = 1;
    while (g.nslots < nseg) g.nslots <<= 1;
    g.mult = (size_t)0x9E3779B1u & (g.nslots - 1);
    g.mult |= 1;
    if (order == GATHER_SEQUENTIAL) g.mult = 1;
    return g;
}

/* Each thread loads GATHER_ILP floats, each from some segment: S/4 consecutive threads read one
 * segment, so the instruction count is the same for every S and every order, and only the
 * addresses change.  All the loads are issued before any is used, so several are in flight per
 * thread rather than one (how many bytes in flight DRAM needs is lesson 04's Little's-law
 * measurement).  Each warp adds every group of 32 values so the result can be checked and only one
 * float per 32 is written back.  Blocks: a multiple of 32 threads (warp_sum_xor needs whole warps). */
#define GATHER_ILP 4
static __global__ __attribute__((unused)) void gather_segments(const float *src, float *warp_sums, size_t n,
                                                               gather_geom_t g)
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

#endif
