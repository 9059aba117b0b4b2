/* Lesson 08, part 2's kernels: register tiles, the register-blocked matrix product (SGEMM).
 * Read this file first; sgemm_regtile.cu only verifies, times and prints them (against cuBLAS).
 * In the order the notes present them:
 *   sgemm_rt64    64 x 64 block tile, 4 x 4 per thread, scalar loads: register blocking alone.
 *   sgemm_rt128   128 x 128 block tile, BK = 8, SGEMM_TM x 8 per thread: float4 loads of A and B,
 *                 A stored transposed in shared memory so fragments are float4 reads too.
 *   sgemm_rt128db the same with two shared buffers: the next tile's global loads overlap the
 *                 current tile's FMAs, one barrier per tile instead of two.
 *
 * C = A x B in single precision, all row-major: A is M x K, B is K x N, C is M x N.  Lesson 07's
 * tiled kernel gives each thread one element of C: per multiply-add it reads two floats from
 * shared memory, so shared memory, not the FP32 units, sets its speed.  Here each thread computes
 * a TM x TN block of C.  Per step along k it loads TM floats of A and TN floats of B from shared
 * memory into registers (its "fragments") and does TM x TN multiply-adds with them, an outer
 * product: TM + TN shared loads for TM x TN FMAs, and TM x TN independent accumulators that keep
 * the FMA pipes busy.
 *
 * Every kernel handles any M, N, K: a full tile takes the vector path, a partial one guarded scalar
 * loads that fill zeros, and only elements inside C are written.
 *
 * Each kernel is followed by its launcher, launch_<kernel>(C, A, B, M, N, K, block, stream), which
 * fixes the block (and ignores `block`): sgemm_rt64 on div_up(N, R64_BN) x div_up(M, R64_BM) blocks
 * of R64_THREADS threads; the 128 x 128 kernels on div_up(N, RT_BN) x div_up(M, RT_BM) blocks of
 * RT_THREADS threads. */
#ifndef LESSON08_SGEMM_KERNELS_CUH
#define LESSON08_SGEMM_KERNELS_CUH

#include <stdint.h>
#include "grid.cuh"

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
sgemm_rt64(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M, int N, int K)
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

static inline void launch_sgemm_rt64(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                     cudaStream_t s)
{
    (void)block;
    sgemm_rt64<<<dim3(div_up(N, R64_BN), div_up(M, R64_BM)), R64_THREADS, 0, s>>>(C, A, B, M, N, K);
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

/* How every thread of the 128 x 128 kernels starts: its place (rt_thread_coords), its
 * accumulators at zero. */
static __device__ __forceinline__ void rt_start(float acc[RT_TM][RT_TN], int *tx, int *ty)
{
    int i, j;
    rt_thread_coords(tx, ty);
#pragma unroll
    for (i = 0; i < RT_TM; i++)
#pragma unroll
        for (j = 0; j < RT_TN; j++) acc[i][j] = 0.0f;
}

/* Global -> registers, one tile of a rows x cols matrix X (row-major) from (r0, c0): `loads` float4s
 * per thread, `vecs` in all, `row_vecs` to a row of the tile.  fast: every element is in range and
 * every row 16-byte aligned, so one 16-byte load per float4; otherwise four guarded scalar loads,
 * zero outside X.  The sizes are constants at every call, so the loop unrolls as if written out. */
static __device__ __forceinline__ void rt_load_tile(float4 *reg, const float *__restrict__ X, int rows, int cols,
                                                    int r0, int c0, const int row_vecs, const int loads,
                                                    const int vecs, int fast)
{
    int i;
#pragma unroll
    for (i = 0; i < loads; i++) {
        int v = threadIdx.x + i * RT_THREADS;
        int gr = r0 + v / row_vecs, gc = c0 + (v % row_vecs) * 4;
        if (vecs % RT_THREADS != 0 && v >= vecs) break;
        if (fast) {
            reg[i] = __ldg((const float4 *)(X + gr * cols + gc));
        } else {
            reg[i].x = (gr < rows && gc + 0 < cols) ? __ldg(X + gr * cols + gc + 0) : 0.0f;
            reg[i].y = (gr < rows && gc + 1 < cols) ? __ldg(X + gr * cols + gc + 1) : 0.0f;
            reg[i].z = (gr < rows && gc + 2 < cols) ? __ldg(X + gr * cols + gc + 2) : 0.0f;
            reg[i].w = (gr < rows && gc + 3 < cols) ? __ldg(X + gr * cols + gc + 3) : 0.0f;
        }
    }
}

/* The A tile (BM rows x BK columns of A).  Float4 v covers row v / 2, columns (v % 2) x 4 .. + 3:
 * a warp reads 16 rows x 32 bytes, whole sectors. */
static __device__ __forceinline__ void rt_load_a(float4 *ra, const float *__restrict__ A, int M, int K, int m0,
                                                 int k0, int fast)
{
    rt_load_tile(ra, A, M, K, m0, k0, RT_BK / 4, RT_A_LOADS, RT_A_VECS, fast);
}

/* The B tile (BK rows x BN columns of B).  Float4 v covers row v / 32, columns (v % 32) x 4 .. + 3:
 * a warp reads 512 consecutive bytes of one row. */
static __device__ __forceinline__ void rt_load_b(float4 *rb, const float *__restrict__ B, int N, int K, int n0,
                                                 int k0, int fast)
{
    rt_load_tile(rb, B, K, N, k0, n0, RT_BN / 4, RT_B_LOADS, RT_B_VECS, fast);
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
sgemm_rt128(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M, int N, int K)
{
    __shared__ __align__(16) float As[RT_BK * RT_AS_LD];
    __shared__ __align__(16) float Bs[RT_BK * RT_BN];
    const int m0 = blockIdx.y * RT_BM, n0 = blockIdx.x * RT_BN;
    const int a_vec = rt_a_vec(A, M, K, m0), b_vec = rt_b_vec(B, N, n0);
    const int full_tiles = K / RT_BK, tiles = (K + RT_BK - 1) / RT_BK;
    float acc[RT_TM][RT_TN];
    int tx, ty, t;

    rt_start(acc, &tx, &ty);

    for (t = 0; t < tiles; t++) {
        int k0 = t * RT_BK, kfull = t < full_tiles;
        float4 ra[RT_A_LOADS], rb[RT_B_LOADS];   /* this tile only: no prefetch in this variant */
        rt_load_a(ra, A, M, K, m0, k0, a_vec && kfull);
        rt_load_b(rb, B, N, K, n0, k0, b_vec && kfull);
        __syncthreads();
        rt_store_tiles(As, Bs, ra, rb);
        __syncthreads();
        rt_compute_tile(As, Bs, acc, tx, ty);
    }
    rt_store_c(C, M, N, m0, n0, acc, tx, ty);
}

static inline void launch_sgemm_rt128(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                      cudaStream_t s)
{
    (void)block;
    sgemm_rt128<<<dim3(div_up(N, RT_BN), div_up(M, RT_BM)), RT_THREADS, 0, s>>>(C, A, B, M, N, K);
}

/* Variant 3: two shared buffers.  While the FMAs of tile t run on buffer t % 2, the global loads
 * of tile t + 1 are already in flight into registers; they go to the other buffer after the FMAs.
 * One barrier per tile suffices: the buffer written in step t was last read in step t - 1, and
 * every thread finished step t - 1 before passing the barrier that ended it. */
__global__ void __launch_bounds__(RT_THREADS, RT_MIN_BLOCKS)
sgemm_rt128db(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M, int N, int K)
{
    __shared__ __align__(16) float As[2][RT_BK * RT_AS_LD];
    __shared__ __align__(16) float Bs[2][RT_BK * RT_BN];
    const int m0 = blockIdx.y * RT_BM, n0 = blockIdx.x * RT_BN;
    const int a_vec = rt_a_vec(A, M, K, m0), b_vec = rt_b_vec(B, N, n0);
    const int full_tiles = K / RT_BK, tiles = (K + RT_BK - 1) / RT_BK;
    float acc[RT_TM][RT_TN];
    float4 ra[RT_A_LOADS], rb[RT_B_LOADS];
    int tx, ty, t;

    rt_start(acc, &tx, &ty);

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

static inline void launch_sgemm_rt128db(float *C, const float *A, const float *B, int M, int N, int K, dim3 block,
                                        cudaStream_t s)
{
    (void)block;
    sgemm_rt128db<<<dim3(div_up(N, RT_BN), div_up(M, RT_BM)), RT_THREADS, 0, s>>>(C, A, B, M, N, K);
}

#endif
