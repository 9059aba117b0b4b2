/* Lesson 06's kernels: more loads in flight per thread (the unrolled copy and naive transposes),
 * then the order in which blocks take their tiles (row-major or diagonal).  Read this file first;
 * unroll_diagonal.cu only verifies, times and prints them.  Layout, launch and indices are those
 * of lessons 04 and 05, whose plain copies and transposes (../05_transpose_naive/kernels.cuh, which
 * includes lesson 04's) this lesson measures beside its own.  The block orders themselves are in
 * block_order.h: plain C, __host__ __device__ here, so that tests/test_diagonal.c checks on the CPU
 * the very functions these kernels call. */
#ifndef LESSON06_KERNELS_CUH
#define LESSON06_KERNELS_CUH

#include "../05_transpose_naive/kernels.cuh"
#include "block_order.h"

/* ---- unrolled: u loads in flight per thread (experiment 1) ---------------------------------- */

/* Which output index element (r, c) of the ny x nx input goes to. */
#define OUT_TRANSPOSED 1
#define OUT_COPY 0
static __device__ __forceinline__ size_t out_index(unsigned r, unsigned c, int nx, int ny, int transposed)
{
    return transposed ? (size_t)c * ny + r : (size_t)r * nx + c;
}

/* Row-wise, unrolled by u: the block covers u * blockDim.x columns and blockDim.y rows; thread tx
 * takes columns c0, c0 + blockDim.x, ..., c0 + (u-1) * blockDim.x of its row, so each of its u
 * loads is still one coalesced 128-byte piece of a warp's row.  The u loads are independent and
 * all issued before the first store: u loads in flight per thread instead of one.  Threads whose
 * u columns are all inside take the straight path; at the right edge each column is tested, so
 * nothing outside the matrix is read or written.  u is a literal in every caller (1 < u <= 8).
 * Grid: grid_2d(ceil(nx / u), ny, block); the rows loop past gridDim.y's cap like the plain kernels. */
static __device__ __forceinline__ void rows_unrolled(float *out, const float *in, int nx, int ny, int u, int transposed)
{
    unsigned c0 = blockIdx.x * blockDim.x * u + threadIdx.x, r;
    int k;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y) {
        float v[8];
        if (c0 + (u - 1) * blockDim.x < (unsigned)nx) {
#pragma unroll
            for (k = 0; k < u; k++) v[k] = in[(size_t)r * nx + c0 + k * blockDim.x];
#pragma unroll
            for (k = 0; k < u; k++) out[out_index(r, c0 + k * blockDim.x, nx, ny, transposed)] = v[k];
        } else {
#pragma unroll
            for (k = 0; k < u; k++)
                if (c0 + k * blockDim.x < (unsigned)nx) v[k] = in[(size_t)r * nx + c0 + k * blockDim.x];
#pragma unroll
            for (k = 0; k < u; k++)
                if (c0 + k * blockDim.x < (unsigned)nx) out[out_index(r, c0 + k * blockDim.x, nx, ny, transposed)] = v[k];
        }
    }
}

/* Column-wise (NaiveCol), unrolled by u: threadIdx.x walks rows, so thread tx takes rows
 * r0, r0 + blockDim.x, ... of its column: u strided loads in flight, then u coalesced stores.
 * Grid: grid_2d(ceil(ny / u), nx, block). */
static __device__ __forceinline__ void cols_unrolled(float *out, const float *in, int nx, int ny, int u)
{
    unsigned r0 = blockIdx.x * blockDim.x * u + threadIdx.x, c;
    int k;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y) {
        float v[8];
        if (r0 + (u - 1) * blockDim.x < (unsigned)ny) {
#pragma unroll
            for (k = 0; k < u; k++) v[k] = in[(size_t)(r0 + k * blockDim.x) * nx + c];
#pragma unroll
            for (k = 0; k < u; k++) out[(size_t)c * ny + r0 + k * blockDim.x] = v[k];
        } else {
#pragma unroll
            for (k = 0; k < u; k++)
                if (r0 + k * blockDim.x < (unsigned)ny) v[k] = in[(size_t)(r0 + k * blockDim.x) * nx + c];
#pragma unroll
            for (k = 0; k < u; k++)
                if (r0 + k * blockDim.x < (unsigned)ny) out[(size_t)c * ny + r0 + k * blockDim.x] = v[k];
        }
    }
}

/* copyRow x4: the "upper bound" with the same 4 loads in flight as NaiveRow x4. */
static __global__ __attribute__((unused)) void copy_row_unroll4(float *out, const float *in, int nx, int ny)
{
    rows_unrolled(out, in, nx, ny, 4, OUT_COPY);
}
/* NaiveRow xU: U coalesced loads in flight, then U strided stores. */
static __global__ __attribute__((unused)) void transpose_row_unroll2(float *out, const float *in, int nx, int ny)
{
    rows_unrolled(out, in, nx, ny, 2, OUT_TRANSPOSED);
}
static __global__ __attribute__((unused)) void transpose_row_unroll4(float *out, const float *in, int nx, int ny)
{
    rows_unrolled(out, in, nx, ny, 4, OUT_TRANSPOSED);
}
static __global__ __attribute__((unused)) void transpose_row_unroll8(float *out, const float *in, int nx, int ny)
{
    rows_unrolled(out, in, nx, ny, 8, OUT_TRANSPOSED);
}
/* NaiveCol xU: U strided loads in flight, then U coalesced stores. */
static __global__ __attribute__((unused)) void transpose_col_unroll2(float *out, const float *in, int nx, int ny)
{
    cols_unrolled(out, in, nx, ny, 2);
}
static __global__ __attribute__((unused)) void transpose_col_unroll4(float *out, const float *in, int nx, int ny)
{
    cols_unrolled(out, in, nx, ny, 4);
}
static __global__ __attribute__((unused)) void transpose_col_unroll8(float *out, const float *in, int nx, int ny)
{
    cols_unrolled(out, in, nx, ny, 8);
}

/* their launches (TLAUNCH_ROWS, TLAUNCH_COLS: ../04_transpose_bounds/kernels.cuh) */
TLAUNCH_ROWS(launch_copy_row_x4, copy_row_unroll4, 4)
TLAUNCH_ROWS(launch_naive_row_x2, transpose_row_unroll2, 2)
TLAUNCH_ROWS(launch_naive_row_x4, transpose_row_unroll4, 4)
TLAUNCH_ROWS(launch_naive_row_x8, transpose_row_unroll8, 8)
TLAUNCH_COLS(launch_naive_col_x2, transpose_col_unroll2, 2)
TLAUNCH_COLS(launch_naive_col_x4, transpose_col_unroll4, 4)
TLAUNCH_COLS(launch_naive_col_x8, transpose_col_unroll8, 8)

/* ---- block order: which tile each block takes (experiment 2) --------------------------------- */

/* One tile of NaiveRow (x: columns) or NaiveCol (x: rows), for the tile a block was given. */
static __device__ __forceinline__ void naive_row_tile(float *out, const float *in, int nx, int ny, tile_xy_t t)
{
    unsigned c = t.x * blockDim.x + threadIdx.x, r = t.y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

static __device__ __forceinline__ void naive_col_tile(float *out, const float *in, int nx, int ny, tile_xy_t t)
{
    unsigned r = t.x * blockDim.x + threadIdx.x, c = t.y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

/* 1-D grids of gx * gy blocks (gridDim.x allows 2^31 - 1, more than any matrix here has tiles);
 * the only difference between the row-major and the diagonal kernels is the block_order_* call.
 * Diagonal order is the old cure for "partition camping": blocks that run at the same time take
 * tiles in different tile rows and columns, so their accesses spread over the memory partitions. */
static __global__ __attribute__((unused)) void transpose_row_order_rowmajor(float *out, const float *in, int nx, int ny,
                                                                            unsigned gx, unsigned gy)
{
    (void)gy;
    naive_row_tile(out, in, nx, ny, block_order_row_major(blockIdx.x, gx));
}
static __global__ __attribute__((unused)) void transpose_row_order_diagonal(float *out, const float *in, int nx, int ny,
                                                                            unsigned gx, unsigned gy)
{
    naive_row_tile(out, in, nx, ny, block_order_diagonal(blockIdx.x, gx, gy));
}
static __global__ __attribute__((unused)) void transpose_col_order_rowmajor(float *out, const float *in, int nx, int ny,
                                                                            unsigned gx, unsigned gy)
{
    (void)gy;
    naive_col_tile(out, in, nx, ny, block_order_row_major(blockIdx.x, gx));
}
static __global__ __attribute__((unused)) void transpose_col_order_diagonal(float *out, const float *in, int nx, int ny,
                                                                            unsigned gx, unsigned gy)
{
    naive_col_tile(out, in, nx, ny, block_order_diagonal(blockIdx.x, gx, gy));
}

/* Their launches: a 1-D grid of gx * gy blocks, told gx and gy, the tile grid of NaiveRow (gx over
 * the nx columns) or NaiveCol (gx over the ny rows) in blocks of c->block. */
static inline void tile_grid(const tctx_t *c, int col_kernel, unsigned *gx, unsigned *gy)
{
    *gx = div_up((unsigned)(col_kernel ? c->ny : c->nx), c->block.x);
    *gy = div_up((unsigned)(col_kernel ? c->nx : c->ny), c->block.y);
}
#define TLAUNCH_ORDER(name, kernel, col_kernel)                                                     \
    static inline void name(void *p, cudaStream_t s)                                                \
    {                                                                                               \
        const tctx_t *c = (const tctx_t *)p;                                                        \
        unsigned gx, gy;                                                                            \
        tile_grid(c, col_kernel, &gx, &gy);                                                         \
        kernel<<<gx * gy, c->block, 0, s>>>(c->out, c->in, c->nx, c->ny, gx, gy);                   \
    }
TLAUNCH_ORDER(launch_row_rowmajor, transpose_row_order_rowmajor, 0)
TLAUNCH_ORDER(launch_row_diagonal, transpose_row_order_diagonal, 0)
TLAUNCH_ORDER(launch_col_rowmajor, transpose_col_order_rowmajor, 1)
TLAUNCH_ORDER(launch_col_diagonal, transpose_col_order_diagonal, 1)

#endif
