/* Lesson 05's kernels: the two naive transposes, one strided side each, then the same with an
 * explicit cache hint on the load (experiment 3).  Read this file first; transpose_naive.cu only
 * verifies, times and prints them.  Layout, launch and indices are those of lesson 04's copies
 * (../04_transpose_bounds/kernels.cuh), which this lesson measures beside them: a transpose writes
 * `out` as nx rows of ny columns, out[c * ny + r] = in[r * nx + c].  Each kernel is followed by its
 * launcher, launch_<kernel>(out, in, nx, ny, block, stream).  The slow index loops in steps of
 * gridDim.y * blockDim.y, as in lesson 04's copies (gridDim.y is at most 65535); for every matrix
 * and block shape the lessons time, the loop body runs once per thread. */
#ifndef LESSON05_KERNELS_CUH
#define LESSON05_KERNELS_CUH

#include "../04_transpose_bounds/kernels.cuh"

/* NaiveRow: read a row (coalesced), write it as a column of out (consecutive threads ny floats
 * apart: with a warp 32 threads along x, 32 sectors per store request, 4 useful bytes in each; a
 * block 8 wide makes 8 x 4 warps, 8 sectors).  Grid: grid_2d(nx, ny, block). */
__global__ void transpose_naive_row(float *out, const float *in, int nx, int ny)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (c >= (unsigned)nx) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

static inline void launch_transpose_naive_row(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    transpose_naive_row<<<grid_2d(nx, ny, block), block, 0, s>>>(out, in, nx, ny);
}

/* NaiveCol: read a column of in (consecutive threads nx floats apart: with a warp 32 threads along
 * x, 32 sectors per load request), write a row of out (coalesced).  Grid: grid_2d(ny, nx, block). */
__global__ void transpose_naive_col(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;
    if (r >= (unsigned)ny) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

static inline void launch_transpose_naive_col(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    transpose_naive_col<<<grid_2d(ny, nx, block), block, 0, s>>>(out, in, nx, ny);
}


/* ---- the load made explicit: where the strided loads are served from (experiment 3) ----------- */

/* The naive transposes with the load made explicit: the same kernels, line for line, but the load
 * is one of the cache-hint loads (CUDA C++ Programming Guide, "Load Functions Using Cache Hints";
 * PTX ld.global.<cop>), picked by the template parameter:
 *   LOAD_LDG   __ldg   ld.global.nc  read-only path: since Volta the same unified L1 as the other loads
 *   LOAD_LDCA  __ldca  ld.global.ca  cache in L1 and L2
 *   LOAD_LDCG  __ldcg  ld.global.cg  cache in L2 only: every load goes past the L1's cache
 *   LOAD_LDCS  __ldcs  ld.global.cs  streaming: cached, but first to be evicted (data used once) */
enum { LOAD_LDG, LOAD_LDCA, LOAD_LDCG, LOAD_LDCS };

template <int HINT>
static __device__ __forceinline__ float load_hint(const float *p)
{
    return HINT == LOAD_LDG ? __ldg(p) : HINT == LOAD_LDCA ? __ldca(p) : HINT == LOAD_LDCG ? __ldcg(p) : __ldcs(p);
}

/* NaiveCol with the hinted load.  With 32x8 blocks the 8 warps of a block read 8 neighbouring
 * columns of the same 32 rows, so the same 32 sectors; the hint says where the load may be cached
 * (the table above): LOAD_LDCG in the L2 only. */
template <int HINT>
__global__ void transpose_naive_col_hint(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;
    if (r >= (unsigned)ny) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = load_hint<HINT>(&in[(size_t)r * nx + c]);
}

/* NaiveRow with the hinted load: its loads are coalesced, every sector used in full by one warp and
 * read by no other -- the control, the same hints on loads that have nothing to share in the L1.
 * (Any L1 hits `make profile` shows for it are its stores: the 8 warps of a block store into the
 * same sectors.) */
template <int HINT>
__global__ void transpose_naive_row_hint(float *out, const float *in, int nx, int ny)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (c >= (unsigned)nx) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = load_hint<HINT>(&in[(size_t)r * nx + c]);
}

/* Their launches: the grids of the plain kernels (launch_transpose_naive_col_hint<LOAD_LDCG>, ...). */
template <int HINT>
static inline void launch_transpose_naive_col_hint(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    transpose_naive_col_hint<HINT><<<grid_2d(ny, nx, block), block, 0, s>>>(out, in, nx, ny);
}
template <int HINT>
static inline void launch_transpose_naive_row_hint(float *out, const float *in, int nx, int ny, dim3 block,
                                                   cudaStream_t s)
{
    transpose_naive_row_hint<HINT><<<grid_2d(nx, ny, block), block, 0, s>>>(out, in, nx, ny);
}

#endif
