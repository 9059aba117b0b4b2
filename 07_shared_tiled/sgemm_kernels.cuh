/* Lesson 07, part 2's kernels: shared-memory tiles for reuse, the tiled matrix product (SGEMM).
 * Read this file first; sgemm_tiled.cu only verifies, times and prints them.  In the order the
 * notes present them: the naive product (one element of C per thread, everything through the
 * caches), then the tiled product with tiles of T = 8, 16 and 32.
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.  Every kernel
 * handles any M, N, K: elements of a tile that fall outside a matrix are loaded as zeros (they add
 * nothing), and only threads inside C write.
 *
 * Launch: sgemm_naive on a 2-D grid of div_up(N, bx) x div_up(M, by) blocks of any bx x by threads;
 * sgemm_tiled_T on div_up(N, T) x div_up(M, T) blocks of T x T threads. */
#ifndef LESSON07_SGEMM_KERNELS_CUH
#define LESSON07_SGEMM_KERNELS_CUH

/* The baseline: thread (row, col) computes C[row][col] alone, with the textbook mapping
 * col = blockIdx.x * blockDim.x + threadIdx.x.  In the k loop a warp's B[k * N + col] loads are
 * consecutive (coalesced), and its A[row * K + k] loads name one address per row (a broadcast).
 * Nothing is reused on purpose: each A element is fetched by N threads and each B element by M
 * threads, and only the L1 and L2 caches stand between those fetches and DRAM.
 * Indices fit an int: every dimension is at most 16384, so every product of two is below 2^31. */
__global__ void sgemm_naive(const float *__restrict__ A, const float *__restrict__ B,
                            float *__restrict__ C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    float sum = 0.0f;
    int k;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}

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
 * T is a compile-time constant in each wrapper below, so the inner loop unrolls completely.
 * The shared tiles are flat arrays indexed [y * T + x] because T is a parameter here. */
static __device__ __forceinline__ void sgemm_tiled_body(const float *__restrict__ A,
                                                        const float *__restrict__ B,
                                                        float *__restrict__ C, int M, int N, int K,
                                                        float *As, float *Bs, const int T)
{
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

__global__ void sgemm_tiled_8(const float *__restrict__ A, const float *__restrict__ B,
                              float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[8 * 8], Bs[8 * 8];
    sgemm_tiled_body(A, B, C, M, N, K, As, Bs, 8);
}

__global__ void sgemm_tiled_16(const float *__restrict__ A, const float *__restrict__ B,
                               float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[16 * 16], Bs[16 * 16];
    sgemm_tiled_body(A, B, C, M, N, K, As, Bs, 16);
}

__global__ void sgemm_tiled_32(const float *__restrict__ A, const float *__restrict__ B,
                               float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[32 * 32], Bs[32 * 32];
    sgemm_tiled_body(A, B, C, M, N, K, As, Bs, 32);
}

#endif
