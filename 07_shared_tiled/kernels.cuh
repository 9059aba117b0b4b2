/* Lesson 07, part 1's kernels: shared memory as a corner-turn buffer.  Read this file first;
 * shared_tiled.cu only verifies, times and prints them.  In the order the notes present them:
 * the naive transpose of lesson 05 (transpose_naive_row, included below), a same-slot
 * "shared memory" transpose, the tile transpose in every shape the tables compare, and the same
 * tile transpose with its tiles dealt out down the columns of tiles (lesson 06's column-major order), and the tiles' copy twins.  Each
 * kernel is followed by its launcher, launch_<kernel>(out, in, nx, ny, block, stream).
 *
 * Layout (as in lessons 04-06): `in` has ny rows of nx floats, element (r, c) at in[r * nx + c];
 * the transpose `out` has nx rows of ny floats: out[c * ny + r] = in[r * nx + c].  Every kernel
 * handles any nx, ny >= 1.
 *
 * Launch: the naive kernel as in lesson 05 (grid_2d); every kernel of this file on a 2-D grid of
 * ceil(nx / T) x ceil(ny / T) blocks, one per T x T piece of the input, but the column-order tiles
 * on a 1-D grid of as many blocks. */
#ifndef LESSON07_KERNELS_CUH
#define LESSON07_KERNELS_CUH

#include "../05_transpose_naive/kernels.cuh"
#include "../06_unroll_diagonal/block_order.h"   /* block_order_column_major */

/* A "shared memory" transpose as Anluo8's transpose study wrote it (lesson 07's In depth).  Thread
 * (tx, ty) of block (bx, by) takes c = bx * blockDim.x + tx, r = by * blockDim.y + ty; it loads
 * in[r * nx + c] into tile[ty][tx], waits at the barrier, reads tile[ty][tx] back and stores it to
 * out[c * ny + r].  One element per thread, any block shape up to 32 x 32. */
#define SAME_SLOT_MAX 32
__global__ void transpose_smem_same_slot(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[SAME_SLOT_MAX][SAME_SLOT_MAX];
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int inside = c < nx && r < ny;
    if (inside) tile[threadIdx.y][threadIdx.x] = in[(size_t)r * nx + c];
    __syncthreads();  /* reached by every thread: the bounds test guards only the accesses */
    if (inside) out[(size_t)c * ny + r] = tile[threadIdx.y][threadIdx.x];
}

/* A block of T x T threads per T x T piece of the matrix (T = block.x = block.y <= 32). */
static inline void launch_transpose_smem_same_slot(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    transpose_smem_same_slot<<<dim3(div_up(nx, block.x), div_up(ny, block.y)), block, 0, s>>>(out, in, nx, ny);
}

/* The tile transpose, written once for every shape of this lesson.  A block of T x R threads
 * (blockDim.x = T) moves one T x T tile: tile (tile_x, tile_y), whose top-left input element is
 * (r0, c0) = (tile_y * T, tile_x * T).  `tile` points to T rows of P floats in shared memory.
 *
 * Phase 1 (the notes' read phase): thread (tx, ty) reads input rows r0 + ty, r0 + ty + R, ... at
 * column c0 + tx.  A warp's 32 consecutive tx read consecutive floats of one row (or of T-wide
 * pieces of rows when T < 32): coalesced.  All T / R loads of a thread are independent and issued
 * before any of them is stored to shared memory: T / R loads per thread on their way at once.
 * Phase 2 (the write phase; after every element of the tile is in shared memory): thread (tx, ty)
 * writes output rows c0 + ty + j at column r0 + tx -- again consecutive tx on consecutive floats,
 * coalesced -- taking input element (r0 + tx, c0 + ty + j), which is tile[tx][ty + j]: a column of
 * the tile.
 * Shared memory is 32 banks (shared-memory banks, not lesson 01's DRAM banks), each
 * 4 bytes wide: word w lives in bank w % 32, and lanes reading k different words of one bank take
 * k passes (CUDA C++ Programming Guide, Shared Memory).  Going down a column steps P words at a
 * time, so lane tx hits bank (tx * P + ...) % 32: with P = 32 every lane lands in the same bank
 * (a 32-way conflict: 32 passes), with P = 33 in bank tx + const (1 pass).
 *
 * T, R and P are literal constants in every caller, so after inlining both loops unroll
 * completely.  Edges: a thread outside the matrix loads nothing (its slot gets a 0 that phase 2 never
 * writes out) and skips its stores, but still reaches __syncthreads -- the barrier sits outside
 * every branch, where all threads of the block arrive. */
static __device__ __forceinline__ void tile_transpose(float *__restrict__ out, const float *__restrict__ in,
                                                      int nx, int ny, float *tile, int T, int R, int P,
                                                      unsigned tile_x, unsigned tile_y)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = tile_x * T, r0 = tile_y * T;
    float v[16];  /* T / R <= 16 in every shape below; constant indices after unrolling: registers */
    int j;
#pragma unroll
    for (j = 0; j < T; j += R) {  /* all loads first: T / R of them in flight per thread */
        int r = r0 + ty + j, c = c0 + tx;
        v[j / R] = (r < ny && c < nx) ? in[(size_t)r * nx + c] : 0.0f;
    }
#pragma unroll
    for (j = 0; j < T; j += R) tile[(ty + j) * P + tx] = v[j / R];  /* outside: a harmless 0 */
    __syncthreads();
#pragma unroll
    for (j = 0; j < T; j += R) {
        int c = c0 + ty + j, r = r0 + tx;  /* output row c, output column r */
        if (c < nx && r < ny) out[(size_t)c * ny + r] = tile[tx * P + ty + j];
    }
}

/* The tile transpose as a kernel, for each shape the tables compare: transpose_tile<T, R, P> moves
 * a T x T tile (ceil(nx / T) x ceil(ny / T) blocks) with T x R threads, T / R elements each, through
 * a shared tile of T rows of P floats.  P = T + 1 ("[32][33]": padded) puts the rows of a column of
 * the tile in consecutive banks, P = T = 32 ("[32][32]") all in one bank.  For T = 32 that is one
 * pass; for T = 16 a warp reads two columns (and writes two rows) at once, and [16][17] puts
 * lane 0 of one and lane 15 of the other in one bank: 2 passes (banks.h).  The tables' rows:
 *   <32, 8, 32>, <32, 8, 33>    experiment 2: [32][32], 32 passes per column read; [32][33], 1
 *   <32, 32, 32>, <32, 32, 33>  one element per thread
 *   <16, 16, 17>, <16, 4, 17>   experiment 3: smaller tiles
 *   <64, 4, 65>                 a bigger tile, 16 elements per thread */
template <int T, int R, int P>
__global__ void transpose_tile(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float tile[T][P];
    tile_transpose(out, in, nx, ny, &tile[0][0], T, R, P, blockIdx.x, blockIdx.y);  /* the 2-D grid's own order */
}

/* Its launch: a block of T x R threads per T x T piece of the matrix (the block is the kernel's). */
template <int T, int R, int P>
static inline void launch_transpose_tile(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    (void)block;
    transpose_tile<T, R, P><<<dim3(div_up(nx, T), div_up(ny, T)), dim3(T, R), 0, s>>>(out, in, nx, ny);
}

/* The same tile transpose with the tiles dealt out down the columns of tiles (lesson 06's
 * column-major order, block_order.h): block b of a 1-D grid takes tile (b / tiles_y, b % tiles_y).
 * In the course's model a 2-D grid starts its blocks in index order, blockIdx.x fastest (CUDA
 * promises no order), so the blocks in flight at one moment take a few whole rows of tiles: their
 * loads read a contiguous stretch of input rows, their stores reach every output row with one
 * tile-wide piece each, and the pieces that complete an output line come from blocks a whole tile
 * row apart.  Down the columns it is the other way round: the blocks in flight write neighbouring
 * pieces of the same few output rows (an output row is an input column) and read scattered input
 * rows.  Everything else, the tile included, is transpose_tile's. */
template <int T, int R, int P>
__global__ void transpose_tile_col_order(float *__restrict__ out, const float *__restrict__ in, int nx, int ny,
                                         unsigned tiles_y)
{
    __shared__ float tile[T][P];
    const tile_xy_t t = block_order_column_major(blockIdx.x, tiles_y);
    tile_transpose(out, in, nx, ny, &tile[0][0], T, R, P, t.x, t.y);
}

/* Its launch: a 1-D grid of ceil(nx / T) * ceil(ny / T) blocks of T x R threads.  It fits gridDim.x
 * (2^31 - 1) for every size the programs take: nx * ny <= 2^40 floats and T >= 32 give at most
 * 2^30 + nx / 32 + ny / 32 + 1 tiles. */
template <int T, int R, int P>
static inline void launch_transpose_tile_col_order(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    const unsigned tiles_x = div_up(nx, T), tiles_y = div_up(ny, T);
    (void)block;
    transpose_tile_col_order<T, R, P><<<tiles_x * tiles_y, dim3(T, R), 0, s>>>(out, in, nx, ny, tiles_y);
}

/* The tile's copy twins (experiment 4): the same blocks of T x R threads on the same T x T pieces,
 * the same T / R coalesced loads per thread issued before any store, and coalesced stores of the
 * same rows, but no corner turn: each thread stores what it loaded where it loaded it from (out is
 * a copy of in; so where the input rows are misaligned, 8191 x 4096, its stores are too, while the
 * tile's stores go to the aligned output rows).  copy_tile<T, R, 0> stores as soon as its own loads have arrived.  copy_tile<T, R,
 * 1> passes them through its own slots of a shared tile and a __syncthreads(), as the tile does:
 * no store of a block starts before every load of the block has arrived (its slots' shared
 * accesses are rows, one pass each: banks.h).  Their difference is what waiting for the whole
 * block costs; the gap between copy_tile<T, R, 1> and transpose_tile is the corner turn's.  BLOCKS
 * asks the compiler for few enough registers that BLOCKS blocks fit on an SM, as many as the tile
 * itself fits with CUDA 13 on sm_90 (the notes count them: In depth, "Blocks per SM").  Left alone, the
 * 64 x 64 twins took 56-64 registers a thread, more than their tile, and fewer of their blocks
 * would fit.  So twin and tile keep the same loads in flight (the 64 x 64 +sync twin then spills
 * one register, 4 bytes a thread against the 128 it moves). */
template <int T, int R, int SYNC, int BLOCKS>   /* SM_MAX_THREADS: grid.cuh, by compute capability */
__global__ void __launch_bounds__(T * R, (BLOCKS * T * R <= SM_MAX_THREADS ? BLOCKS : SM_MAX_THREADS / (T * R)))
copy_tile(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float slots[SYNC ? T : 1][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c = blockIdx.x * T + tx, r0 = blockIdx.y * T;
    const size_t first = (size_t)(r0 + ty) * nx + c, step = (size_t)R * nx;  /* element (r0 + ty + j, c) */
    float v[T / R];
    int j;
#pragma unroll
    for (j = 0; j < T; j += R)  /* all loads first, as in tile_transpose */
        v[j / R] = (r0 + ty + j < ny && c < nx) ? in[first + (j / R) * step] : 0.0f;
    if (SYNC) {
#pragma unroll
        for (j = 0; j < T; j += R) slots[ty + j][tx] = v[j / R];
        __syncthreads();  /* outside every branch: every thread of the block arrives */
#pragma unroll
        for (j = 0; j < T; j += R) v[j / R] = slots[ty + j][tx];
    }
#pragma unroll
    for (j = 0; j < T; j += R)
        if (r0 + ty + j < ny && c < nx) out[first + (j / R) * step] = v[j / R];
}

/* Its launch: transpose_tile's grid and block. */
template <int T, int R, int SYNC, int BLOCKS>
static inline void launch_copy_tile(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    (void)block;
    copy_tile<T, R, SYNC, BLOCKS><<<dim3(div_up(nx, T), div_up(ny, T)), dim3(T, R), 0, s>>>(out, in, nx, ny);
}

#endif
