/* Lesson 06's kernels: more loads in flight per thread (the unrolled copy and naive transposes),
 * then the order in which blocks take their tiles (row-major, column-major, diagonal, grouped), then a
 * copy whose sectors (or, in a second copy, only its lines) stay half written for a chosen time.
 * Read this file first; unroll_diagonal.cu only verifies, times and prints them.  Layout, launch
 * and indices are those of lessons 04 and 05, whose plain copies and transposes
 * (../05_transpose_naive/kernels.cuh, which includes lesson 04's) this lesson measures beside its
 * own.  The block orders are described in words below (tile_of_block); their code is in
 * block_order.h, plain C so that tests/test_diagonal.c checks on the CPU the very functions these
 * kernels call.  That header holds the README figure's diagonal order, and exercise 4 asks for
 * another: leave it until you have done the exercise.  Each kernel
 * is followed by its launcher, launch_<kernel>(out, in, nx, ny, block, stream); the unrolled ones
 * and the block orders are templates on U (elements per thread) and ORDER:
 * launch_transpose_col_unroll<4>, launch_transpose_row_order<ORDER_GROUPED>, ... */
#ifndef LESSON06_KERNELS_CUH
#define LESSON06_KERNELS_CUH

#include "../05_transpose_naive/kernels.cuh"
#include "block_order.h"

/* ---- unrolled: U loads in flight per thread (experiment 1) ---------------------------------- */

/* Row-wise, unrolled by U: the block covers U * blockDim.x columns and blockDim.y rows; thread tx
 * takes columns c0, c0 + blockDim.x, ..., c0 + (U-1) * blockDim.x of its row, so each of its U
 * loads is still one coalesced 128-byte piece of a warp's row.  The U loads are independent and
 * all issued before the first store: U loads in flight per thread instead of one.  Threads whose
 * U columns are all inside take the straight path; at the right edge each column is tested, so
 * nothing outside the matrix is read or written.  TRANSPOSED: the store goes to out[c * ny + r]
 * (NaiveRow) instead of out[r * nx + c] (copyRow).  Grid: grid_2d(ceil(nx / U), ny, block); the
 * rows loop past gridDim.y's cap like the plain kernels. */
template <int U, bool TRANSPOSED>
static __device__ __forceinline__ void rows_unrolled(float *out, const float *in, int nx, int ny)
{
    unsigned c0 = blockIdx.x * blockDim.x * U + threadIdx.x, r;
    int k;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y) {
        float v[U];
        if (c0 + (U - 1) * blockDim.x < (unsigned)nx) {
#pragma unroll
            for (k = 0; k < U; k++) v[k] = in[(size_t)r * nx + c0 + k * blockDim.x];
#pragma unroll
            for (k = 0; k < U; k++) {
                unsigned c = c0 + k * blockDim.x;
                out[TRANSPOSED ? (size_t)c * ny + r : (size_t)r * nx + c] = v[k];
            }
        } else {
#pragma unroll
            for (k = 0; k < U; k++)
                if (c0 + k * blockDim.x < (unsigned)nx) v[k] = in[(size_t)r * nx + c0 + k * blockDim.x];
#pragma unroll
            for (k = 0; k < U; k++) {
                unsigned c = c0 + k * blockDim.x;
                if (c < (unsigned)nx) out[TRANSPOSED ? (size_t)c * ny + r : (size_t)r * nx + c] = v[k];
            }
        }
    }
}

/* copyRow xU: lesson 04's copyRow with the same U loads in flight per thread as NaiveRow xU (copyRow x4). */
template <int U>
__global__ void copy_row_unroll(float *out, const float *in, int nx, int ny)
{
    rows_unrolled<U, false>(out, in, nx, ny);
}

template <int U>
static inline void launch_copy_row_unroll(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    copy_row_unroll<U><<<grid_2d(div_up((unsigned)nx, U), ny, block), block, 0, s>>>(out, in, nx, ny);
}

/* NaiveRow xU: U coalesced loads in flight, then U strided stores (NaiveRow x2, x4, x8). */
template <int U>
__global__ void transpose_row_unroll(float *out, const float *in, int nx, int ny)
{
    rows_unrolled<U, true>(out, in, nx, ny);
}

template <int U>
static inline void launch_transpose_row_unroll(float *out, const float *in, int nx, int ny, dim3 block,
                                               cudaStream_t s)
{
    transpose_row_unroll<U><<<grid_2d(div_up((unsigned)nx, U), ny, block), block, 0, s>>>(out, in, nx, ny);
}

/* NaiveCol xU, one thread's work: rows r0, r0 + blockDim.x, ..., r0 + (U-1) * blockDim.x of
 * column c (c < nx): U strided loads in flight, then U coalesced stores.  Threads whose U rows are
 * all inside take the straight path; at the bottom edge each row is tested. */
template <int U>
static __device__ __forceinline__ void col_unrolled(float *out, const float *in, int nx, int ny, unsigned r0, unsigned c)
{
    float v[U];
    int k;
    if (r0 + (U - 1) * blockDim.x < (unsigned)ny) {
#pragma unroll
        for (k = 0; k < U; k++) v[k] = in[(size_t)(r0 + k * blockDim.x) * nx + c];
#pragma unroll
        for (k = 0; k < U; k++) out[(size_t)c * ny + r0 + k * blockDim.x] = v[k];
    } else {
#pragma unroll
        for (k = 0; k < U; k++)
            if (r0 + k * blockDim.x < (unsigned)ny) v[k] = in[(size_t)(r0 + k * blockDim.x) * nx + c];
#pragma unroll
        for (k = 0; k < U; k++)
            if (r0 + k * blockDim.x < (unsigned)ny) out[(size_t)c * ny + r0 + k * blockDim.x] = v[k];
    }
}

/* NaiveCol xU: threadIdx.x walks rows, so thread tx takes rows r0, r0 + blockDim.x, ... of its
 * column: U strided loads in flight, then U coalesced stores (NaiveCol x2, x4, x8).
 * Grid: grid_2d(ceil(ny / U), nx, block). */
template <int U>
__global__ void transpose_col_unroll(float *out, const float *in, int nx, int ny)
{
    unsigned r0 = blockIdx.x * blockDim.x * U + threadIdx.x, c;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        col_unrolled<U>(out, in, nx, ny, r0, c);
}

template <int U>
static inline void launch_transpose_col_unroll(float *out, const float *in, int nx, int ny, dim3 block,
                                               cudaStream_t s)
{
    transpose_col_unroll<U><<<grid_2d(div_up((unsigned)ny, U), nx, block), block, 0, s>>>(out, in, nx, ny);
}

/* ---- block order: which tile each block takes (experiment 2) --------------------------------- */

/* The order in which the blocks of a 1-D grid of gx * gy blocks take the tiles of a gx x gy grid
 * (block_order.h).  x is the tile's index along threadIdx.x's extent, y along the other:
 *   ORDER_ROW_MAJOR     tile (b % gx, b / gx): consecutive blocks take neighbouring tiles of one
 *                       tile row (the order in which a 2-D grid numbers its blocks);
 *   ORDER_COLUMN_MAJOR  tile (b / gy, b % gy): consecutive blocks take neighbouring tiles of one
 *                       tile column;
 *   ORDER_DIAGONAL      consecutive blocks walk along diagonals of tiles, every tile of any grid
 *                       taken once (how: block_order.h, after exercise 4; proposed in 2009
 *                       against "partition camping");
 *   ORDER_GROUPED       squares of BLOCK_ORDER_GROUP x BLOCK_ORDER_GROUP tiles, row-major inside
 *                       and between them.
 * x runs across the input's columns for NaiveRow and down its rows for NaiveCol, so NaiveCol's
 * row-major order walks down the input's columns, as NaiveRow's column-major order does.
 * The only difference between the kernels of one kind in different orders is this call. */
enum { ORDER_ROW_MAJOR, ORDER_COLUMN_MAJOR, ORDER_DIAGONAL, ORDER_GROUPED };

template <int ORDER>
static __device__ __forceinline__ tile_xy_t tile_of_block(unsigned b, unsigned gx, unsigned gy)
{
    return ORDER == ORDER_COLUMN_MAJOR ? block_order_column_major(b, gy)
         : ORDER == ORDER_DIAGONAL     ? block_order_diagonal(b, gx, gy)
         : ORDER == ORDER_GROUPED      ? block_order_grouped(b, gx, gy, BLOCK_ORDER_GROUP)
                                       : block_order_row_major(b, gx);
}

/* The tile grid a launch over ny x nx covers with tiles of fast x slow elements: gx tiles across
 * threadIdx.x's extent `n_fast` (nx for NaiveRow, ny for NaiveCol), gy down the other.  1-D grids of
 * gx * gy blocks: gridDim.x allows 2^31 - 1, and main refuses a size whose grid would need more. */
static inline void tile_grid(unsigned n_fast, unsigned n_slow, unsigned fast, unsigned slow, unsigned *gx, unsigned *gy)
{
    *gx = div_up(n_fast, fast);
    *gy = div_up(n_slow, slow);
}

/* NaiveRow's work for the tile block b takes in ORDER (x: columns, y: rows), one blockDim.x x blockDim.y
 * tile: each thread copies one element to its transposed place.  Shared by transpose_row_order and its
 * timed twin below, so the two differ only by the stamp. */
template <int ORDER>
static __device__ __forceinline__ void row_order_tile(float *out, const float *in, int nx, int ny, unsigned gx,
                                                      unsigned gy)
{
    tile_xy_t t = tile_of_block<ORDER>(blockIdx.x, gx, gy);
    unsigned c = t.x * blockDim.x + threadIdx.x, r = t.y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx && r < (unsigned)ny) out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

/* NaiveRow, one blockDim.x x blockDim.y tile per block, the tile (x: columns, y: rows) picked in ORDER. */
template <int ORDER>
__global__ void transpose_row_order(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy)
{
    row_order_tile<ORDER>(out, in, nx, ny, gx, gy);
}

template <int ORDER>
static inline void launch_transpose_row_order(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    unsigned gx, gy;
    tile_grid(nx, ny, block.x, block.y, &gx, &gy);
    transpose_row_order<ORDER><<<gx * gy, block, 0, s>>>(out, in, nx, ny, gx, gy);
}

/* The GPU's clock in nanoseconds, the same on every SM (PTX's special register %globaltimer: PTX ISA,
 * "Special Registers"; no CUDA C++ function reads it).  clock64() would count the cycles of one SM
 * only, and blocks on different SMs could not be put in one order. */
static __device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* NaiveRow in ORDER, timed: transpose_row_order<ORDER>, whose first thread first writes when its block
 * started, started[blockIdx.x] = global_ns(): does block b start about b-th, as the read-back hypothesis
 * assumes?  One 8-byte store per block of 256 threads, beside their 1 KiB of output. */
template <int ORDER>
__global__ void transpose_row_order_timed(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy,
                                          unsigned long long *started)
{
    if (threadIdx.x == 0 && threadIdx.y == 0) started[blockIdx.x] = global_ns();
    row_order_tile<ORDER>(out, in, nx, ny, gx, gy);
}

/* started: room for one stamp per block of the grid tile_grid(nx, ny, block.x, block.y, ...) gives. */
template <int ORDER>
static inline void launch_transpose_row_order_timed(float *out, const float *in, int nx, int ny, dim3 block,
                                                    unsigned long long *started, cudaStream_t s)
{
    unsigned gx, gy;
    tile_grid(nx, ny, block.x, block.y, &gx, &gy);
    transpose_row_order_timed<ORDER><<<gx * gy, block, 0, s>>>(out, in, nx, ny, gx, gy, started);
}

/* NaiveCol xU, one tile of U * blockDim.x rows x blockDim.y columns per block (x: rows, y: columns),
 * picked in ORDER: the same work per thread as transpose_col_unroll<U> (col_unrolled), without its
 * loop over columns; for U = 4 it gives the README's "NaiveCol x4 ... order" rows (the figure's
 * "orders" bars), there to ask whether the order matters to an unrolled NaiveCol too. */
template <int U, int ORDER>
__global__ void transpose_col_unroll_order(float *out, const float *in, int nx, int ny, unsigned gx, unsigned gy)
{
    tile_xy_t t = tile_of_block<ORDER>(blockIdx.x, gx, gy);
    unsigned r0 = t.x * blockDim.x * U + threadIdx.x, c = t.y * blockDim.y + threadIdx.y;
    if (c < (unsigned)nx) col_unrolled<U>(out, in, nx, ny, r0, c);
}

template <int U, int ORDER>
static inline void launch_transpose_col_unroll_order(float *out, const float *in, int nx, int ny, dim3 block,
                                                     cudaStream_t s)
{
    unsigned gx, gy;
    tile_grid(ny, nx, U * block.x, block.y, &gx, &gy);
    transpose_col_unroll_order<U, ORDER><<<gx * gy, block, 0, s>>>(out, in, nx, ny, gx, gy);
}

/* NaiveCol, one blockDim.x x blockDim.y tile per block (x: rows, y: columns), picked in ORDER: NaiveCol
 * x1, one load and one store per thread (col_unrolled<1>), on the grid of U = 1. */
template <int ORDER>
static inline void launch_transpose_col_order(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_transpose_col_unroll_order<1, ORDER>(out, in, nx, ny, block, s);
}

/* ---- copies written in two halves, a chosen distance apart (experiment 3) -------------------- */

/* A copy of n floats (the matrix as one flat array) in pieces, each written in two halves by two
 * different groups of LANES threads: group j copies the first half of piece j, then the second half
 * of piece j - apart, where apart = APART_KIB KiB / the piece's bytes.  So the groups between a
 * piece's two writes copy `apart` whole pieces: APART_KIB KiB of output is written while the piece
 * stays half written (the README's *distance*, In depth's Part 3; its *gap* counts blocks).
 * Each lane moves 16 bytes (one float4) of each half:
 *   LANES = 1  ("copy halves"): a piece is one 32-byte sector, a half 16 bytes.  The 32 lanes' stores
 *              land 32 bytes apart: each request writes half of 32 sectors, which stay half written.
 *   LANES = 2  ("copy sectors"): a piece is 64 bytes, a half one whole sector, written
 *              by two neighbouring lanes in one request: no sector is ever partly written, only the
 *              piece (and its 128-byte line).
 * apart = 0: one group writes both halves, one store after the other.  Blocks of a 1-D grid start in
 * about the order of blockIdx.x (the course's assumption: the CUDA C++ Programming Guide promises no
 * order), so `apart` sets the time between the halves; it is capped at the
 * number of pieces (every first half then comes before any second half).  The input is read the
 * same way (its halves `apart` apart too).  The floats past the last whole piece are copied by
 * thread 0.  float4 needs 16-byte alignment: the buffers come from cudaMalloc (256-byte aligned) and
 * every lane's 16 bytes start a multiple of 16 bytes in. */
template <int LANES>
__global__ void copy_halves_apart(float *out, const float *in, size_t n, size_t pieces, size_t apart)
{
    const size_t PIECE = 8 * LANES;                  /* floats per piece: two halves of 4 * LANES */
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, j = t / LANES, i;
    size_t q = 4 * (t % LANES);                      /* this lane's float4 within its half */
    if (j < pieces)                                                   /* first half of piece j */
        *(float4 *)(out + j * PIECE + q) = *(const float4 *)(in + j * PIECE + q);
    if (j >= apart && j - apart < pieces) {                           /* second half of piece j - apart */
        size_t at = (j - apart) * PIECE + PIECE / 2 + q;
        *(float4 *)(out + at) = *(const float4 *)(in + at);
    }
    if (t == 0)
        for (i = pieces * PIECE; i < n; i++) out[i] = in[i];
}

template <int LANES, unsigned APART_KIB>
static inline void launch_copy_halves_apart(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    size_t n = (size_t)nx * ny, pieces = n / (8 * LANES), apart = (size_t)APART_KIB * 1024 / (32 * LANES);
    unsigned threads = block.x * block.y;
    if (apart > pieces) apart = pieces;
    copy_halves_apart<LANES><<<div_up((pieces + apart) * LANES > 0 ? (pieces + apart) * LANES : 1, threads), threads, 0, s>>>(
        out, in, n, pieces, apart);
}

#endif
