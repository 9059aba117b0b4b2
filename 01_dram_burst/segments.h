/* Lesson 01: where the segment copies read (the model behind kernels.cuh's copy_segment_per_line
 * and copy_segment_per_permuted_line).  Plain C99, so that tests/test_dram_burst.c checks on the
 * CPU the very index the GPU computes: the kernels (device) and dram_burst.cu's CPU references
 * (host) both call these functions.
 *
 * The caches keep memory in 128-byte lines of four 32-byte sectors; a line holds LINE_FLOATS
 * floats.  A segment is S bytes (S a power of two, 4 to 128: f = S / 4 floats), and segment k
 * sits at the start of a line of its own, so two segments never share a sector or a line.
 * Element i of the copy is float i % f of segment k = i / f (f is a power of two: the division is
 * a shift).
 *   Experiment 2 (segment_per_line_index): segment k at the start of line k, the lines in order,
 *     so a warp's 32 floats are S bytes from each of 128 / S consecutive lines.
 *   Experiment 3 (In depth, permuted_line_index): segment k at the start of line
 *     (k x mult) mod nlines, nlines a power of two and mult odd, so a permutation of the lines.
 *     mult = 1 is experiment 2's order (the same addresses); a large mult puts neighbouring
 *     segments far apart.  Both orders read the same lines (all of them when the number of
 *     segments is a power of two, as at the timed sizes), so the same bytes and the same sectors:
 *     only the order of the addresses differs. */
#ifndef LESSON01_SEGMENTS_H
#define LESSON01_SEGMENTS_H

#include <stddef.h>

#ifdef __CUDACC__
#define SEGMENTS_HD __host__ __device__
#else
#define SEGMENTS_HD
#endif

#define LINE_FLOATS 32   /* 128 bytes: one line of the L1 and L2 caches */

/* Experiment 2: the float of the source that element i reads, segments of seg_floats floats. */
static inline SEGMENTS_HD size_t segment_per_line_index(size_t i, unsigned seg_floats)
{
    return i / seg_floats * LINE_FLOATS + i % seg_floats;   /* line i / f, float i % f of it */
}

/* Segments in a copy of n floats (one per line: the accesses experiment 3 counts). */
static inline size_t segments_count(size_t n, unsigned seg_floats)
{
    return (n + seg_floats - 1) / seg_floats;
}

/* Floats the source of experiment 2 needs for n floats: up to the last one read, no further. */
static inline size_t segment_per_line_src_floats(size_t n, unsigned seg_floats)
{
    return n ? segment_per_line_index(n - 1, seg_floats) + 1 : 0;
}

/* Experiment 3's order of the lines: segment k in line (k x mult) & mask. */
typedef struct {
    size_t mult;   /* odd: a bijection modulo mask + 1 */
    size_t mask;   /* lines of the source - 1, a power of two - 1 */
} line_order_t;

/* The float of the source that element i reads when the segments' lines follow order o. */
static inline SEGMENTS_HD size_t permuted_line_index(size_t i, unsigned seg_floats, line_order_t o)
{
    return ((i / seg_floats * o.mult) & o.mask) * LINE_FLOATS + i % seg_floats;
}

/* The order of the lines for n floats in segments of seg_floats: scattered (a large odd
 * multiplier, from the golden ratio) or, scattered = 0, sequential (mult = 1: line k). */
static inline line_order_t make_line_order(size_t n, unsigned seg_floats, int scattered)
{
    line_order_t o;
    size_t nseg = segments_count(n, seg_floats), nlines = 1;
    while (nlines < nseg) nlines <<= 1;
    o.mask = nlines - 1;
    o.mult = scattered ? (((size_t)0x9E3779B1u & o.mask) | 1) : 1;
    return o;
}

/* Floats the source of experiment 3 needs (either order): every line of the power of two. */
static inline size_t permuted_line_src_floats(size_t n, unsigned seg_floats)
{
    return (make_line_order(n, seg_floats, 1).mask + 1) * LINE_FLOATS;
}

#endif
