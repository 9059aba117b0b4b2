/* CPU matrix-product reference (see cpu_gemm.h). */
#include "cpu_gemm.h"
#include "tests/internal.h"
#include "rng.h"

#include <math.h>

void cpu_gemm_element(const float *A, const float *B, int N, int K, int row, int col,
                      double *value, double *abs_sum)
{
    double v = 0.0, a = 0.0;
    int k;
    for (k = 0; k < K; k++) {
        double p = (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
        v += p;
        a += fabs(p);
    }
    *value = v;
    *abs_sum = a;
}

double cpu_gemm_tolerance(int K)
{
    double k = (double)K, s = 4.0 * sqrt(k);
    return (k < s ? k : s) * ldexp(1.0, -23);
}

void cpu_gemm_sample_at(int M, int N, uint64_t seed, size_t i, int *row, int *col)
{
    if (i < 4) {
        *row = (i & 2) ? M - 1 : 0;
        *col = (i & 1) ? N - 1 : 0;
    } else {
        uint64_t h = rng_mix64(seed ^ rng_mix64((uint64_t)(i - 4)));
        *row = (int)(h % (uint64_t)M);
        *col = (int)((h >> 32) % (uint64_t)N);
    }
}

static void check_one(const float *A, const float *B, const float *got, int N, int K, int r, int c,
                      double tol, mismatch_t *m)
{
    double v, a, g = got[(size_t)r * N + c];
    cpu_gemm_element(A, B, N, K, r, c, &v, &a);
    if (isnan(g) || fabs(g - v) > tol * a + 1e-30) {
        if (m->count == 0) {
            m->first = (size_t)r * N + c;
            m->expected = v;
            m->got = g;
        }
        m->count++;
    }
}

size_t verify_gemm_f32(const float *A, const float *B, const float *got, int M, int N, int K,
                       size_t sample, uint64_t seed, mismatch_t *m)
{
    double tol = cpu_gemm_tolerance(K);
    m->count = 0;
    m->first = 0;
    m->expected = m->got = 0.0;
    if (sample == 0) {
        int r, c;
        for (r = 0; r < M; r++)
            for (c = 0; c < N; c++) check_one(A, B, got, N, K, r, c, tol, m);
    } else {
        size_t s;
        int r, c;
        for (s = 0; s < sample + 4; s++) {
            cpu_gemm_sample_at(M, N, seed, s, &r, &c);
            check_one(A, B, got, N, K, r, c, tol, m);
        }
    }
    return m->count;
}
