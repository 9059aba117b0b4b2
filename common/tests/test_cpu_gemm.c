/* Unit tests of the CPU matrix-product reference (cpu_gemm.h). */
#include "cpu_gemm.h"
#include "rng.h"
#include "tests/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int failed = 0;
#define EXPECT(c) do { if (!(c)) { printf("  line %d: %s\n", __LINE__, #c); bad = 1; } } while (0)

static void report(const char *name, int bad)
{
    printf("%s %s\n", bad ? "FAIL" : "PASS", name);
    failed |= bad;
}

/* Element (r, c) of A x B summed in float: order 0 k = 0, 1, .. with fmaf; 1 k = K-1, K-2, ..;
 * 2 eight partial sums (k % 8) added at the end; 3 pairwise.  Term `skip` (-1: none) is left out. */
static float float_sum(const float *A, const float *B, int N, int K, int r, int c, int order, int skip)
{
    float s = 0.0f, part[8] = {0};
    int k, j;
    if (order == 3) {
        float *t = malloc(sizeof(float) * K);
        int n = K;
        for (k = 0; k < K; k++) t[k] = k == skip ? 0.0f : A[r * K + k] * B[k * N + c];
        while (n > 1) {
            for (j = 0; j < n / 2; j++) t[j] = t[2 * j] + t[2 * j + 1];
            if (n % 2) t[n / 2] = t[n - 1];
            n = (n + 1) / 2;
        }
        s = t[0];
        free(t);
        return s;
    }
    for (j = 0; j < K; j++) {
        k = order == 1 ? K - 1 - j : j;
        if (k == skip) continue;
        if (order == 2) part[k % 8] = fmaf(A[r * K + k], B[k * N + c], part[k % 8]);
        else s = fmaf(A[r * K + k], B[k * N + c], s);
    }
    if (order == 2)
        for (j = 0; j < 8; j++) s += part[j];
    return s;
}

/* rng_float rounded to the nearest half (11 significant bits), as the Tensor Core inputs are. */
static float rng_half(uint64_t seed, uint64_t i)
{
    float x = rng_float(seed, i);
    return (float)(ldexp(floor(ldexp(fabs(x), 11) + 0.5), -11) * (x < 0 ? -1.0 : 1.0));
}

/* A Tensor Core's sum of element (r, c): per block of n products, the accumulator and the products
 * added exactly (in double: they are exact there), then truncated toward zero to float. */
static float truncating_sum(const float *A, const float *B, int N, int K, int r, int c, int n)
{
    float acc = 0.0f;
    int k0, k;
    for (k0 = 0; k0 < K; k0 += n) {
        double s = acc;
        float f;
        for (k = k0; k < K && k < k0 + n; k++) s += (double)A[r * K + k] * B[k * N + c];
        f = (float)s;
        if (fabs((double)f) > fabs(s)) f = nextafterf(f, 0.0f);
        acc = f;
    }
    return acc;
}

int main(void)
{
    int bad = 0, i, r, c, k, order;
    /* A = [1 2 3; 4 5 6] (2x3), B = [7 8; 9 10; 11 12] (3x2): C = [58 64; 139 154] */
    float A[6] = {1, 2, 3, 4, 5, 6}, B[6] = {7, 8, 9, 10, 11, 12}, C[4] = {58, 64, 139, 154};
    double v, a;
    mismatch_t m;

    cpu_gemm_element(A, B, 2, 3, 1, 0, &v, &a);
    EXPECT(v == 139.0 && a == 139.0);
    B[0] = -7;
    cpu_gemm_element(A, B, 2, 3, 0, 0, &v, &a);
    EXPECT(v == 44.0 && a == 58.0);  /* -7 + 18 + 33 and 7 + 18 + 33 */
    B[0] = 7;
    report("cpu_gemm_element: value and |a||b| sum", bad);

    bad = 0;
    EXPECT(verify_gemm_f32(A, B, C, 2, 2, 3, 0, 1, &m) == 0);
    C[3] = 155;
    EXPECT(verify_gemm_f32(A, B, C, 2, 2, 3, 0, 1, &m) == 1 && m.first == 3 && m.expected == 154.0 && m.got == 155.0);
    EXPECT(verify_gemm_f32(A, B, C, 2, 2, 3, 5, 1, &m) >= 1);  /* sampling always checks corners */
    C[3] = NAN;
    EXPECT(verify_gemm_f32(A, B, C, 2, 2, 3, 0, 1, &m) == 1);
    report("verify_gemm_f32: exact result, wrong element, NaN, sampled corners", bad);

    bad = 0;
    {   /* a float accumulation in a different order passes; a swapped index does not */
        enum { M = 37, N = 29, K = 301 };
        float *X = malloc(sizeof(float) * M * K), *Y = malloc(sizeof(float) * K * N);
        float *Z = malloc(sizeof(float) * M * N), *W = malloc(sizeof(float) * M * N);
        for (i = 0; i < M * K; i++) X[i] = rng_float(5, (uint64_t)i);
        for (i = 0; i < K * N; i++) Y[i] = rng_float(6, (uint64_t)i);
        for (r = 0; r < M; r++)
            for (c = 0; c < N; c++) {
                float s = 0.0f, t = 0.0f;
                for (k = K - 1; k >= 0; k--) s += X[r * K + k] * Y[k * N + c];
                for (k = 0; k < K; k++) t += X[r * K + k] * Y[k * N + ((c + 1) % N)];
                Z[r * N + c] = s;
                W[r * N + c] = t;
            }
        EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m) == 0);
        EXPECT(verify_gemm_f32(X, Y, W, M, N, K, 0, 1, &m) > (size_t)(M * N) / 2);
        EXPECT(verify_gemm_f32(X, Y, W, M, N, K, 50, 9, &m) > 10);
        free(X); free(Y); free(Z); free(W);
    }
    report("verify_gemm_f32: float order passes, wrong column fails", bad);

    bad = 0;   /* min(K, 4 sqrt K) x 2^-23: K up to 16, 4 sqrt K beyond */
    EXPECT(cpu_gemm_tolerance(1) == 1.0 / 8388608.0 && cpu_gemm_tolerance(3) == 3.0 / 8388608.0);
    EXPECT(cpu_gemm_tolerance(16) == 16.0 / 8388608.0);
    EXPECT(cpu_gemm_tolerance(17) == 4.0 * sqrt(17.0) / 8388608.0 && cpu_gemm_tolerance(17) < 17.0 / 8388608.0);
    EXPECT(cpu_gemm_tolerance(4096) == 256.0 / 8388608.0);      /* 4 x 64: 3.05e-5 */
    EXPECT(cpu_gemm_tolerance(16384) == 512.0 / 8388608.0);
    for (k = 2; k <= 16384; k++) EXPECT(cpu_gemm_tolerance(k) >= cpu_gemm_tolerance(k - 1));
    /* at K = 4096 with terms of [-1, 1) x [-1, 1), sum |ab| is about K / 4: the bound is about 0.031,
     * an eighth of an average term (0.25); K x 2^-23 would have been 0.5 */
    EXPECT(cpu_gemm_tolerance(4096) * 1024.0 < 0.032 && cpu_gemm_tolerance(4096) * 1024.0 > 0.031);
    report("cpu_gemm_tolerance: min(K, 4 sqrt K) x 2^-23, growing with K", bad);

    bad = 0;
    {   /* The bound at the timed size, K = 4096, on 8 x 64 elements: float sums in the orders the
         * kernels use pass, with room to spare; a sum without its last term, or without any one
         * term larger than the bound, fails. */
        enum { M = 8, N = 64, K = 4096 };
        float *X = malloc(sizeof(float) * M * K), *Y = malloc(sizeof(float) * K * N), *Z = malloc(sizeof(float) * M * N);
        double v, a, worst = 0.0, tol = cpu_gemm_tolerance(K);
        size_t caught;
        for (i = 0; i < M * K; i++) X[i] = rng_float(11, (uint64_t)i);
        for (i = 0; i < K * N; i++) Y[i] = rng_float(12, (uint64_t)i);
        for (order = 0; order < 4; order++) {
            for (r = 0; r < M; r++)
                for (c = 0; c < N; c++) Z[r * N + c] = float_sum(X, Y, N, K, r, c, order, -1);
            EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m) == 0);
            for (r = 0; r < M; r++)
                for (c = 0; c < N; c++) {
                    cpu_gemm_element(X, Y, N, K, r, c, &v, &a);
                    if (fabs(Z[r * N + c] - v) / (tol * a) > worst) worst = fabs(Z[r * N + c] - v) / (tol * a);
                }
        }
        EXPECT(worst < 0.05);   /* the largest error is under a twentieth of the bound */
        /* the last term dropped everywhere (a k loop one short): most elements fail */
        for (r = 0; r < M; r++)
            for (c = 0; c < N; c++) Z[r * N + c] = float_sum(X, Y, N, K, r, c, 0, K - 1);
        caught = verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m);
        EXPECT(caught > (size_t)(M * N) * 3 / 4);
        EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 50, 3, &m) > 25);   /* the CPU's sample sees it too */
        /* one term dropped from one element: caught whenever the term exceeds twice the bound */
        for (r = 0; r < M; r++)
            for (c = 0; c < N; c++) Z[r * N + c] = float_sum(X, Y, N, K, r, c, 0, -1);
        cpu_gemm_element(X, Y, N, K, 5, 17, &v, &a);
        for (k = 0; k < K; k++)
            if (fabs((double)X[5 * K + k] * Y[k * N + 17]) > 2.0 * tol * a) break;
        EXPECT(k < K);
        Z[5 * N + 17] = float_sum(X, Y, N, K, 5, 17, 0, k);
        EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m) == 1 && m.first == 5 * N + 17);
        free(X); free(Y); free(Z);
    }
    report("bound at K = 4096: float sums in 4 orders pass (< 1/20 of it), a dropped k-term fails", bad);

    bad = 0;
    {   /* Tensor Core sums, modelled as in Fasi et al. 2021: blocks of n products added to the
         * accumulator exactly, the result truncated (toward zero) to float.  They pass at every K. */
        static const int Ks[] = {1, 2, 7, 16, 17, 33, 131, 1024, 4096};
        static const int ns[] = {4, 8, 16};
        int ki, ni, half;
        for (ki = 0; ki < (int)(sizeof Ks / sizeof Ks[0]); ki++)
            for (half = 0; half < 2; half++) {   /* half inputs, as the kernels get; floats, harder */
                int KK = Ks[ki], MM = 4, NN = 32;
                float *X = malloc(sizeof(float) * MM * KK), *Y = malloc(sizeof(float) * KK * NN);
                float *Z = malloc(sizeof(float) * MM * NN);
                for (i = 0; i < MM * KK; i++) X[i] = half ? rng_half(21, (uint64_t)i) : rng_float(21, (uint64_t)i);
                for (i = 0; i < KK * NN; i++) Y[i] = half ? rng_half(22, (uint64_t)i) : rng_float(22, (uint64_t)i);
                for (ni = 0; ni < 3; ni++) {
                    for (r = 0; r < MM; r++)
                        for (c = 0; c < NN; c++) Z[r * NN + c] = truncating_sum(X, Y, NN, KK, r, c, ns[ni]);
                    if (verify_gemm_f32(X, Y, Z, MM, NN, KK, 0, 1, &m) != 0) {
                        printf("  K = %d, blocks of %d, %s inputs: %zu elements outside the bound\n", KK, ns[ni],
                               half ? "half" : "float", m.count);
                        bad = 1;
                    }
                }
                free(X); free(Y); free(Z);
            }
    }
    report("bound: truncating block sums (a Tensor Core model, n = 4, 8, 16) pass from K = 1 to 4096", bad);

    bad = 0;
    {   /* small odd shapes: a missing term or a NaN tile is caught everywhere */
        enum { M = 70, N = 67, K = 3 };
        float X[M * K], Y[K * N], *Z = malloc(sizeof(float) * M * N);
        for (i = 0; i < M * K; i++) X[i] = rng_float(31, (uint64_t)i);
        for (i = 0; i < K * N; i++) Y[i] = rng_float(32, (uint64_t)i);
        for (r = 0; r < M; r++)
            for (c = 0; c < N; c++) Z[r * N + c] = float_sum(X, Y, N, K, r, c, 0, K - 1);
        EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m) == (size_t)(M * N));
        for (r = 0; r < M; r++)
            for (c = 0; c < N; c++) Z[r * N + c] = float_sum(X, Y, N, K, r, c, 1, -1);
        EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m) == 0);
        for (r = 0; r < 64; r++)
            for (c = 3; c < 67; c++) Z[r * N + c] = NAN;   /* a 64x64 tile never written */
        EXPECT(verify_gemm_f32(X, Y, Z, M, N, K, 0, 1, &m) == 64 * 64 && m.first == 3);
        free(Z);
    }
    report("bound at K = 3: a dropped k-term fails in every element, a NaN tile in all of its", bad);

    bad = 0;
    {
        int r2, c2;
        cpu_gemm_sample_at(5, 7, 1, 0, &r, &c);
        EXPECT(r == 0 && c == 0);
        cpu_gemm_sample_at(5, 7, 1, 1, &r, &c);
        EXPECT(r == 0 && c == 6);
        cpu_gemm_sample_at(5, 7, 1, 2, &r, &c);
        EXPECT(r == 4 && c == 0);
        cpu_gemm_sample_at(5, 7, 1, 3, &r, &c);
        EXPECT(r == 4 && c == 6);
        for (i = 4; i < 1000; i++) {
            cpu_gemm_sample_at(4096, 4095, 9, (size_t)i, &r, &c);
            cpu_gemm_sample_at(4096, 4095, 9, (size_t)i, &r2, &c2);
            EXPECT(r >= 0 && r < 4096 && c >= 0 && c < 4095 && r == r2 && c == c2);
        }
    }
    report("cpu_gemm_sample_at: the corners first, then positions inside C, the same every time", bad);
    return failed;
}
