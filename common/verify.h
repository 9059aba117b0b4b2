/* Checking GPU results against CPU references.  Plain C99, unit-tested on the CPU. */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Byte written by cudaMemset over outputs before every kernel: 0xFFFFFFFF is a NaN as a float
 * (and as a double), so an element the kernel forgot to write can never pass a comparison. */
#define POISON_BYTE 0xFF

typedef struct {
    size_t count;      /* elements that differ                 */
    size_t first;      /* index of the first one               */
    double expected, got;
} mismatch_t;

/* Compares n floats.  With tol_abs = tol_rel = 0 the values must be equal; otherwise
 * |got - expected| <= tol_abs + tol_rel * |expected|.  A NaN never matches.
 * Fills *m and returns the number of differing elements. */
size_t verify_f32(const float *expected, const float *got, size_t n,
                  double tol_abs, double tol_rel, mismatch_t *m);

/* "3 of 1000 differ; first at [row 2, col 5]: expected 0.25, got nan".
 * width > 0 reports row/column of a row-major matrix with that many columns, 0 a flat index. */
void verify_describe(const mismatch_t *m, size_t n, size_t width, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
