/* cuBLAS as lesson 08 uses it: CUBLAS_CHECK(call), CHECK for cuBLAS calls (on failure: file:line,
 * the call, cuBLAS's status number and name, then exit 4 like every other CUDA error), and the
 * row-major FP32 product.  Header-only so that lessons without cuBLAS need not link it. */
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

/* Row-major C = A x B (A M x K, B K x N, C M x N, floats) with cublasSgemm.  cuBLAS is column-major;
 * a row-major matrix read column-major is its transpose, and C^T = B^T x A^T, so cuBLAS is asked for
 * the N x M product of B (leading dimension N) and A (leading dimension K) over the same memory. */
static inline void cublas_sgemm_row_major(cublasHandle_t h, int M, int N, int K, const float *A, const float *B,
                                          float *C)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
}

#endif
