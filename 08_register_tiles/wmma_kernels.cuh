/* Lesson 08, part 3's kernels (stretch): Tensor Cores, the matrix product with WMMA, half inputs and
 * float accumulation.  Read this file first; sgemm_wmma.cu only verifies, times and prints them
 * (against cublasGemmEx and cublasSgemm).  In the order the notes present them:
 *   wmma_naive  one warp per 16 x 16 tile of C; its fragments come straight from global memory, so
 *               every warp reads its own strip of A and of B: no reuse between warps.
 *   wmma_tiled  128 x 128 block tile, 8 warps of 64 x 32 (4 x 2 accumulators each); A and B tiles of
 *               BK = 32 staged in padded shared memory and read by every warp of the block.
 *
 * C = A x B, all row-major: A is M x K, B is K x N (both half), C is M x N in float.  Part 2's best
 * kernel keeps the FP32 units busy with an 8 x 8 outer product per thread.  A Tensor Core does a
 * whole small matrix product per instruction: one warp-wide mma multiplies a 16 x 16 tile of A by a
 * 16 x 16 tile of B and adds the result to a 16 x 16 float accumulator, 4096 multiply-adds, where
 * one FFMA instruction is 32.  The price: A and B must be half precision (11 significant bits
 * instead of 24).
 *
 * Both compute any M, N, K: zero-filled guarded loads wherever a tile sticks out of A or B (or a row
 * is not aligned for a direct or 16-byte load), and a guarded store through shared memory wherever
 * a 16 x 16 tile of C sticks out of C.
 *
 * Each kernel is followed by its launcher, launch_<kernel>(C, A, B, M, N, K, block, stream) with A
 * and B in half (gemm_problem.h's gemm_row_t.launch_half), which fixes the block (and ignores `block`):
 * wmma_naive on div_up(N, 32) x div_up(M, 32) blocks of NV_WARPS x 32 threads; wmma_tiled on
 * div_up(N, TC_BN) x div_up(M, TC_BM) blocks of TC_THREADS threads. */
#ifndef LESSON08_WMMA_KERNELS_CUH
#define LESSON08_WMMA_KERNELS_CUH

#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>
#include "grid.cuh"

using namespace nvcuda;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "WMMA (Tensor Cores) needs compute capability 7.0 or newer: build with ARCH=sm_70 or later"
#endif

/* The three fragment types of one 16 x 16 x 16 step.  A fragment is the warp's share of a tile,
 * spread over the 32 lanes' registers in a layout the hardware chooses (and does not document);
 * load_matrix_sync and store_matrix_sync move whole tiles between memory and that layout.  All
 * three take the memory's row stride (ldm, in elements): a multiple of 8 for half and of 4 for
 * float (16 bytes), with the tile's first element 32-byte aligned. */
typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> frag_a_t;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> frag_b_t;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag_c_t;

/* The warp copies the 16 x 16 piece of a rows x cols half matrix (row-major, row stride cols) that
 * starts at (r0, c0) into dst (16 halves a row), with 0 wherever the piece sticks out of the
 * matrix: the edge path, for tiles that load_matrix_sync may not read directly. */
static __device__ __forceinline__ void warp_copy_16x16(__half *dst, const __half *__restrict__ src, int rows,
                                                       int cols, int r0, int c0)
{
    int e;
    for (e = threadIdx.x % 32; e < 256; e += 32) {
        int r = r0 + e / 16, c = c0 + e % 16;
        dst[e] = (r < rows && c < cols) ? src[r * cols + c] : __float2half(0.0f);
    }
}

/* One 16 x 16 accumulator -> C at (r0, c0).  Straight to global memory when the whole tile is inside
 * C and the rules of store_matrix_sync hold (ldm = N a multiple of 4, 32-byte aligned start: C's row
 * r0 = 16 i starts 64 i N bytes in, always a multiple of 32 if C is); otherwise through the warp's
 * 16 x 16 float scratch in shared memory, from where each lane writes only the elements inside C.
 * Every branch is the same for the whole warp, as the warp-wide store requires. */
static __device__ __forceinline__ void store_c_16x16(float *__restrict__ C, int M, int N, int r0, int c0,
                                                     const frag_c_t *acc, float *scratch)
{
    int e;
    if (r0 >= M || c0 >= N) return;
    if (r0 + 16 <= M && c0 + 16 <= N && N % 4 == 0 && (uintptr_t)C % 32 == 0) {
        wmma::store_matrix_sync(C + r0 * N + c0, *acc, N, wmma::mem_row_major);
        return;
    }
    wmma::store_matrix_sync(scratch, *acc, 16, wmma::mem_row_major);
    __syncwarp();   /* every lane's part of the tile is in scratch */
    for (e = threadIdx.x % 32; e < 256; e += 32) {
        int r = r0 + e / 16, c = c0 + e % 16;
        if (r < M && c < N) C[r * N + c] = scratch[e];
    }
    __syncwarp();   /* read before the next tile overwrites it */
}

/* -- wmma_naive: one warp, one 16 x 16 tile of C ---------------------------------------------- */

#define NV_WARPS 4   /* 2 x 2 warps: a block covers 32 x 32 of C */

/* Each warp walks k in steps of 16: a fragment of A (rows m0.., columns k0..) and one of B (rows
 * k0.., columns n0..), one mma.  When the whole step lies inside A and B and ldm may be K and N
 * (multiples of 8, 32-byte aligned tiles), load_matrix_sync reads global memory directly; otherwise
 * the warp copies both pieces into its own shared buffers with zeros outside the matrices, and loads
 * the fragments from there.  Nothing is shared between warps: the 4 warps of a block read the same
 * A strip twice and the same B strip twice, and every element of A is read N / 16 times in all. */
__global__ void __launch_bounds__(NV_WARPS * 32)
wmma_naive(float *__restrict__ C, const __half *__restrict__ A, const __half *__restrict__ B, int M, int N, int K)
{
    __shared__ __align__(32) __half As[NV_WARPS][16 * 16];
    __shared__ __align__(32) __half Bs[NV_WARPS][16 * 16];
    __shared__ __align__(32) float Cs[NV_WARPS][16 * 16];
    const int warp = threadIdx.x / 32;
    const int m0 = blockIdx.y * 32 + (warp / 2) * 16, n0 = blockIdx.x * 32 + (warp % 2) * 16;
    /* A's tile (m0, k0) starts 2 (m0 K + k0) bytes in, B's (k0, n0) 2 (k0 N + n0): multiples of 32,
     * as m0, n0, k0 are multiples of 16, so the tiles are 32-byte aligned when A and B are. */
    const int direct = m0 + 16 <= M && n0 + 16 <= N && K % 8 == 0 && N % 8 == 0 && (uintptr_t)A % 32 == 0 &&
                       (uintptr_t)B % 32 == 0;
    frag_a_t a;
    frag_b_t b;
    frag_c_t acc;
    int k0;

    if (m0 >= M || n0 >= N) return;   /* the whole warp: no barrier below waits for it */
    wmma::fill_fragment(acc, 0.0f);
    for (k0 = 0; k0 < K; k0 += 16) {
        if (direct && k0 + 16 <= K) {
            wmma::load_matrix_sync(a, A + m0 * K + k0, K);
            wmma::load_matrix_sync(b, B + k0 * N + n0, N);
        } else {
            warp_copy_16x16(As[warp], A, M, K, m0, k0);
            warp_copy_16x16(Bs[warp], B, K, N, k0, n0);
            __syncwarp();   /* the pieces are complete */
            wmma::load_matrix_sync(a, As[warp], 16);
            wmma::load_matrix_sync(b, Bs[warp], 16);
            __syncwarp();   /* every lane holds its fragments before the next copy overwrites them */
        }
        wmma::mma_sync(acc, a, b, acc);
    }
    store_c_16x16(C, M, N, m0, n0, &acc, Cs[warp]);
}

static inline void launch_wmma_naive(float *C, const __half *A, const __half *B, int M, int N, int K, dim3 block,
                                     cudaStream_t s)
{
    (void)block;
    wmma_naive<<<dim3(div_up(N, 32), div_up(M, 32)), NV_WARPS * 32, 0, s>>>(C, A, B, M, N, K);
}

/* -- wmma_tiled: 128 x 128 block tile, tiles of A and B in shared memory ------------------------ */

#define TC_BM 128
#define TC_BN 128
#ifndef TC_BK  /* part 3, exercise 2: make NVCCFLAGS=-DTC_BK=16 rebuilds with another depth */
#define TC_BK 32
#endif
#define TC_WM 64                                    /* rows of C per warp */
#define TC_WN 32                                    /* columns of C per warp */
#define TC_FM (TC_WM / 16)                          /* 4 accumulators down ... */
#define TC_FN (TC_WN / 16)                          /* ... by 2 across */
#define TC_WARPS ((TC_BM / TC_WM) * (TC_BN / TC_WN)) /* 2 x 4 = 8 */
#define TC_THREADS (TC_WARPS * 32)
/* Padded rows.  load_matrix_sync reads a fragment as 16-byte rows, 8 rows at a time; with rows of
 * BK = 32 halves (64 bytes) rows 0, 2, 4, 6 fall on the same 4 banks (a 4-way conflict), with
 * 128 halves (256 bytes) all 8 do.  8 halves (16 bytes) of padding shift each row by 4 banks:
 * 80-byte rows land the 8 reads on banks 0, 20, 8, 28, 16, 4, 24, 12 (+0..3), 272-byte rows on
 * 0, 4, ..., 28: all 32 banks once.  ldm stays a multiple of 8, and every fragment's start 32-byte
 * aligned (16 rows x 80 or x 272 bytes, column offsets of 16 halves). */
#ifndef TC_PAD  /* halves of padding per shared row (part 3, exercise 3: make NVCCFLAGS=-DTC_PAD=0) */
#define TC_PAD 8
#endif
#define TC_LDA (TC_BK + TC_PAD)
#define TC_LDB (TC_BN + TC_PAD)
#if (TC_BM * TC_BK / 8) % TC_THREADS != 0 || (TC_BK * TC_BN / 8) % TC_THREADS != 0
#error "each thread must load the same number of 8-half pieces of a tile"
#endif

/* Global -> shared, one tile: tile_rows x tile_cols halves of src (a rows x cols matrix, row-major)
 * from (r0, c0) into dst (row stride dst_ld).  Each thread moves 8 consecutive halves (16 bytes) at a
 * time, so a warp reads 8 rows x 64 bytes of A or 2 rows x 256 bytes of B: whole sectors.  vec: cols
 * is a multiple of 8 and src 16-byte aligned, so every 8-half piece that starts inside a row ends
 * inside it and is aligned: one 16-byte load.  Otherwise, and past the matrix's edge, 8 guarded
 * loads that put 0 outside it: the tile must hold zeros there, not stale values (0 x NaN is NaN). */
static __device__ __forceinline__ void tc_load_tile(__half *dst, int dst_ld, int tile_rows, int tile_cols,
                                                    const __half *__restrict__ src, int rows, int cols, int r0,
                                                    int c0, int vec)
{
    int i, e;
#pragma unroll
    for (i = 0; i < tile_rows * tile_cols / 8 / TC_THREADS; i++) {
        int v = threadIdx.x + i * TC_THREADS;
        int r = v / (tile_cols / 8), c = (v % (tile_cols / 8)) * 8;
        int gr = r0 + r, gc = c0 + c;
        __half *d = dst + r * dst_ld + c;
        if (vec && gr < rows && gc + 8 <= cols) {
            *(uint4 *)d = *(const uint4 *)(src + gr * cols + gc);
        } else {
#pragma unroll
            for (e = 0; e < 8; e++) d[e] = (gr < rows && gc + e < cols) ? src[gr * cols + gc + e] : __float2half(0.0f);
        }
    }
}

/* Per BK = 32 tile: all 256 threads load the A tile (128 x 32) and the B tile (32 x 128), barrier,
 * then each warp does 2 k-steps of 16.  Per k-step a warp loads 2 B fragments and 4 A fragments
 * from shared memory and issues 4 x 2 = 8 mma: each A fragment serves 2 mma and each B fragment 4,
 * and each tile element loaded from global memory serves 4 warps (A) or 2 warps (B) -- the reuse
 * wmma_naive lacks.  Two barriers per tile, as in part 2's sgemm_rt128: the first so that no warp
 * overwrites a tile another warp is still reading, the second so that no warp reads a tile before
 * it is complete. */
__global__ void __launch_bounds__(TC_THREADS)
wmma_tiled(float *__restrict__ C, const __half *__restrict__ A, const __half *__restrict__ B, int M, int N, int K)
{
    __shared__ __align__(128) __half As[TC_BM * TC_LDA];
    __shared__ __align__(128) __half Bs[TC_BK * TC_LDB];
    __shared__ __align__(128) float Cs[TC_WARPS][16 * 16];   /* per warp: the edge path of store_c_16x16 */
    const int warp = threadIdx.x / 32, wm = warp / (TC_BN / TC_WN), wn = warp % (TC_BN / TC_WN);
    const int m0 = blockIdx.y * TC_BM, n0 = blockIdx.x * TC_BN;
    const int a_vec = K % 8 == 0 && (uintptr_t)A % 16 == 0, b_vec = N % 8 == 0 && (uintptr_t)B % 16 == 0;
    frag_c_t acc[TC_FM][TC_FN];
    frag_a_t a;
    frag_b_t b[TC_FN];
    int k0, kk, i, j;

#pragma unroll
    for (i = 0; i < TC_FM; i++)
#pragma unroll
        for (j = 0; j < TC_FN; j++) wmma::fill_fragment(acc[i][j], 0.0f);

    for (k0 = 0; k0 < K; k0 += TC_BK) {
        __syncthreads();
        tc_load_tile(As, TC_LDA, TC_BM, TC_BK, A, M, K, m0, k0, a_vec);
        tc_load_tile(Bs, TC_LDB, TC_BK, TC_BN, B, K, N, k0, n0, b_vec);
        __syncthreads();
#pragma unroll
        for (kk = 0; kk < TC_BK; kk += 16) {
#pragma unroll
            for (j = 0; j < TC_FN; j++) wmma::load_matrix_sync(b[j], Bs + kk * TC_LDB + wn * TC_WN + j * 16, TC_LDB);
#pragma unroll
            for (i = 0; i < TC_FM; i++) {
                wmma::load_matrix_sync(a, As + (wm * TC_WM + i * 16) * TC_LDA + kk, TC_LDA);
#pragma unroll
                for (j = 0; j < TC_FN; j++) wmma::mma_sync(acc[i][j], a, b[j], acc[i][j]);
            }
        }
    }
#pragma unroll
    for (i = 0; i < TC_FM; i++)
#pragma unroll
        for (j = 0; j < TC_FN; j++)
            store_c_16x16(C, M, N, m0 + wm * TC_WM + i * 16, n0 + wn * TC_WN + j * 16, &acc[i][j], Cs[warp]);
}

static inline void launch_wmma_tiled(float *C, const __half *A, const __half *B, int M, int N, int K, dim3 block,
                                     cudaStream_t s)
{
    (void)block;
    wmma_tiled<<<dim3(div_up(N, TC_BN), div_up(M, TC_BM)), TC_THREADS, 0, s>>>(C, A, B, M, N, K);
}

#endif
