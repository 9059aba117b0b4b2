/* Lesson 02: the CPU references of coalescing.cu, in a header so that tests/test_coalescing.c can
 * check them without a GPU.  Plain C99.
 *
 * The strip sums add their floats in exactly the order one GPU thread adds them (left to right,
 * starting from 0.0f), so the GPU's results can be compared bit for bit. */
#ifndef COALESCING_H
#define COALESCING_H

#include <math.h>
#include <stddef.h>

/* Each thread of the strip-sum kernels adds up SUM_STRIP consecutive elements of one row or one
 * column (fewer in the last strip).  Whole rows would give only one thread per row: too few
 * threads to keep the memory busy, and the comparison would measure latency, not coalescing. */
#define SUM_STRIP 256

/* Number of strips of `strip` elements that cover `len` elements. */
static inline int strips_of(int len, int strip) { return len / strip + (len % strip != 0); }

/* Row strips of a row-major rows x cols matrix m:
 * out[s * rows + r] = m[r][s*strip] + m[r][s*strip + 1] + ...  (at most strip terms). */
static inline void cpu_row_strip_sums(const float *m, float *out, int rows, int cols, int strip)
{
    int ns = strips_of(cols, strip), r, s, k;
    for (r = 0; r < rows; r++)
        for (s = 0; s < ns; s++) {
            const float *p = m + (size_t)r * cols + (size_t)s * strip;
            int len = cols - s * strip < strip ? cols - s * strip : strip;
            float acc = 0.0f;
            for (k = 0; k < len; k++) acc += p[k];
            out[(size_t)s * rows + r] = acc;
        }
}

/* Column strips: out[s * cols + c] = m[s*strip][c] + m[s*strip + 1][c] + ...  (at most strip
 * terms).  Walks the matrix row by row (cache-friendly) but adds each column's terms in the same
 * order as the GPU thread that owns the column: top to bottom. */
static inline void cpu_col_strip_sums(const float *m, float *out, int rows, int cols, int strip)
{
    int ns = strips_of(rows, strip), r, s, c;
    for (s = 0; s < ns; s++) {
        float *o = out + (size_t)s * cols;
        int end = rows < (s + 1) * strip ? rows : (s + 1) * strip;
        for (c = 0; c < cols; c++) o[c] = 0.0f;
        for (r = s * strip; r < end; r++)
            for (c = 0; c < cols; c++) o[c] += m[(size_t)r * cols + c];
    }
}

/* One SAXPY element as the GPU computes it: a*x + y with a single rounding (fused multiply-add). */
static inline float saxpy_ref(float a, float x, float y) { return fmaf(a, x, y); }

#endif
