/* Lesson 01: where the segment gather reads (the model behind gather_segments in kernels.cuh).
 * Plain C99, so that tests/test_dram_burst.c checks on the CPU the very index the GPU computes;
 * the kernel (device) and dram_burst.cu's CPU reference (host) both call gather_src_index.
 *
 * Element i of the gather belongs to segment k = i / seg_floats; segment k sits alone in slot
 * (k * mult) mod nslots, slots being max(S, 128) bytes apart.  mult is odd and nslots a power of
 * two, so this is a permutation of the slots, and no two segments ever share a 32-byte sector (or
 * a 128-byte line).  S is a power of two, so the division is a shift.  The order is only the
 * choice of mult (experiment 3 compares the two):
 *   scattered  (mult large): neighbouring segments land far apart, almost never in one DRAM row;
 *   sequential (mult = 1):   segment k in slot k, next to segment k + 1, so a warp's segments lie
 *                            in consecutive 128-byte lines, many of them in one DRAM row.
 * Both orders read the same slots (all of them when nslots = number of segments, as at the timed
 * size), so the same bytes, the same sectors and the same lines: only the addresses' order differs. */
#ifndef LESSON01_GATHER_H
#define LESSON01_GATHER_H

#include <stddef.h>

#ifdef __CUDACC__
#define GATHER_HD __host__ __device__
#else
#define GATHER_HD
#endif

typedef struct {
    unsigned seg_shift;    /* log2(S / 4): floats per segment = 1 << seg_shift */
    unsigned slot_floats;  /* max(S, 128) / 4                                  */
    size_t nslots;         /* power of two >= number of segments               */
    size_t mult;           /* odd: a bijection modulo nslots                   */
} gather_geom_t;

typedef enum { GATHER_SCATTERED, GATHER_SEQUENTIAL } gather_order_t;

/* The float of the source that element i of the gather reads. */
static inline GATHER_HD size_t gather_src_index(size_t i, gather_geom_t g)
{
    size_t k = i >> g.seg_shift, within = i & (((size_t)1 << g.seg_shift) - 1);
    size_t slot = (k * g.mult) & (g.nslots - 1);
    return slot * g.slot_floats + within;
}

/* The geometry of gathering n floats as segments of seg_bytes (a power of two, 4 to 512) visited
 * in the given order. */
static inline gather_geom_t make_geom(size_t n, int seg_bytes, gather_order_t order)
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

/* Floats the source buffer needs for n gathered floats at segment size S (either order: the same
 * slots). */
static inline size_t gather_src_floats(size_t n, int seg_bytes)
{
    gather_geom_t g = make_geom(n, seg_bytes, GATHER_SCATTERED);
    return g.nslots * g.slot_floats;
}

/* Segments of a gather of n floats (the accesses experiment 3 counts). */
static inline size_t gather_segments_count(size_t n, gather_geom_t g)
{
    return (n + ((size_t)1 << g.seg_shift) - 1) >> g.seg_shift;
}

#endif
