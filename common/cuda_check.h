/* CHECK every CUDA call, CHECK_LAST after every launch.  On failure: file:line, the call, the
 * error's name and message, then exit 4 (3 when the binary has no code for this GPU). */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif
void check_cuda_fail(cudaError_t err, const char *call, const char *file, int line);
/* CUBLAS_CHECK's (cublas_check.h) failure: file:line, the call, cuBLAS's status number and name, then
 * exit 4.  The status's name comes from the caller, so the library itself needs no cuBLAS. */
void check_cublas_fail(int status, const char *status_name, const char *call, const char *file, int line);
#ifdef __cplusplus
}
#endif

#define CHECK(call)                                                     \
    do {                                                                \
        cudaError_t check_err_ = (call);                                \
        if (check_err_ != cudaSuccess)                                  \
            check_cuda_fail(check_err_, #call, __FILE__, __LINE__);     \
    } while (0)

/* Launch errors (bad configuration, no kernel image) show up here at once; faults inside the
 * kernel show up at the next synchronising CHECK. */
#define CHECK_LAST() CHECK(cudaGetLastError())

#endif
