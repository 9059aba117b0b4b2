/* Lesson 08: register tiles -- each thread moves a small block of the matrix through registers
 * with vector loads and stores, and a transpose within a few per cent of the copy at any size.
 *
 * Experiment 1: the source's register tiles.  A thread loads a 4x4 block as four float4 rows,
 * transposes it in registers and stores four float4 rows of the output: (1) "direct", each output
 * float4 built from four scalar loads straight out of global memory; (2) "rowwise", the four rows
 * loaded as float4 and each output row stored as soon as it is built; (3) "load-all", everything
 * loaded, everything built, then everything stored.  Then block shapes 8x4, 8x8, 16x16, 32x32 and
 * 32x2, and the float2 2x2 version (the exercise) with 8x8 and 16x16 blocks.  The "st sect/req"
 * column is the number of 32-byte sectors one warp's store touches, from the warp's shape.
 * Experiment 2: the fastest transpose against the copy: cudaMemcpy, a float4 copy kernel with one
 * block per 4 KiB (the form that matched cudaMemcpy in lesson 04), cublasSgeam used as a transpose,
 * and the candidates -- 64x64 shared tiles with float4 accesses, the same with scalar accesses, a
 * 64x64 tile whose float4 stores are aligned at any size, the scalar and the aligned tiles again
 * with their blocks dealt out in bands of 32 tile rows ("banded": the DRAM pages each side touches
 * at one moment), and the best register tile -- at 8192 x 8192.
 * Experiment 3 (default size only): Experiment 2 again at 8191 x 4097, where no row is aligned.
 * Then the goals, as ratios from this run.
 *
 * Layout (as in lessons 04-07): `in` has ny rows of nx floats, element (r, c) at in[r * nx + c];
 * the transpose `out` has nx rows of ny floats: out[c * ny + r] = in[r * nx + c].  Every kernel
 * handles any nx, ny >= 1: a vector path where the rows are aligned, a scalar path otherwise. */
#include "args.h"
#include "checked_bench.h"
#include "cublas_check.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "sectors.h"
#include "stats.h"
#include "transpose_matrix.h"
#include "verify.h"

#include <cublas_v2.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* A float4 access must be 16-byte aligned.  The buffers come from cudaMalloc (256-byte aligned), so
 * row r of `in` starts 16-byte aligned for every r exactly when nx is a multiple of 4, and row c of
 * `out` when ny is.  With both, a 4x4 block whose first row and column are inside the matrix is
 * wholly inside it (r0 and c0 are multiples of 4).  Otherwise the kernels below take
 * reg4x4_scalar: one float at a time, each with its bounds test -- correct for any shape, slow. */
static __device__ __forceinline__ void reg4x4_scalar(const float *__restrict__ in, float *__restrict__ out,
                                                     int nx, int ny, int r0, int c0)
{
    float v[4][4];
    int i, k;
#pragma unroll
    for (i = 0; i < 4; i++)
#pragma unroll
        for (k = 0; k < 4; k++)
            v[i][k] = (r0 + i < ny && c0 + k < nx) ? in[(size_t)(r0 + i) * nx + c0 + k] : 0.0f;
#pragma unroll
    for (k = 0; k < 4; k++)
#pragma unroll
        for (i = 0; i < 4; i++)
            if (r0 + i < ny && c0 + k < nx) out[(size_t)(c0 + k) * ny + r0 + i] = v[i][k];
}

/* Thread (x, y) of the grid moves the 4x4 block at rows 4y.., columns 4x.. -- in all three variants.
 * None of them has a barrier, so threads outside the matrix may simply leave. */

/* (1) direct: each output float4 is assembled from four 4-byte loads straight from the input
 * (16 scalar loads per thread, 4 lanes' worth of sectors reread from L1 by each instruction). */
__global__ void transpose_reg4x4_direct(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    const int c0 = 4 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 4 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 3) == 0) {
        const float *s = in + (size_t)r0 * nx + c0;
        float4 *d = (float4 *)(out + (size_t)c0 * ny + r0);
        const size_t sp = (size_t)nx, dp = (size_t)ny / 4;  /* row pitches: floats in, float4 out */
        int k;
#pragma unroll
        for (k = 0; k < 4; k++) d[k * dp] = make_float4(s[k], s[sp + k], s[2 * sp + k], s[3 * sp + k]);
    } else {
        reg4x4_scalar(in, out, nx, ny, r0, c0);
    }
}

/* (2) rowwise: four float4 loads (the four input rows), then each output row is built from one
 * component of each and stored at once. */
__global__ void transpose_reg4x4_rowwise(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    const int c0 = 4 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 4 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 3) == 0) {
        const float4 *s = (const float4 *)(in + (size_t)r0 * nx + c0);
        float4 *d = (float4 *)(out + (size_t)c0 * ny + r0);
        const size_t sp = (size_t)nx / 4, dp = (size_t)ny / 4;  /* row pitches in float4 */
        const float4 a0 = s[0], a1 = s[sp], a2 = s[2 * sp], a3 = s[3 * sp];
        d[0] = make_float4(a0.x, a1.x, a2.x, a3.x);
        d[dp] = make_float4(a0.y, a1.y, a2.y, a3.y);
        d[2 * dp] = make_float4(a0.z, a1.z, a2.z, a3.z);
        d[3 * dp] = make_float4(a0.w, a1.w, a2.w, a3.w);
    } else {
        reg4x4_scalar(in, out, nx, ny, r0, c0);
    }
}

/* (3) load-all: four float4 loads, all four output rows built, then four float4 stores.  The same
 * work as (2) in another order -- whether the order survives compilation is for `make profile`
 * (and cuobjdump -sass) to tell. */
__global__ void transpose_reg4x4_loadall(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    const int c0 = 4 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 4 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 3) == 0) {
        const float4 *s = (const float4 *)(in + (size_t)r0 * nx + c0);
        float4 *d = (float4 *)(out + (size_t)c0 * ny + r0);
        const size_t sp = (size_t)nx / 4, dp = (size_t)ny / 4;
        const float4 a0 = s[0], a1 = s[sp], a2 = s[2 * sp], a3 = s[3 * sp];
        const float4 o0 = make_float4(a0.x, a1.x, a2.x, a3.x), o1 = make_float4(a0.y, a1.y, a2.y, a3.y);
        const float4 o2 = make_float4(a0.z, a1.z, a2.z, a3.z), o3 = make_float4(a0.w, a1.w, a2.w, a3.w);
        d[0] = o0;
        d[dp] = o1;
        d[2 * dp] = o2;
        d[3 * dp] = o3;
    } else {
        reg4x4_scalar(in, out, nx, ny, r0, c0);
    }
}

/* The float2 2x2 version: the exercise's reference solution, kept once in this header. */
#include "reg_tile_2x2.cuh"

/* The copy to compare with: float4 accesses and ONE PASS -- a block per COPY_ILP x 256 float4s,
 * so the grid has tens of thousands of short blocks and the block scheduler hands them out in
 * address order: at any moment the bytes in flight lie in one contiguous window a few MiB wide.
 * Lesson 04 measured this form at cudaMemcpy's speed on the H100 (f4 x1 one pass: 100.0%) and the
 * grid-stride form at 93% (lesson 04's hypothesis, not measured: its resident blocks drift apart
 * through the whole buffer).  Each
 * thread issues its COPY_ILP independent 16-byte loads before its first store (lesson 04 measured
 * 1 to 8 in one pass: 99-100% of cudaMemcpy, so 1 it is).  The last n % 4 floats are copied one by
 * one by the first block. */
#define COPY_ILP 1
#define COPY_THREADS 256
__global__ void __launch_bounds__(COPY_THREADS)
copy_f4_onepass(const float *__restrict__ src, float *__restrict__ dst, size_t n)
{
    const float4 *s4 = (const float4 *)src;
    float4 *d4 = (float4 *)dst;
    const size_t n4 = n / 4, i0 = (size_t)blockIdx.x * (COPY_THREADS * COPY_ILP) + threadIdx.x;
    float4 v[COPY_ILP];
    int u;
#pragma unroll
    for (u = 0; u < COPY_ILP; u++) {
        const size_t k = i0 + (size_t)u * COPY_THREADS;
        v[u] = k < n4 ? s4[k] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
#pragma unroll
    for (u = 0; u < COPY_ILP; u++) {
        const size_t k = i0 + (size_t)u * COPY_THREADS;
        if (k < n4) d4[k] = v[u];
    }
    if (blockIdx.x == 0 && threadIdx.x < n - 4 * n4) dst[4 * n4 + threadIdx.x] = src[4 * n4 + threadIdx.x];
}

/* Blocks of the one-pass copy for n floats: one per COPY_ILP x COPY_THREADS float4s, at least one
 * (a matrix of fewer than 4 floats has only the tail). */
static unsigned copy_grid(size_t n)
{
    const size_t per_block = (size_t)COPY_THREADS * COPY_ILP, blocks = (n / 4 + per_block - 1) / per_block;
    return blocks ? (unsigned)blocks : 1u;
}

/* ---- the 64x64 shared tiles ---------------------------------------------------------------
 * A block of 256 threads moves a 64x64 tile: 16 elements per thread, all loaded before the
 * barrier, so a block keeps 16 KiB of loads in flight (lesson 07's 32x32 tile with 32x8 threads:
 * 4 KiB).  The tile is stored as the input lies, s[row][col], with a pitch of 65 floats.
 *
 * Vector lanes.  With float4 accesses a row of 64 floats is 16 float4.  Thread t takes float4 q of
 * tile row (or output row) rq:  q = (t & 7) + 8 * ((t >> 5) & 1),  rq = ((t >> 3) & 3) + 4 * (t >> 6)
 * (+ 16 per pass).  A warp is then 4 rows x 8 float4: 4 runs of 128 contiguous bytes per access.
 * In shared memory lane (q8 = t & 7, k = (t >> 3) & 3) touches word 65 * (row) + 4 * q8 + ...,
 * i.e. bank 4 * q8 + k + const: all 32 lanes in different banks, in both phases.
 * Scalar lanes.  tx = t & 63, ty = t >> 6: a warp reads 32 consecutive floats of one row, and in
 * the second phase reads s[tx][..] (bank tx + const) to write 32 consecutive floats of an output
 * row -- lesson 07's kernel with 64 x 4 threads. */
#define T64 64
#define T64_THREADS 256
#define T64_PITCH 65
#define T64_HALO 8

/* ---- block order ----------------------------------------------------------------------------
 * Which tile a block moves.  band = 0: the 2-D grid's own order.  The GPU hands out blocks in
 * order of their index, x fastest, so the blocks resident at one moment (about 132 SMs x 8 = 1056
 * on the H100) are about 8 consecutive rows of tiles: on an 8192 x 8192 matrix their loads cover
 * 512 whole input rows, one contiguous 16 MiB stretch, but their stores cover all 8192 output rows
 * with about 2 KiB each -- and the 256-byte pieces one output row gets come from tiles 128 block
 * indices apart, handed out at different times.
 * band = B > 0: a 1-D grid whose blocks are dealt out band by band, a band being B rows of tiles,
 * and inside a band column by column: B consecutive blocks go down one column of tiles.  With
 * B = 32 the resident blocks are about 33 columns x 32 rows of tiles, 2048 input rows with 8 KiB
 * each and 2112 output rows with 8 KiB each, and the tiles that write neighbouring pieces of an
 * output row are neighbours in block order.  Same bytes, same instructions; only which DRAM pages
 * are busy together changes.  B = 1 is the 2-D grid's order again, B >= tiles_y column by column
 * (exercise 1 varies B).  The last band may have fewer than B rows; the mapping is a
 * bijection from 0 .. tiles_x * tiles_y - 1 onto the tiles (make check runs shapes with one band,
 * several, and a partial last one). */
#define T64_BAND 32
static __device__ __forceinline__ void tile_of_block(int band, int tiles_x, int tiles_y, int *tile_x, int *tile_y)
{
    if (band == 0) {
        *tile_x = (int)blockIdx.x;
        *tile_y = (int)blockIdx.y;
    } else {
        const unsigned bh = (unsigned)(band < tiles_y ? band : tiles_y);  /* a band is at most the matrix */
        const unsigned per_band = bh * (unsigned)tiles_x;  /* <= tiles_x * tiles_y, the grid: no overflow */
        const unsigned b = blockIdx.x / per_band, local = blockIdx.x - b * per_band;
        const unsigned left = (unsigned)tiles_y - b * bh;  /* tile rows from this band's first down */
        const unsigned rows = left < bh ? left : bh;       /* this band's height: bh, or less at the end */
        *tile_y = (int)(b * bh + local % rows);
        *tile_x = (int)(local / rows);
    }
}

/* Candidate A: float4 loads when nx % 4 == 0, float4 stores when ny % 4 == 0, scalar otherwise
 * (each side decided on its own; allow_vec = 0 forces scalar on both, for comparison).  Chunks of
 * 4 floats at a column multiple of 4 are wholly inside or wholly outside the matrix when the
 * pitch is a multiple of 4, so edge tiles need only a per-chunk test.  band: the block order
 * (tile_of_block; 0 = the 2-D grid's). */
__global__ void __launch_bounds__(T64_THREADS)
transpose_tile64_vec(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int allow_vec, int band)
{
    __shared__ float s[T64][T64_PITCH];  /* s[i][j] = in[r0 + i][c0 + j] */
    const int t = threadIdx.x;
    int tile_x, tile_y;
    tile_of_block(band, (nx + T64 - 1) / T64, (ny + T64 - 1) / T64, &tile_x, &tile_y);
    const int c0 = tile_x * T64, r0 = tile_y * T64;
    const int q = (t & 7) + 8 * ((t >> 5) & 1), rq = ((t >> 3) & 3) + 4 * (t >> 6);
    const int tx = t & 63, ty = t >> 6;
    int i;

    if (allow_vec && (nx & 3) == 0) {
        float4 v[4];
#pragma unroll
        for (i = 0; i < 4; i++) {
            const int r = r0 + rq + 16 * i, c = c0 + 4 * q;
            v[i] = (r < ny && c < nx) ? *(const float4 *)(in + (size_t)r * nx + c) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (i = 0; i < 4; i++) {
            float *d = &s[rq + 16 * i][4 * q];
            d[0] = v[i].x;
            d[1] = v[i].y;
            d[2] = v[i].z;
            d[3] = v[i].w;
        }
    } else {
        float v[16];
#pragma unroll
        for (i = 0; i < 16; i++) {
            const int r = r0 + ty + 4 * i, c = c0 + tx;
            v[i] = (r < ny && c < nx) ? in[(size_t)r * nx + c] : 0.0f;
        }
#pragma unroll
        for (i = 0; i < 16; i++) s[ty + 4 * i][tx] = v[i];
    }
    __syncthreads();  /* outside every branch: all 256 threads arrive */
    if (allow_vec && (ny & 3) == 0) {
#pragma unroll
        for (i = 0; i < 4; i++) {
            const int cl = rq + 16 * i, c = c0 + cl, r = r0 + 4 * q;  /* output row c, columns r..r+3 */
            if (c < nx && r < ny)
                *(float4 *)(out + (size_t)c * ny + r) =
                    make_float4(s[4 * q][cl], s[4 * q + 1][cl], s[4 * q + 2][cl], s[4 * q + 3][cl]);
        }
    } else {
#pragma unroll
        for (i = 0; i < 16; i++) {
            const int c = c0 + ty + 4 * i, r = r0 + tx;
            if (c < nx && r < ny) out[(size_t)c * ny + r] = s[tx][ty + 4 * i];
        }
    }
}

/* Candidate B: float4 stores at ANY size.  When ny is odd, output row c starts at float c * ny,
 * which is rarely a multiple of 4 (16 bytes) or 8 (a 32-byte sector): every warp's store would
 * half-fill the sectors at both ends of its run, which the L2 must merge with a neighbour's.
 * Instead, each output row is cut at its own 32-byte boundaries: row c starts a = (c * ny) % 8
 * floats past a boundary, so this tile writes output columns r = 64 * tile_y - a + (0..63) of
 * that row -- a run that starts exactly on a sector boundary.  Those columns are input rows up to
 * 7 above the tile, so the block loads 8 extra rows (T64_HALO) into s; they are also loaded by the
 * tile above, and come from the L2 the second time.  Only the first and last run of each output
 * row have elements outside the matrix; those few float4 go one float at a time.  Loads are
 * scalar (64 x 4 threads, 18 per thread): they are coalesced at any nx.  With ny % 8 == 0 there is
 * no shift (a = 0) and no extra row to load.  band: the block order (tile_of_block). */
__host__ __device__ static inline int tile64_alignst_rows(int ny)
{
    /* with a shift (ny % 8 != 0) an output row's runs start up to 7 floats early: one more tile row
     * where ny + 7 crosses a multiple of 64 (ny <= MAX_ROWS, so no overflow) */
    return (ny + ((ny & 7) ? T64_HALO - 1 : 0) + T64 - 1) / T64;
}

__global__ void __launch_bounds__(T64_THREADS)
transpose_tile64_alignst(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int band)
{
    __shared__ float s[T64_HALO + T64][T64_PITCH];  /* s[i][j] = in[rb + i][c0 + j] */
    const int t = threadIdx.x, tx = t & 63, ty = t >> 6;
    const int halo = (ny & 7) ? T64_HALO : 0;
    int tile_x, tile_y;
    tile_of_block(band, (nx + T64 - 1) / T64, tile64_alignst_rows(ny), &tile_x, &tile_y);
    const int c0 = tile_x * T64, rt = tile_y * T64, rb = rt - T64_HALO;
    const int q = (t & 7) + 8 * ((t >> 5) & 1), rq = ((t >> 3) & 3) + 4 * (t >> 6);
    float v[(T64_HALO + T64) / 4];
    int i;

#pragma unroll
    for (i = 0; i < (T64_HALO + T64) / 4; i++) {
        const int lr = ty + 4 * i, r = rb + lr, c = c0 + tx;
        v[i] = (lr >= T64_HALO - halo && r >= 0 && r < ny && c < nx) ? in[(size_t)r * nx + c] : 0.0f;
    }
#pragma unroll
    for (i = 0; i < (T64_HALO + T64) / 4; i++) s[ty + 4 * i][tx] = v[i];
    __syncthreads();  /* outside every branch: all 256 threads arrive */
#pragma unroll
    for (i = 0; i < 4; i++) {
        const int cl = rq + 16 * i, c = c0 + cl;
        if (c < nx) {
            const int a = (c * ny) & 7;         /* c * ny < nx * ny <= INT_MAX */
            const int r = rt - a + 4 * q;       /* output columns r .. r+3 of output row c */
            const int lr = T64_HALO - a + 4 * q; /* ... are rows lr .. lr+3 of s */
            const float e0 = s[lr][cl], e1 = s[lr + 1][cl], e2 = s[lr + 2][cl], e3 = s[lr + 3][cl];
            float *o = out + (size_t)c * ny;    /* start of output row c */
            if (r >= 0 && r + 3 < ny) {
                *(float4 *)(o + r) = make_float4(e0, e1, e2, e3);  /* c * ny + r is a multiple of 4 */
            } else {
                if (r >= 0 && r < ny) o[r] = e0;
                if (r + 1 >= 0 && r + 1 < ny) o[r + 1] = e1;
                if (r + 2 >= 0 && r + 2 < ny) o[r + 2] = e2;
                if (r + 3 >= 0 && r + 3 < ny) o[r + 3] = e3;
            }
        }
    }
}

/* ---- cuBLAS -------------------------------------------------------------------------------- */

/* cublasSgeam computes C = alpha op(A) + beta op(B) on COLUMN-major matrices.  Our row-major input
 * (ny rows of nx) read column-major with leading dimension nx is an nx x ny matrix A = in^T; the
 * row-major output (nx rows of ny) read column-major with leading dimension ny is an ny x nx
 * matrix C = out^T.  out = in^T means C = A^T: op(A) = A^T, m = ny rows, n = nx columns, lda = nx,
 * ldc = ny.  With beta = 0, B takes no part; we still pass a valid matrix of the right shape (A
 * itself, transposed, ldb = nx) so nothing undefined is read even if the library looked at it. */
static void sgeam_transpose(cublasHandle_t h, const float *in, float *out, int nx, int ny)
{
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, ny, nx, &one, in, nx, &zero, in, nx, out, ny));
}

/* ---- the variants the tables measure ------------------------------------------------------ */

/* Every launch grids over at most ceil(ny / 8) blocks in y (gridDim.y <= 65535), hence the row
 * limit; the column limit keeps c0 + 63 and the like inside an int. */
#define MAX_ROWS (65535 * 8)
#define MAX_COLS (INT_MAX - 1024)

typedef enum {
    K_REG4_DIRECT, K_REG4_ROWWISE, K_REG4_LOADALL, K_REG2, K_COPY, K_SGEAM,
    K_TILE64_VEC, K_TILE64_SCALAR, K_TILE64_ALIGNST
} kind_t;

typedef struct {
    const char *label;  /* table row, and the NVTX range `make profile` names it by */
    kind_t kind;
    int bx, by;         /* threads per block (register tiles); ignored otherwise     */
    int band;           /* tile64 kernels: block order, 0 or T64_BAND (tile_of_block) */
} variant_t;

static const variant_t V_R4_DIRECT   = {"f4 4x4 direct 8x8", K_REG4_DIRECT, 8, 8, 0};
static const variant_t V_R4_ROW8x8   = {"f4 4x4 rowwise 8x8", K_REG4_ROWWISE, 8, 8, 0};
static const variant_t V_R4_LOADALL  = {"f4 4x4 load-all 8x8", K_REG4_LOADALL, 8, 8, 0};
static const variant_t V_R4_ROW8x4   = {"f4 4x4 rowwise 8x4", K_REG4_ROWWISE, 8, 4, 0};
static const variant_t V_R4_ROW16x16 = {"f4 4x4 rowwise 16x16", K_REG4_ROWWISE, 16, 16, 0};
static const variant_t V_R4_ROW32x32 = {"f4 4x4 rowwise 32x32", K_REG4_ROWWISE, 32, 32, 0};
static const variant_t V_R4_ROW32x2  = {"f4 4x4 rowwise 32x2", K_REG4_ROWWISE, 32, 2, 0};
static const variant_t V_R2_8x8      = {"f2 2x2 8x8", K_REG2, 8, 8, 0};
static const variant_t V_R2_16x16    = {"f2 2x2 16x16", K_REG2, 16, 16, 0};

/* Labels stay within 21 characters: the odd-size rows add " @odd" and the table's column is 26 wide. */
static const variant_t V_COPY        = {"copy float4 one pass", K_COPY, COPY_THREADS, 1, 0};
static const variant_t V_SGEAM       = {"cublasSgeam (op T)", K_SGEAM, 0, 0, 0};
static const variant_t V_T64_VEC     = {"tile64 float4 ld+st", K_TILE64_VEC, T64_THREADS, 1, 0};
static const variant_t V_T64_SCALAR  = {"tile64 scalar ld+st", K_TILE64_SCALAR, T64_THREADS, 1, 0};
static const variant_t V_T64_ALIGNST = {"tile64 aligned f4 st", K_TILE64_ALIGNST, T64_THREADS, 1, 0};
static const variant_t V_T64_SC_BAND = {"tile64 scalar banded", K_TILE64_SCALAR, T64_THREADS, 1, T64_BAND};
static const variant_t V_T64_AL_BAND = {"tile64 aligned banded", K_TILE64_ALIGNST, T64_THREADS, 1, T64_BAND};

static const variant_t *const ALL_VARIANTS[] = {
    &V_R4_DIRECT, &V_R4_ROW8x8, &V_R4_LOADALL, &V_R4_ROW8x4, &V_R4_ROW16x16, &V_R4_ROW32x32, &V_R4_ROW32x2,
    &V_R2_8x8, &V_R2_16x16, &V_COPY, &V_SGEAM, &V_T64_VEC, &V_T64_SCALAR, &V_T64_ALIGNST, &V_T64_SC_BAND,
    &V_T64_AL_BAND};
#define N_ALL ((int)(sizeof ALL_VARIANTS / sizeof ALL_VARIANTS[0]))

typedef struct {
    const variant_t *v;
    const float *in;
    float *out;
    int nx, ny;
    cublasHandle_t blas;
} launch_ctx_t;

static unsigned ceil_div(int a, int b) { return (unsigned)((a + b - 1) / b); }

/* The grid of a tile64 kernel with tiles_x x tiles_y tiles: 2-D in the grid's own order, 1-D (one
 * block per tile, numbered as tile_of_block deals them out) in banded order.  tiles_x * tiles_y
 * fits: the matrix fits in GPU memory, 16 KiB per tile. */
static dim3 tile64_grid(unsigned tiles_x, unsigned tiles_y, int band)
{
    return band ? dim3(tiles_x * tiles_y) : dim3(tiles_x, tiles_y);
}

static void launch_variant(void *p)
{
    const launch_ctx_t *c = (const launch_ctx_t *)p;
    const variant_t *v = c->v;
    dim3 block((unsigned)v->bx, (unsigned)v->by);
    switch (v->kind) {
    case K_REG4_DIRECT:
        transpose_reg4x4_direct<<<dim3(ceil_div(c->nx, 4 * v->bx), ceil_div(c->ny, 4 * v->by)), block>>>(c->in, c->out, c->nx, c->ny);
        break;
    case K_REG4_ROWWISE:
        transpose_reg4x4_rowwise<<<dim3(ceil_div(c->nx, 4 * v->bx), ceil_div(c->ny, 4 * v->by)), block>>>(c->in, c->out, c->nx, c->ny);
        break;
    case K_REG4_LOADALL:
        transpose_reg4x4_loadall<<<dim3(ceil_div(c->nx, 4 * v->bx), ceil_div(c->ny, 4 * v->by)), block>>>(c->in, c->out, c->nx, c->ny);
        break;
    case K_REG2:
        transpose_reg2x2<<<dim3(ceil_div(c->nx, 2 * v->bx), ceil_div(c->ny, 2 * v->by)), block>>>(c->in, c->out, c->nx, c->ny);
        break;
    case K_COPY:
        copy_f4_onepass<<<copy_grid((size_t)c->nx * (size_t)c->ny), COPY_THREADS>>>(c->in, c->out,
                                                                                     (size_t)c->nx * (size_t)c->ny);
        break;
    case K_SGEAM:
        sgeam_transpose(c->blas, c->in, c->out, c->nx, c->ny);
        break;
    case K_TILE64_VEC:
    case K_TILE64_SCALAR:
        transpose_tile64_vec<<<tile64_grid(ceil_div(c->nx, T64), ceil_div(c->ny, T64), v->band), T64_THREADS>>>(
            c->in, c->out, c->nx, c->ny, v->kind == K_TILE64_VEC, v->band);
        break;
    case K_TILE64_ALIGNST:
        transpose_tile64_alignst<<<tile64_grid(ceil_div(c->nx, T64), (unsigned)tile64_alignst_rows(c->ny), v->band),
                                   T64_THREADS>>>(c->in, c->out, c->nx, c->ny, v->band);
        break;
    }
}

/* The predicted sectors per store request of a register-tile kernel (sectors.h); NAN otherwise. */
static double store_sectors(const variant_t *v)
{
    switch (v->kind) {
    case K_REG4_DIRECT:
    case K_REG4_ROWWISE:
    case K_REG4_LOADALL: return regtile_sectors(v->bx, v->by, 4, 1);
    case K_REG2: return regtile_sectors(v->bx, v->by, 2, 1);
    default: return NAN;
    }
}

/* ---- --check ------------------------------------------------------------------------------- */

static int run_checks(const args_t *a, cublasHandle_t blas, int user_nx, int user_ny)
{
    /* the odd shapes of transpose_matrix.h, then shapes that take the vector paths without being
     * multiples of any tile: pitches that are multiples of 4 but not of 8, 16 or 64, even but not
     * multiples of 4, and one side aligned with the other not; 196x2100 gives the banded kernels
     * two bands of 32 tile rows, the second partial, over several tile columns */
    static const int extra[][2] = {{4, 4},      {36, 20},   {34, 30},  {1004, 772},
                                   {1000, 776}, {777, 1000}, {130, 66}, {196, 2100}};
    const int nextra = (int)(sizeof extra / sizeof extra[0]), nodd = tmatrix_check_count(a->quick);
    int s, k, fails = 0, checks = 0;
    char size[64];
    mismatch_t mm;
    for (s = 0; s < nodd + nextra + 1; s++) {
        tmatrix_t m;
        int nx, ny;
        if (s < nodd) {
            nx = TMATRIX_CHECK_SHAPES[s][0];
            ny = TMATRIX_CHECK_SHAPES[s][1];
        } else if (s < nodd + nextra) {
            nx = extra[s - nodd][0];
            ny = extra[s - nodd][1];
        } else {
            if (!a->nx) break;  /* the size given with --size, if any, comes last */
            nx = user_nx;
            ny = user_ny;
        }
        tmatrix_init(&m, nx, ny, a->seed, 1);
        snprintf(size, sizeof size, "%dx%d", nx, ny);
        for (k = 0; k < N_ALL; k++) {
            const variant_t *v = ALL_VARIANTS[k];
            launch_ctx_t c = {v, m.d_in, m.d_out, nx, ny, blas};
            const float *want = v->kind == K_COPY ? m.h_in : m.want;
            verify_launch_f32(launch_variant, &c, m.d_out, want, m.got, m.n, &mm);
            fails += verify_print(stdout, v->label, size, &mm, m.n, v->kind == K_COPY ? 0 : (size_t)ny);
            checks++;
        }
        tmatrix_free(&m);
    }
    return verify_summary(stdout, fails, checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    tmatrix_t m;
    const args_t *a;
    int flush;
    timing_t t_d2d;
    double d2d;  /* GB/s of cudaMemcpy D2D for these bytes */
    cublasHandle_t blas;
} bench_t;

static void bench_init(bench_t *b, const gpu_info_t *g, const args_t *a, cublasHandle_t blas, int nx, int ny)
{
    tmatrix_init(&b->m, nx, ny, a->seed, 1);
    b->a = a;
    b->blas = blas;
    b->flush = gpu_flush_wanted(g, a, 2 * b->m.n * sizeof(float));
    b->d2d = gpu_d2d_gbs(b->m.d_out, b->m.d_in, b->m.n * sizeof(float), a, b->flush, &b->t_d2d);
    report_set_ceilings(b->d2d, g->peak_gbs);
}

/* Verifies variant v on poisoned output, then times it under `label`.  Returns 1 when it verified. */
static int measure(bench_t *b, const variant_t *v, const char *label, timing_t *t)
{
    launch_ctx_t c = {v, b->m.d_in, b->m.d_out, b->m.nx, b->m.ny, b->blas};
    const float *want = v->kind == K_COPY ? b->m.h_in : b->m.want;
    return verify_then_time(label, launch_variant, &c, b->m.d_out, want, b->m.got, b->m.n,
                            v->kind == K_COPY ? 0 : (size_t)b->m.ny, b->a, b->flush, t);
}

static double bytes_moved(const bench_t *b) { return 2.0 * (double)b->m.n * sizeof(float); }

/* Experiment 1: the source's register tiles and block shapes. */
static int experiment_register_tiles(bench_t *b)
{
    const variant_t *vs[] = {&V_R4_DIRECT, &V_R4_ROW8x8, &V_R4_LOADALL, &V_R4_ROW8x4, &V_R4_ROW16x16,
                             &V_R4_ROW32x32, &V_R4_ROW32x2, &V_R2_8x8, &V_R2_16x16};
    enum { NV = sizeof vs / sizeof vs[0] };
    timing_t t[NV];
    double gbs[NV];
    int ok[NV], k, failed = 0;
    char take[400];
    report_say("\nExperiment 1: register tiles as the source wrote them, %d x %d. cudaMemcpy D2D here: %.0f GB/s.\n",
               b->m.nx, b->m.ny, b->d2d);
    if ((b->m.nx | b->m.ny) & 3)
        report_say("  NOTE: nx or ny is not a multiple of 4, so rows are not 16-byte aligned and every kernel of this\n"
                   "  table takes its scalar path (and the float2 kernel too when one is odd).\n");
    report_say("  'st sect/req': 32-byte sectors one warp's store touches, from its shape (float4: 16 = all full;\n"
               "  float2: 8 = all full); a warp of 32 x 1 threads writes 16 of the 32 bytes of each of 32 sectors.\n");
    for (k = 0; k < NV; k++) {
        ok[k] = measure(b, vs[k], vs[k]->label, &t[k]);
        gbs[k] = ok[k] ? stats_gbs(bytes_moved(b), t[k].median_ms) : 0.0;
        failed += !ok[k];
    }
    report_begin("register", "  Each thread moves a 4x4 (float4) or 2x2 (float2) block; threads per block after the name:",
                 "st sect/req");
    for (k = 0; k < NV; k++) {
        if (ok[k]) report_row(vs[k]->label, &t[k], bytes_moved(b), store_sectors(vs[k]));
        else report_row_failed(vs[k]->label);
    }
    if (!failed)
        snprintf(take, sizeof take,
                 "rowwise vs load-all: %.2fx; 32x32 blocks run at %.0f%% of 8x8 and 32x2 blocks (the same 32x1 warps, "
                 "64 threads) at %.0f%%: the warp's shape decides. float2 2x2 reaches %.0f%% (8x8) and %.0f%% (16x16) of "
                 "float4 8x8.", gbs[1] / gbs[2], 100.0 * gbs[5] / gbs[1], 100.0 * gbs[6] / gbs[1],
                 100.0 * gbs[7] / gbs[1], 100.0 * gbs[8] / gbs[1]);
    else
        snprintf(take, sizeof take, "a kernel failed verification: no comparison.");
    report_end(take);
    return failed;
}

/* KiB of loads one SM keeps in flight when it runs as many blocks of `kernel` as fit, each thread
 * having issued bytes_per_thread of loads before it waits for any. */
static double kib_in_flight(const void *kernel, int threads, int bytes_per_thread)
{
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0));
    return blocks * (double)threads * bytes_per_thread / 1024.0;
}

typedef struct {
    int ok;
    const char *best;   /* the fastest candidate transpose */
    double pct_d2d;     /* its GB/s as % of cudaMemcpy D2D */
    double x_sgeam;     /* its GB/s over cublasSgeam's (0 if Sgeam failed) */
    double sgeam_d2d;   /* cublasSgeam's GB/s as % of cudaMemcpy D2D (0 if it failed) */
    double pct_copy;    /* its GB/s as % of the copy kernel's */
} fastest_t;

/* Experiments 2 and 3, one size each: the references and the candidates, the winner in *res. */
static int experiment_fastest(bench_t *b, int number, const char *suffix, fastest_t *res)
{
    /* rows 0-1: copy kernel and Sgeam; from row 2: the candidates for the fastest transpose */
    const variant_t *vs[] = {&V_COPY,        &V_SGEAM,       &V_T64_VEC,     &V_T64_SCALAR,
                             &V_T64_ALIGNST, &V_T64_SC_BAND, &V_T64_AL_BAND, &V_R4_ROW8x8};
    enum { NV = sizeof vs / sizeof vs[0], FIRST_CANDIDATE = 2 };
    char labels[NV][64], take[400], title[160];
    timing_t t[NV];
    double gbs[NV];
    int ok[NV], k, failed = 0, best = -1;

    report_say("\nExperiment %d: the fastest transpose, %d x %d, against the copy of the same bytes.\n", number,
               b->m.nx, b->m.ny);
    report_say("  Loads in flight per SM at full occupancy: copy kernel %.0f KiB, tile64 float4 %.0f KiB, tile64 aligned-st\n"
               "  %.0f KiB, f4 4x4 8x8 %.0f KiB (lesson 07's 32x32 tile with 32x8 threads: at most 32 KiB).\n",
               kib_in_flight((const void *)copy_f4_onepass, COPY_THREADS, COPY_ILP * 16),
               kib_in_flight((const void *)transpose_tile64_vec, T64_THREADS, 64),
               kib_in_flight((const void *)transpose_tile64_alignst, T64_THREADS, (T64_HALO + T64) / 4 * 4),
               kib_in_flight((const void *)transpose_reg4x4_rowwise, 64, 64));
    report_say("  'banded': the same kernel with its blocks dealt out in bands of %d tile rows, column by column,\n"
               "  instead of row by row: the blocks running together cover a roughly square patch of tiles rather\n"
               "  than a few whole rows of tiles, whose stores reach every row of the output.\n",
               T64_BAND);
    for (k = 0; k < NV; k++) {
        snprintf(labels[k], sizeof labels[k], "%s%s", vs[k]->label, suffix);
        ok[k] = measure(b, vs[k], labels[k], &t[k]);
        gbs[k] = ok[k] ? stats_gbs(bytes_moved(b), t[k].median_ms) : 0.0;
        failed += !ok[k];
        if (k >= FIRST_CANDIDATE && ok[k] && (best < 0 || gbs[k] > gbs[best])) best = k;
    }
    snprintf(title, sizeof title, "  %d x %d; last column: GB/s as %% of the copy kernel's:", b->m.nx, b->m.ny);
    report_begin("fastest", title, ok[0] ? "% copy krn" : NULL);
    report_row("cudaMemcpy D2D", &b->t_d2d, bytes_moved(b),
               ok[0] ? 100.0 * stats_gbs(bytes_moved(b), b->t_d2d.median_ms) / gbs[0] : NAN);
    for (k = 0; k < NV; k++) {
        if (ok[k]) report_row(labels[k], &t[k], bytes_moved(b), ok[0] ? 100.0 * gbs[k] / gbs[0] : NAN);
        else report_row_failed(labels[k]);
    }
    res->ok = best >= 0;
    res->sgeam_d2d = ok[1] ? 100.0 * gbs[1] / b->d2d : 0.0;
    if (best >= 0) {
        res->best = vs[best]->label;
        res->pct_d2d = 100.0 * gbs[best] / b->d2d;
        res->x_sgeam = ok[1] ? gbs[best] / gbs[1] : 0.0;
        res->pct_copy = ok[0] ? 100.0 * gbs[best] / gbs[0] : 0.0;
        snprintf(take, sizeof take,
                 "fastest transpose here: %s, %.1f%% of cudaMemcpy, %.1f%% of the copy kernel, %.2fx cublasSgeam "
                 "(which reaches %.1f%% of cudaMemcpy); banded order: scalar %+.1f%%, aligned %+.1f%%.", res->best,
                 res->pct_d2d, res->pct_copy, res->x_sgeam, res->sgeam_d2d,
                 ok[3] && ok[5] ? 100.0 * (gbs[5] / gbs[3] - 1.0) : 0.0,
                 ok[4] && ok[6] ? 100.0 * (gbs[6] / gbs[4] - 1.0) : 0.0);
    } else {
        snprintf(take, sizeof take, "every candidate failed verification.");
    }
    report_end(take);
    return failed;
}

static const char *pass_miss(int pass) { return pass ? "PASS" : "MISS"; }

/* The goals of the lesson, judged from this run's ratios (only at the default sizes):
 * at 8192 x 8192 the fastest transpose at >= 95% of cudaMemcpy D2D and >= 1.05x cublasSgeam,
 * at 8191 x 4097 at >= 90% of cudaMemcpy D2D. */
static void print_goals(const char *big_size, const fastest_t *big, const char *odd_size, const fastest_t *odd,
                        int judged)
{
    report_say("\nGoals (ratios from this run%s):\n",
               judged ? "" : "; PASS/MISS only at the default sizes 8192x8192 and 8191x4097, without --quick");
    if (big->ok) {
        report_say("  %-10s fastest transpose (%s) / cudaMemcpy D2D = %5.1f%%   goal >= 95%%    %s\n", big_size,
                   big->best, big->pct_d2d, judged ? pass_miss(big->pct_d2d >= 95.0) : "-");
        if (big->x_sgeam > 0.0)
            report_say("  %-10s fastest transpose (%s) / cublasSgeam = %5.2fx   goal >= 1.05x  %s\n"
                       "  %-10s (cublasSgeam ran at %.1f%% of cudaMemcpy, so 1.05x needs %.1f%% of cudaMemcpy)\n",
                       big_size, big->best, big->x_sgeam, judged ? pass_miss(big->x_sgeam >= 1.05) : "-", "",
                       big->sgeam_d2d, 1.05 * big->sgeam_d2d);
        else
            report_say("  %-10s cublasSgeam failed verification: no ratio   goal >= 1.05x  %s\n", big_size,
                       judged ? "MISS" : "-");
    } else {
        report_say("  %-10s no candidate verified: MISS\n", big_size);
    }
    if (odd->ok)
        report_say("  %-10s fastest transpose (%s) / cudaMemcpy D2D = %5.1f%%   goal >= 90%%    %s\n", odd_size,
                   odd->best, odd->pct_d2d, judged ? pass_miss(odd->pct_d2d >= 90.0) : "-");
    else
        report_say("  %-10s no candidate verified: MISS\n", odd_size);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 08: register tiles. Transposes an NY x NX matrix with per-thread float4 4x4 and float2 2x2\n"
        "blocks, then races 64x64 shared tiles (vector accesses, two block orders) against cudaMemcpy, a float4\n"
        "copy kernel and cublasSgeam, at 8192x8192 and 8191x4097. Every kernel is verified before it is timed.";
    args_t a;
    gpu_info_t g;
    bench_t b;
    cublasHandle_t blas;
    fastest_t big = {0, NULL, 0, 0, 0, 0}, odd = {0, NULL, 0, 0, 0, 0};
    int nx, ny, def, failed = 0;

    args_parse_or_exit(argc, argv, &a, summary,
                       "matrix NXxNY: NX columns, NY rows (default 8192x8192, then 8191x4097; 2048x2048 and\n"
                       "                  2047x1025 with --quick); N means NxN; a given size runs alone",
                       NULL, 0);
    def = a.quick ? 2048 : 8192;
    matrix_size_or_exit(&a, def, def, &nx, &ny);
    if (ny > MAX_ROWS)
        args_reject("bad --size '%dx%d': at most %d rows (the grid's y dimension holds 65535 blocks of 8 rows)", nx, ny,
                    MAX_ROWS);
    if (nx > MAX_COLS) args_reject("bad --size '%dx%d': at most %d columns", nx, ny, MAX_COLS);
    if (a.bx)
        args_reject("bad --block '%dx%d': every kernel of this lesson fixes its own block shape (experiment 1 "
                    "compares them)", a.bx, a.by);
    report_init("08_register_tiles", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 08 - register tiles: vector accesses, and a transpose near the copy at any size", &a);
    CUBLAS_CHECK(cublasCreate(&blas));
    if (a.check) {
        failed = run_checks(&a, blas, nx, ny);
        CUBLAS_CHECK(cublasDestroy(blas));
        gpu_finish();
        return failed;
    }

    bench_init(&b, &g, &a, blas, nx, ny);
    failed |= experiment_register_tiles(&b) != 0;
    failed |= experiment_fastest(&b, 2, "", &big) != 0;
    tmatrix_free(&b.m);
    if (!a.nx) {
        const int onx = a.quick ? 2047 : 8191, ony = a.quick ? 1025 : 4097;
        char big_size[32], odd_size[32];
        bench_init(&b, &g, &a, blas, onx, ony);
        failed |= experiment_fastest(&b, 3, " @odd", &odd) != 0;
        tmatrix_free(&b.m);
        snprintf(big_size, sizeof big_size, "%dx%d", nx, ny);
        snprintf(odd_size, sizeof odd_size, "%dx%d", onx, ony);
        print_goals(big_size, &big, odd_size, &odd, !a.quick);
    } else {
        report_say("\n(The goals are judged at 8192x8192 and 8191x4097: run without --size to see them.)\n");
    }

    CUBLAS_CHECK(cublasDestroy(blas));
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
