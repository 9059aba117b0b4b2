/* Lesson 08, part 1's kernels: register tiles, and 64x64 shared tiles with vector accesses.  Read
 * this file first; register_tiles.cu only verifies, times and prints them.  In the order the notes
 * present them: the float4 4x4 register tiles (direct, rowwise, load-all, and rowwise 32x2 with its
 * halves swapped through shared memory; rowwise's copy twin, In depth's experiment 5), then the 64x64 tiles
 * (float4, aligned stores, float4 through an XOR-swizzled shared tile; the 2-D grid's block order,
 * bands of tile rows, and column-wise).  Each kernel is followed by its launcher,
 * launch_<kernel>(out, in, nx, ny, block, stream).  The float2 2x2 tile is exercise 4 (exercise.cu;
 * solution.cu).
 *
 * The tables also measure lesson 04's one-pass float4 copy (copy_f4_x1, "f4 x1 one pass", included
 * below), the copy the transposes race.
 *
 * Layout (as in lessons 04-07): `in` has ny rows of nx floats, element (r, c) at in[r * nx + c];
 * the transpose `out` has nx rows of ny floats: out[c * ny + r] = in[r * nx + c].  Every kernel
 * handles any nx, ny >= 1: a vector path where the rows are aligned, a scalar path otherwise.
 *
 * Launch: every kernel of this file fixes its own block (the launchers ignore `block`) and grids
 * over at most ceil(ny / 8) blocks in y (gridDim.y <= 65535: the program's row limit). */
#ifndef LESSON08_KERNELS_CUH
#define LESSON08_KERNELS_CUH

#include "grid.cuh"
#include "../04_transpose_bounds/kernels.cuh"  /* copy_f4_x1 and its launcher */

/* ---- the float4 4x4 register tiles -------------------------------------------------------- */

/* A float4 access must be 16-byte aligned.  The buffers come from cudaMalloc (256-byte aligned), so
 * row r of `in` starts 16-byte aligned for every r exactly when nx is a multiple of 4, and row c of
 * `out` when ny is.  With both, a 4x4 block whose first row and column are inside the matrix is
 * wholly inside it (r0 and c0 are multiples of 4).  Otherwise the kernels below take
 * reg4x4_scalar: one float at a time, each with its bounds test -- correct for any shape; a warp's
 * lanes then touch floats 16 bytes apart. */
static __device__ __forceinline__ void reg4x4_scalar(float *__restrict__ out, const float *__restrict__ in,
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

/* Thread (x, y) of the grid moves the 4x4 block at rows 4y.., columns 4x.. -- in all three variants
 * (grid: ceil(nx / (4 blockDim.x)) x ceil(ny / (4 blockDim.y)), any block shape).  They differ only
 * in how the vector path moves the block; `variant` is a literal in each kernel, so after inlining
 * each kernel holds its own path alone.  None of them has a barrier, so threads outside the
 * matrix may simply leave. */
#define REG4_DIRECT 0
#define REG4_ROWWISE 1
#define REG4_LOADALL 2
static __device__ __forceinline__ void reg4x4(float *__restrict__ out, const float *__restrict__ in, int nx, int ny,
                                              int variant)
{
    const int c0 = 4 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 4 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 3) == 0) {
        if (variant == REG4_DIRECT) {  /* float loads, float4 stores */
            const float *s = in + (size_t)r0 * nx + c0;
            float4 *d = (float4 *)(out + (size_t)c0 * ny + r0);
            const size_t sp = (size_t)nx, dp = (size_t)ny / 4;  /* row pitches: floats in, float4 out */
            int k;
#pragma unroll
            for (k = 0; k < 4; k++) d[k * dp] = make_float4(s[k], s[sp + k], s[2 * sp + k], s[3 * sp + k]);
        } else {  /* float4 loads, float4 stores */
            const float4 *s = (const float4 *)(in + (size_t)r0 * nx + c0);
            float4 *d = (float4 *)(out + (size_t)c0 * ny + r0);
            const size_t sp = (size_t)nx / 4, dp = (size_t)ny / 4;  /* row pitches in float4 */
            const float4 a0 = s[0], a1 = s[sp], a2 = s[2 * sp], a3 = s[3 * sp];
            if (variant == REG4_ROWWISE) {  /* each output row stored as soon as it is built */
                d[0] = make_float4(a0.x, a1.x, a2.x, a3.x);
                d[dp] = make_float4(a0.y, a1.y, a2.y, a3.y);
                d[2 * dp] = make_float4(a0.z, a1.z, a2.z, a3.z);
                d[3 * dp] = make_float4(a0.w, a1.w, a2.w, a3.w);
            } else {  /* REG4_LOADALL: all four output rows built, then stored */
                const float4 o0 = make_float4(a0.x, a1.x, a2.x, a3.x), o1 = make_float4(a0.y, a1.y, a2.y, a3.y);
                const float4 o2 = make_float4(a0.z, a1.z, a2.z, a3.z), o3 = make_float4(a0.w, a1.w, a2.w, a3.w);
                d[0] = o0;
                d[dp] = o1;
                d[2 * dp] = o2;
                d[3 * dp] = o3;
            }
        }
    } else {
        reg4x4_scalar(out, in, nx, ny, r0, c0);
    }
}

/* Their launch: a block of BX x BY threads (a template: experiment 1 compares block shapes), one
 * per 4 BX x 4 BY piece of the matrix. */
static inline dim3 reg4x4_grid(int nx, int ny, int bx, int by)
{
    return dim3(div_up(nx, 4 * bx), div_up(ny, 4 * by));
}

/* (1) direct: for each k = 0..3, four 4-byte loads, in[r0 + i][c0 + k] for i = 0..3, assembled
 * into one float4 and stored as output row c0 + k (16 scalar loads and 4 float4 stores per
 * thread). */
__global__ void transpose_reg4x4_direct(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    reg4x4(out, in, nx, ny, REG4_DIRECT);
}

template <int BX, int BY>
static inline void launch_transpose_reg4x4_direct(float *out, const float *in, int nx, int ny, dim3 block,
                                                  cudaStream_t s)
{
    (void)block;
    transpose_reg4x4_direct<<<reg4x4_grid(nx, ny, BX, BY), dim3(BX, BY), 0, s>>>(out, in, nx, ny);
}

/* (2) rowwise: four float4 loads (the four input rows), then each output row is built from one
 * component of each and stored at once. */
__global__ void transpose_reg4x4_rowwise(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    reg4x4(out, in, nx, ny, REG4_ROWWISE);
}

template <int BX, int BY>
static inline void launch_transpose_reg4x4_rowwise(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    (void)block;
    transpose_reg4x4_rowwise<<<reg4x4_grid(nx, ny, BX, BY), dim3(BX, BY), 0, s>>>(out, in, nx, ny);
}

/* (3) load-all: four float4 loads, then all four output rows built in registers, then four float4
 * stores. */
__global__ void transpose_reg4x4_loadall(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    reg4x4(out, in, nx, ny, REG4_LOADALL);
}

template <int BX, int BY>
static inline void launch_transpose_reg4x4_loadall(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    (void)block;
    transpose_reg4x4_loadall<<<reg4x4_grid(nx, ny, BX, BY), dim3(BX, BY), 0, s>>>(out, in, nx, ny);
}

/* (4) rowwise 32x2, halves swapped: the 32x2 block of (2), whose stores are rearranged through
 * shared memory.  In (2), lane tx of warp ty stores float4 ty (output columns 4ty..4ty+3 of the
 * block's piece) of output rows 4tx..4tx+3, so the block's two warps store the two float4 halves
 * of the same output rows.  Here the block's output piece -- 128 output rows (input columns
 * 128 bx ..) of 8 floats (input rows 8 by ..) -- is built in shared memory first; then each warp
 * store takes 16 consecutive output rows and both float4 halves of each, so one warp stores what
 * two stored before.  Same loads, same bytes a transpose must move: only which warp stores which
 * half differs from (2).
 * The shared piece holds float4 (row, half) at slot(2 row + half): one float4 of padding after every
 * 8, so that the 8 lanes of a quarter warp (a 128-byte access each pass) meet 8 different 16-byte
 * bank groups both when phase 1 writes rows 4tx + j (8 float4s apart) and when phase 2 reads
 * consecutive float4s (the course's arithmetic: lesson 07 counts the banks). */
#define SWAP_ROWS 128   /* output rows of one block's piece: 4 x 32 */
static __device__ __forceinline__ int swap_slot(int i) { return i + (i >> 3); }

__global__ void __launch_bounds__(64) transpose_reg4x4_swap_halves(float *__restrict__ out,
                                                                    const float *__restrict__ in, int nx, int ny)
{
    __shared__ float4 piece[2 * SWAP_ROWS + 2 * SWAP_ROWS / 8];
    const int tx = (int)threadIdx.x, ty = (int)threadIdx.y, t = ty * 32 + tx;
    const int c0 = 4 * (int)(blockIdx.x * 32 + tx), r0 = 4 * (int)(blockIdx.y * 2 + ty);
    const int col0 = (int)blockIdx.x * SWAP_ROWS, row0 = 8 * (int)blockIdx.y;   /* the piece's first input column, row */
    int k;
    if ((nx | ny) & 3) {   /* the same for every thread of the grid: no barrier is skipped by some */
        if (r0 < ny && c0 < nx) reg4x4_scalar(out, in, nx, ny, r0, c0);
        return;
    }
    /* phase 1: rowwise's four float4 loads; output row 4tx + j (float4 half ty) goes to the piece */
    if (r0 < ny && c0 < nx) {
        const float4 *s = (const float4 *)(in + (size_t)r0 * nx + c0);
        const size_t sp = (size_t)nx / 4;
        const float4 a0 = s[0], a1 = s[sp], a2 = s[2 * sp], a3 = s[3 * sp];
        piece[swap_slot(2 * (4 * tx + 0) + ty)] = make_float4(a0.x, a1.x, a2.x, a3.x);
        piece[swap_slot(2 * (4 * tx + 1) + ty)] = make_float4(a0.y, a1.y, a2.y, a3.y);
        piece[swap_slot(2 * (4 * tx + 2) + ty)] = make_float4(a0.z, a1.z, a2.z, a3.z);
        piece[swap_slot(2 * (4 * tx + 3) + ty)] = make_float4(a0.w, a1.w, a2.w, a3.w);
    }
    __syncthreads();
    /* phase 2: float4 i = 64 k + t of the piece is output row i / 2, half i % 2; a warp's 32 lanes
     * take 32 consecutive ones.  It was written in phase 1 exactly when its input column is < nx and
     * its four input rows < ny (nx and ny are multiples of 4 here). */
#pragma unroll
    for (k = 0; k < 4; k++) {
        const int i = 64 * k + t, c = col0 + i / 2, r = row0 + 4 * (i % 2);
        if (c < nx && r < ny) *(float4 *)(out + (size_t)c * ny + r) = piece[swap_slot(i)];
    }
}

static inline void launch_transpose_reg4x4_swap_halves(float *out, const float *in, int nx, int ny, dim3 block,
                                                       cudaStream_t s)
{
    (void)block;
    transpose_reg4x4_swap_halves<<<reg4x4_grid(nx, ny, 32, 2), dim3(32, 2), 0, s>>>(out, in, nx, ny);
}

/* (5) the register tile's copy twin (In depth, experiment 5): rowwise's blocks, threads and four
 * float4 loads, but each thread stores its 4x4 block where it found it, in the same four rows of a
 * copy (out has ny rows of nx, like in).  Lesson 07's copy twin, for the register tile: a warp's
 * stores then cover 4 rows of 128 bytes, as its loads do, where rowwise's cover 8 output rows of 64
 * bytes.  Everything but the transpose itself -- the block shape, the loads, the bytes in flight --
 * is rowwise 8x8's, so the twin's speed says how much of the tile's gap to the copy kernel the
 * transpose's stores cost. */
__global__ void copy_reg4x4_twin(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    const int c0 = 4 * (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int r0 = 4 * (int)(blockIdx.y * blockDim.y + threadIdx.y);
    int i, k;
    if (r0 >= ny || c0 >= nx) return;
    if (((nx | ny) & 3) == 0) {
        const float4 *s = (const float4 *)(in + (size_t)r0 * nx + c0);
        float4 *d = (float4 *)(out + (size_t)r0 * nx + c0);
        const size_t sp = (size_t)nx / 4;  /* the row pitch in float4, both sides */
        const float4 a0 = s[0], a1 = s[sp], a2 = s[2 * sp], a3 = s[3 * sp];
        d[0] = a0;
        d[sp] = a1;
        d[2 * sp] = a2;
        d[3 * sp] = a3;
        return;
    }
    for (i = 0; i < 4; i++)   /* the scalar path: any shape, each float with its bounds test */
        for (k = 0; k < 4; k++)
            if (r0 + i < ny && c0 + k < nx) out[(size_t)(r0 + i) * nx + c0 + k] = in[(size_t)(r0 + i) * nx + c0 + k];
}

template <int BX, int BY>
static inline void launch_copy_reg4x4_twin(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    (void)block;
    copy_reg4x4_twin<<<reg4x4_grid(nx, ny, BX, BY), dim3(BX, BY), 0, s>>>(out, in, nx, ny);
}

/* ---- the 64x64 shared tiles ---------------------------------------------------------------
 * Lesson 07's tile, made bigger, then given 16-byte accesses.  A block of 256 threads moves one
 * 64x64 tile in lesson 07's two phases: phase 1 loads the tile (16 floats per thread, all loaded
 * before any is put in shared memory: 16 KiB per block on their way), a barrier, phase 2 stores it
 * transposed.  Shared memory holds the tile as the input lies, s[row][col], 65 floats a row (lesson
 * 07's padding).  The 256 threads can be handed their elements in two ways:
 *
 * Scalar lanes, lesson 07's transpose_tile<64, 4, 65>:  tx = t & 63, ty = t >> 6.  Phase 1: a
 *   warp reads 32 consecutive floats of one input row.  Phase 2: it reads s[tx][..], a column of
 *   the tile (bank tx + const: one pass), and writes 32 consecutive floats of one output row.
 * Vector lanes, float4:  a row of 64 floats is 16 float4.  Thread t takes float4 number
 *   q = (t & 7) + 8 * ((t >> 5) & 1) of tile row rq = ((t >> 3) & 3) + 4 * (t >> 6), then the
 *   rows 16, 32 and 48 below it.  A warp (32 consecutive t) covers 4 rows x 8 float4, so every
 *   global access is 4 runs of 128 contiguous bytes.  In shared memory lane (q8 = t & 7,
 *   k = (t >> 3) & 3) touches word 65 * (row) + 4 * q8 + ..., i.e. bank 4 * q8 + k + const: 32
 *   different banks, in both phases.
 *
 * "tile64 vec off ld+st" ("vector accesses off") runs the scalar lanes in THIS kernel, not in
 * lesson 07's, so that it differs from "tile64 float4 ld+st" in the access width and the lane
 * layout above (scalar lanes: a warp on one row; vector lanes: 4 rows x 8 float4), and from
 * "tile64 scalar banded" in the block order alone.  The two compile differently (CUDA 13.0,
 * sm_90: 32 registers a thread here, 36 in lesson 07's, so an H100 SM holds 8 of these 256-thread
 * blocks and 6 of 07's; the notes' In depth counts it). */
#define T64 64
#define T64_THREADS 256
#define T64_PITCH 65
#define T64_HALO 8

/* ---- block order ----------------------------------------------------------------------------
 * Which tile a block moves.  band = 0: the 2-D grid's own order.  In the course's model the GPU
 * starts blocks in order of their index, x fastest (CUDA promises no order), so the blocks resident
 * at one moment (about 132 SMs x 8 = 1056 on the H100) are about 8 consecutive rows of tiles: on an
 * 8192 x 8192 matrix their loads cover about 528 whole input rows, one contiguous 16.5 MiB stretch, but
 * their stores cover all 8192 output rows with about 2 KiB each -- and the 256-byte pieces one
 * output row gets come from tiles 128 block indices apart, handed out at different times.
 * band = B > 0: a 1-D grid whose blocks are dealt out band by band, a band being B rows of tiles,
 * and inside a band column by column: B consecutive blocks go down one column of tiles.  With B = 32
 * the resident blocks are about 33 columns x 32 rows of tiles, 2048 input rows with 8 KiB each and
 * 2112 output rows with 8 KiB each, and the tiles that write neighbouring pieces of an output row
 * are neighbours in block order.  Same bytes, same instructions; only which rows of each matrix are
 * busy together changes.  B = 1 is the 2-D grid's order again, B >= tiles_y column by column
 * (the README's In depth, Block order, "Band heights", varies B).  The last band may have fewer
 * than B rows; the mapping is a bijection from 0 .. tiles_x * tiles_y - 1 onto the tiles (make check
 * runs shapes with one band, several, and a partial last one).
 * band = T64_COLUMNWISE: one band as tall as any matrix, i.e. column by column over the whole grid,
 * lesson 06's column-major order (block_order_column_major): the blocks in flight take a few whole
 * columns of tiles, and write neighbouring pieces of the same few output rows. */
#ifndef T64_BAND  /* make NVCCFLAGS=-DT64_BAND=16: another band (README, In depth, Block order) */
#define T64_BAND 32
#endif
#define T64_COLUMNWISE 0x7fffffff  /* a band of more tile rows than any matrix has: column-major order */
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

/* The grid of a tile64 kernel with tiles_x x tiles_y tiles: 2-D in the grid's own order (band = 0),
 * 1-D in banded order (one block per tile, numbered as tile_of_block deals them out).
 * tiles_x * tiles_y fits: the matrix fits in GPU memory, 16 KiB per tile. */
static inline dim3 tile64_grid(unsigned tiles_x, unsigned tiles_y, int band)
{
    return band ? dim3(tiles_x * tiles_y) : dim3(tiles_x, tiles_y);
}

/* Candidate A, the README's "tile64 float4 ld+st" ("tile64 vec off ld+st" with allow_vec = 0).
 * float4 loads when nx % 4 == 0, float4 stores when ny % 4 == 0, scalar otherwise
 * (each side decided on its own; allow_vec = 0 forces scalar on both: the scalar lanes above, the
 * work of lesson 07's 64x64 tile, in any block order).  Chunks of 4 floats at a column multiple of
 * 4 are wholly inside or wholly outside the matrix when the pitch is a multiple of 4, so edge tiles
 * need only a per-chunk test.  band: the block order (tile_of_block; 0 = the 2-D grid's).
 * F4_GLOBAL = false (only with allow_vec; nothing else changed) is "tile64 f4 lanes 4B glob": the
 * float4 path's lanes and shared accesses, but each 16-byte global access made as four 4-byte ones
 * at the same addresses (a float stride of 4 across the warp, lesson 03): with "tile64 vec off" and
 * "tile64 float4 ld+st" it splits the float4 step roughly, into the lane layout with that stride and
 * the access width against it (./register_tiles --split). */
template <bool F4_GLOBAL = true>
__global__ void __launch_bounds__(T64_THREADS)
transpose_tile64_vec(float *__restrict__ out, const float *__restrict__ in, int nx, int ny, int allow_vec, int band)
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
            if (F4_GLOBAL) {
                v[i] = (r < ny && c < nx) ? *(const float4 *)(in + (size_t)r * nx + c) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            } else {   /* the chunk is wholly inside or outside (nx % 4 == 0): one test for its four floats */
                const float *e = in + (size_t)r * nx + c;
                const bool inside = r < ny && c < nx;
                v[i] = make_float4(inside ? e[0] : 0.0f, inside ? e[1] : 0.0f, inside ? e[2] : 0.0f, inside ? e[3] : 0.0f);
            }
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
            if (c < nx && r < ny) {
                if (F4_GLOBAL) {
                    *(float4 *)(out + (size_t)c * ny + r) =
                        make_float4(s[4 * q][cl], s[4 * q + 1][cl], s[4 * q + 2][cl], s[4 * q + 3][cl]);
                } else {
                    float *o = out + (size_t)c * ny + r;
                    o[0] = s[4 * q][cl];
                    o[1] = s[4 * q + 1][cl];
                    o[2] = s[4 * q + 2][cl];
                    o[3] = s[4 * q + 3][cl];
                }
            }
        }
    } else {
#pragma unroll
        for (i = 0; i < 16; i++) {
            const int c = c0 + ty + 4 * i, r = r0 + tx;
            if (c < nx && r < ny) out[(size_t)c * ny + r] = s[tx][ty + 4 * i];
        }
    }
}

/* Its launch: 256 threads per 64x64 tile.  ALLOW_VEC and BAND as the kernel's allow_vec and band:
 * <1, 0> is "tile64 float4 ld+st", <0, 0> "tile64 vec off ld+st", <0, T64_BAND> "tile64 scalar
 * banded"; <1, 0, false> "tile64 f4 lanes 4B glob". */
template <int ALLOW_VEC, int BAND, bool F4_GLOBAL = true>
static inline void launch_transpose_tile64_vec(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    (void)block;
    transpose_tile64_vec<F4_GLOBAL><<<tile64_grid(div_up(nx, T64), div_up(ny, T64), BAND), T64_THREADS, 0, s>>>(
        out, in, nx, ny, ALLOW_VEC, BAND);
}

/* Candidate B, the README's "tile64 aligned f4 st".
 * float4 stores at ANY size.  When ny is odd, output row c starts at float c * ny,
 * which is rarely a multiple of 4 (16 bytes) or 8 (a 32-byte sector): a warp's run cut at the
 * tile's edges would start and end inside sectors, filling those two only in part (the other part
 * is a neighbouring tile's).  Instead, each output row is cut at its own 32-byte boundaries: row c
 * starts m = (c * ny) % 8 floats past a boundary (the README's m), so this tile writes output
 * columns r = 64 * tile_y - m + (0..63) of that row -- a run that starts exactly on a sector
 * boundary.
 * Those columns are input rows up to 7 above the tile, so the block loads 8 extra rows (T64_HALO)
 * into s; they are also loaded by the tile above (the second time from the L2, by the course's
 * reading of the L2 hit rate: README, In depth).  Only the
 * first and last run of each output row have elements outside the matrix; those few float4 go one
 * float at a time.  Loads are scalar (64 x 4 threads, 18 per thread): they are coalesced at any nx.
 * With ny % 8 == 0 there is no shift (m = 0) and no extra row to load.  band: the block order
 * (tile_of_block). */
__host__ __device__ static inline int tile64_alignst_rows(int ny)
{
    /* with a shift (ny % 8 != 0) an output row's runs start up to 7 floats early: one more tile row
     * where ny + 7 crosses a multiple of 64 (ny <= MAX_ROWS, so no overflow) */
    return (ny + ((ny & 7) ? T64_HALO - 1 : 0) + T64 - 1) / T64;
}

__global__ void __launch_bounds__(T64_THREADS)
transpose_tile64_alignst(float *__restrict__ out, const float *__restrict__ in, int nx, int ny, int band)
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
            const int m = (int)(((unsigned)c * (unsigned)ny) & 7u); /* (c * ny) % 8; unsigned: c * ny may pass 2^31 */
            const int r = rt - m + 4 * q;       /* output columns r .. r+3 of output row c */
            const int lr = T64_HALO - m + 4 * q; /* ... are rows lr .. lr+3 of s */
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

/* Its launch: 256 threads per 64x64 tile, with one more tile row where the shift needs it.  BAND as
 * the kernel's band: <0> is "tile64 aligned f4 st", <T64_BAND> "tile64 aligned banded",
 * <T64_COLUMNWISE> "tile64 aligned col-wise". */
template <int BAND>
static inline void launch_transpose_tile64_alignst(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    (void)block;
    transpose_tile64_alignst<<<tile64_grid(div_up(nx, T64), (unsigned)tile64_alignst_rows(ny), BAND), T64_THREADS, 0,
                               s>>>(out, in, nx, ny, BAND);
}

/* Candidate C, the README's "tile64 swizzle f4".
 * float4 on every side -- global loads, shared stores, shared loads, global stores --
 * with no padding and, by the course's model below, no bank conflict.  Thread t owns a 4x4 block
 * of the tile: rows 4a .. 4a+3 (a = t >> 4, the README's a) and columns 4q .. 4q+3 (q = t & 15).
 * Phase 1: four float4 loads, one per row; a warp reads two input rows of 256 bytes each per load.
 * In registers the 4x4 block is transposed: tile column 4q + j, rows 4a .. 4a+3, is one float4,
 * (v[0].j, v[1].j, v[2].j, v[3].j), and goes to shared memory in one 16-byte store.
 * Shared layout: s[c][u] (16 float4 = 256 bytes a row, no pad) holds tile column c, rows
 * 4 (u ^ sw(c)) .. +3, with sw(c) = (c >> 2) & 7: an XOR swizzle instead of a pad.  In the course's
 * model a 16-byte access is served 8 lanes at a time (8 x 16 bytes = the 32 banks' 128 bytes), and
 * is conflict-free when the 8 lanes hit 8 different 16-byte slots (4 banks each) of the 128-byte
 * bank row, i.e. 8 different values of u & 7 (a row of s starts at slot 0):
 *   phase 1 store: 8 lanes = q 0..7 (or 8..15) with one a and one j: column 4q + j, sw = q & 7,
 *                  u = a ^ (q & 7): 8 different slots;
 *   phase 2 load:  8 lanes = row groups a2 0..7 (or 8..15; a2 = t & 15) with one column c:
 *                  u = a2 ^ sw(c): 8 different slots.
 * Without the swizzle (u = a) the 8 lanes of the phase 1 store would all hit slot a & 7: 8 ways.
 * SWIZZLE = false (sw = 0, nothing else changed) is that tile, "tile64 f4 no swizzle": it measures
 * the 8 ways (smem st confl), which the swizzled row alone cannot tell from the 16-byte width, and
 * its time against this kernel's is what the swizzle is worth (README, In depth, The swizzle).
 * F4_GLOBAL = false (nothing else changed) is "tile64 swizzle 4B glob": the same lanes, the same
 * register transpose and 16-byte shared accesses, but every global load and store one float at a time
 * -- the scalar path below, taken at every size: four 4-byte accesses 16 bytes apart where one 16-byte
 * access was, the same sectors, each touched by four requests (a float stride of 4, lesson 03), where
 * a coalesced one-float warp access (tile64 vec off) touches each of its 4 sectors once.  Its time
 * against this kernel's is what the 16-byte global width is worth against these strided one-float
 * accesses, not against coalesced ones.  Why
 * 8: shared memory is 32 banks of 4 bytes (CUDA C++ Programming Guide; lesson 07 counts them) and a
 * row of s is 256 bytes, two bank rows, so slot a of every row lies on the same 4 banks: 8 lanes, 8
 * addresses, 8 passes.  Its phase 2 loads keep 8 slots (u = a2).  Correct either way: the store and
 * the load XOR row c's slot with the same sw(c), a permutation of the row's 16 slots.
 * Phase 2: thread t writes output columns r0 + 4 a2 .. +3 (a2 = t & 15) of output rows c0 + (t >> 4)
 * + 16 i, i = 0..3: float4 stores, a warp writes two output rows of 256 bytes each.
 * Vectors need 16-byte aligned rows: float4 loads when nx % 4 == 0, float4 stores when ny % 4 == 0
 * (then a 4-wide chunk at a column multiple of 4 is wholly inside or wholly outside the matrix);
 * otherwise the same layout one float at a time, each with its bounds test: correct at any size,
 * with 4-byte accesses 16 bytes apart (8191 x 4097 is what candidate B is for).  BAND: the block
 * order (tile_of_block), a template parameter so that the order is worked out at compile time.
 * __launch_bounds__(256, T64_SWZ_BLOCKS) asks the compiler to leave room for T64_SWZ_BLOCKS blocks
 * per SM, i.e. at most 65,536 / (256 x T64_SWZ_BLOCKS) registers a thread: 32 for the 8 blocks an
 * H100 SM has threads for (2048).  Without it the column-wise version took 38 registers (CUDA 13.0,
 * sm_90) and only 6 blocks fit; with it, 32 in both orders and no spills.  Threads per SM differ by
 * GPU generation, and asking for more blocks than an SM can hold is a compile error, hence
 * grid.cuh's SM_MAX_THREADS (by __CUDA_ARCH__): 4, 6 or 8 blocks.  On the H100, read it as 8. */
#define T64_SWZ_BLOCKS (SM_MAX_THREADS / T64_THREADS)
/* sw(c), the XOR of tile column c's slots: (c >> 2) & 7, or 0 without the swizzle.  Store and load
 * both call it, so they agree on every slot. */
template <bool SWIZZLE>
static __device__ __forceinline__ int tile64_sw(int c)
{
    return SWIZZLE ? (c >> 2) & 7 : 0;
}

template <int BAND, bool SWIZZLE = true, bool F4_GLOBAL = true>
__global__ void __launch_bounds__(T64_THREADS, T64_SWZ_BLOCKS)
transpose_tile64_f4_swizzle(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
{
    __shared__ float4 s[T64][T64 / 4];  /* s[c][u]: tile column c, rows 4 (u ^ sw(c)) .. +3 */
    const int t = threadIdx.x;
    int tile_x, tile_y, k, i;
    tile_of_block(BAND, (nx + T64 - 1) / T64, (ny + T64 - 1) / T64, &tile_x, &tile_y);
    const int c0 = tile_x * T64, r0 = tile_y * T64;
    const int q = t & 15, a = t >> 4;                /* phase 1: columns 4q.., rows 4a.. of the tile */
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float4 v[4];                                     /* v[k]: tile row 4a + k, columns 4q .. 4q+3 */

    if (F4_GLOBAL && (nx & 3) == 0) {
#pragma unroll
        for (k = 0; k < 4; k++) {
            const int r = r0 + 4 * a + k, c = c0 + 4 * q;
            v[k] = (r < ny && c < nx) ? *(const float4 *)(in + (size_t)r * nx + c) : zero;
        }
    } else {
#pragma unroll
        for (k = 0; k < 4; k++) {
            const int r = r0 + 4 * a + k, c = c0 + 4 * q;
            const size_t e = (size_t)r * nx + c;
            const bool row_in = r < ny;
            v[k].x = row_in && c < nx ? in[e] : 0.0f;
            v[k].y = row_in && c + 1 < nx ? in[e + 1] : 0.0f;
            v[k].z = row_in && c + 2 < nx ? in[e + 2] : 0.0f;
            v[k].w = row_in && c + 3 < nx ? in[e + 3] : 0.0f;
        }
    }
    /* the 4x4 transpose in registers: tile column 4q + j is (v[0].j, v[1].j, v[2].j, v[3].j) */
    const int u = a ^ tile64_sw<SWIZZLE>(4 * q);     /* sw(4q + j) = q & 7 for j = 0..3 */
    s[4 * q + 0][u] = make_float4(v[0].x, v[1].x, v[2].x, v[3].x);
    s[4 * q + 1][u] = make_float4(v[0].y, v[1].y, v[2].y, v[3].y);
    s[4 * q + 2][u] = make_float4(v[0].z, v[1].z, v[2].z, v[3].z);
    s[4 * q + 3][u] = make_float4(v[0].w, v[1].w, v[2].w, v[3].w);
    __syncthreads();  /* outside every branch: all 256 threads arrive */

    const int a2 = t & 15, r = r0 + 4 * a2;  /* phase 2: output columns r .. r+3 */
#pragma unroll
    for (i = 0; i < 4; i++) {
        const int cl = (t >> 4) + 16 * i, c = c0 + cl;  /* output row c = tile column cl */
        if (c < nx) {
            const float4 e = s[cl][a2 ^ tile64_sw<SWIZZLE>(cl)];
            float *o = out + (size_t)c * ny;  /* start of output row c */
            if (F4_GLOBAL && (ny & 3) == 0) {
                if (r < ny) *(float4 *)(o + r) = e;  /* c * ny + r is a multiple of 4 */
            } else {
                if (r < ny) o[r] = e.x;
                if (r + 1 < ny) o[r + 1] = e.y;
                if (r + 2 < ny) o[r + 2] = e.z;
                if (r + 3 < ny) o[r + 3] = e.w;
            }
        }
    }
}

/* Its launch: 256 threads per 64x64 tile.  BAND as the kernel's band: <0> is "tile64 swizzle f4",
 * <T64_COLUMNWISE> "tile64 swizzle col-wise"; <0, false> is "tile64 f4 no swizzle"; <0, true, false>
 * is "tile64 swizzle 4B glob". */
template <int BAND, bool SWIZZLE = true, bool F4_GLOBAL = true>
static inline void launch_transpose_tile64_f4_swizzle(float *out, const float *in, int nx, int ny, dim3 block,
                                                      cudaStream_t s)
{
    (void)block;
    transpose_tile64_f4_swizzle<BAND, SWIZZLE, F4_GLOBAL>
        <<<tile64_grid(div_up(nx, T64), div_up(ny, T64), BAND), T64_THREADS, 0, s>>>(out, in, nx, ny);
}

#endif
