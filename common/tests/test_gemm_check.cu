/* The product check catches the faults it exists for (needs a GPU; common/test.sh builds and runs it
 * when there is one).  A correct kernel must pass gemm_check; the same kernel with a fault planted
 * on its output must fail it: a 64x64 tile of C left unwritten (an edge or grid mistake), or the
 * last k-term missing from every element (a k loop that stops one short), at small odd shapes and
 * at the 4096^3 of the SGEMM programs.  One "PASS name" / "FAIL name" line per check. */
#include "cuda_check.h"
#include "gemm_problem.h"
#include "grid.cuh"
#include "gpu.h"
#include "verify.h"
#include "tests/internal.h"

#include <stdio.h>
#include <string.h>

/* The plain product: one thread per element of C, k in order. */
__global__ void naive_product(float *C, const float *A, const float *B, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y, k;
    float acc = 0.0f;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = acc;
}

static void launch_correct(float *C, const float *A, const float *B, int M, int N, int K, dim3 block, cudaStream_t s)
{
    (void)block;
    naive_product<<<dim3(div_up(N, 32), div_up(M, 8)), dim3(32, 8), 0, s>>>(C, A, B, M, N, K);
}

/* The tile the first fault leaves unwritten: the one that holds row M / 2 and column N / 3 (inside,
 * away from the corners every CPU sample checks), cut at C's edges; poisoned again after the kernel,
 * as if it had never been written. */
static void launch_tile_unwritten(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                  cudaStream_t s)
{
    int r0 = M / 2 / 64 * 64, c0 = N / 3 / 64 * 64;
    int h = M - r0 < 64 ? M - r0 : 64, w = N - c0 < 64 ? N - c0 : 64;
    launch_correct(C, A, B, M, N, K, block, s);
    CHECK(cudaMemset2DAsync(C + (size_t)r0 * N + c0, (size_t)N * sizeof(float), POISON_BYTE, (size_t)w * sizeof(float),
                            (size_t)h, s));
}

/* C[r][c] -= a_r,kd b_kd,c: the sum without its term kd (to one rounding), in every element. */
__global__ void drop_k_term(float *C, const float *A, const float *B, int M, int N, int K, int kd)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) C[(size_t)row * N + col] -= A[(size_t)row * K + kd] * B[(size_t)kd * N + col];
}

static void launch_last_k_dropped(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                  cudaStream_t s)
{
    launch_correct(C, A, B, M, N, K, block, s);
    drop_k_term<<<dim3(div_up(N, 32), div_up(M, 8)), dim3(32, 8), 0, s>>>(C, A, B, M, N, K, K - 1);
}

int main(void)
{
    static const int shapes[][3] = {{1, 1, 1}, {33, 31, 17}, {127, 129, 131}, {1, 257, 513}, {4096, 4096, 4096}};
    const gemm_row_t rows[3] = {{"correct", launch_correct, NULL, dim3(1)},
                                {"a 64x64 tile of C unwritten", launch_tile_unwritten, NULL, dim3(1)},
                                {"the last k-term dropped", launch_last_k_dropped, NULL, dim3(1)}};
    check_tally_t quiet = {0, 0, NULL};
    gpu_info_t g;
    int s, k, failures = 0;

    gpu_init(&g);   /* exits 3 without a GPU: common/test.sh runs this only with one */
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        gemm_problem_t p;
        gemm_problem_init(&p, shapes[s][0], shapes[s][1], shapes[s][2], 0, 7 + 2 * (uint64_t)s);
        for (k = 0; k < 3; k++) {
            /* the correct kernel must pass (0); each faulty one must fail (1) */
            int bad = gemm_check(&p, &rows[k], "", &quiet), ok = bad == (k != 0);
            printf("%s product check: %s at M=%d N=%d K=%d %s\n", ok ? "PASS" : "FAIL", rows[k].label, shapes[s][0],
                   shapes[s][1], shapes[s][2], k ? "is caught" : "passes");
            failures += !ok;
        }
        gemm_problem_free(&p);
    }
    gpu_finish();
    return failures ? 1 : 0;
}
