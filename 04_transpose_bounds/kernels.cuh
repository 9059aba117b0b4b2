/* Lesson 04's kernels: the bounds of a transpose are lesson 02's copyRow and copyCol (copy_row,
 * copy_col, included from ../02_coalescing/kernels.cuh), then the same copy with more bytes in
 * flight per thread (the float4 copies).  Read this file first; transpose_bounds.cu only
 * verifies, times and prints them.  Lessons 05 and 06 include it: they measure copyRow and copyCol
 * beside their transposes, and launch their own kernels with the macros below.
 *
 * Layout.  `in` is a row-major matrix of ny rows and nx columns: element (r, c) is in[r * nx + c].
 * The copies write out[i] = in[i] for every element, so they are checked against the input itself.
 *
 * Launch.  2-D blocks of any shape; the grid comes from grid_2d(fast, slow, block) (common/grid.cuh),
 * where `fast` is the extent that threadIdx.x walks (nx for copy_row, ny for copy_col).  The
 * hardware caps gridDim.y at 65535, so the slow index loops in steps of gridDim.y * blockDim.y;
 * for every matrix the lessons time the loop body runs once.  Every element is visited exactly
 * once for any nx, ny >= 1, multiples of the block or not.
 *
 * Indices.  c < nx and r < ny fit an unsigned int (one dimension is at most 2^31 - 1); the linear
 * index is formed in size_t so nothing can wrap.  The pointers are deliberately not __restrict__:
 * the loads stay plain ld.global (lesson 05 compares them with explicit cache hints). */
#ifndef LESSON04_KERNELS_CUH
#define LESSON04_KERNELS_CUH

#include "grid.cuh"
#include "../02_coalescing/kernels.cuh"  /* copy_row, copy_col: copyRow and copyCol */
#include "transpose_matrix.h"

/* `static`: each program compiles its own copy; `unused`: a program that launches only some of
 * them builds without a warning. */

/* Launches.  Each group of kernels is followed by their launches, launch(ctx, stream) with ctx a
 * tctx_t (common/transpose_matrix.h): what one table row runs.  A kernel(out, in, nx, ny) whose
 * threadIdx.x walks the nx columns (ROWS) or the ny rows (COLS), u elements per thread, runs on
 * grid_2d(ceil(nx / u), ny, block) or grid_2d(ceil(ny / u), nx, block); lessons 05 and 06 launch
 * theirs with the same two macros. */
#define TLAUNCH_ROWS(name, kernel, u)                                                               \
    static inline void name(void *p, cudaStream_t s)                                                \
    {                                                                                               \
        const tctx_t *c = (const tctx_t *)p;                                                        \
        kernel<<<grid_2d(div_up((unsigned)c->nx, u), c->ny, c->block), c->block, 0, s>>>(c->out, c->in, c->nx, c->ny); \
    }
#define TLAUNCH_COLS(name, kernel, u)                                                               \
    static inline void name(void *p, cudaStream_t s)                                                \
    {                                                                                               \
        const tctx_t *c = (const tctx_t *)p;                                                        \
        kernel<<<grid_2d(div_up((unsigned)c->ny, u), c->nx, c->block), c->block, 0, s>>>(c->out, c->in, c->nx, c->ny); \
    }

/* copyRow and copyCol (copy_row, copy_col) are lesson 02's kernels, included above. */

TLAUNCH_ROWS(launch_copy_row, copy_row, 1)
TLAUNCH_COLS(launch_copy_col, copy_col, 1)

/* ---- more bytes in flight per thread: the float4 copies of experiment 2 ---------------------- */

/* streaming = 1: ld.global.cs / st.global.cs, "evict first" in L1 and L2 (see copy_f4_x4_cs). */
static __device__ __forceinline__ float4 load_f4(const float4 *p, int streaming)
{
    return streaming ? __ldcs(p) : *p;
}

static __device__ __forceinline__ void store_f4(float4 *p, float4 v, int streaming)
{
    if (streaming) __stcs(p, v);
    else *p = v;
}

/* A copy of n floats as float4s.  The float4s are cut into tiles of u * blockDim.x; block b takes
 * tiles b, b + gridDim.x, ... (one pass when the grid has a block per tile, grid-stride when it is
 * smaller).  In a tile, thread t moves float4s t, t + blockDim.x, ..., t + (u-1) * blockDim.x, so
 * every warp instruction still covers 512 contiguous bytes, and all u loads are issued before the
 * first store: u independent 16-byte loads in flight per thread instead of one.
 *
 * Why that matters: a load from DRAM takes hundreds of nanoseconds to come back.  To keep the
 * memory busy, bandwidth x latency bytes must be on their way at every moment (Little's law), and
 * a thread can only have in flight the loads it issued before it needed a result.
 *
 * u is a literal in every caller, so after inlining the loops unroll fully and v[] lives in
 * registers.  The pointers must be 16-byte aligned (cudaMalloc gives 256); the n % 4 floats
 * that make no whole float4 are copied one by one by the first threads of block 0. */
static __device__ __forceinline__ void copy_f4_tiles(float *dst, const float *src, size_t n, int u, int streaming)
{
    const float4 *s4 = (const float4 *)src;
    float4 *d4 = (float4 *)dst;
    size_t n4 = n / 4, tile = (size_t)u * blockDim.x, t;
    unsigned tail = (unsigned)(n % 4);
    for (t = blockIdx.x; t * tile < n4; t += gridDim.x) {
        size_t i0 = t * tile + threadIdx.x;
        float4 v[8];
        int k;
        if (i0 + (size_t)(u - 1) * blockDim.x < n4) {
            /* the whole tile is inside: u loads back to back, no test between them */
#pragma unroll
            for (k = 0; k < u; k++) v[k] = load_f4(&s4[i0 + (size_t)k * blockDim.x], streaming);
#pragma unroll
            for (k = 0; k < u; k++) store_f4(&d4[i0 + (size_t)k * blockDim.x], v[k], streaming);
        } else {
            /* the last, partial tile */
#pragma unroll
            for (k = 0; k < u; k++)
                if (i0 + (size_t)k * blockDim.x < n4) v[k] = load_f4(&s4[i0 + (size_t)k * blockDim.x], streaming);
#pragma unroll
            for (k = 0; k < u; k++)
                if (i0 + (size_t)k * blockDim.x < n4) store_f4(&d4[i0 + (size_t)k * blockDim.x], v[k], streaming);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x < tail) dst[4 * n4 + threadIdx.x] = src[4 * n4 + threadIdx.x];
}

/* copy_f4_xU: U float4 loads (16 bytes each) in flight per thread, U x 16 bytes before the first
 * store.  1-D blocks; grid: a block per tile of U x blockDim.x float4s (one pass), or fewer blocks
 * that loop (grid-stride) -- the caller picks it: launched on c->grid blocks of c->block threads
 * over the nx * ny floats. */
#define TLAUNCH_F4(name, kernel)                                                                    \
    static inline void name(void *p, cudaStream_t s)                                                \
    {                                                                                               \
        const tctx_t *c = (const tctx_t *)p;                                                        \
        kernel<<<c->grid, c->block, 0, s>>>(c->out, c->in, (size_t)c->nx * (size_t)c->ny);          \
    }
static __global__ __attribute__((unused)) void copy_f4_x1(float *dst, const float *src, size_t n)
{
    copy_f4_tiles(dst, src, n, 1, 0);
}
static __global__ __attribute__((unused)) void copy_f4_x2(float *dst, const float *src, size_t n)
{
    copy_f4_tiles(dst, src, n, 2, 0);
}
static __global__ __attribute__((unused)) void copy_f4_x4(float *dst, const float *src, size_t n)
{
    copy_f4_tiles(dst, src, n, 4, 0);
}
static __global__ __attribute__((unused)) void copy_f4_x8(float *dst, const float *src, size_t n)
{
    copy_f4_tiles(dst, src, n, 8, 0);
}

/* The same with streaming hints: ld.global.cs / st.global.cs mark every line evict-first, so a copy
 * that touches each byte once does not push other data out of the caches and the L2 can drop or
 * write back its lines early. */
static __global__ __attribute__((unused)) void copy_f4_x4_cs(float *dst, const float *src, size_t n)
{
    copy_f4_tiles(dst, src, n, 4, 1);
}

TLAUNCH_F4(launch_f4_x1, copy_f4_x1)
TLAUNCH_F4(launch_f4_x2, copy_f4_x2)
TLAUNCH_F4(launch_f4_x4, copy_f4_x4)
TLAUNCH_F4(launch_f4_x8, copy_f4_x8)
TLAUNCH_F4(launch_f4_x4_cs, copy_f4_x4_cs)

#endif
