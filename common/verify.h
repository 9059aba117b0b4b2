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

/* One line of a --check sweep: "  PASS  what  (size)" or "  FAIL  what  (size): description"
 * on stdout.  Returns 1 for a failure, 0 for a pass, so callers can add up failures. */
int verify_print(FILE *f, const char *what, const char *size, const mismatch_t *m,
                 size_t n, size_t width);

/* The last line of a --check sweep, "OK: 12 of 12 checks passed" or "FAILED: 10 of 12 checks
 * passed", on f.  Returns the program's exit code: EXIT_OK, or EXIT_VERIFY when any check failed. */
int verify_summary(FILE *f, int fails, int checks);

/* CPU transpose of a row-major ny x nx matrix (ny rows, nx columns) into nx x ny:
 * out[c * ny + r] = in[r * nx + c].  Correct for any shape. */
void cpu_transpose_f32(const float *in, float *out, int nx, int ny);

/* Sums of each group of 32 consecutive values, added in exactly the order warp_sum_xor()
 * (warp.cuh) adds them on the GPU (butterfly, offsets 16, 8, 4, 2, 1; values past n count as 0),
 * so GPU and CPU results can be compared exactly.  out gets (n + 31) / 32 sums. */
void cpu_warp_sums_f32(const float *vals, size_t n, float *out);

#ifdef __cplusplus
}
#endif
#endif
