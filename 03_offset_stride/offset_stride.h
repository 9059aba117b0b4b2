/* Lesson 03: the host-side logic of offset_stride.cu, in a header so that tests/test_offset_stride.c
 * can check it without a GPU: which elements a kernel touches and what the buffer must hold after
 * it (incr_check.cuh compares the whole buffer on the GPU with incr_expected), and the byte
 * arithmetic of the model.  Plain C99; incr_touched and incr_expected are device code too, so the
 * host tests check the very rule the GPU applies. */
#ifndef OFFSET_STRIDE_H
#define OFFSET_STRIDE_H

#include <stddef.h>
#include <stdint.h>
#include "rng.h"

/* incr_touched and incr_expected compile for the GPU too under nvcc (plain C functions for gcc) */
#ifdef __CUDACC__
#define OS_HD __host__ __device__
#else
#define OS_HD
#endif

/* ---- in-place increments, every value checked ------------------------------------------------ */

/* A device buffer of `elems` elements -- `comps` floats each (1: float, 4: float4), or with f64 one
 * double -- holds rng_float(seed, v) at value v = element * comps + component before the launch
 * (incr_fill).  The kernel must add 1 to every value of the elements first + k * step, k < count,
 * and leave every other value as it was. */
typedef struct {
    void *buf;
    size_t elems;
    int comps, f64;
    size_t first, step, count;
    uint64_t seed;
} incr_check_t;

/* Is element j one the kernel adds 1 to? */
static inline OS_HD int incr_touched(size_t j, size_t first, size_t step, size_t count)
{
    size_t d = j - first;
    return j >= first && d % step == 0 && d / step < count;
}

/* The value v (a float, or a double with f64) must hold after the launch.  rng_float's values lie on
 * a grid of 2^-23 in [-1, 1), so value + 1 is exact in float: the comparison is equality. */
static inline OS_HD double incr_expected(incr_check_t ic, size_t v)
{
    size_t j = ic.f64 ? v : v / (size_t)ic.comps;
    return (double)rng_float(ic.seed, (uint64_t)v) + (incr_touched(j, ic.first, ic.step, ic.count) ? 1.0 : 0.0);
}

/* ---- the offset and stride points ------------------------------------------------------------ */

enum { OS_OFFSET = 0, OS_STRIDE = 1 };

#define OS_MAX_OFFSET 32
#define OS_MAX_STRIDE 32
/* Elements past the last one a kernel may touch that must come out of it unchanged. */
#define OS_GUARD 64
#define OS_SECTOR 32

/* Elements from index 0 to one past the last element the kernel touches (n >= 1). */
static inline size_t os_span(int kind, int param, size_t n)
{
    return kind == OS_OFFSET ? n + (size_t)param : (n - 1) * (size_t)param + 1;
}

/* The check of one launch of a[i + o] += 1 or a[i * s] += 1 for i < n on buf, elements of comps
 * floats (or doubles with f64): the whole span and the guard past it, filled with rng stream seed;
 * offset o touches elements o, o + 1, ..., stride s elements 0, s, 2s, ... */
static inline incr_check_t os_check_of(void *buf, int kind, int param, size_t n, int comps, int f64, uint64_t seed)
{
    incr_check_t ic;
    ic.buf = buf;
    ic.elems = os_span(kind, param, n) + OS_GUARD;
    ic.comps = comps;
    ic.f64 = f64;
    ic.first = kind == OS_OFFSET ? (size_t)param : 0;
    ic.step = kind == OS_OFFSET ? 1 : (size_t)param;
    ic.count = n;
    ic.seed = seed;
    return ic;
}

/* --check's planted fault: the touched element nearest the middle of the span, far from its start,
 * its end and the guard (where a check of a few windows would look). */
static inline size_t os_fault_elem(int kind, int param, size_t n)
{
    return kind == OS_OFFSET ? (size_t)param + n / 2 : n / 2 * (size_t)param;
}

/* Bytes a memory level that moves aligned units of g bytes spends per element, for elements of e
 * bytes spaced d = s * e bytes apart (e divides g or g divides e, as for 4, 8, 16 and 32, 64).
 * When d < g every unit between the first and the last element is touched: d bytes per element.
 * Otherwise each element sits in units of its own: ceil(e / g) whole units. */
static inline double os_bytes_per_elem(int e, int s, int g)
{
    long d = (long)s * e;
    if (d < g) return (double)d;
    return (double)g * (double)((e + g - 1) / g);
}

/* The model's DRAM bytes per useful byte of `a[i * s] += 1` (useful: e read + e written):
 * reads fetch units of `fetch` bytes (the L2's fetch granularity on a miss), the write-back moves
 * whole dirty 32-byte sectors. */
static inline double os_dram_per_useful(int e, int s, int fetch)
{
    return (os_bytes_per_elem(e, s, fetch) + os_bytes_per_elem(e, s, OS_SECTOR)) / (2.0 * e);
}

/* Distinct 32-byte sectors the 32 lanes of one warp touch when lane l accesses element
 * first + l * s (elements of e bytes, the buffer 32-byte aligned): the sectors per request that
 * `make profile` counts for that instruction. */
static inline int os_warp_sectors(int e, long first, int s)
{
    long prev_last = -1;
    int l, count = 0;
    for (l = 0; l < 32; l++) {   /* the addresses grow with l, so new sectors appear in order */
        long lo = (first + (long)l * s) * e, a = lo / OS_SECTOR, b = (lo + e - 1) / OS_SECTOR;
        if (a <= prev_last) a = prev_last + 1;
        if (b >= a) count += (int)(b - a + 1);
        if (b > prev_last) prev_last = b;
    }
    return count;
}

#endif
