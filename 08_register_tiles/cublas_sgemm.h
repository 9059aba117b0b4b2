/* Lesson 08's FP32 reference row: cuBLAS's SGEMM, for sgemm_regtile.cu (part 2) and sgemm_wmma.cu (part 3). */
#ifndef CUBLAS_SGEMM_H
#define CUBLAS_SGEMM_H

#include "../07_shared_tiled/cublas_check.h"   /* CUBLAS_CHECK, the handle (cublas_rows) */

/* The cublasSgemm row of an SGEMM table (parts 2 and 3): a launcher like the kernels' (gemm_problem.h's
 * gemm_row_t.launch; the block is cuBLAS's business), on the handle of 07_shared_tiled/cublas_check.h.
 * Row-major C = A x B (A M x K, B K x N, C M x N): cuBLAS is column-major, a row-major matrix read column-major is its transpose, and C^T = B^T x A^T, so cuBLAS
 * is asked for the N x M product of B (leading dimension N) and A (leading dimension K) over the same
 * memory. */
static inline void launch_cublas_sgemm(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                       cudaStream_t s)
{
    const float one = 1.0f, zero = 0.0f;
    (void)block;
    CUBLAS_CHECK(cublasSetStream(cublas_rows(), s));
    CUBLAS_CHECK(cublasSgemm(cublas_rows(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
}
#endif
