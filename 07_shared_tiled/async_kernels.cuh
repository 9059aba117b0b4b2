/* Lesson 07, part 3's kernels: asynchronous copies into shared memory.  Read this file first;
 * async_copy.cu only verifies, times and prints them (ASYNC.md is the notes page).  In the order
 * the notes present them:
 *
 *   copy_shared_mem_tile64   copySharedMem: part 1's best tile (64 x 64, 64 x 4 threads, [64][65])
 *                            with the same barrier and indexing, storing in place order -- a copy
 *                            through shared memory: what the load / barrier / store phasing costs
 *   cpasync_*                cp.async (compute capability 8.0): each thread starts 16-byte copies
 *                            global -> shared that skip its registers; a persistent block keeps
 *                            S - 1 tiles loading while it stores the oldest one
 *   tma_*                    the Tensor Memory Accelerator (compute capability 9.0): one thread
 *                            starts the copy of a whole 2-D box, described by a tensor map; the
 *                            block transposes it in shared memory and one thread stores it back
 *
 * Layout (as in lessons 04-07): `in` has ny rows of nx floats, element (r, c) at in[r * nx + c];
 * the transpose `out` has nx rows of ny floats: out[c * ny + r] = in[r * nx + c]; a copy writes
 * out[i] = in[i].  Every cp.async kernel handles any nx, ny >= 1; the TMA kernels need rows whose
 * pitch is a multiple of 16 bytes (tma_map_problem says which shapes can have a tensor map).
 *
 * Portability.  The course builds these for sm_70/75, sm_80, sm_90 and compute_90 PTX with CUDA
 * 11.8 to 13.x.  The cp.async bodies exist only where __CUDA_ARCH__ >= 800, the TMA bodies only where
 * __CUDA_ARCH__ >= 900 and the CUDA headers know CUtensorMap (CUDA 12); elsewhere a kernel is
 * empty, and async_copy.cu checks the GPU (and what code the binary carries for it) before it
 * launches one, so an empty body is never timed.
 *
 * The first section is plain C (no CUDA): the shared-memory layouts, the thread-to-data mappings
 * and the tensor-map rules, so that tests/test_async.c can check them on the host with banks.h. */
#ifndef LESSON07_ASYNC_KERNELS_CUH
#define LESSON07_ASYNC_KERNELS_CUH

#include <stdint.h>

#ifdef __CUDACC__
#define ASYNC_HD __host__ __device__
#else
#define ASYNC_HD
#endif

/* ---- arithmetic shared by host and device (plain C) ----------------------------------------- */

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

/* Dynamic shared memory of the kernels below, in bytes. */
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

#ifdef __CUDACC__
/* ---- CUDA from here on ----------------------------------------------------------------------- */
#include <cuda_runtime.h>
#if CUDART_VERSION >= 12000
#include <cuda.h>   /* CUtensorMap: only the type; nothing here calls the driver library */
#define ASYNC_HAVE_TMA 1
#else
#define ASYNC_HAVE_TMA 0
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ASYNC_SM80 1
#else
#define ASYNC_SM80 0
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && ASYNC_HAVE_TMA
#define ASYNC_SM90 1
#else
#define ASYNC_SM90 0
#endif

/* The 32-bit shared-memory address the PTX instructions below take. */
static __device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* ---- copySharedMem --------------------------------------------------------------------------- */

/* Part 1's tile64 thr64x4 [64][65] (kernels.cuh, tile_transpose with T = 64, R = 4, P = 65) with
 * one change: phase 2 writes the element it takes from shared memory back where it came from,
 * out[r][c] = tile[r - r0][c - c0], instead of to the transposed place.  Same grid (ceil(nx / 64)
 * x ceil(ny / 64) blocks of 64 x 4 threads), same 16 loads in flight per thread before the barrier,
 * same bank pattern on the write; its reads of a tile row are conflict-free as well.  What it
 * leaves out is the corner turn: its distance to the copy kernel is what the phasing alone costs
 * (all loads, a barrier, all stores, per block). */
static __global__ __attribute__((unused)) void copy_shared_mem_tile64(const float *__restrict__ in,
                                                                     float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[64 * 65];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * 64, r0 = blockIdx.y * 64;
    float v[16];
    int j;
#pragma unroll
    for (j = 0; j < 64; j += 4) {  /* all loads first: 16 of them in flight per thread */
        int r = r0 + ty + j, c = c0 + tx;
        v[j / 4] = (r < ny && c < nx) ? in[(size_t)r * nx + c] : 0.0f;
    }
#pragma unroll
    for (j = 0; j < 64; j += 4) tile[(ty + j) * 65 + tx] = v[j / 4];
    __syncthreads();  /* outside every branch: all 256 threads arrive */
#pragma unroll
    for (j = 0; j < 64; j += 4) {
        int r = r0 + ty + j, c = c0 + tx;  /* in place order: output row r, column c */
        if (r < ny && c < nx) out[(size_t)r * nx + c] = tile[(ty + j) * 65 + tx];
    }
}

/* ---- cp.async (compute capability 8.0) ------------------------------------------------------ */

/* The cp.async helpers exist only where the instructions do (the pipeline's body below is
 * empty elsewhere). */
#if ASYNC_SM80
/* cp.async copies `bytes` (4, 8 or 16) from global `src` to shared `dst` without passing through a
 * register: the thread only starts it.  src_bytes < bytes fills the rest of dst with zeros, and
 * src_bytes = 0 reads nothing at all -- the edges of the matrix use it, with `src` pointing at a
 * valid address all the same (PTX ISA, "cp.async").  16-byte copies take .cg (cached in L2 only;
 * the data is used once); 4- and 8-byte copies exist only as .ca. */
static __device__ __forceinline__ void cp_async(void *dst, const void *src, int bytes, int src_bytes)
{
    if (bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(dst)), "l"(src), "r"(src_bytes)
                     : "memory");
    else if (bytes == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_u32(dst)), "l"(src), "r"(src_bytes)
                     : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_u32(dst)), "l"(src), "r"(src_bytes)
                     : "memory");
}

/* Every copy the thread started since the last commit becomes one group... */
static __device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* ... and this waits until at most `pending` of the thread's groups are still in flight (the
 * operand is an immediate: one instruction per value).  Only the thread's own copies: a
 * __syncthreads after it makes every thread's copies visible to the block. */
static __device__ __forceinline__ void cp_async_wait(int pending)
{
    switch (pending) {
    case 0: asm volatile("cp.async.wait_group 0;\n" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;\n" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;\n" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 3;\n" ::: "memory"); break;
    }
}

/* Starts the copies of the 64 x 64 tile whose top-left input element is (r0, c0) into `tile`
 * (swizzled rows of 64 floats), vec bytes a copy (a literal in every caller), thread t's copies at
 * cpa_copy_at.  With nx a multiple of the copy's floats a copy is wholly inside or wholly outside
 * the matrix: outside, src_bytes = 0 zero-fills it. */
static __device__ __forceinline__ void cpa_load_tile(const float *in, int nx, int ny, int r0, int c0, float *tile,
                                                     int vec)
{
    int i;
#pragma unroll
    for (i = 0; i < CPA_COPIES(vec); i++) {
        int row, col;
        cpa_copy_at(threadIdx.x, i, vec, &row, &col);
        const int r = r0 + row, c = c0 + col, inside = r < ny && c < nx;
        cp_async(tile + swz(row, col, CPA_T), inside ? in + (size_t)r * nx + c : in, vec, inside ? vec : 0);
    }
}
#endif /* ASYNC_SM80 */

/* Phase 2 of the transpose, from a tile in shared memory (cpa_store_row / cpa_store_chunk): each
 * thread reads 4 float4 of its tile row, then writes each float to its output row; a warp's 32
 * lanes write 32 consecutive floats of one output row per instruction.  All 4 reads come first, so
 * the guards of the edge tiles do not hold them up. */
static __device__ __forceinline__ void cpa_store_transposed(float *out, int nx, int ny, int r0, int c0,
                                                            const float *tile)
{
    const int w = threadIdx.x >> 5, row = cpa_store_row(w, threadIdx.x & 31), r = r0 + row;
    float4 v[4];
    int i;
#pragma unroll
    for (i = 0; i < 4; i++) v[i] = *(const float4 *)(tile + swz(row, 4 * cpa_store_chunk(w, i), CPA_T));
#pragma unroll
    for (i = 0; i < 4; i++) {
        const int c = c0 + 4 * cpa_store_chunk(w, i);  /* output rows c .. c + 3, column r */
        float *o = out + (size_t)c * ny + r;
        if (r < ny && c + 3 < nx) {  /* inside: no test per float */
            o[0] = v[i].x;
            o[(size_t)ny] = v[i].y;
            o[2 * (size_t)ny] = v[i].z;
            o[3 * (size_t)ny] = v[i].w;
        } else if (r < ny) {
            if (c < nx) o[0] = v[i].x;
            if (c + 1 < nx) o[(size_t)ny] = v[i].y;
            if (c + 2 < nx) o[2 * (size_t)ny] = v[i].z;
        }
    }
}

/* Phase 2 of the copy: the load's own mapping (cpa_copy_at), vec bytes a store (nx a multiple of
 * the store's floats, so each store is wholly inside or outside). */
static __device__ __forceinline__ void cpa_store_copy(float *out, int nx, int ny, int r0, int c0, const float *tile,
                                                      int vec)
{
    int i, row, col;
#pragma unroll
    for (i = 0; i < CPA_COPIES(vec); i++) {
        cpa_copy_at(threadIdx.x, i, vec, &row, &col);
        if (r0 + row < ny && c0 + col < nx) {
            const float *s = tile + swz(row, col, CPA_T);
            float *d = out + (size_t)(r0 + row) * nx + c0 + col;
            if (vec == 16) *(float4 *)d = *(const float4 *)s;
            else if (vec == 8) *(float2 *)d = *(const float2 *)s;
            else *d = *s;
        }
    }
}

/* The pipeline.  Tiles are numbered row by row (x fastest); block b moves tiles b, b + G, b + 2G,
 * ... (G = gridDim.x, about what fits on the GPU at once: persistent blocks), K of them, through
 * `stages` (S) buffers of one tile each: tile k goes to buffer k % S.  Before the loop the block
 * starts tiles 0 .. S-2; at step k it waits for tile k (wait_group S-2: only the S-2 newer groups
 * may still be in flight), meets the block at the barrier, starts tile k + S - 1 into the buffer
 * that tile k - 1 left -- every thread passed the barrier, so nobody reads it any more -- and
 * stores tile k while tiles k+1 .. k+S-1 are on their way.  Every thread commits one group per
 * step, empty or not, so the group count stays in step with k; K is the same for every thread of
 * the block, so every thread reaches every barrier. */
static __device__ __forceinline__ void cpa_pipeline(const float *__restrict__ in, float *__restrict__ out, int nx,
                                                    int ny, int stages, int vec, int transpose)
{
#if ASYNC_SM80
    extern __shared__ float4 async_dyn_smem[];  /* stages x 16 KiB, 16-byte aligned */
    float *buf = (float *)async_dyn_smem;
    const int tiles_x = (nx + CPA_T - 1) / CPA_T, tiles = tiles_x * ((ny + CPA_T - 1) / CPA_T);
    const int first = blockIdx.x, step = gridDim.x;
    const int K = first < tiles ? (tiles - 1 - first) / step + 1 : 0;
    int k;
    for (k = 0; k < stages - 1; k++) {
        if (k < K) {
            const int tile = first + k * step;
            cpa_load_tile(in, nx, ny, CPA_T * (tile / tiles_x), CPA_T * (tile % tiles_x), buf + k * CPA_TILE_FLOATS,
                          vec);
        }
        cp_async_commit();
    }
    for (k = 0; k < K; k++) {
        const int tile = first + k * step, kn = k + stages - 1;
        cp_async_wait(stages - 2);  /* this thread's copies of tile k have landed */
        __syncthreads();            /* everyone's have, and buffer (k - 1) % S is free */
        if (kn < K) {
            const int tn = first + kn * step;
            cpa_load_tile(in, nx, ny, CPA_T * (tn / tiles_x), CPA_T * (tn % tiles_x),
                          buf + (kn % stages) * CPA_TILE_FLOATS, vec);
        }
        cp_async_commit();
        if (transpose)
            cpa_store_transposed(out, nx, ny, CPA_T * (tile / tiles_x), CPA_T * (tile % tiles_x),
                                 buf + (k % stages) * CPA_TILE_FLOATS);
        else
            cpa_store_copy(out, nx, ny, CPA_T * (tile / tiles_x), CPA_T * (tile % tiles_x),
                           buf + (k % stages) * CPA_TILE_FLOATS, vec);
    }
    cp_async_wait(0);  /* nothing is left in flight (every tile started was waited for) */
#else
    (void)in, (void)out, (void)nx, (void)ny, (void)stages, (void)vec, (void)transpose;
#endif
}

/* One kernel per (stages, bytes a copy, transpose or copy); stages 2 to 5.  1-D persistent grid
 * (persistent_blocks), CPA_THREADS threads, cpa_smem_bytes(stages) of dynamic shared memory.  The
 * launch picks the copy size with cpasync_vec_bytes. */
#define CPA_KERNEL(name, S, VEC, TRANSPOSE)                                                                      \
    static __global__ void __launch_bounds__(CPA_THREADS) __attribute__((unused))                               \
    name(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)                                 \
    {                                                                                                            \
        cpa_pipeline(in, out, nx, ny, S, VEC, TRANSPOSE);                                                        \
    }
CPA_KERNEL(cpasync_copy_s4_v16, 4, 16, 0)       /* copy through shared memory, 4 stages */
CPA_KERNEL(cpasync_copy_s4_v8, 4, 8, 0)
CPA_KERNEL(cpasync_copy_s4_v4, 4, 4, 0)
CPA_KERNEL(cpasync_transpose_s2_v16, 2, 16, 1)  /* transpose, 2 stages: tile k stored while k+1 loads */
CPA_KERNEL(cpasync_transpose_s2_v8, 2, 8, 1)
CPA_KERNEL(cpasync_transpose_s2_v4, 2, 4, 1)
CPA_KERNEL(cpasync_transpose_s4_v16, 4, 16, 1)  /* transpose, 4 stages: k+1 .. k+3 load */
CPA_KERNEL(cpasync_transpose_s4_v8, 4, 8, 1)
CPA_KERNEL(cpasync_transpose_s4_v4, 4, 4, 1)

/* ---- the Tensor Memory Accelerator (compute capability 9.0) ---------------------------------- */
#if ASYNC_HAVE_TMA

/* The TMA helpers exist only where the instructions do (the kernels' bodies below are empty
 * elsewhere). */
#if ASYNC_SM90
/* An mbarrier (a 64-bit object in shared memory) counts arrivals and, separately, bytes: a phase
 * completes when the expected arrivals have come AND the bytes announced with expect_tx have landed
 * (PTX ISA, "mbarrier").  Here one thread arrives once per phase and announces the box's bytes; the
 * TMA unit counts them down as it writes.  Waiting names the phase by its parity (0, 1, 0, ...). */
static __device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(arrivals) : "memory");
}

static __device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
                 : "memory");
}

static __device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(smem_u32(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}

/* Makes this thread's ordinary ("generic proxy") shared-memory accesses -- and an mbarrier's
 * initialisation -- visible to the TMA, which works in the "async proxy" (PTX ISA, "membar/fence":
 * fence.proxy.async; CUDA Programming Guide, TMA: "fence.proxy.async before the TMA store"). */
static __device__ __forceinline__ void fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

static __device__ __forceinline__ void fence_mbarrier_init(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

/* One instruction, one thread: the TMA copies the box at element coordinates (x = column, y = row)
 * of the tensor `map` describes into shared memory at dst (swizzled as the map says), zero-filling
 * what lies outside the tensor, and counts the bytes down on `bar`. */
static __device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int x, int y, uint64_t *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(smem_u32(dst)), "l"(map), "r"(x), "r"(y), "r"(smem_u32(bar))
                 : "memory");
}

/* ... and back: the box in shared memory at src to coordinates (x, y) of the tensor; what falls
 * outside the tensor is not written.  Completion is tracked by bulk groups (commit / wait). */
static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, int x, int y, const void *src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(map), "r"(x), "r"(y), "r"(smem_u32(src))
                 : "memory");
}

static __device__ __forceinline__ void tma_store_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/* Wait until at most 1 (or 0) of this thread's store groups still READ shared memory: their
 * buffers may then be written again.  The writes to global memory may still be on their way. */
static __device__ __forceinline__ void tma_store_wait_read_1(void)
{
    asm volatile("cp.async.bulk.wait_group.read 1;\n" ::: "memory");
}
static __device__ __forceinline__ void tma_store_wait_read_0(void)
{
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}
/* Wait until every store group is complete, reads and writes. */
static __device__ __forceinline__ void tma_store_wait_all(void)
{
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

/* The dynamic shared memory of a TMA kernel, its start rounded up to TMA_ALIGN (the swizzle is
 * computed from address bits 4-9, so the buffers must sit on 1 KiB boundaries). */
static __device__ __forceinline__ unsigned char *tma_smem(void)
{
    extern __shared__ float4 async_dyn_smem[];
    unsigned char *raw = (unsigned char *)async_dyn_smem;
    return raw + ((TMA_ALIGN - (smem_u32(raw) & (TMA_ALIGN - 1))) & (TMA_ALIGN - 1));
}
#endif /* ASYNC_SM90 */

/* The TMA transpose.  Units of TMA_BOX_X x TMA_BOX_Y input elements (32 columns x 64 rows), numbered
 * row by row; block b moves units b, b + G, ..., K of them, through `stages` (S) load buffers A (the
 * box as it lies in the input, rows of 128 bytes, 128-byte swizzle) and 2 store buffers B (the
 * transpose: 2 sub-boxes of 32 x 32, same swizzle).  Thread 0 starts the loads of units 0 .. S-1;
 * at step k:
 *   1. every thread waits on mbarrier k % S for unit k (parity (k / S) & 1); thread 0 also waits
 *      until the store of unit k - 2, from B[k % 2], has read its buffer; barrier;
 *   2. every thread moves one 4 x 4 block (tma_block_of): 4 float4 reads of A, 4 float4 writes of
 *      B, conflict-free in the swizzled layout; fence.proxy.async; barrier;
 *   3. thread 0 starts the 2 TMA stores of B[k % 2] (the output tensor clips what lies beyond it),
 *      commits them as one group, and starts the load of unit k + S into A[k % S], which every
 *      thread has finished reading (step 2's barrier).
 * So while the block transposes unit k, units k+1 .. k+S-1 are loading and unit k-1 is storing.
 * in_map: the input, nx x ny, box 32 x 64; out_map: the output, ny x nx (ny floats a row), box
 * 32 x 32; both CU_TENSOR_MAP_SWIZZLE_128B, passed as __grid_constant__ parameters (the TMA reads
 * the map from the kernel's parameter space). */
static __device__ __forceinline__ void tma_transpose_body(const CUtensorMap *in_map, const CUtensorMap *out_map, int nx,
                                                          int ny, int stages)
{
#if ASYNC_SM90
    unsigned char *smem = tma_smem();
    float *A = (float *)smem;                               /* stages x TMA_BOX_FLOATS */
    float *B = A + stages * TMA_BOX_FLOATS;                 /* 2 x TMA_BOX_FLOATS      */
    uint64_t *full = (uint64_t *)(B + 2 * TMA_BOX_FLOATS);  /* stages mbarriers        */
    const int t = threadIdx.x;
    const int units_x = (nx + TMA_BOX_X - 1) / TMA_BOX_X, units = units_x * ((ny + TMA_BOX_Y - 1) / TMA_BOX_Y);
    const int first = blockIdx.x, step = gridDim.x;
    const int K = first < units ? (units - 1 - first) / step + 1 : 0;
    int h, p, q, k;
    tma_block_of(t >> 5, t & 31, &h, &p, &q);
    if (t == 0) {
        for (k = 0; k < stages; k++) mbar_init(&full[k], 1);
        fence_mbarrier_init();
        fence_proxy_async();  /* the TMA must see the initialised barriers */
        for (k = 0; k < stages && k < K; k++) {
            const int u = first + k * step;
            mbar_arrive_expect_tx(&full[k], TMA_BOX_FLOATS * 4);
            tma_load_2d(A + k * TMA_BOX_FLOATS, in_map, TMA_BOX_X * (u % units_x), TMA_BOX_Y * (u / units_x), &full[k]);
        }
    }
    __syncthreads();
    for (k = 0; k < K; k++) {
        const int s = k % stages, u = first + k * step;
        const int c0 = TMA_BOX_X * (u % units_x), r0 = TMA_BOX_Y * (u / units_x);
        const float *a = A + s * TMA_BOX_FLOATS;
        float *b = B + (k & 1) * TMA_BOX_FLOATS + h * TMA_SUB * TMA_SUB;
        float4 v0, v1, v2, v3;
        mbar_wait(&full[s], (unsigned)(k / stages) & 1u);
        if (t == 0) tma_store_wait_read_1();  /* the store of unit k - 2 has left B[k % 2] */
        __syncthreads();
        /* rows 32h + 4p + j of the box, input columns c0 + 4q .. + 3 */
        v0 = *(const float4 *)(a + swz(TMA_SUB * h + 4 * p + 0, 4 * q, TMA_BOX_X));
        v1 = *(const float4 *)(a + swz(TMA_SUB * h + 4 * p + 1, 4 * q, TMA_BOX_X));
        v2 = *(const float4 *)(a + swz(TMA_SUB * h + 4 * p + 2, 4 * q, TMA_BOX_X));
        v3 = *(const float4 *)(a + swz(TMA_SUB * h + 4 * p + 3, 4 * q, TMA_BOX_X));
        /* row 4q + e of sub-box h is output row c0 + 4q + e; its chunk p, output columns
         * r0 + 32h + 4p .. + 3, holds element e of v0 .. v3 */
        *(float4 *)(b + swz(4 * q + 0, 4 * p, TMA_SUB)) = make_float4(v0.x, v1.x, v2.x, v3.x);
        *(float4 *)(b + swz(4 * q + 1, 4 * p, TMA_SUB)) = make_float4(v0.y, v1.y, v2.y, v3.y);
        *(float4 *)(b + swz(4 * q + 2, 4 * p, TMA_SUB)) = make_float4(v0.z, v1.z, v2.z, v3.z);
        *(float4 *)(b + swz(4 * q + 3, 4 * p, TMA_SUB)) = make_float4(v0.w, v1.w, v2.w, v3.w);
        fence_proxy_async();  /* this thread's writes to B, and its reads of A, before the TMA's */
        __syncthreads();
        if (t == 0) {
            float *bk = B + (k & 1) * TMA_BOX_FLOATS;
            tma_store_2d(out_map, r0, c0, bk);  /* output rows c0 .. c0 + 31, columns r0 .. r0 + 31 */
            if (r0 + TMA_SUB < ny)              /* columns r0 + 32 .., unless wholly past the edge */
                tma_store_2d(out_map, r0 + TMA_SUB, c0, bk + TMA_SUB * TMA_SUB);
            tma_store_commit();
            if (k + stages < K) {
                const int un = first + (k + stages) * step;
                mbar_arrive_expect_tx(&full[s], TMA_BOX_FLOATS * 4);
                tma_load_2d(A + s * TMA_BOX_FLOATS, in_map, TMA_BOX_X * (un % units_x), TMA_BOX_Y * (un / units_x),
                            &full[s]);
            }
        }
    }
    if (t == 0) tma_store_wait_all();  /* shared memory stays until the last store has read it */
#else
    (void)in_map, (void)out_map, (void)nx, (void)ny, (void)stages;
#endif
}

/* The same machinery without the transpose: a copy through shared memory, only thread 0 working.
 * The output map has the input's shape and box, so each loaded box is stored back as it is (the
 * swizzle undoes itself); the load of unit k - 1 + S reuses A[(k - 1) % S] once the store of unit
 * k - 1 has read it (wait_group.read 1 after committing unit k's store).  Its distance to the copy
 * kernel is what TMA through shared memory costs before any transposing. */
static __device__ __forceinline__ void tma_copy_body(const CUtensorMap *in_map, const CUtensorMap *out_map, int nx,
                                                     int ny, int stages)
{
#if ASYNC_SM90
    unsigned char *smem = tma_smem();
    float *A = (float *)smem;
    uint64_t *full = (uint64_t *)(A + stages * TMA_BOX_FLOATS);
    const int units_x = (nx + TMA_BOX_X - 1) / TMA_BOX_X, units = units_x * ((ny + TMA_BOX_Y - 1) / TMA_BOX_Y);
    const int first = blockIdx.x, step = gridDim.x;
    const int K = first < units ? (units - 1 - first) / step + 1 : 0;
    int k;
    if (threadIdx.x != 0) return;  /* no barrier in this kernel: the other lanes have nothing to do */
    for (k = 0; k < stages; k++) mbar_init(&full[k], 1);
    fence_mbarrier_init();
    fence_proxy_async();
    for (k = 0; k < stages && k < K; k++) {
        const int u = first + k * step;
        mbar_arrive_expect_tx(&full[k], TMA_BOX_FLOATS * 4);
        tma_load_2d(A + k * TMA_BOX_FLOATS, in_map, TMA_BOX_X * (u % units_x), TMA_BOX_Y * (u / units_x), &full[k]);
    }
    for (k = 0; k < K; k++) {
        const int s = k % stages, u = first + k * step;
        mbar_wait(&full[s], (unsigned)(k / stages) & 1u);
        fence_proxy_async();  /* cheap insurance: the store reads what the load wrote, both in the async proxy */
        tma_store_2d(out_map, TMA_BOX_X * (u % units_x), TMA_BOX_Y * (u / units_x), A + s * TMA_BOX_FLOATS);
        tma_store_commit();
        if (k >= 1 && k - 1 + stages < K) {
            const int sp = (k - 1) % stages, un = first + (k - 1 + stages) * step;
            tma_store_wait_read_1();  /* the store of unit k - 1 has left A[sp] */
            mbar_arrive_expect_tx(&full[sp], TMA_BOX_FLOATS * 4);
            tma_load_2d(A + sp * TMA_BOX_FLOATS, in_map, TMA_BOX_X * (un % units_x), TMA_BOX_Y * (un / units_x),
                        &full[sp]);
        }
    }
    tma_store_wait_read_0();
    tma_store_wait_all();
#else
    (void)in_map, (void)out_map, (void)nx, (void)ny, (void)stages;
#endif
}

#define TMA_STAGES 4
/* 1-D persistent grids; TMA_THREADS threads and tma_transpose_smem_bytes(TMA_STAGES) for the
 * transpose, 32 threads and tma_copy_smem_bytes(TMA_STAGES) for the copy. */
static __global__ void __launch_bounds__(TMA_THREADS) __attribute__((unused))
tma_transpose_s4(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map, int nx, int ny)
{
    tma_transpose_body(&in_map, &out_map, nx, ny, TMA_STAGES);
}

static __global__ void __launch_bounds__(32) __attribute__((unused))
tma_copy_s4(const __grid_constant__ CUtensorMap in_map, const __grid_constant__ CUtensorMap out_map, int nx, int ny)
{
    tma_copy_body(&in_map, &out_map, nx, ny, TMA_STAGES);
}

#endif /* ASYNC_HAVE_TMA */
#endif /* __CUDACC__ */
#endif
