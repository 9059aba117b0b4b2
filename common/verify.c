/* Result checking (see verify.h). */
#include "verify.h"
#include "tests/internal.h"

#include <math.h>

size_t verify_f32(const float *expected, const float *got, size_t n,
                  double tol_abs, double tol_rel, mismatch_t *m)
{
    size_t i;
    m->count = 0;
    m->first = 0;
    m->expected = m->got = 0.0;
    for (i = 0; i < n; i++) {
        double e = expected[i], g = got[i];
        int ok;
        if (isnan(e) || isnan(g)) ok = 0;
        else if (tol_abs == 0.0 && tol_rel == 0.0) ok = (e == g);
        else ok = fabs(g - e) <= tol_abs + tol_rel * fabs(e);
        if (!ok) {
            if (m->count == 0) {
                m->first = i;
                m->expected = e;
                m->got = g;
            }
            m->count++;
        }
    }
    return m->count;
}

void verify_describe(const mismatch_t *m, size_t n, size_t width, char *buf, size_t len)
{
    if (m->count == 0) {
        snprintf(buf, len, "all %zu elements match", n);
    } else if (width > 0) {
        snprintf(buf, len, "%zu of %zu differ; first at [row %zu, col %zu]: expected %.9g, got %.9g",
                 m->count, n, m->first / width, m->first % width, m->expected, m->got);
    } else {
        snprintf(buf, len, "%zu of %zu differ; first at [%zu]: expected %.9g, got %.9g",
                 m->count, n, m->first, m->expected, m->got);
    }
}

int verify_print(FILE *f, const char *what, const char *size, const mismatch_t *m,
                 size_t n, size_t width)
{
    char d[200];
    if (m->count == 0) {
        fprintf(f, "  PASS  %-28s %s\n", what, size);
        return 0;
    }
    verify_describe(m, n, width, d, sizeof d);
    fprintf(f, "  FAIL  %-28s %s: %s\n", what, size, d);
    return 1;
}

void cpu_transpose_f32(const float *in, float *out, int nx, int ny)
{
    size_t r, c;
    for (r = 0; r < (size_t)ny; r++)
        for (c = 0; c < (size_t)nx; c++)
            out[c * (size_t)ny + r] = in[r * (size_t)nx + c];
}

int verify_summary(FILE *f, int fails, int checks)
{
    fprintf(f, "%s: %d of %d checks passed\n", fails ? "FAILED" : "OK", checks - fails, checks);
    return fails ? EXIT_VERIFY : EXIT_OK;
}
