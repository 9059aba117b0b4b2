/* How many 32-byte sectors one warp instruction touches in the copies and naive transposes: the
 * arithmetic behind lesson 05's block-shape sweep, and what `make profile` measures as sectors per
 * request.  Plain C99 (tests/test_sectors.c checks it); the lesson's .cu includes it too. */
#ifndef LESSON05_SECTORS_H
#define LESSON05_SECTORS_H

#include <stddef.h>

/* The four plain kernels: copy_row and copy_col (../04_transpose_bounds/kernels.cuh), then
 * transpose_naive_row and transpose_naive_col (kernels.cuh).  Their thread (tx, ty) works on element
 * (r, c) of the ny x nx input, read at in[r * nx + c], and writes it at:
 *   KIND_COPY_ROW   (r, c) = (ty, tx), out[r * nx + c]
 *   KIND_COPY_COL   (r, c) = (tx, ty), out[r * nx + c]
 *   KIND_NAIVE_ROW  (r, c) = (ty, tx), out[c * ny + r]
 *   KIND_NAIVE_COL  (r, c) = (tx, ty), out[c * ny + r]                                          */
typedef enum { KIND_COPY_ROW, KIND_COPY_COL, KIND_NAIVE_ROW, KIND_NAIVE_COL } kernel_kind_t;

typedef struct {
    double ld, st;  /* sectors per load / per store instruction, averaged over the block's warps */
} warp_sectors_t;

/* Distinct values among the n numbers s[] (sectors of a warp, or lines of a block: compared
 * pairwise, fine for the few hundred a block has). */
static inline int sectors_distinct(const size_t *s, int n)
{
    int i, j, d = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++)
            if (s[j] == s[i]) break;
        d += (j == i);
    }
    return d;
}

/* Sectors touched by each warp of the block at the origin (threads numbered tx + bx * ty, 32 to a
 * warp, as the hardware forms warps), for a block of bx x by threads on an nx x ny matrix whose
 * base is 32-byte aligned (cudaMalloc aligns to 256).  Lanes outside the matrix touch nothing.
 * Sector of float index i: i * 4 / 32 = i / 8. */
static inline warp_sectors_t warp_sectors(kernel_kind_t kind, int bx, int by, int nx, int ny)
{
    warp_sectors_t w = {0.0, 0.0};
    int threads = bx * by, warps = 0, t0, l;
    for (t0 = 0; t0 < threads; t0 += 32) {
        size_t ld[32], st[32];
        int n = 0;
        for (l = 0; l < 32 && t0 + l < threads; l++) {
            int tx = (t0 + l) % bx, ty = (t0 + l) / bx;
            int cols_x = (kind == KIND_COPY_ROW || kind == KIND_NAIVE_ROW);
            size_t r = (size_t)(cols_x ? ty : tx), c = (size_t)(cols_x ? tx : ty);
            if (r >= (size_t)ny || c >= (size_t)nx) continue;
            ld[n] = (r * (size_t)nx + c) / 8;
            st[n] = (kind == KIND_COPY_ROW || kind == KIND_COPY_COL ? r * (size_t)nx + c : c * (size_t)ny + r) / 8;
            n++;
        }
        if (n == 0) continue;
        w.ld += sectors_distinct(ld, n);
        w.st += sectors_distinct(st, n);
        warps++;
    }
    if (warps) {
        w.ld /= warps;
        w.st /= warps;
    }
    return w;
}

#endif
