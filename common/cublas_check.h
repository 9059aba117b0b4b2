/* cuBLAS as lessons 07 and 08 use it: CUBLAS_CHECK(call), CHECK for cuBLAS calls (on failure: file:line,
 * the call, cuBLAS's status number and name, then exit 4 like every other CUDA error), the handle,
 * the row-major FP32 product and transpose, and the launchers of their table rows.  Header-only so that
 * lessons without cuBLAS need not link it. */
#ifndef CUBLAS_CHECK_H
#define CUBLAS_CHECK_H

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include "exitcodes.h"

#define CUBLAS_CHECK(call)                                                                        \
    do {                                                                                          \
        cublasStatus_t cublas_st_ = (call);                                                       \
        if (cublas_st_ != CUBLAS_STATUS_SUCCESS) {                                                \
            fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d (%s)\n", __FILE__, __LINE__, #call, \
                    (int)cublas_st_, cublasGetStatusString(cublas_st_));                          \
            exit(EXIT_CUDA);                                                                      \
        }                                                                                         \
    } while (0)

/* The handle of the course's cuBLAS rows: created once (creating one costs a good part of a second),
 * FP32 math as written (CUBLAS_DEFAULT_MATH: no TF32 Tensor Cores).  Free with cublasDestroy. */
static inline cublasHandle_t cublas_course_handle(void)
{
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    return h;
}

/* Row-major C = A x B (A M x K, B K x N, C M x N, floats) with cublasSgemm, on stream s.  cuBLAS is
 * column-major; a row-major matrix read column-major is its transpose, and C^T = B^T x A^T, so
 * cuBLAS is asked for the N x M product of B (leading dimension N) and A (leading dimension K) over
 * the same memory. */
static inline void cublas_sgemm_row_major(cublasHandle_t h, cudaStream_t s, float *C, const float *A, const float *B,
                                          int M, int N, int K)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(h, s));
    CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
}

/* The row-major transpose out = in^T (in: ny rows of nx floats, out: nx rows of ny) with
 * cublasSgeam, C = alpha op(A) + beta op(B) on COLUMN-major matrices, on stream s.  The row-major
 * input read column-major with leading dimension nx is an nx x ny matrix A = in^T; the row-major
 * output read column-major with leading dimension ny is an ny x nx matrix C = out^T.  out = in^T
 * means C = A^T: op(A) = A^T, m = ny rows, n = nx columns, lda = nx, ldc = ny.  With beta = 0, B
 * takes no part; it is still a valid matrix of the right shape (A itself, transposed, ldb = nx) so
 * nothing undefined is read even if the library looked at it.  The reference row of the transpose
 * lessons (07 part 3, 08 part 1). */
static inline void cublas_sgeam_transpose(cublasHandle_t h, cudaStream_t s, float *out, const float *in, int nx,
                                          int ny)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSetStream(h, s));
    CUBLAS_CHECK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, ny, nx, &one, in, nx, &zero, in, nx, out, ny));
}

/* The handle of this program's cuBLAS rows: created at the first call (creating one costs a good part
 * of a second), destroyed at exit. */
static cublasHandle_t cublas_rows_handle = NULL;
static inline void cublas_rows_close(void)
{
    /* gpu_finish may have destroyed the stream the handle last ran on: back to the default one */
    if (cublas_rows_handle) cublasSetStream(cublas_rows_handle, 0), cublasDestroy(cublas_rows_handle);
    cublas_rows_handle = NULL;
}
static inline cublasHandle_t cublas_rows(void)
{
    if (!cublas_rows_handle) {
        cublas_rows_handle = cublas_course_handle();
        atexit(cublas_rows_close);
    }
    return cublas_rows_handle;
}

/* The cublasSgemm row of an SGEMM table (08 parts 2 and 3): a launcher like the kernels' (gemm_problem.h's
 * glaunch_t; the block is cuBLAS's business). */
static inline void launch_cublas_sgemm(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                       cudaStream_t s)
{
    (void)block;
    cublas_sgemm_row_major(cublas_rows(), s, C, A, B, M, N, K);
}

/* The cublasSgeam row of a transpose table (07 part 3, 08 part 1): a launcher like the kernels'
 * (transpose_matrix.h's tlaunch_t). */
static inline void launch_cublas_sgeam(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    (void)block;
    cublas_sgeam_transpose(cublas_rows(), s, out, in, nx, ny);
}
#endif
