/* Lesson 03: the host-side logic of offset_stride.cu, in a header so that tests/test_offset_stride.c
 * can check it without a GPU: which elements a kernel touches, the byte arithmetic of the model,
 * the exact check of a buffer after one launch, and the --strides / --offsets list parser.
 * Plain C99. */
#ifndef OFFSET_STRIDE_H
#define OFFSET_STRIDE_H

#include <stddef.h>
#include <stdint.h>
#include "rng.h"
#include "verify.h"

enum { OS_OFFSET = 0, OS_STRIDE = 1 };

#define OS_MAX_OFFSET 32
#define OS_MAX_STRIDE 32
#define OS_MAX_LIST 64
/* Elements past the last one a kernel may touch that must come out of it unchanged. */
#define OS_GUARD 64
#define OS_SECTOR 32

/* Does the kernel increment element j?  offset: a[i + o] for i < n; stride: a[i * s] for i < n. */
static inline int os_touched(int kind, int param, size_t n, size_t j)
{
    if (kind == OS_OFFSET) return j >= (size_t)param && j - (size_t)param < n;
    return j % (size_t)param == 0 && j / (size_t)param < n;
}

/* Elements from index 0 to one past the last element the kernel touches (n >= 1). */
static inline size_t os_span(int kind, int param, size_t n)
{
    return kind == OS_OFFSET ? n + (size_t)param : (n - 1) * (size_t)param + 1;
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

/* Parses a comma-separated list of whole numbers in [lo, hi] ("1,2,4,8") into out[0..max).
 * Returns how many, or -1 for an empty list, an empty item, a non-digit, a value out of range or
 * more than max items. */
static inline int os_parse_list(const char *s, int lo, int hi, int *out, int max)
{
    int count = 0;
    if (!s || !*s) return -1;
    for (;;) {
        long v = 0;
        int digits = 0;
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (*s - '0');
            if (v > hi) return -1;
            s++;
            digits++;
        }
        if (!digits || v < lo || count == max) return -1;
        out[count++] = (int)v;
        if (*s == '\0') return count;
        if (*s != ',') return -1;
        s++;
    }
}

static inline void os_mismatch_init(mismatch_t *m)
{
    m->count = 0;
    m->first = 0;
    m->expected = m->got = 0.0;
}

/* After ONE launch on a buffer filled with rng_float(seed, j * comps + c) (element j, component c
 * of comps), element j must hold its initial value, plus 1 if the kernel touches it.  A float of
 * rng_float's grid plus 1 is exact in float, so float, double and float4 results compare exactly.
 * Checks `count` elements starting at element `first` of the buffer; got holds them as read back
 * (count * comps floats, or count doubles when is_f64).  Adds the mismatches to *m (m->first: the
 * element index of the first one).  Equal means equal: a NaN never matches. */
static inline void os_check_elems(int kind, int param, size_t n, size_t first, size_t count, int comps, int is_f64,
                                  const void *got, uint64_t seed, mismatch_t *m)
{
    /* for strides, j = q * param + r is tracked incrementally: no division per element */
    size_t k, q = kind == OS_STRIDE ? first / (size_t)param : 0, r = kind == OS_STRIDE ? first % (size_t)param : 0;
    int c;
    for (k = 0; k < count; k++) {
        size_t j = first + k;
        int touched = kind == OS_STRIDE ? (r == 0 && q < n) : (j >= (size_t)param && j - (size_t)param < n);
        for (c = 0; c < comps; c++) {
            double want = (double)rng_float(seed, (uint64_t)j * comps + (uint64_t)c) + (touched ? 1.0 : 0.0);
            double g = is_f64 ? ((const double *)got)[k] : (double)((const float *)got)[k * comps + c];
            if (!(g == want)) {
                if (m->count == 0) {
                    m->first = j;
                    m->expected = want;
                    m->got = g;
                }
                m->count++;
            }
        }
        if (kind == OS_STRIDE && ++r == (size_t)param) {
            r = 0;
            q++;
        }
    }
}

#endif
