/* CHECK every CUDA call, CHECK_LAST after every launch.  On failure: file:line, the call, the
 * error's name and message, then exit 4 (3 when the binary has no code for this GPU). */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The failure of CHECK (cublas_name NULL: code is the cudaError_t) or of CUBLAS_CHECK (the cuBLAS lessons' cublas_check.h:
 * code is cuBLAS's status and cublas_name its name, from the caller, so that the library itself needs
 * no cuBLAS; file:line, the call, the status's number and name, then exit 4). */
void check_fail(int code, const char *cublas_name, const char *call, const char *file, int line);
#ifdef __cplusplus
}
#endif

#define CHECK(call)                                                     \
    do {                                                                \
        cudaError_t check_err_ = (call);                                \
        if (check_err_ != cudaSuccess)                                  \
            check_fail(check_err_, NULL, #call, __FILE__, __LINE__);    \
    } while (0)

/* Launch errors (bad configuration, no kernel image) show up here at once; faults inside the
 * kernel show up at the next synchronising CHECK. */
#define CHECK_LAST() CHECK(cudaGetLastError())

#endif
