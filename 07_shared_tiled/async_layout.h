/* Lesson 07, part 3: the arithmetic of the asynchronous copies, shared by the kernels
 * (async_kernels.cuh) and the host: the shared-memory layouts, the thread-to-data mappings, the
 * tensor-map rules, the persistent grid and the kernels' shared memory.  Plain C99, so that
 * tests/test_async.c checks all of it on the host with banks.h, without a GPU; under nvcc every
 * function is __host__ __device__ (ASYNC_HD) so the kernels call the very same code. */
#ifndef LESSON07_ASYNC_LAYOUT_H
#define LESSON07_ASYNC_LAYOUT_H

#ifdef __CUDACC__
#define ASYNC_HD __host__ __device__
#else
#define ASYNC_HD
#endif

/* The cp.async kernels move 64 x 64 tiles (16 KiB) with 256 threads; the TMA kernels load boxes of
 * 32 columns x 64 rows (8 KiB) with 128 threads and store two 32 x 32 boxes of the transpose. */
#define CPA_T 64
#define CPA_THREADS 256
#define CPA_TILE_FLOATS (CPA_T * CPA_T)
#define TMA_BOX_X 32   /* columns: 32 floats = 128 bytes, the span of the 128-byte swizzle */
#define TMA_BOX_Y 64   /* rows                                                              */
#define TMA_SUB 32     /* the transpose leaves as two 32 x 32 boxes                         */
#define TMA_THREADS 128
#define TMA_BOX_FLOATS (TMA_BOX_X * TMA_BOX_Y)
#define TMA_ALIGN 1024 /* the 128-byte swizzle repeats every 8 rows of 128 bytes: buffers sit on 1 KiB */

/* Where float (row, col) of a tile lies in shared memory, in floats from the tile's start, for
 * rows of `row_floats` floats (32 or 64).  The row is cut into 16-byte chunks (4 floats) and chunk
 * j of row i is stored in chunk slot j ^ (i % 8): an XOR swizzle instead of padding.  Padding by one
 * float would break the 16-byte alignment a 16-byte copy needs, and a TMA box cannot be padded at
 * all.  With 32-float rows (128 bytes, the tile 1 KiB-aligned) this is exactly the pattern the
 * TMA writes with CU_TENSOR_MAP_SWIZZLE_128B: the 16-byte chunk bits 4-6 of the address XORed
 * with the row bits 7-9 (PTX ISA, "Tensor swizzling modes").  Why it removes the conflicts: the
 * 8 lanes of a quarter warp that read or write 16 bytes each from 8 consecutive rows, same chunk,
 * land in 8 different 16-byte slots = all 32 banks (tests/test_async.c counts them). */
static inline ASYNC_HD int swz(int row, int col, int row_floats)
{
    return row * row_floats + 4 * ((col >> 2) ^ (row & 7)) + (col & 3);
}

/* Bytes per cp.async copy: 16 when every row of the matrix (nx floats) and both buffers start on a
 * 16-byte boundary, 8 on an 8-byte one, else 4.  addr_bits: the two buffers' addresses ORed (their
 * low bits are what matters).  At 8191 x 4097 row r starts at byte 4 * 8191 * r: 4-byte copies. */
static inline ASYNC_HD int cpasync_vec_bytes(long long nx, unsigned long long addr_bits)
{
    if (nx % 4 == 0 && addr_bits % 16 == 0) return 16;
    if (nx % 2 == 0 && addr_bits % 8 == 0) return 8;
    return 4;
}

/* Copies per thread per tile: 4 of 16 bytes, 8 of 8 bytes or 16 of 4 bytes. */
#define CPA_COPIES(vec) (CPA_TILE_FLOATS / ((vec) / 4) / CPA_THREADS)

/* cp.async, phase 1 (and phase 2 of the copy): the i-th copy of thread t, vec bytes a copy, starts
 * at tile float (row, col).  16 bytes: chunks t + 256 i (i = 0..3), 16 a row, so a warp covers 2 rows
 * x 256 bytes; 8 bytes: pairs t + 256 i (i = 0..7), a warp one row; 4 bytes: element (t / 64 + 4 i,
 * t % 64) (i = 0..15), part 1's mapping.  Consecutive lanes, consecutive bytes of a row. */
static inline ASYNC_HD void cpa_copy_at(int t, int i, int vec, int *row, int *col)
{
    if (vec == 4) {
        *row = t / CPA_T + (CPA_THREADS / CPA_T) * i;
        *col = t % CPA_T;
    } else {
        const int per = vec / 4, id = t + CPA_THREADS * i;
        *row = id / (CPA_T / per);
        *col = per * (id % (CPA_T / per));
    }
}

/* cp.async, phase 2 of the transpose: warp w of the block reads tile rows 32 * (w & 1) + lane,
 * chunks (w >> 1) + 4 i (i = 0..3): a float4 per lane (input columns 4k..4k+3 of that row), which
 * it writes to 4 output rows, 32 consecutive floats per row per warp (128 bytes, like part 1). */
static inline ASYNC_HD int cpa_store_row(int warp, int lane) { return 32 * (warp & 1) + lane; }
static inline ASYNC_HD int cpa_store_chunk(int warp, int i) { return (warp >> 1) + 4 * i; }

/* TMA, the transpose in shared memory: thread (warp w, lane l) moves one 4 x 4 block of the
 * 32 x 32 sub-tile h = w >> 1 of the loaded box: it reads rows 4p..4p+3 at chunk q (4 float4)
 * and writes rows 4q..4q+3 of the transposed sub-tile at chunk p.  p = l % 8 and q = p ^ d,
 * d = l / 8 + 4 (w & 1): every (p, q) once per pair of warps, and in each quarter warp (8 lanes,
 * one d) both the rows read (4p + k) and the rows written (4q + k) fall on 8 different swizzle
 * slots -- no bank conflict on either side (tests/test_async.c checks both). */
static inline ASYNC_HD void tma_block_of(int warp, int lane, int *h, int *p, int *q)
{
    const int d = (lane >> 3) + 4 * (warp & 1);
    *h = warp >> 1;
    *p = lane & 7;
    *q = (lane & 7) ^ d;
}

/* Why a 2-D tensor map cannot describe a row-major float matrix of `rows` rows of `cols` floats at
 * address `addr`, loaded or stored in boxes of box_x x box_y floats with a swizzle of
 * `swizzle_bytes` (0: none) -- or NULL when it can.  The rules of cuTensorMapEncodeTiled (CUDA
 * Driver API, "Tensor Map Object Management"): the global address 16-byte aligned; every dimension
 * 1 to 2^32; each stride (here the row pitch, cols x 4 bytes) a multiple of 16 and below 2^40; each
 * box side 1 to 256 elements, the inner one a multiple of 16 bytes and, with a swizzle, at most
 * the swizzle's span. */
static inline ASYNC_HD const char *tma_map_problem(long long cols, long long rows, unsigned long long addr, int box_x,
                                                   int box_y, int swizzle_bytes)
{
    if (addr % 16 != 0) return "the matrix does not start on a 16-byte boundary";
    if (cols < 1 || rows < 1 || cols > (1LL << 32) || rows > (1LL << 32)) return "a dimension is not 1 to 2^32";
    if ((cols * 4) % 16 != 0) return "the row pitch is not a multiple of 16 bytes";
    if (cols * 4 >= (1LL << 40)) return "the row pitch is not below 2^40 bytes";
    if (box_x < 1 || box_x > 256 || box_y < 1 || box_y > 256) return "a box side is not 1 to 256 elements";
    if ((box_x * 4) % 16 != 0) return "the box's inner side is not a multiple of 16 bytes";
    if (swizzle_bytes > 0 && box_x * 4 > swizzle_bytes) return "the box's inner side is wider than the swizzle span";
    return 0;
}

/* Blocks of a persistent kernel: as many as fit on the GPU at once (sms x per_sm), at most one per
 * tile, at least one; cap > 0 lowers it further (--check runs the pipelines on 3 blocks so that
 * every block goes round its stages many times). */
static inline ASYNC_HD unsigned persistent_blocks(long long tiles, int sms, int per_sm, unsigned cap)
{
    long long b = (long long)sms * per_sm;
    if (cap > 0 && b > (long long)cap) b = cap;
    if (b > tiles) b = tiles;
    return b < 1 ? 1u : (unsigned)b;
}

/* Dynamic shared memory of the cp.async and TMA kernels (async_kernels.cuh), in bytes. */
static inline ASYNC_HD int cpa_smem_bytes(int stages) { return stages * CPA_TILE_FLOATS * 4; }
static inline ASYNC_HD int tma_transpose_smem_bytes(int stages)
{
    /* alignment slack, `stages` loaded boxes, 2 buffers of the transposed box, one mbarrier a stage */
    return TMA_ALIGN + (stages + 2) * TMA_BOX_FLOATS * 4 + stages * 8;
}
static inline ASYNC_HD int tma_copy_smem_bytes(int stages)
{
    return TMA_ALIGN + stages * TMA_BOX_FLOATS * 4 + stages * 8;
}

#endif
