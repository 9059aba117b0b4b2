/* Unit tests of the CPU matrix-product reference (cpu_gemm.h). */
#include "cpu_gemm.h"
#include "rng.h"

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

int main(void)
{
    int bad = 0, i, r, c, k;
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
    EXPECT(cpu_gemm_tolerance(4096) == 4096.0 / 8388608.0);
    report("verify_gemm_f32: float order passes, wrong column fails; tolerance", bad);
    return failed;
}
