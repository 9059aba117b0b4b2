/* When the blocks of a 1-D grid started, against their numbers.  Shared by lesson 06's program (the
 * table "When NaiveRow's blocks started") and its unit test (tests/test_block_starts.c).  Plain C99,
 * host only.
 *
 * started[b] is the GPU clock (ns) at which block b began (kernels.cuh's transpose_row_order_timed).
 * Rank the blocks by that time, ties by block number (blocks stamped in the same tick of the clock
 * count as started in number order); the block that started r-th is |r - b| places out of number
 * order.  block_start_order gives the median, 99th percentile and largest of those displacements, to
 * set beside the blocks that run at once (one wave): displacements under a wave say that blocks start
 * in about number order, each some places early or late inside the wave they start in. */
#ifndef BLOCK_STARTS_H
#define BLOCK_STARTS_H

#include <stdlib.h>

typedef struct {
    unsigned p50, p99, max;   /* |rank - block number|: median, 99th percentile, largest */
} block_start_order_t;

typedef struct {
    unsigned long long t;
    unsigned b;
} block_start_t;

static inline int block_start_cmp(const void *x, const void *y)
{
    const block_start_t *p = (const block_start_t *)x, *q = (const block_start_t *)y;
    if (p->t != q->t) return p->t < q->t ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static inline int block_unsigned_cmp(const void *x, const void *y)
{
    unsigned p = *(const unsigned *)x, q = *(const unsigned *)y;
    return p < q ? -1 : p > q;
}

/* The displacements of n >= 1 blocks' start times.  Returns 0, or 1 when host memory runs out. */
static inline int block_start_order(const unsigned long long *started, unsigned n, block_start_order_t *o)
{
    block_start_t *s = (block_start_t *)malloc((size_t)n * sizeof *s);
    unsigned *d = (unsigned *)malloc((size_t)n * sizeof *d);
    unsigned r;
    if (!s || !d || n == 0) {
        free(s);
        free(d);
        return 1;
    }
    for (r = 0; r < n; r++) {
        s[r].t = started[r];
        s[r].b = r;
    }
    qsort(s, n, sizeof *s, block_start_cmp);
    for (r = 0; r < n; r++) d[r] = s[r].b > r ? s[r].b - r : r - s[r].b;
    qsort(d, n, sizeof *d, block_unsigned_cmp);
    o->p50 = d[(n - 1) / 2];
    o->p99 = d[(unsigned)(((unsigned long long)n * 99 - 1) / 100)];
    o->max = d[n - 1];
    free(s);
    free(d);
    return 0;
}

#endif
