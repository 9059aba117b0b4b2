/* Lesson 07, part 3's kernels: asynchronous copies into shared memory.  Read this file first;
 * async_copy.cu only verifies, times and prints them (ASYNC.md is the notes page).  In the order
 * the notes present them:
 *
 *   copy_shared_mem_tile64   copySharedMem: part 1's best tile (64 x 64, 64 x 4 threads, [64][65])
 *                            with the same barrier and indexing, storing in place order -- a copy
 *                            through shared memory: what the load / barrier / store phasing costs
 *   cpasync_copy<S, VEC>     cp.async (compute capability 8.0): each thread starts 16-byte copies
 *   cpasync_transpose<S, VEC>  global -> shared that skip its registers; a persistent block keeps
 *                            S - 1 tiles loading while it stores the oldest one
 *   tma_copy<S>              the Tensor Memory Accelerator (compute capability 9.0): one thread
 *   tma_transpose<S>         starts the copy of a whole 2-D box, described by a tensor map; the
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
 * Launch.  Each kernel is followed by its launcher, launch_<kernel>(out, in, nx, ny, block, stream),
 * which fixes its own block (`block` is ignored).  The cp.async and TMA kernels are persistent: a
 * 1-D grid of as many blocks as fit on the GPU at once (persistent_blocks), each taking tile after
 * tile; their launchers take MAX_BLOCKS > 0 to use fewer (async_copy.cu's --check runs them on 3).
 * What a launch needs from the host -- the dynamic shared memory a kernel may use, how many of its
 * blocks fit on an SM, the tensor maps -- is worked out at the first launch and kept: a timed launch
 * does not wait on the host.
 *
 * The arithmetic the kernels share with the host (the swizzled layout, the thread-to-data mappings,
 * the tensor-map rules, the persistent grid) is plain C in async_layout.h, where tests/test_async.c
 * checks it without a GPU. */
#ifndef LESSON07_ASYNC_KERNELS_CUH
#define LESSON07_ASYNC_KERNELS_CUH

#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime.h>
#include "grid.cuh"
#include "async_layout.h"
#if CUDART_VERSION >= 12000
#include <cuda.h>   /* CUtensorMap and the encoder's types; the encoder itself is the driver's (below) */
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
__global__ void copy_shared_mem_tile64(float *__restrict__ out, const float *__restrict__ in, int nx, int ny)
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

/* A block of 64 x 4 threads per 64 x 64 piece of the matrix, as part 1's tile. */
static inline void launch_copy_shared_mem_tile64(float *out, const float *in, int nx, int ny, dim3 block,
                                                 cudaStream_t s)
{
    (void)block;
    copy_shared_mem_tile64<<<dim3(div_up(nx, 64), div_up(ny, 64)), dim3(64, 4), 0, s>>>(out, in, nx, ny);
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
static __device__ __forceinline__ void cpa_load_tile(float *tile, const float *in, int nx, int ny, int r0, int c0,
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
static __device__ __forceinline__ void cpa_store_transposed(float *out, const float *tile, int nx, int ny, int r0,
                                                            int c0)
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
static __device__ __forceinline__ void cpa_store_copy(float *out, const float *tile, int nx, int ny, int r0, int c0,
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
static __device__ __forceinline__ void cpa_pipeline(float *__restrict__ out, const float *__restrict__ in, int nx,
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
            cpa_load_tile(buf + k * CPA_TILE_FLOATS, in, nx, ny, CPA_T * (tile / tiles_x), CPA_T * (tile % tiles_x),
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
            cpa_load_tile(buf + (kn % stages) * CPA_TILE_FLOATS, in, nx, ny, CPA_T * (tn / tiles_x),
                          CPA_T * (tn % tiles_x), vec);
        }
        cp_async_commit();
        if (transpose)
            cpa_store_transposed(out, buf + (k % stages) * CPA_TILE_FLOATS, nx, ny, CPA_T * (tile / tiles_x),
                                 CPA_T * (tile % tiles_x));
        else
            cpa_store_copy(out, buf + (k % stages) * CPA_TILE_FLOATS, nx, ny, CPA_T * (tile / tiles_x),
                           CPA_T * (tile % tiles_x), vec);
    }
    cp_async_wait(0);  /* nothing is left in flight (every tile started was waited for) */
#else
    (void)out, (void)in, (void)nx, (void)ny, (void)stages, (void)vec, (void)transpose;
#endif
}

/* The pipeline as kernels: cpasync_copy<S, VEC> and cpasync_transpose<S, VEC>, S stages (2 to 5)
 * of VEC-byte copies (16, 8 or 4).  1-D persistent grid, CPA_THREADS threads, cpa_smem_bytes(S)
 * of dynamic shared memory; their launchers pick VEC with cpasync_vec_bytes. */
template <int S, int VEC>
__global__ void __launch_bounds__(CPA_THREADS) cpasync_copy(float *__restrict__ out, const float *__restrict__ in,
                                                             int nx, int ny)
{
    cpa_pipeline(out, in, nx, ny, S, VEC, 0);
}

template <int S, int VEC>
__global__ void __launch_bounds__(CPA_THREADS) cpasync_transpose(float *__restrict__ out,
                                                                  const float *__restrict__ in, int nx, int ny)
{
    cpa_pipeline(out, in, nx, ny, S, VEC, 1);
}

/* ---- what a persistent launch needs from the host, asked once ------------------------------- */

/* SMs of the GPU this program runs on. */
static inline int async_sms(void)
{
    static int sms = 0;
    int dev = 0;
    if (!sms && (cudaGetDevice(&dev) != cudaSuccess ||
                 cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)) {
        (void)cudaGetLastError();
        sms = 1;
    }
    return sms;
}

/* How many blocks of `kernel` (threads per block, smem bytes of dynamic shared memory) fit on one
 * SM, 0 when none does: first the kernel is allowed that much dynamic shared memory (past 48 KiB a
 * kernel must ask for it) and told to prefer shared memory in the L1 / shared-memory split, then
 * the occupancy calculator is asked.  Once per kernel: the answer is kept for every later launch. */
static inline int async_blocks_per_sm(const void *kernel, int threads, int smem)
{
    static const void *seen[32];
    static int seen_per_sm[32];
    int i, dev = 0, optin = 0, per_sm = 0;
    for (i = 0; i < 32 && seen[i]; i++)
        if (seen[i] == kernel) return seen_per_sm[i];
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || smem > optin ||
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) != cudaSuccess ||
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared) !=
            cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem) != cudaSuccess) {
        (void)cudaGetLastError();
        per_sm = 0;
    }
    if (i < 32) {
        seen[i] = kernel;
        seen_per_sm[i] = per_sm;
    }
    return per_sm;
}

/* The persistent grid of `kernel` over `units` pieces of work: as many blocks as fit on the GPU,
 * at most max_blocks when that is > 0. */
static inline unsigned async_grid(const void *kernel, int threads, int smem, long long units, unsigned max_blocks)
{
    const int per_sm = async_blocks_per_sm(kernel, threads, smem);
    return persistent_blocks(units, async_sms(), per_sm > 0 ? per_sm : 1, max_blocks);
}

/* One cp.async kernel on its persistent grid over the matrix's 64 x 64 tiles. */
static inline void cpasync_launch(void (*kernel)(float *, const float *, int, int), int stages, float *out,
                                  const float *in, int nx, int ny, unsigned max_blocks, cudaStream_t s)
{
    const int smem = cpa_smem_bytes(stages);
    const long long tiles = (long long)div_up(nx, CPA_T) * div_up(ny, CPA_T);
    kernel<<<async_grid((const void *)kernel, CPA_THREADS, smem, tiles, max_blocks), CPA_THREADS, smem, s>>>(out, in,
                                                                                                            nx, ny);
}

/* The widest copies the rows and both buffers allow (cpasync_vec_bytes). */
static inline int cpasync_vec(float *out, const float *in, int nx)
{
    return cpasync_vec_bytes(nx, (unsigned long long)((uintptr_t)in | (uintptr_t)out));
}

/* The launchers: the copy through shared memory and the transpose with S stages; MAX_BLOCKS > 0
 * caps the persistent grid. */
template <int S, unsigned MAX_BLOCKS = 0>
static inline void launch_cpasync_copy(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    const int vec = cpasync_vec(out, in, nx);
    (void)block;
    cpasync_launch(vec == 16 ? cpasync_copy<S, 16> : vec == 8 ? cpasync_copy<S, 8> : cpasync_copy<S, 4>, S, out, in, nx,
                   ny, MAX_BLOCKS, s);
}

template <int S, unsigned MAX_BLOCKS = 0>
static inline void launch_cpasync_transpose(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    const int vec = cpasync_vec(out, in, nx);
    (void)block;
    cpasync_launch(vec == 16 ? cpasync_transpose<S, 16> : vec == 8 ? cpasync_transpose<S, 8> : cpasync_transpose<S, 4>,
                   S, out, in, nx, ny, MAX_BLOCKS, s);
}

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
static __device__ __forceinline__ void tma_transpose_body(const CUtensorMap *out_map, const CUtensorMap *in_map, int nx,
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
    (void)out_map, (void)in_map, (void)nx, (void)ny, (void)stages;
#endif
}

/* The same machinery without the transpose: a copy through shared memory, only thread 0 working.
 * The output map has the input's shape and box, so each loaded box is stored back as it is (the
 * swizzle undoes itself); the load of unit k - 1 + S reuses A[(k - 1) % S] once the store of unit
 * k - 1 has read it (wait_group.read 1 after committing unit k's store).  Its distance to the copy
 * kernel is what TMA through shared memory costs before any transposing. */
static __device__ __forceinline__ void tma_copy_body(const CUtensorMap *out_map, const CUtensorMap *in_map, int nx,
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
    (void)out_map, (void)in_map, (void)nx, (void)ny, (void)stages;
#endif
}

#define TMA_STAGES 4
/* The two as kernels, S stages: 1-D persistent grids; TMA_THREADS threads and
 * tma_transpose_smem_bytes(S) for the transpose, 32 threads and tma_copy_smem_bytes(S) for the
 * copy.  The rows use S = TMA_STAGES. */
template <int S>
__global__ void __launch_bounds__(TMA_THREADS)
tma_transpose(const __grid_constant__ CUtensorMap out_map, const __grid_constant__ CUtensorMap in_map, int nx, int ny)
{
    tma_transpose_body(&out_map, &in_map, nx, ny, S);
}

template <int S>
__global__ void __launch_bounds__(32)
tma_copy(const __grid_constant__ CUtensorMap out_map, const __grid_constant__ CUtensorMap in_map, int nx, int ny)
{
    tma_copy_body(&out_map, &in_map, nx, ny, S);
}

/* ---- tensor maps, made on the host --------------------------------------------------------- */

/* cuTensorMapEncodeTiled as of CUDA 12.0.  The program does not link the driver library (a machine
 * without a GPU still builds and runs --help): the runtime hands over the driver's function. */
typedef CUresult (*tma_encode_tiled_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                       const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                                       CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                       CUtensorMapFloatOOBfill);

/* The encoder, looked up at the first call and kept; NULL when there is none, with *why (may be
 * NULL) saying why not. */
static inline tma_encode_tiled_t tma_encoder(const char **why)
{
    static int looked = 0;
    static tma_encode_tiled_t encode = NULL;
    static const char *reason = NULL;
    if (!looked) {
        void *fn = NULL;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        cudaError_t err;
#if CUDART_VERSION >= 13000
        /* CUDA 13 deprecates the unversioned lookup: ask for the 12.0 ABI of the function */
        err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found);
#else
        err = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &found);
#endif
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            reason = "the runtime could not look up the driver's cuTensorMapEncodeTiled";
        } else if (found != cudaDriverEntryPointSuccess || !fn) {
            reason = "the driver has no cuTensorMapEncodeTiled";
        } else {
            encode = (tma_encode_tiled_t)fn;
        }
        looked = 1;
    }
    if (why) *why = reason;
    return encode;
}

/* A tensor map of a row-major float matrix (rows x cols), box box_x x box_y, 128-byte swizzle,
 * out-of-bounds loads filled with zeros; NULL or why not. */
static inline const char *tma_encode(CUtensorMap *map, const float *base, int cols, int rows, int box_x, int box_y)
{
    const char *why = tma_map_problem(cols, rows, (unsigned long long)(uintptr_t)base, box_x, box_y, 128);
    const tma_encode_tiled_t encode = tma_encoder(NULL);
    cuuint64_t dims[2], strides[1];
    cuuint32_t box[2], elem[2] = {1, 1};
    if (why) return why;
    if (!encode) return "no tensor map encoder";
    dims[0] = (cuuint64_t)cols;
    dims[1] = (cuuint64_t)rows;
    strides[0] = (cuuint64_t)cols * sizeof(float);
    box[0] = (cuuint32_t)box_x;
    box[1] = (cuuint32_t)box_y;
    if (encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides, box, elem,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        return "cuTensorMapEncodeTiled refused the map";
    return NULL;
}

/* The two maps of a launch, kept for the next one: encoded again only when the buffers or the
 * shape change (a timed loop launches on the same matrices every time). */
typedef struct {
    float *out;
    const float *in;
    int nx, ny, ok;
    CUtensorMap out_map, in_map;
} tma_maps_t;

/* transpose: the output has nx rows of ny floats, stored in 32 x 32 boxes; copy: the input's shape
 * and box.  NULL or why not. */
static inline const char *tma_maps(tma_maps_t *m, float *out, const float *in, int nx, int ny, int transpose)
{
    const char *why;
    if (m->ok && m->out == out && m->in == in && m->nx == nx && m->ny == ny) return NULL;
    m->ok = 0;
    why = tma_encode(&m->in_map, in, nx, ny, TMA_BOX_X, TMA_BOX_Y);
    if (!why)
        why = transpose ? tma_encode(&m->out_map, out, ny, nx, TMA_SUB, TMA_SUB)
                        : tma_encode(&m->out_map, out, nx, ny, TMA_BOX_X, TMA_BOX_Y);
    if (why) return why;
    m->out = out;
    m->in = in;
    m->nx = nx;
    m->ny = ny;
    m->ok = 1;
    return NULL;
}

/* The launchers.  Without a map for these buffers (async_copy.cu checks tma_map_problem before it
 * launches a TMA row) nothing is launched: the output stays as it was and the row fails. */
template <int S, unsigned MAX_BLOCKS = 0>
static inline void launch_tma_transpose(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    static tma_maps_t maps;
    const int smem = tma_transpose_smem_bytes(S);
    const long long units = (long long)div_up(nx, TMA_BOX_X) * div_up(ny, TMA_BOX_Y);
    const char *why = tma_maps(&maps, out, in, nx, ny, 1);
    (void)block;
    if (why) {
        fprintf(stderr, "TMA transpose: no tensor map for %dx%d: %s\n", nx, ny, why);
        return;
    }
    tma_transpose<S><<<async_grid((const void *)tma_transpose<S>, TMA_THREADS, smem, units, MAX_BLOCKS), TMA_THREADS,
                       smem, s>>>(maps.out_map, maps.in_map, nx, ny);
}

template <int S, unsigned MAX_BLOCKS = 0>
static inline void launch_tma_copy(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    static tma_maps_t maps;
    const int smem = tma_copy_smem_bytes(S);
    const long long units = (long long)div_up(nx, TMA_BOX_X) * div_up(ny, TMA_BOX_Y);
    const char *why = tma_maps(&maps, out, in, nx, ny, 0);
    (void)block;
    if (why) {
        fprintf(stderr, "TMA copy: no tensor map for %dx%d: %s\n", nx, ny, why);
        return;
    }
    tma_copy<S><<<async_grid((const void *)tma_copy<S>, 32, smem, units, MAX_BLOCKS), 32, smem, s>>>(
        maps.out_map, maps.in_map, nx, ny);
}

#endif /* ASYNC_HAVE_TMA */
#endif
