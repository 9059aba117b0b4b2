/* Lesson 07, part 2's kernels: shared-memory tiles for reuse, the tiled matrix product (SGEMM).
 * Read this file first; sgemm_tiled.cu only verifies, times and prints them.  In the order the
 * notes present them: the naive product, which is lesson 02's matmul_x_along_row (one element of C
 * per thread, everything through the caches; included below), then the tiled product with tiles of
 * T = 8, 16 and 32.
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.  Every kernel
 * handles any M, N, K: elements of a tile that fall outside a matrix are loaded as zeros (they add
 * nothing), and only threads inside C write.  Each kernel is followed by its launcher,
 * launch_<kernel>(C, A, B, M, N, K, block, stream): outputs first, as everywhere in the course.
 *
 * Launch: matmul_x_along_row on a 2-D grid of div_up(N, bx) x div_up(M, by) blocks of any bx x by
 * threads (lesson 02's launch_matmul_x_along_row); sgemm_tiled<T> on div_up(N, T) x div_up(M, T)
 * blocks of T x T threads. */
#ifndef LESSON07_SGEMM_KERNELS_CUH
#define LESSON07_SGEMM_KERNELS_CUH

#include "grid.cuh"
/* The baseline, matmul_x_along_row and launch_matmul_x_along_row: thread (row, col) computes
 * C[row][col] alone, with the textbook mapping col = blockIdx.x * blockDim.x + threadIdx.x.  In the
 * k loop a warp's B[k * N + col] loads are consecutive (coalesced), and its A[row * K + k] loads name
 * one address per row (a broadcast).  Nothing is reused on purpose: each A element is fetched by N
 * threads and each B element by M threads, and only the L1 and L2 caches stand between those
 * fetches and DRAM. */
#include "../02_coalescing/kernels.cuh"

/* The tiled product for a T x T block of threads (T = blockDim.x = blockDim.y).  For each step
 * along k, thread (ty, tx) loads A[row][k0 + tx] into As[ty][tx] and B[k0 + ty][col] into
 * Bs[ty][tx]: the same relative position in both tiles, and consecutive tx on consecutive
 * addresses, so both global loads are coalesced.  After the barrier every thread reads a row of
 * As and a column of Bs: each element loaded from global memory is used T times, from shared
 * memory, so global loads per multiply-add fall from 2 to 2/T.
 * Edges: a tile element outside A or B is stored as 0.0f, which adds exactly nothing, so the inner
 * loop needs no test and K need not be a multiple of T.  Threads outside C still load and reach
 * both barriers (a thread that skipped __syncthreads would hang or corrupt its block); they just
 * do not write.
 * T is a compile-time constant, so the inner loop unrolls completely.  The shared tiles are flat
 * arrays indexed [y * T + x].  Indices fit an int: every dimension is at most GEMM_DIM_MAX = 16384,
 * so every product of two is below 2^31. */
template <int T>
__global__ void sgemm_tiled(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M,
                            int N, int K)
{
    __shared__ float As[T * T], Bs[T * T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0.0f;
    int k0, k;

    for (k0 = 0; k0 < K; k0 += T) {
        As[ty * T + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty * T + tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();   /* the tiles are complete before anyone reads them */
#pragma unroll
        for (k = 0; k < T; k++) sum += As[ty * T + k] * Bs[k * T + tx];
        __syncthreads();   /* everyone is done reading before the next step overwrites them */
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

/* A block of T x T threads per T x T tile of C (the block is the kernel's: `block` is ignored). */
template <int T>
static inline void launch_sgemm_tiled(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                      cudaStream_t s)
{
    (void)block;
    sgemm_tiled<T><<<dim3(div_up(N, T), div_up(M, T)), dim3(T, T), 0, s>>>(C, A, B, M, N, K);
}

#endif
