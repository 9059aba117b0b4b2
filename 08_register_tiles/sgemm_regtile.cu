/* Lesson 08, part 2: register tiles -- the register-blocked matrix product (SGEMM) against cuBLAS.
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.
 *
 * Lesson 07's tiled kernel gives each thread one element of C: per multiply-add it reads two
 * floats from shared memory, so shared memory, not the FP32 units, sets its speed.  Here each
 * thread computes a TM x TN block of C.  Per step along k it loads TM floats of A and TN floats of
 * B from shared memory into registers (its "fragments") and does TM x TN multiply-adds with them,
 * an outer product: TM + TN shared loads for TM x TN FMAs, and TM x TN independent accumulators
 * that keep the FMA pipes busy.
 *
 * Experiment 1: the memory ceilings (context only: the product is compute-bound).
 * Experiment 2: the FP32 peak of this GPU from its SM count and clock, and the kernels against
 *   cublasSgemm (FP32, TF32 off) at M = N = K = 4096: GFLOP/s, % of FP32 peak, % of cuBLAS.
 * Experiment 3: the same product at 4095^3, where K and N are not multiples of 4 (most rows are not
 *   16-byte aligned) and every block has partial edges: the price of the guarded scalar path.
 *
 * The kernels:
 *   sgemm_rt64    64 x 64 block tile, 4 x 4 per thread, scalar loads: register blocking alone.
 *   sgemm_rt128   128 x 128 block tile, BK = 8, SGEMM_TM x 8 per thread: float4 loads of A and B,
 *                 A stored transposed in shared memory so fragments are float4 reads too.
 *   sgemm_rt128db the same with two shared buffers: the next tile's global loads overlap the
 *                 current tile's FMAs, one barrier per tile instead of two.
 * Every kernel handles any M, N, K: a full tile takes the vector path, a partial one guarded
 * scalar loads that fill zeros, and only elements inside C are written. */
#include "args.h"
#include "cublas_check.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gemm_problem.h"
#include "gpu.h"
#include "report.h"
#include "stats.h"

#include <cublas_v2.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* Rows of C per thread in the 128 x 128 kernels: the exercise.  Build with
 * `make clean all SGEMM_TM=4` (or 16) and read the registers in `make VERBOSE=1`. */
#ifndef SGEMM_TM
#define SGEMM_TM 8
#endif
#if SGEMM_TM != 4 && SGEMM_TM != 8 && SGEMM_TM != 16
#error "SGEMM_TM must be 4, 8 or 16 (rows of C per thread in the 128 x 128 kernels)"
#endif

/* -- variant 1: 64 x 64 block tile, 4 x 4 per thread, scalar loads --------------------------- */

#define R64_BM 64
#define R64_BN 64
#define R64_BK 8
#define R64_THREADS 256   /* 16 x 16 threads, 4 x 4 elements of C each */

/* Thread (ty, tx) computes C[m0 + ty + 16 i][n0 + tx + 16 j], i, j = 0..3: strided by 16 rather
 * than a contiguous 4 x 4, so that the 16 threads of a half-warp read 16 consecutive floats of a
 * Bs row (16 different banks) and write 16 consecutive floats of C (whole sectors).
 * Shared tiles in their natural layout: As[m][k] (BK = 8 floats a row) and Bs[k][n].  A half-warp
 * shares ty, so its reads of As are one broadcast; the two half-warps' rows are 8 floats, i.e.
 * 8 banks, apart: no conflict. */
__global__ void __launch_bounds__(R64_THREADS)
sgemm_rt64(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[R64_BM * R64_BK];
    __shared__ float Bs[R64_BK * R64_BN];
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const int m0 = blockIdx.y * R64_BM, n0 = blockIdx.x * R64_BN;
    float acc[4][4], a[4], b[4];
    int k0, k, i, j, e;

#pragma unroll
    for (i = 0; i < 4; i++)
#pragma unroll
        for (j = 0; j < 4; j++) acc[i][j] = 0.0f;

    for (k0 = 0; k0 < K; k0 += R64_BK) {
        /* 512 elements per tile, two per thread.  A warp reads 4 rows x 32 bytes of A (whole
         * sectors) and 128 consecutive bytes of one row of B.  Out of range -> 0.0f. */
#pragma unroll
        for (e = tid; e < R64_BM * R64_BK; e += R64_THREADS) {
            int r = e / R64_BK, c = e % R64_BK;
            As[e] = (m0 + r < M && k0 + c < K) ? A[(m0 + r) * K + k0 + c] : 0.0f;
        }
#pragma unroll
        for (e = tid; e < R64_BK * R64_BN; e += R64_THREADS) {
            int r = e / R64_BN, c = e % R64_BN;
            Bs[e] = (k0 + r < K && n0 + c < N) ? B[(k0 + r) * N + n0 + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (k = 0; k < R64_BK; k++) {
#pragma unroll
            for (i = 0; i < 4; i++) a[i] = As[(ty + 16 * i) * R64_BK + k];
#pragma unroll
            for (j = 0; j < 4; j++) b[j] = Bs[k * R64_BN + tx + 16 * j];
            /* 8 shared loads, 16 FMAs on 16 independent accumulators */
#pragma unroll
            for (i = 0; i < 4; i++)
#pragma unroll
                for (j = 0; j < 4; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (i = 0; i < 4; i++)
#pragma unroll
        for (j = 0; j < 4; j++) {
            int r = m0 + ty + 16 * i, c = n0 + tx + 16 * j;
            if (r < M && c < N) C[r * N + c] = acc[i][j];
        }
}

/* -- variants 2 and 3: 128 x 128 block tile, SGEMM_TM x 8 per thread, float4 ------------------ */

#define RT_BM 128
#define RT_BN 128
#define RT_BK 8
#define RT_TM SGEMM_TM
#define RT_TN 8
#define RT_THREADS ((RT_BM / RT_TM) * (RT_BN / RT_TN))   /* 256 for TM = 8 */
#define RT_AS_LD (RT_BM + 4)                              /* padded row of the transposed A tile */
#define RT_A_VECS (RT_BM * RT_BK / 4)                     /* float4s in an A tile */
#define RT_B_VECS (RT_BK * RT_BN / 4)                     /* float4s in a B tile */
#define RT_A_LOADS ((RT_A_VECS + RT_THREADS - 1) / RT_THREADS)
#define RT_B_LOADS ((RT_B_VECS + RT_THREADS - 1) / RT_THREADS)
/* Two blocks per SM caps a 256-thread block at 128 registers per thread (65536 / 512). */
#define RT_MIN_BLOCKS (RT_THREADS <= 256 ? 2 : 1)

/* Where a thread sits in the (BM / TM) x 16 grid of threads.  Each warp covers 4 rows x 8
 * columns of threads: a quarter-warp (the 8 lanes a 16-byte shared access serves at a time)
 * shares ty, so its A fragment read is a broadcast, and its B fragment reads are 8 consecutive
 * float4s, 128 bytes, all 32 banks once; the four quarter-warps read the same 128 bytes of B.
 * Per k step a warp touches 4 x 32 bytes of A and 2 x 128 bytes of B; a 2 x 16 layout would
 * touch 2 x 32 and 2 x 256. */
static __device__ __forceinline__ void rt_thread_coords(int *tx, int *ty)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    *tx = (warp % 2) * 8 + lane % 8;
    *ty = (warp / 2) * 4 + lane / 8;
}

/* Global -> registers, the A tile (BM rows x BK columns of A).  Float4 v covers row v / 2,
 * columns (v % 2) x 4 .. + 3: a warp reads 16 rows x 32 bytes, whole sectors.  fast: every
 * element is in range and every row 16-byte aligned, so one 16-byte load; otherwise four
 * guarded scalar loads, zero outside A. */
static __device__ __forceinline__ void rt_load_a(float4 *ra, const float *__restrict__ A, int M, int K, int m0,
                                                 int k0, int fast)
{
    int i;
#pragma unroll
    for (i = 0; i < RT_A_LOADS; i++) {
        int v = threadIdx.x + i * RT_THREADS;
        int gm = m0 + v / (RT_BK / 4), gk = k0 + (v % (RT_BK / 4)) * 4;
        if (RT_A_VECS % RT_THREADS != 0 && v >= RT_A_VECS) break;
        if (fast) {
            ra[i] = __ldg((const float4 *)(A + gm * K + gk));
        } else {
            ra[i].x = (gm < M && gk + 0 < K) ? __ldg(A + gm * K + gk + 0) : 0.0f;
            ra[i].y = (gm < M && gk + 1 < K) ? __ldg(A + gm * K + gk + 1) : 0.0f;
            ra[i].z = (gm < M && gk + 2 < K) ? __ldg(A + gm * K + gk + 2) : 0.0f;
            ra[i].w = (gm < M && gk + 3 < K) ? __ldg(A + gm * K + gk + 3) : 0.0f;
        }
    }
}

/* Global -> registers, the B tile (BK rows x BN columns of B).  Float4 v covers row v / 32,
 * columns (v % 32) x 4 .. + 3: a warp reads 512 consecutive bytes of one row. */
static __device__ __forceinline__ void rt_load_b(float4 *rb, const float *__restrict__ B, int N, int K, int n0,
                                                 int k0, int fast)
{
    int i;
#pragma unroll
    for (i = 0; i < RT_B_LOADS; i++) {
        int v = threadIdx.x + i * RT_THREADS;
        int gk = k0 + v / (RT_BN / 4), gn = n0 + (v % (RT_BN / 4)) * 4;
        if (RT_B_VECS % RT_THREADS != 0 && v >= RT_B_VECS) break;
        if (fast) {
            rb[i] = __ldg((const float4 *)(B + gk * N + gn));
        } else {
            rb[i].x = (gk < K && gn + 0 < N) ? __ldg(B + gk * N + gn + 0) : 0.0f;
            rb[i].y = (gk < K && gn + 1 < N) ? __ldg(B + gk * N + gn + 1) : 0.0f;
            rb[i].z = (gk < K && gn + 2 < N) ? __ldg(B + gk * N + gn + 2) : 0.0f;
            rb[i].w = (gk < K && gn + 3 < N) ? __ldg(B + gk * N + gn + 3) : 0.0f;
        }
    }
}

/* Registers -> shared.  A goes in transposed, As[k][m], so that a thread's TM rows of A at one k
 * are consecutive floats (float4 reads); the row is padded to BM + 4 floats because unpadded, the
 * two lanes storing columns c and c + 4 of one row would hit the same bank (4 x 128 floats apart);
 * with the pad they are 16 banks apart.  B goes in as it is, one float4 store each. */
static __device__ __forceinline__ void rt_store_tiles(float *As, float *Bs, const float4 *ra, const float4 *rb)
{
    int i;
#pragma unroll
    for (i = 0; i < RT_A_LOADS; i++) {
        int v = threadIdx.x + i * RT_THREADS;
        int m = v / (RT_BK / 4), k = (v % (RT_BK / 4)) * 4;
        if (RT_A_VECS % RT_THREADS != 0 && v >= RT_A_VECS) break;
        As[(k + 0) * RT_AS_LD + m] = ra[i].x;
        As[(k + 1) * RT_AS_LD + m] = ra[i].y;
        As[(k + 2) * RT_AS_LD + m] = ra[i].z;
        As[(k + 3) * RT_AS_LD + m] = ra[i].w;
    }
#pragma unroll
    for (i = 0; i < RT_B_LOADS; i++) {
        int v = threadIdx.x + i * RT_THREADS;
        if (RT_B_VECS % RT_THREADS != 0 && v >= RT_B_VECS) break;
        *(float4 *)&Bs[(v / (RT_BN / 4)) * RT_BN + (v % (RT_BN / 4)) * 4] = rb[i];
    }
}

/* One tile's worth of work: for each of the BK values of k, the thread's TM floats of A (rows
 * ty x TM ..) and 8 of B (columns tx x 4 .. + 3 and 64 + tx x 4 .. + 3) into registers, then their
 * outer product into the TM x 8 accumulators.  The two halves of the B fragment are 64 columns
 * apart so that a quarter-warp's 8 float4 reads are 128 consecutive bytes (no bank conflict); a
 * contiguous 8 would put lanes 32 bytes apart and conflict two ways. */
static __device__ __forceinline__ void rt_compute_tile(const float *As, const float *Bs, float acc[RT_TM][RT_TN],
                                                       int tx, int ty)
{
    int k, i, j;
#pragma unroll
    for (k = 0; k < RT_BK; k++) {
        float a[RT_TM], b[RT_TN];
        float4 b0 = *(const float4 *)&Bs[k * RT_BN + tx * 4];
        float4 b1 = *(const float4 *)&Bs[k * RT_BN + RT_BN / 2 + tx * 4];
#pragma unroll
        for (i = 0; i < RT_TM; i += 4) {
            float4 t = *(const float4 *)&As[k * RT_AS_LD + ty * RT_TM + i];
            a[i + 0] = t.x;
            a[i + 1] = t.y;
            a[i + 2] = t.z;
            a[i + 3] = t.w;
        }
        b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w;
        b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
#pragma unroll
        for (i = 0; i < RT_TM; i++)
#pragma unroll
            for (j = 0; j < RT_TN; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

/* Accumulators -> C.  A full block with 16-byte aligned rows writes float4s (a warp: 4 rows x
 * 128 bytes per store); otherwise each element is written only if it is inside C. */
static __device__ __forceinline__ void rt_store_c(float *__restrict__ C, int M, int N, int m0, int n0,
                                                  float acc[RT_TM][RT_TN], int tx, int ty)
{
    const int full = (N % 4 == 0) && ((uintptr_t)C % 16 == 0) && m0 + RT_BM <= M && n0 + RT_BN <= N;
    int i, h, j;
#pragma unroll
    for (i = 0; i < RT_TM; i++) {
        int r = m0 + ty * RT_TM + i;
#pragma unroll
        for (h = 0; h < 2; h++) {
            int c = n0 + h * (RT_BN / 2) + tx * 4;
            if (full) {
                *(float4 *)&C[r * N + c] =
                    make_float4(acc[i][4 * h + 0], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            } else {
#pragma unroll
                for (j = 0; j < 4; j++)
                    if (r < M && c + j < N) C[r * N + c + j] = acc[i][4 * h + j];
            }
        }
    }
}

/* Which loads of this block may be 16-byte vectors: all rows of its A tiles in range and A's
 * rows 16-byte aligned (K a multiple of 4, aligned base); the same for B's columns.  A k-tile
 * must also be complete (k0 + BK <= K), which the callers add. */
static __device__ __forceinline__ int rt_a_vec(const float *A, int M, int K, int m0)
{
    return (K % 4 == 0) && ((uintptr_t)A % 16 == 0) && m0 + RT_BM <= M;
}
static __device__ __forceinline__ int rt_b_vec(const float *B, int N, int n0)
{
    return (N % 4 == 0) && ((uintptr_t)B % 16 == 0) && n0 + RT_BN <= N;
}

/* Variant 2: one shared buffer.  Per tile: global -> registers, barrier (everyone has finished
 * reading the previous tile), registers -> shared, barrier (the tile is complete), compute. */
__global__ void __launch_bounds__(RT_THREADS, RT_MIN_BLOCKS)
sgemm_rt128(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) float As[RT_BK * RT_AS_LD];
    __shared__ __align__(16) float Bs[RT_BK * RT_BN];
    const int m0 = blockIdx.y * RT_BM, n0 = blockIdx.x * RT_BN;
    const int a_vec = rt_a_vec(A, M, K, m0), b_vec = rt_b_vec(B, N, n0);
    const int full_tiles = K / RT_BK, tiles = (K + RT_BK - 1) / RT_BK;
    float acc[RT_TM][RT_TN];
    float4 ra[RT_A_LOADS], rb[RT_B_LOADS];
    int tx, ty, t, i, j;

    rt_thread_coords(&tx, &ty);
#pragma unroll
    for (i = 0; i < RT_TM; i++)
#pragma unroll
        for (j = 0; j < RT_TN; j++) acc[i][j] = 0.0f;

    for (t = 0; t < tiles; t++) {
        int k0 = t * RT_BK, kfull = t < full_tiles;
        rt_load_a(ra, A, M, K, m0, k0, a_vec && kfull);
        rt_load_b(rb, B, N, K, n0, k0, b_vec && kfull);
        __syncthreads();
        rt_store_tiles(As, Bs, ra, rb);
        __syncthreads();
        rt_compute_tile(As, Bs, acc, tx, ty);
    }
    rt_store_c(C, M, N, m0, n0, acc, tx, ty);
}

/* Variant 3: two shared buffers.  While the FMAs of tile t run on buffer t % 2, the global loads
 * of tile t + 1 are already in flight into registers; they go to the other buffer after the FMAs.
 * One barrier per tile suffices: the buffer written in step t was last read in step t - 1, and
 * every thread finished step t - 1 before passing the barrier that ended it. */
__global__ void __launch_bounds__(RT_THREADS, RT_MIN_BLOCKS)
sgemm_rt128db(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][RT_BK * RT_AS_LD];
    __shared__ __align__(16) float Bs[2][RT_BK * RT_BN];
    const int m0 = blockIdx.y * RT_BM, n0 = blockIdx.x * RT_BN;
    const int a_vec = rt_a_vec(A, M, K, m0), b_vec = rt_b_vec(B, N, n0);
    const int full_tiles = K / RT_BK, tiles = (K + RT_BK - 1) / RT_BK;
    float acc[RT_TM][RT_TN];
    float4 ra[RT_A_LOADS], rb[RT_B_LOADS];
    int tx, ty, t, i, j;

    rt_thread_coords(&tx, &ty);
#pragma unroll
    for (i = 0; i < RT_TM; i++)
#pragma unroll
        for (j = 0; j < RT_TN; j++) acc[i][j] = 0.0f;

    rt_load_a(ra, A, M, K, m0, 0, a_vec && full_tiles > 0);
    rt_load_b(rb, B, N, K, n0, 0, b_vec && full_tiles > 0);
    rt_store_tiles(As[0], Bs[0], ra, rb);
    __syncthreads();
    for (t = 0; t < tiles; t++) {
        int cur = t % 2, more = t + 1 < tiles;
        if (more) {
            int k0 = (t + 1) * RT_BK, kfull = t + 1 < full_tiles;
            rt_load_a(ra, A, M, K, m0, k0, a_vec && kfull);
            rt_load_b(rb, B, N, K, n0, k0, b_vec && kfull);
        }
        rt_compute_tile(As[cur], Bs[cur], acc, tx, ty);
        if (more) rt_store_tiles(As[1 - cur], Bs[1 - cur], ra, rb);
        __syncthreads();
    }
    rt_store_c(C, M, N, m0, n0, acc, tx, ty);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* What a launch needs: the product (its device matrices and sizes) and, for cuBLAS, the handle. */
typedef struct {
    const gemm_problem_t *p;
    cublasHandle_t handle;
} gemm_ctx_t;

static void launch_rt64(void *v)
{
    const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;
    dim3 grid(gemm_blocks(p->N, R64_BN), gemm_blocks(p->M, R64_BM));
    sgemm_rt64<<<grid, R64_THREADS>>>(p->dA, p->dB, p->dC, p->M, p->N, p->K);
}

static void launch_rt128(void *v)
{
    const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;
    dim3 grid(gemm_blocks(p->N, RT_BN), gemm_blocks(p->M, RT_BM));
    sgemm_rt128<<<grid, RT_THREADS>>>(p->dA, p->dB, p->dC, p->M, p->N, p->K);
}

static void launch_rt128db(void *v)
{
    const gemm_problem_t *p = ((const gemm_ctx_t *)v)->p;
    dim3 grid(gemm_blocks(p->N, RT_BN), gemm_blocks(p->M, RT_BM));
    sgemm_rt128db<<<grid, RT_THREADS>>>(p->dA, p->dB, p->dC, p->M, p->N, p->K);
}

/* cuBLAS is column-major: cublas_sgemm_row_major (common/cublas_check.h) asks it for C^T = B^T x A^T. */
static void launch_cublas(void *v)
{
    const gemm_ctx_t *c = (const gemm_ctx_t *)v;
    cublas_sgemm_row_major(c->handle, c->p->M, c->p->N, c->p->K, c->p->dA, c->p->dB, c->p->dC);
}

typedef struct {
    const char *label;   /* the table row and the NVTX range `make profile` names it by */
    launch_fn_t launch;
    int ours;            /* 0 for cuBLAS */
} kernel_t;

static char label_rt128[40], label_rt128db[40];
static kernel_t KERNELS[] = {
    {"cublasSgemm (FP32)", launch_cublas, 0},
    {"sgemm_rt64 4x4 scalar", launch_rt64, 1},
    {label_rt128, launch_rt128, 1},
    {label_rt128db, launch_rt128db, 1},
};
#define NKERNELS ((int)(sizeof KERNELS / sizeof KERNELS[0]))

static void make_labels(void)
{
    snprintf(label_rt128, sizeof label_rt128, "sgemm_rt128 %dx%d float4", RT_TM, RT_TN);
    snprintf(label_rt128db, sizeof label_rt128db, "sgemm_rt128db %dx%d 2-buf", RT_TM, RT_TN);
}

/* --check on one shape: every kernel and cuBLAS. */
static void check_kernels(gemm_problem_t *p, const char *size, void *user, gemm_tally_t *t)
{
    gemm_ctx_t c = {p, *(cublasHandle_t *)user};
    int ki;
    for (ki = 0; ki < NKERNELS; ki++) gemm_check_launch(p, KERNELS[ki].label, size, KERNELS[ki].launch, &c, t);
}

/* --check: every kernel (and cuBLAS) on shapes that are multiples of no tile, on exact
 * multiples (the float4 fast path everywhere), on shapes that mix full and partial tiles with a
 * partial last k-tile, on unaligned rows (every pointer 4 bytes past a 16-byte boundary), and on
 * two large ones; fresh random inputs for every shape. */
static int run_checks(const args_t *a, cublasHandle_t h)
{
    static const gemm_case_t cases[] = {
        {1, 1, 1, 0, 0},       {1, 7, 3, 0, 0},       {7, 1, 3, 0, 0},       {33, 31, 17, 0, 0},
        {127, 129, 131, 0, 0}, {257, 1, 513, 0, 0},   {1, 257, 513, 0, 0},   {128, 128, 8, 0, 0},
        {256, 256, 256, 0, 0}, {260, 132, 36, 0, 0},  {260, 132, 36, 1, 0},  {384, 256, 1024, 0, 0},
        {1000, 777, 333, 0, 1}, {8191, 4097, 129, 0, 1}, {2048, 2048, 2048, 0, 1},
    };
    return gemm_run_checks(cases, (int)(sizeof cases / sizeof cases[0]), a, check_kernels, &h);
}

/* Verifies and times every kernel on one product; ok[], gf[] get the results.  Returns 1 if a
 * kernel failed verification. */
static int measure_all(const gpu_info_t *g, const args_t *a, cublasHandle_t h, int M, int N, int K,
                       const char *experiment, const char *title, int ok[], double gf[])
{
    gemm_problem_t p;
    double flops = 2.0 * M * N * K;
    double min_bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    timing_t t[NKERNELS];
    int ki, failed = 0, flush = gpu_flush_wanted(g, a, (size_t)min_bytes);
    char what[96];

    gemm_problem_init(&p, M, N, K, 0, a->seed);
    for (ki = 0; ki < NKERNELS; ki++) {
        gemm_ctx_t c = {&p, h};
        snprintf(what, sizeof what, "%s (M=%d N=%d K=%d)", KERNELS[ki].label, M, N, K);
        gf[ki] = 0.0;
        ok[ki] = gemm_verify_then_time(&p, KERNELS[ki].label, what, KERNELS[ki].launch, &c, a, flush, &t[ki]);
        if (!ok[ki]) {
            failed = 1;
            continue;
        }
        gf[ki] = flops / (t[ki].median_ms * 1e6);
    }
    report_begin(experiment, title, "GFLOP/s");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (ok[ki]) report_row(KERNELS[ki].label, &t[ki], min_bytes, gf[ki]);
        else report_row_failed(KERNELS[ki].label);
    }
    gemm_problem_free(&p);
    return failed;
}

/* Experiment 2: the register-tiled kernels against cuBLAS, with the FP32 peak. */
static int experiment_gemm(const gpu_info_t *g, const args_t *a, cublasHandle_t h, int M, int N, int K, int ok[],
                           double gf[])
{
    int ki, best = -1, failed;
    double peak, ratio;
    char title[400], takeaway[400];

    report_say("\nExperiment 2: C = A x B with M = %d, N = %d, K = %d, %.1f GFLOP (2 x M x N x K).\n", M, N, K,
               2.0 * M * N * K / 1e9);
    peak = gemm_fp32_peak_say(g);
    report_say("  cuBLAS: cublasSgemm, FP32 inputs and accumulation; math mode CUBLAS_DEFAULT_MATH, so TF32\n"
               "  Tensor Cores are off.  Block tiles: rt64 64x64 (4x4 per thread, 256 threads), rt128\n"
               "  128x128 (%dx%d per thread, %d threads), BK = 8.\n", RT_TM, RT_TN, RT_THREADS);
    gemm_say_verification(M, N, K);
    snprintf(title, sizeof title,
             "  Register tiles against cuBLAS (GB/s counts only the least bytes, A and B read once and C\n"
             "  written once; for a compute-bound kernel it is not the point: read GFLOP/s):");
    failed = measure_all(g, a, h, M, N, K, "sgemm", title, ok, gf);
    for (ki = 1; ki < NKERNELS; ki++)
        if (ok[ki] && (best < 0 || gf[ki] > gf[best])) best = ki;
    if (best > 0 && ok[0]) {
        ratio = 100.0 * gf[best] / gf[0];
        snprintf(takeaway, sizeof takeaway,
                 "the best register-tiled kernel, %s, reaches %.1f%% of cuBLAS SGEMM and %.1f%% of the FP32 peak "
                 "(cuBLAS: %.1f%%).", KERNELS[best].label, ratio, 100.0 * gf[best] / peak, 100.0 * gf[0] / peak);
    } else {
        ratio = NAN;
        snprintf(takeaway, sizeof takeaway, "a kernel failed verification: no comparison.");
    }
    report_end(takeaway);

    report_say("\n  %-26s %10s %12s %10s\n", "kernel", "GFLOP/s", "% FP32 peak", "% cuBLAS");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (!ok[ki]) {
            report_say("  %-26s FAILED verification\n", KERNELS[ki].label);
            continue;
        }
        report_say("  %-26s %10.0f %12.1f", KERNELS[ki].label, gf[ki], 100.0 * gf[ki] / peak);
        if (ok[0]) report_say(" %10.1f\n", 100.0 * gf[ki] / gf[0]);
        else report_say(" %10s\n", "-");
    }
    if (!isnan(ratio))
        report_say("\n  Goal: best register-tiled kernel >= 70%% of cuBLAS SGEMM at 4096 x 4096 x 4096: %s "
                   "(%.1f%% at %d x %d x %d%s)\n", ratio >= 70.0 ? "PASS" : "MISS", ratio, M, N, K,
                   (M == 4096 && N == 4096 && K == 4096) ? "" : "; not the goal's size");
    return failed;
}

/* Experiment 3: one less than the size in every dimension: no row is 16-byte aligned, so every
 * load takes the guarded scalar path, and every edge block is partial. */
static int experiment_edges(const gpu_info_t *g, const args_t *a, cublasHandle_t h, int M, int N, int K,
                            const double gf_aligned[], const int ok_aligned[])
{
    int ok[NKERNELS], ki, failed, any = 0;
    double gf[NKERNELS];
    char title[300], takeaway[400], part[120];

    if (M < 2 || N < 2 || K < 2) return 0;
    M--;
    N--;
    K--;
    report_say("\nExperiment 3: the same product at M = %d, N = %d, K = %d: K and N are not multiples of 4, so most\n"
               "  rows of A and B are not 16-byte aligned and every load takes the guarded scalar path.\n", M, N, K);
    snprintf(title, sizeof title, "  Unaligned, partial tiles everywhere (M = %d, N = %d, K = %d):", M, N, K);
    failed = measure_all(g, a, h, M, N, K, "sgemm_unaligned", title, ok, gf);
    snprintf(takeaway, sizeof takeaway, "GFLOP/s against the aligned size:");
    for (ki = 0; ki < NKERNELS; ki++) {
        if (!ok[ki] || !ok_aligned[ki] || gf_aligned[ki] <= 0) continue;
        snprintf(part, sizeof part, "%s %s %.0f%%", any ? ";" : "", KERNELS[ki].label, 100.0 * gf[ki] / gf_aligned[ki]);
        if (strlen(takeaway) + strlen(part) < sizeof takeaway) strcat(takeaway, part);
        any = 1;
    }
    report_end(any ? takeaway : "a kernel failed verification: no comparison.");
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 08, part 2: register tiles. The matrix product C = A x B (FP32, row-major) with each thread\n"
        "computing a block of C from register fragments: 64x64 tiles with 4x4 per thread, 128x128 tiles with\n"
        "float4 loads, and the same double-buffered, against cublasSgemm (TF32 off). Reports GFLOP/s, % of the\n"
        "FP32 peak and % of cuBLAS; every kernel verified against a double-precision CPU reference.";
    gemm_size_args_t size;
    args_t a;
    gpu_info_t g;
    cublasHandle_t h;
    int M, N, K, failed = 0, ok[NKERNELS];
    double gf[NKERNELS];
    char block_why[100];

    gemm_size_args_init(&size);
    args_parse_or_exit(argc, argv, &a, summary, GEMM_SIZE_HELP, size.opts, GEMM_SIZE_NOPTS);
    snprintf(block_why, sizeof block_why, "the block shapes follow the tiles (256 threads for rt64, %d for rt128)",
             RT_THREADS);
    gemm_size_or_exit(argc, argv, &a, &size, block_why, &M, &N, &K);
    make_labels();
    report_init("08_register_tiles", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 08, part 2 - register-tiled SGEMM against cuBLAS", &a);
    CUBLAS_CHECK(cublasCreate(&h));   /* once: creating a handle costs a good part of a second */
    CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    if (a.check) {
        failed = run_checks(&a, h);
    } else {
        gemm_report_ceilings(&g, &a);
        failed |= experiment_gemm(&g, &a, h, M, N, K, ok, gf);
        failed |= experiment_edges(&g, &a, h, M, N, K, gf, ok);
    }
    CUBLAS_CHECK(cublasDestroy(h));
    gpu_finish();
    if (failed) {
        if (!a.check) fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
