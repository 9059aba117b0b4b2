/* Lesson 04's kernels: bytes in flight.  Lesson 02's copyRow and copyCol (copy_row, copy_col,
 * included from ../02_coalescing/kernels.cuh; Tan Sheng's "bounds" of a transpose, an older name:
 * the README's "What the sources said"), then the same copy with more loads per thread before its
 * first store (the f1 and f4 copies).
 * Read this file first; transpose_bounds.cu only verifies, times and prints them.  Lessons 05 to 08
 * include it: they measure copyRow, copyCol and the float4 copy beside their transposes.
 *
 * Bytes in flight: the bytes a load has asked for that have not yet arrived (the README's
 * definition).  The most one thread can have in flight is what it loads before its first use of a
 * loaded value, in a copy its first store.  copy_row and copy_col load one float, then store it:
 * 4 bytes.  copy_f1_xU and copy_f4_xU issue U float or float4 loads before their first store:
 * U x 4 or U x 16 bytes.  Times the threads resident on an SM, that is the KiB/SM column the
 * program prints: the most an SM can have in flight (experiment 3 measures how much it has).
 *
 * Layout.  `in` is a row-major matrix of ny rows and nx columns: element (r, c) is in[r * nx + c].
 * The copies write out[i] = in[i] for every element, so they are checked against the input itself.
 *
 * Launch.  copy_row and copy_col (lesson 02's file) take 2-D blocks of any shape; their grid comes
 * from grid_2d(fast, slow, block) (common/grid.cuh), where `fast` is the extent that threadIdx.x
 * walks (nx for copy_row, ny for copy_col).  gridDim.y is at most 65535 (CUDA C++ Programming Guide,
 * technical specifications per compute capability: maximum y-dimension of a grid), so their slow
 * index loops in steps of gridDim.y * blockDim.y; for every matrix the lessons time the loop body
 * runs once.  The copies defined in this file are 1-D: they treat the matrix as one flat array of
 * nx * ny floats and use only block.x (their launchers, below).  Every element is visited exactly
 * once for any nx, ny >= 1, multiples of the block or not.
 *
 * Indices.  In copy_row and copy_col, c < nx and r < ny fit an unsigned int (one dimension is at
 * most 2^31 - 1); in every kernel the linear index is formed in size_t so nothing can wrap.  The
 * pointers are deliberately not __restrict__: the loads stay plain ld.global (lesson 05 compares
 * them with explicit cache hints). */
#ifndef LESSON04_KERNELS_CUH
#define LESSON04_KERNELS_CUH

#include "cuda_check.h"   /* CHECK: copy_blocks asks the runtime for the resident blocks */
#include "grid.cuh"
#include "../02_coalescing/kernels.cuh"  /* copy_row, copy_col: copyRow and copyCol */

/* copyRow and copyCol (copy_row, copy_col, and their launchers launch_copy_row, launch_copy_col) are
 * lesson 02's, included above. */

/* ---- more bytes in flight per thread: the copies of experiment 2 ---------------------------- */

/* streaming = 1: ld.global.cs / st.global.cs, "evict first" in L1 and L2 (see copy_f4_x4_cs).
 * V is float or float4: __ldcs and __stcs have both. */
template <typename V>
static __device__ __forceinline__ V load_v(const V *p, int streaming)
{
    return streaming ? __ldcs(p) : *p;
}

template <typename V>
static __device__ __forceinline__ void store_v(V *p, V v, int streaming)
{
    if (streaming) __stcs(p, v);
    else *p = v;
}

/* A copy of n floats as elements of type V (float: 4 bytes, float4: 16 bytes).  The V elements are
 * cut into flat tiles of u * blockDim.x; block b takes tiles b, b + gridDim.x, ... (one pass when the
 * grid has a block per tile, grid-stride when it is smaller).  In a tile, thread t moves elements
 * t, t + blockDim.x, ..., t + (u-1) * blockDim.x, so every warp instruction covers 32 contiguous
 * elements (128 bytes of float, 512 of float4: every byte of every sector used), and all u loads
 * are issued before the first store: u independent loads of sizeof(V) bytes, all of which can be
 * in flight at once.
 *
 * Why that matters: a load from DRAM does not come back at once (experiment 3 of the lesson
 * measures how long it takes).  To keep the memory busy, bandwidth x latency bytes must be on their
 * way at every moment (Little's law), and a thread can only have in flight the loads it issued
 * before it needed a result.
 *
 * The copy itself is the two unrolled loops of the first branch, U loads then U stores (the
 * README's "The idea" sketches them); read those first.  The rest is experiment 3's timing (t0, t1
 * and the `timed` tests), the last partial tile and the tail.
 * u is a literal in every caller, so after inlining the loops unroll fully and v[] lives in
 * registers.
 * The pointers must be sizeof(V)-aligned (cudaMalloc gives 256); the n % (sizeof(V)/4) floats
 * that make no whole V are copied one by one by the first threads of block 0. */
/* Experiment 3 times the loads from inside (TIMED = true; every other kernel here has TIMED = false,
 * and the compiler drops the timing code from them).  In one tile of every FLIGHT_EVERY one warp, a
 * different one from sample to sample, reads the SM's clock (clock64, in SM cycles) just before its first load and again
 * just after its first store.  A warp issues its instructions in order and a store cannot issue
 * before the data it stores has arrived, so the difference is the round trip of the first load
 * while every other warp's loads are in flight too (plus a few cycles to issue the other loads).
 * Lane 0 adds it to a slot of flight_clocks and counts it in the same slot of flight_samples: one
 * atomicAdd pair per sample.  FLIGHT_SLOTS slots, 128 bytes apart, sample s in slot s % FLIGHT_SLOTS:
 * atomics on one address are done one after another, and the timing must not slow the copy it
 * measures (a first version, a pair per tile on one counter, ran f1 x1 at about half its speed;
 * spread over the slots but still a pair per tile, at 0.86 of it). */
#define FLIGHT_EVERY 8
#define FLIGHT_SLOTS 1024
#define FLIGHT_SLOT_STRIDE 16   /* unsigned long longs: 128 bytes, a slot per cache line */
__device__ unsigned long long flight_clocks[FLIGHT_SLOTS * FLIGHT_SLOT_STRIDE];
__device__ unsigned long long flight_samples[FLIGHT_SLOTS * FLIGHT_SLOT_STRIDE];

template <typename V, bool TIMED = false>
static __device__ __forceinline__ void copy_tiles(float *out, const float *in, size_t n, int u, int streaming)
{
    const int w = (int)(sizeof(V) / sizeof(float));   /* floats per element: 1 or 4 */
    const V *sv = (const V *)in;
    V *dv = (V *)out;
    size_t nv = n / w, tile = (size_t)u * blockDim.x, t;
    unsigned tail = (unsigned)(n % w);
    for (t = blockIdx.x; t * tile < nv; t += gridDim.x) {
        size_t i0 = t * tile + threadIdx.x;
        V v[8];
        int k;
        if (i0 + (size_t)(u - 1) * blockDim.x < nv) {
            /* the whole tile is inside: u loads back to back, no test between them */
            long long t0 = 0, t1 = 0;
            int timed = TIMED && t % FLIGHT_EVERY == 0 &&
                        threadIdx.x / 32 == (unsigned)(t / FLIGHT_EVERY % (blockDim.x / 32));
            if (timed) t0 = clock64();
#pragma unroll
            for (k = 0; k < u; k++) v[k] = load_v(&sv[i0 + (size_t)k * blockDim.x], streaming);
#pragma unroll
            for (k = 0; k < u; k++) {
                store_v(&dv[i0 + (size_t)k * blockDim.x], v[k], streaming);
                if (timed && k == 0) t1 = clock64();
            }
            if (timed && threadIdx.x % 32 == 0) {
                size_t slot = (t / FLIGHT_EVERY % FLIGHT_SLOTS) * FLIGHT_SLOT_STRIDE;
                atomicAdd(&flight_clocks[slot], (unsigned long long)(t1 - t0));
                atomicAdd(&flight_samples[slot], 1ull);
            }
        } else {
            /* the last, partial tile */
#pragma unroll
            for (k = 0; k < u; k++)
                if (i0 + (size_t)k * blockDim.x < nv) v[k] = load_v(&sv[i0 + (size_t)k * blockDim.x], streaming);
#pragma unroll
            for (k = 0; k < u; k++)
                if (i0 + (size_t)k * blockDim.x < nv) store_v(&dv[i0 + (size_t)k * blockDim.x], v[k], streaming);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x < tail) out[w * nv + threadIdx.x] = in[w * nv + threadIdx.x];
}

/* copy_f1_xU: U float loads (4 bytes each) before the first store, at most U x 4 bytes in flight
 * per thread: copyRow's one float (x1), then two and three.  1-D blocks.  They sit between
 * copyRow's 8 KiB per SM and the float4 copies' 32 KiB. */
__global__ void copy_f1_x1(float *out, const float *in, size_t n) { copy_tiles<float>(out, in, n, 1, 0); }
__global__ void copy_f1_x2(float *out, const float *in, size_t n) { copy_tiles<float>(out, in, n, 2, 0); }
__global__ void copy_f1_x3(float *out, const float *in, size_t n) { copy_tiles<float>(out, in, n, 3, 0); }

/* copy_f4_xU: U float4 loads (16 bytes each) before the first store, at most U x 16 bytes in
 * flight per thread.  1-D blocks. */
__global__ void copy_f4_x1(float *out, const float *in, size_t n) { copy_tiles<float4>(out, in, n, 1, 0); }
__global__ void copy_f4_x2(float *out, const float *in, size_t n) { copy_tiles<float4>(out, in, n, 2, 0); }
__global__ void copy_f4_x4(float *out, const float *in, size_t n) { copy_tiles<float4>(out, in, n, 4, 0); }
__global__ void copy_f4_x8(float *out, const float *in, size_t n) { copy_tiles<float4>(out, in, n, 8, 0); }

/* The same with streaming hints, ld.global.cs / st.global.cs: "cache streaming, likely to be
 * accessed once", says the PTX ISA, whose ld.cs allocates global lines "with evict-first policy in
 * L1 and L2 to limit cache pollution by temporary streaming data". */
__global__ void copy_f4_x4_cs(float *out, const float *in, size_t n) { copy_tiles<float4>(out, in, n, 4, 1); }

/* copy_f1_xU_timed, copy_f4_xU_timed: the same copies, timed from inside (experiment 3). */
__global__ void copy_f1_x1_timed(float *out, const float *in, size_t n) { copy_tiles<float, true>(out, in, n, 1, 0); }
__global__ void copy_f1_x2_timed(float *out, const float *in, size_t n) { copy_tiles<float, true>(out, in, n, 2, 0); }
__global__ void copy_f1_x3_timed(float *out, const float *in, size_t n) { copy_tiles<float, true>(out, in, n, 3, 0); }
__global__ void copy_f4_x1_timed(float *out, const float *in, size_t n) { copy_tiles<float4, true>(out, in, n, 1, 0); }
__global__ void copy_f4_x4_timed(float *out, const float *in, size_t n) { copy_tiles<float4, true>(out, in, n, 4, 0); }

/* Their launches, over the nx x ny floats of a matrix with 1-D blocks of block.x threads.
 *   launch_copy_f1_xU, launch_copy_f4_xU:
 *                                  one pass: a block per tile of U x block.x elements (floats or float4s).
 *   launch_copy_f4_xU_grid_stride: only as many blocks as are resident on the GPU at once (SMs x the
 *                                  blocks an SM holds, cudaOccupancyMaxActiveBlocksPerMultiprocessor),
 *                                  each taking tile after tile.
 * copy_blocks works the grid out for a kernel of U elements of w floats per thread. */
static inline unsigned copy_blocks(const void *kernel, size_t n, int w, int u, unsigned threads, int grid_stride)
{
    /* The resident blocks are asked once per kernel and block size, not at every launch: a timed
     * launch must not wait on the host. */
    static const void *seen[16];
    static unsigned seen_threads[16], seen_cap[16];
    size_t tiles = div_up(n / w, u * threads);
    int i, dev = 0, sms = 0, resident = 0;
    if (tiles == 0) tiles = 1;   /* fewer than w floats: block 0 copies them */
    if (!grid_stride) return (unsigned)tiles;
    for (i = 0; i < 16 && seen[i]; i++)
        if (seen[i] == kernel && seen_threads[i] == threads) break;
    if (i == 16 || !seen[i]) {
        CHECK(cudaGetDevice(&dev));
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, (int)threads, 0));
        i = i == 16 ? 0 : i;
        seen[i] = kernel;
        seen_threads[i] = threads;
        seen_cap[i] = (unsigned)sms * (unsigned)(resident > 0 ? resident : 1);
    }
    return (unsigned)(tiles < seen_cap[i] ? tiles : seen_cap[i]);
}

/* One launch for all of them: KERNEL, of W floats per element and U elements per thread, over the
 * nx x ny floats, in one pass (GRID_STRIDE 0) or grid-stride (1); then each row's launcher by name. */
template <void (*KERNEL)(float *, const float *, size_t), int W, int U, int GRID_STRIDE>
static inline void launch_copy_tiles(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    size_t n = (size_t)nx * ny;
    KERNEL<<<copy_blocks((const void *)KERNEL, n, W, U, block.x, GRID_STRIDE), block.x, 0, s>>>(out, in, n);
}
static inline void launch_copy_f1_x1(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f1_x1, 1, 1, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f1_x2(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f1_x2, 1, 2, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f1_x3(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f1_x3, 1, 3, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x1(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x1, 4, 1, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x2(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x2, 4, 2, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x4(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x4, 4, 4, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x8(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x8, 4, 8, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x4_cs(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x4_cs, 4, 4, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f1_x1_timed(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f1_x1_timed, 1, 1, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f1_x2_timed(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f1_x2_timed, 1, 2, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f1_x3_timed(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f1_x3_timed, 1, 3, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x1_timed(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x1_timed, 4, 1, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x4_timed(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x4_timed, 4, 4, 0>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x1_grid_stride(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x1, 4, 1, 1>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x2_grid_stride(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x2, 4, 2, 1>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x4_grid_stride(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x4, 4, 4, 1>(out, in, nx, ny, block, s);
}
static inline void launch_copy_f4_x4_cs_grid_stride(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    launch_copy_tiles<copy_f4_x4_cs, 4, 4, 1>(out, in, nx, ny, block, s);
}

#endif
