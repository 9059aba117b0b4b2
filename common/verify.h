/* Checking GPU results against CPU references.  Plain C99, unit-tested on the CPU. */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t count;      /* elements that differ                 */
    size_t first;      /* index of the first one               */
    double expected, got;
} mismatch_t;

/* "3 of 1000 differ; first at [row 2, col 5]: expected 0.25, got nan".
 * width > 0 reports row/column of a row-major matrix with that many columns, 0 a flat index. */
void verify_describe(const mismatch_t *m, size_t n, size_t width, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
