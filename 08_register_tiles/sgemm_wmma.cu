/* Lesson 08, part 3 (stretch): Tensor Cores -- the matrix product with WMMA, half inputs and float
 * accumulation, against cublasGemmEx.
 *
 * C = A x B, all row-major: A is M x K, B is K x N, C is M x N, C in float.
 *
 * Part 2's best kernel keeps the FP32 units busy with an 8 x 8 outer product per thread.  A Tensor
 * Core does a whole small matrix product per instruction: one warp-wide mma multiplies a 16 x 16
 * tile of A by a 16 x 16 tile of B and adds the result to a 16 x 16 float accumulator, 4096
 * multiply-adds, where one FFMA instruction is 32.  The price: A and B must be half precision (11
 * significant bits instead of 24).  The products of two halves are exact in float and the sums are
 * taken in float, so what the student loses is the rounding of the inputs; experiment 3 measures it.
 *
 * Experiment 1: the memory ceilings (context only: the product is compute-bound).
 * Experiment 2: the WMMA kernels against cublasGemmEx (FP16 in, FP32 out, Tensor Cores) and
 *   cublasSgemm (FP32, part 2's reference) at M = N = K = 4096: GFLOP/s and % of cublasGemmEx.
 * Experiment 3: accuracy: each result against the exact product of the ORIGINAL float inputs.
 *
 * The kernels:
 *   wmma_naive  one warp per 16 x 16 tile of C; its fragments come straight from global memory, so
 *               every warp reads its own strip of A and of B: no reuse between warps.
 *   wmma_tiled  128 x 128 block tile, 8 warps of 64 x 32 (4 x 2 accumulators each); A and B tiles of
 *               BK = 32 staged in padded shared memory and read by every warp of the block.
 * Both compute any M, N, K: zero-filled guarded loads wherever a tile sticks out of A or B (or a row
 * is not aligned for a direct or 16-byte load), and a guarded store through shared memory wherever
 * a 16 x 16 tile of C sticks out of C. */
#include "args.h"
#include "checked_bench.h"
#include "cublas_check.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "report.h"
#include "rng.h"
#include "stats.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <math.h>
#include <mma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

using namespace nvcuda;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "WMMA (Tensor Cores) needs compute capability 7.0 or newer: build with ARCH=sm_70 or later"
#endif

/* ---- kernels ------------------------------------------------------------------------------ */

/* The three fragment types of one 16 x 16 x 16 step.  A fragment is the warp's share of a tile,
 * spread over the 32 lanes' registers in a layout the hardware chooses (and does not document);
 * load_matrix_sync and store_matrix_sync move whole tiles between memory and that layout.  All
 * three take the memory's row stride (ldm, in elements): a multiple of 8 for half and of 4 for
 * float (16 bytes), with the tile's first element 32-byte aligned. */
typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> frag_a_t;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> frag_b_t;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag_c_t;

/* x[i] -> the nearest half, kept twice: in h as half, what the Tensor Core kernels read, and back
 * in x as float (the same value exactly), for cuBLAS, the FP32 path and the CPU reference. */
__global__ void round_to_half(float *x, __half *h, size_t n)
{
    size_t i;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        __half v = __float2half_rn(x[i]);
        h[i] = v;
        x[i] = __half2float(v);
    }
}

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
wmma_naive(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C, int M, int N, int K)
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

/* -- wmma_tiled: 128 x 128 block tile, tiles of A and B in shared memory ------------------------ */

#define TC_BM 128
#define TC_BN 128
#define TC_BK 32
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
#define TC_LDA (TC_BK + 8)
#define TC_LDB (TC_BN + 8)
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
wmma_tiled(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C, int M, int N, int K)
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

/* ---- the experiments ---------------------------------------------------------------------- */

/* Verification.  Every kernel is checked with the course's bound, |C - exact| <= K x 2^-23 x
 * sum_k |a_ik b_kj| (cpu_gemm.h), against the exact product of the inputs it multiplied: the
 * half-rounded A and B.  The products of two halves (11-bit significands) are exact in float; the
 * question is the sums.  A Tensor Core does not round like an FFMA: it adds a block of n products
 * (n = 4 to 16 by generation) and the accumulator in one operation, aligning them to the largest
 * and truncating the bits that fall off, then truncates the sum (Fasi, Higham, Mikaitis, Pranesh,
 * "Numerical behavior of NVIDIA tensor cores", PeerJ Comput. Sci. 7:e330, 2021, for V100, T4,
 * A100; Khattak, Mikaitis, "Accurate models of NVIDIA tensor cores", arXiv:2512.07004, 2025, adds
 * H100 and B200).  Each truncation loses less than one unit in the last place of the largest term,
 * at most 2^-23 x its magnitude.  For K <= n (one block) K - 1 terms and the sum are truncated: an
 * error below K x 2^-23 x sum|ab|, inside the bound.  Longer sums can exceed it by a factor up to
 * 1 + 1/n, but only if every truncation loses almost a whole unit, which random inputs do not do:
 * a simulation of that model (n = 4, 8, 16, no extra alignment bits, half-rounded inputs in
 * [-1, 1)) stayed below 0.51 of the bound at K = 2 to 7, below 0.11 from K = 16 on and near 0.001
 * at K = 1024.  So the bound is kept as it is: if a Tensor Core kernel ever fails it, that is a
 * finding to look at, not a tolerance to widen. */

/* A product's A and B as half, next to gemm_problem's floats; `offset` halves past the allocation,
 * the same offset as the floats, so that --check's unaligned case reaches the kernels' guards. */
typedef struct {
    __half *A, *B;
    __half *baseA, *baseB;
} half_inputs_t;

/* Blocks of 256 threads for round_to_half: one element per thread, at most 4096 blocks (the rest
 * by its grid-stride loop). */
static unsigned round_blocks(size_t n)
{
    size_t b = (n + 255) / 256;
    return (unsigned)(b < 4096 ? b : 4096);
}

/* Rounds p's A and B to half on the GPU, in place (so cuBLAS's FP32 path and the CPU reference see
 * the same values) and into fresh half copies, and refreshes p's host copies for the reference. */
static void half_inputs_make(gemm_problem_t *p, half_inputs_t *h)
{
    size_t na = (size_t)p->M * p->K, nb = (size_t)p->K * p->N, off = (size_t)(p->dA - p->baseA);
    h->baseA = (__half *)gpu_alloc((na + off) * sizeof(__half), "A as half");
    h->baseB = (__half *)gpu_alloc((nb + off) * sizeof(__half), "B as half");
    h->A = h->baseA + off;
    h->B = h->baseB + off;
    round_to_half<<<round_blocks(na), 256>>>(p->dA, h->A, na);
    CHECK_LAST();
    round_to_half<<<round_blocks(nb), 256>>>(p->dB, h->B, nb);
    CHECK_LAST();
    CHECK(cudaMemcpy(p->hA, p->dA, na * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(p->hB, p->dB, nb * sizeof(float), cudaMemcpyDeviceToHost));
}

static void half_inputs_free(half_inputs_t *h)
{
    CHECK(cudaFree(h->baseA));
    CHECK(cudaFree(h->baseB));
}

/* What a launch needs: the product, its half inputs (once rounded) and the cuBLAS handle. */
typedef struct {
    const gemm_problem_t *p;
    const half_inputs_t *h;
    cublasHandle_t handle;
} tc_ctx_t;

static void launch_naive(void *v)
{
    const tc_ctx_t *c = (const tc_ctx_t *)v;
    const gemm_problem_t *p = c->p;
    dim3 grid(gemm_blocks(p->N, 32), gemm_blocks(p->M, 32));
    wmma_naive<<<grid, NV_WARPS * 32>>>(c->h->A, c->h->B, p->dC, p->M, p->N, p->K);
}

static void launch_tiled(void *v)
{
    const tc_ctx_t *c = (const tc_ctx_t *)v;
    const gemm_problem_t *p = c->p;
    dim3 grid(gemm_blocks(p->N, TC_BN), gemm_blocks(p->M, TC_BM));
    wmma_tiled<<<grid, TC_THREADS>>>(c->h->A, c->h->B, p->dC, p->M, p->N, p->K);
}

/* cuBLAS is column-major.  Row-major C = A x B is, read column-major, C^T = B^T x A^T: the same
 * memory, so cuBLAS is asked for an N x M product of B (leading dimension N) and A (K).
 * cublasGemmEx: A and B in half (CUDA_R_16F), C in float, sums in float (CUBLAS_COMPUTE_32F); with
 * CUBLAS_GEMM_DEFAULT cuBLAS picks its own algorithm, Tensor Cores included. */
static void launch_gemmex(void *v)
{
    const tc_ctx_t *c = (const tc_ctx_t *)v;
    const gemm_problem_t *p = c->p;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(c->handle, CUBLAS_OP_N, CUBLAS_OP_N, p->N, p->M, p->K, &one, c->h->B, CUDA_R_16F,
                              p->N, c->h->A, CUDA_R_16F, p->K, &zero, p->dC, CUDA_R_32F, p->N, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT));
}

/* Part 2's reference: FP32 in and out, CUBLAS_DEFAULT_MATH (no TF32). */
static void launch_sgemm(void *v)
{
    const tc_ctx_t *c = (const tc_ctx_t *)v;
    cublas_sgemm_row_major(c->handle, c->p->M, c->p->N, c->p->K, c->p->dA, c->p->dB, c->p->dC);
}

typedef struct {
    const char *label;   /* the table row and the NVTX range `make profile` names it by */
    launch_fn_t launch;
    int half;            /* 1: multiplies the half inputs */
} kernel_t;

/* cublasSgemm first: in experiment 2 it runs on the original floats, before they are rounded. */
enum { K_SGEMM, K_GEMMEX, K_NAIVE, K_TILED, NKERNELS };
static const kernel_t KERNELS[NKERNELS] = {
    {"cublasSgemm (FP32)", launch_sgemm, 0},
    {"cublasGemmEx (FP16 in)", launch_gemmex, 1},
    {"wmma_naive 16x16 per warp", launch_naive, 1},
    {"wmma_tiled 128x128 smem", launch_tiled, 1},
};

/* --check on one shape: round the inputs, then every kernel, cuBLAS's two included. */
static void check_kernels(gemm_problem_t *p, const char *size, void *user, gemm_tally_t *t)
{
    half_inputs_t h;
    tc_ctx_t c = {p, &h, *(cublasHandle_t *)user};
    int ki;
    half_inputs_make(p, &h);
    for (ki = 0; ki < NKERNELS; ki++) gemm_check_launch(p, KERNELS[ki].label, size, KERNELS[ki].launch, &c, t);
    half_inputs_free(&h);
}

/* --check: shapes that are multiples of no tile (single rows and columns, K below one k-step,
 * partial last k-tiles), exact multiples of 16 and of the 128 x 128 tile, N and K not multiples of
 * 8 (no direct or 16-byte load), every pointer one element off its allocation (no aligned load or
 * store anywhere), and two large ones; fresh random inputs for every shape. */
static int run_checks(const args_t *a, cublasHandle_t h)
{
    static const gemm_case_t cases[] = {
        {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},      {7, 1, 3, 0, 0},        {33, 31, 17, 0, 0},
        {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},  {1, 257, 513, 0, 0},    {16, 16, 16, 0, 0},
        {256, 256, 256, 0, 0}, {260, 132, 36, 0, 0}, {260, 132, 36, 1, 0},   {384, 256, 1024, 0, 0},
        {1000, 777, 333, 0, 1}, {2048, 2048, 2048, 0, 1},
    };
    return gemm_run_checks(cases, (int)(sizeof cases / sizeof cases[0]), a, check_kernels, &h);
}

/* Experiment 3's sample: up to GEMM_SAMPLE elements of C (all of them if C is that small, else the
 * random picks verify_gemm_f32 makes), with their exact value and sum_k |a_ik b_kj| from the ORIGINAL
 * float inputs, computed once before the rounding. */
typedef struct {
    int n;
    int *row, *col;
    double *exact, *abs_sum;
} accuracy_t;

static void accuracy_init(accuracy_t *s, const gemm_problem_t *p)
{
    size_t all = (size_t)p->M * p->N;
    int i;
    s->n = all <= GEMM_SAMPLE ? (int)all : GEMM_SAMPLE;
    s->row = (int *)host_alloc(s->n * sizeof(int), "the accuracy sample");
    s->col = (int *)host_alloc(s->n * sizeof(int), "the accuracy sample");
    s->exact = (double *)host_alloc(s->n * sizeof(double), "the accuracy sample");
    s->abs_sum = (double *)host_alloc(s->n * sizeof(double), "the accuracy sample");
    for (i = 0; i < s->n; i++) {
        uint64_t r = rng_mix64(p->seed ^ rng_mix64((uint64_t)i));
        s->row[i] = all <= GEMM_SAMPLE ? i / p->N : (int)(r % (uint64_t)p->M);
        s->col[i] = all <= GEMM_SAMPLE ? i % p->N : (int)((r >> 32) % (uint64_t)p->N);
        cpu_gemm_element(p->hA, p->hB, p->N, p->K, s->row[i], s->col[i], &s->exact[i], &s->abs_sum[i]);
    }
}

static void accuracy_free(accuracy_t *s)
{
    free(s->row);
    free(s->col);
    free(s->exact);
    free(s->abs_sum);
}

/* max over the sample of |C - exact| / sum_k |a_ik b_kj|.  C == NULL: the error of the exact
 * (double) product of A and B, here the rounded inputs: what the rounding alone costs. */
static double accuracy_max(const accuracy_t *s, const float *C, const float *A, const float *B, int N, int K)
{
    double worst = 0.0, v, a;
    int i;
    for (i = 0; i < s->n; i++) {
        if (s->abs_sum[i] <= 0.0) continue;
        if (C) v = C[(size_t)s->row[i] * N + s->col[i]];
        else cpu_gemm_element(A, B, N, K, s->row[i], s->col[i], &v, &a);
        if (isnan(v)) return NAN;
        v = fabs(v - s->exact[i]) / s->abs_sum[i];
        if (v > worst) worst = v;
    }
    return worst;
}

static void say_accuracy(const char *label, double e, double e_fp32)
{
    report_say("  %-30s %10.2e %8.1f", label, e, e > 0 ? log2(e) : -INFINITY);
    if (e_fp32 > 0) report_say(" %10.1f\n", e / e_fp32);
    else report_say(" %10s\n", "-");
}

/* Experiments 2 and 3 on one product: each kernel verified (no figure for one that fails), timed,
 * and its error measured on the accuracy sample.  Returns 1 if a kernel failed verification. */
static int experiment_tensor(const gpu_info_t *g, const args_t *a, cublasHandle_t hb, int M, int N, int K)
{
    gemm_problem_t p;
    half_inputs_t h = {NULL, NULL, NULL, NULL};
    tc_ctx_t c;
    accuracy_t s;
    timing_t t[NKERNELS];
    double flops = 2.0 * M * N * K, gf[NKERNELS], err[NKERNELS], err_round = NAN, bytes[NKERNELS];
    int ok[NKERNELS], ki, failed = 0, flush;
    char what[96], takeaway[400];

    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d, %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               flops / 1e9);
    report_say("  cublasSgemm runs first, on the original float inputs (FP32, TF32 off: part 2's reference).\n"
               "  Then A and B are rounded to the nearest half, kept as floats for the reference and as halves\n"
               "  for the rest: cublasGemmEx (FP16 A and B, FP32 C and sums, CUBLAS_GEMM_DEFAULT: Tensor Cores),\n"
               "  wmma_naive (one warp per 16x16 tile of C, fragments straight from global memory) and\n"
               "  wmma_tiled (128x128 block tiles, 8 warps of 64x32 = 4x2 accumulators, BK = %d, padded shared\n"
               "  tiles). Each is verified against the exact product of the inputs it multiplied.\n", TC_BK);
    gemm_say_verification(M, N, K);

    gemm_problem_init(&p, M, N, K, 0, a->seed);
    accuracy_init(&s, &p);
    c.p = &p;
    c.h = &h;
    c.handle = hb;
    for (ki = 0; ki < NKERNELS; ki++) {
        if (KERNELS[ki].half && !h.A) {
            half_inputs_make(&p, &h);
            err_round = accuracy_max(&s, NULL, p.hA, p.hB, N, K);
        }
        /* the least bytes: A and B read once (2 or 4 bytes an element), C written once */
        bytes[ki] = (KERNELS[ki].half ? 2.0 : 4.0) * ((double)M * K + (double)K * N) + 4.0 * M * N;
        flush = gpu_flush_wanted(g, a, (size_t)bytes[ki]);
        snprintf(what, sizeof what, "%s (M=%d N=%d K=%d)", KERNELS[ki].label, M, N, K);
        gf[ki] = err[ki] = 0.0;
        ok[ki] = gemm_verify_then_time(&p, KERNELS[ki].label, what, KERNELS[ki].launch, &c, a, flush, &t[ki]);
        if (!ok[ki]) {
            failed = 1;
            continue;
        }
        gf[ki] = flops / (t[ki].median_ms * 1e6);
        err[ki] = accuracy_max(&s, p.hC, NULL, NULL, N, K);   /* p.hC: the result just verified */
    }

    report_begin("sgemm_wmma", "  Tensor Cores against cuBLAS (GB/s counts only the least bytes; read GFLOP/s):",
                 "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (ok[ki]) report_row(KERNELS[ki].label, &t[ki], bytes[ki], gf[ki]);
        else report_row_failed(KERNELS[ki].label);
    }
    if (ok[K_SGEMM] && ok[K_GEMMEX] && ok[K_NAIVE] && ok[K_TILED])
        snprintf(takeaway, sizeof takeaway,
                 "wmma_tiled reaches %.1f%% of cublasGemmEx and %.2fx cublasSgemm (FP32); shared tiles made it "
                 "%.2fx wmma_naive; cublasGemmEx runs %.2fx cublasSgemm.",
                 100.0 * gf[K_TILED] / gf[K_GEMMEX], gf[K_TILED] / gf[K_SGEMM], gf[K_TILED] / gf[K_NAIVE],
                 gf[K_GEMMEX] / gf[K_SGEMM]);
    else
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    report_end(takeaway);

    report_say("\n  %-26s %10s %16s %14s\n", "kernel", "GFLOP/s", "% cublasGemmEx", "x cublasSgemm");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (!ok[ki]) {
            report_say("  %-26s FAILED verification\n", KERNELS[ki].label);
            continue;
        }
        report_say("  %-26s %10.0f", KERNELS[ki].label, gf[ki]);
        if (ok[K_GEMMEX]) report_say(" %16.1f", 100.0 * gf[ki] / gf[K_GEMMEX]);
        else report_say(" %16s", "-");
        if (ok[K_SGEMM]) report_say(" %14.2f\n", gf[ki] / gf[K_SGEMM]);
        else report_say(" %14s\n", "-");
    }

    report_say("\nExperiment 3: what half inputs cost in accuracy, on %d elements of C (%s).\n"
               "  error = |C - exact| / sum_k |a_ik b_kj|, where exact is the double-precision product of the\n"
               "  ORIGINAL float inputs, before rounding. Unit roundoff: float 2^-24 = 6.0e-08,\n"
               "  half 2^-11 = 4.9e-04.\n\n",
               s.n, (size_t)s.n == (size_t)M * N ? "all of them" : "a random sample");
    report_say("  %-30s %10s %8s %10s\n", "result", "max error", "log2", "x FP32");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (ki == K_GEMMEX && !isnan(err_round))
            say_accuracy("exact sum of the half inputs", err_round, ok[K_SGEMM] ? err[K_SGEMM] : 0.0);
        if (ok[ki]) say_accuracy(KERNELS[ki].label, err[ki], ok[K_SGEMM] ? err[K_SGEMM] : 0.0);
        else report_say("  %-30s FAILED verification\n", KERNELS[ki].label);
    }
    if (ok[K_SGEMM] && ok[K_TILED] && err[K_SGEMM] > 0 && err_round > 0)
        report_say("  -> half inputs cost %.0fx the error of FP32 (wmma_tiled %.2e against %.2e); the exact sum of\n"
                   "     the same half inputs is off by %.2e: wmma_tiled's float sums change that by %+.1f%%.\n",
                   err[K_TILED] / err[K_SGEMM], err[K_TILED], err[K_SGEMM], err_round,
                   100.0 * (err[K_TILED] - err_round) / err_round);

    accuracy_free(&s);
    if (h.A) half_inputs_free(&h);
    gemm_problem_free(&p);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 08, part 3: Tensor Cores. The matrix product C = A x B (row-major, C in float) with A and B\n"
        "rounded to half and multiplied by WMMA (one warp per 16x16 tile of C, then 128x128 block tiles in\n"
        "shared memory), against cublasGemmEx (FP16 in, FP32 sums, Tensor Cores) and cublasSgemm (FP32).\n"
        "Reports GFLOP/s, % of cublasGemmEx, and the error each result makes against the exact product of\n"
        "the original float inputs; every kernel verified against a double-precision CPU reference.";
    gemm_size_args_t size;
    args_t a;
    gpu_info_t g;
    cublasHandle_t h;
    int M, N, K, failed;

    gemm_size_args_init(&size);
    args_parse_or_exit(argc, argv, &a, summary, GEMM_SIZE_HELP, size.opts, GEMM_SIZE_NOPTS);
    gemm_size_or_exit(argc, argv, &a, &size, "the block shapes follow the tiles (128 threads for wmma_naive, 256 for "
                      "wmma_tiled)", &M, &N, &K);
    report_init("08_register_tiles", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 08, part 3 - Tensor Cores: WMMA (half in, float sums) against cuBLAS", &a);
    CUBLAS_CHECK(cublasCreate(&h));   /* once: creating a handle costs a good part of a second */
    CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    if (a.check) {
        failed = run_checks(&a, h);
    } else {
        gemm_report_ceilings(&g, &a);
        failed = experiment_tensor(&g, &a, h, M, N, K);
    }
    CUBLAS_CHECK(cublasDestroy(h));
    gpu_finish();
    if (failed) {
        if (!a.check) fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
