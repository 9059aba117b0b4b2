/* cuBLAS as lessons 07 and 08 use it (08 includes this file, as later lessons include earlier
 * lessons' kernels): CUBLAS_CHECK(call), CHECK for cuBLAS calls (on failure: file:line,
 * the call, cuBLAS's status number and name, then exit 4 like every other CUDA error), the handle,
 * and the launcher of the row-major transpose's table row (08's cuBLAS products have theirs in
 * 08_register_tiles/cublas_sgemm.h and sgemm_wmma.cu, on this handle).  Not in common/: only these
 * two lessons link cuBLAS (LESSON_LIBS = -lcublas). */
#ifndef CUBLAS_CHECK_H
#define CUBLAS_CHECK_H

#include <cublas_v2.h>
#include <stdlib.h>
#include "cuda_check.h"

#define CUBLAS_CHECK(call)                                                                          \
    do {                                                                                            \
        cublasStatus_t cublas_st_ = (call);                                                         \
        if (cublas_st_ != CUBLAS_STATUS_SUCCESS)                                                    \
            check_fail((int)cublas_st_, cublasGetStatusString(cublas_st_), #call, __FILE__, __LINE__); \
    } while (0)

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
        CUBLAS_CHECK(cublasCreate(&cublas_rows_handle));
        /* FP32 math as written (CUBLAS_DEFAULT_MATH: no TF32 Tensor Cores) */
        CUBLAS_CHECK(cublasSetMathMode(cublas_rows_handle, CUBLAS_DEFAULT_MATH));
        atexit(cublas_rows_close);
    }
    return cublas_rows_handle;
}

/* The cublasSgeam row of a transpose table (07 part 3, 08 part 1): a launcher like the kernels'
 * (transpose_matrix.h's trow_t.launch).  The row-major transpose out = in^T (in: ny rows of nx floats, out:
 * nx rows of ny) with cublasSgeam, C = alpha op(A) + beta op(B) on COLUMN-major matrices.  The row-major
 * input read column-major with leading dimension nx is an nx x ny matrix A = in^T; the row-major output
 * read column-major with leading dimension ny is an ny x nx matrix C = out^T.  out = in^T means
 * C = A^T: op(A) = A^T, m = ny rows, n = nx columns, lda = nx, ldc = ny.  With beta = 0, B takes no
 * part; it is still a valid matrix of the right shape (A itself, transposed, ldb = nx), so nothing
 * undefined is read even if the library looked at it. */
static inline void launch_cublas_sgeam(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    const float one = 1.0f, zero = 0.0f;
    (void)block;
    CUBLAS_CHECK(cublasSetStream(cublas_rows(), s));
    CUBLAS_CHECK(cublasSgeam(cublas_rows(), CUBLAS_OP_T, CUBLAS_OP_T, ny, nx, &one, in, nx, &zero, in, nx, out, ny));
}
#endif
