/* Lesson 05's kernels: the two naive transposes, one strided side each, then the same with an
 * explicit cache hint on the load (experiment 3).  Read this file first; transpose_naive.cu only
 * verifies, times and prints them.  Layout, launch and indices are those of lesson 04's copies
 * (../04_transpose_bounds/kernels.cuh), which this lesson measures beside them: a transpose writes
 * `out` as nx rows of ny columns, out[c * ny + r] = in[r * nx + c].  Each group of kernels is
 * followed by their launches (TLAUNCH_ROWS, TLAUNCH_COLS: lesson 04's kernels.cuh). */
#ifndef LESSON05_KERNELS_CUH
#define LESSON05_KERNELS_CUH

#include "../04_transpose_bounds/kernels.cuh"

/* NaiveRow: read a row (coalesced), write it as a column of out (consecutive threads ny floats
 * apart: 32 sectors per store request, 4 useful bytes in each).  Grid: grid_2d(nx, ny, block). */
static __global__ __attribute__((unused)) void transpose_naive_row(float *out, const float *in, int nx, int ny)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (c >= (unsigned)nx) return;
    for (r = blockIdx.y * blockDim.y + threadIdx.y; r < (unsigned)ny; r += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

/* NaiveCol: read a column of in (consecutive threads nx floats apart: 32 sectors per load
 * request), write a row of out (coalesced).  Grid: grid_2d(ny, nx, block). */
static __global__ __attribute__((unused)) void transpose_naive_col(float *out, const float *in, int nx, int ny)
{
    unsigned r = blockIdx.x * blockDim.x + threadIdx.x, c;
    if (r >= (unsigned)ny) return;
    for (c = blockIdx.y * blockDim.y + threadIdx.y; c < (unsigned)nx; c += gridDim.y * blockDim.y)
        out[(size_t)c * ny + r] = in[(size_t)r * nx + c];
}

TLAUNCH_ROWS(launch_naive_row, transpose_naive_row, 1)
TLAUNCH_COLS(launch_naive_col, transpose_naive_col, 1)

/* ---- the load made explicit: where the strided loads are served from (experiment 3) ----------- */

/* The naive transposes with the load made explicit.  LOAD(p) is one of the cache-hint loads
 * (CUDA C Programming Guide, "Load Functions Using Cache Hints"; PTX ld.global.<cop>):
 *   __ldg   ld.global.nc  read-only path: since Volta the same unified L1 as the other loads
 *   __ldca  ld.global.ca  cache in L1 and L2 (what a plain load asks for)
 *   __ldcg  ld.global.cg  cache in L2 only: every load goes past the L1
 *   __ldcs  ld.global.cs  streaming: cached, but first to be evicted (data used once)
 * The macro stamps out one small kernel per hint, so each is a plain kernel with nothing else
 * changed: with (FAST, SLOW, NFAST, NSLOW) = (r, c, ny, nx) it is transpose_naive_col line for line,
 * with (c, r, nx, ny) transpose_naive_row -- FAST is the index threadIdx.x walks. */
#define NAIVE_WITH_LOAD(name, LOAD, FAST, SLOW, NFAST, NSLOW)                                     \
    static __global__ __attribute__((unused)) void name(float *out, const float *in, int nx, int ny) \
    {                                                                                            \
        unsigned FAST = blockIdx.x * blockDim.x + threadIdx.x, SLOW;                             \
        if (FAST >= (unsigned)NFAST) return;                                                     \
        for (SLOW = blockIdx.y * blockDim.y + threadIdx.y; SLOW < (unsigned)NSLOW; SLOW += gridDim.y * blockDim.y) \
            out[(size_t)c * ny + r] = LOAD(&in[(size_t)r * nx + c]);                             \
    }

/* NaiveCol: its 32 sectors per load are shared by the warps of a block that read the neighbouring
 * columns -- if the L1 keeps them.  __ldcg sends every load past the L1. */
NAIVE_WITH_LOAD(transpose_naive_col_ldg, __ldg, r, c, ny, nx)
NAIVE_WITH_LOAD(transpose_naive_col_ldca, __ldca, r, c, ny, nx)
NAIVE_WITH_LOAD(transpose_naive_col_ldcg, __ldcg, r, c, ny, nx)
NAIVE_WITH_LOAD(transpose_naive_col_ldcs, __ldcs, r, c, ny, nx)
/* NaiveRow: its loads are coalesced, every sector used in full by one warp: the control, whose
 * speed __ldcg should barely touch if the L1 is what rescues NaiveCol. */
NAIVE_WITH_LOAD(transpose_naive_row_ldcg, __ldcg, c, r, nx, ny)

TLAUNCH_COLS(launch_naive_col_ldg, transpose_naive_col_ldg, 1)
TLAUNCH_COLS(launch_naive_col_ldca, transpose_naive_col_ldca, 1)
TLAUNCH_COLS(launch_naive_col_ldcg, transpose_naive_col_ldcg, 1)
TLAUNCH_COLS(launch_naive_col_ldcs, transpose_naive_col_ldcs, 1)
TLAUNCH_ROWS(launch_naive_row_ldcg, transpose_naive_row_ldcg, 1)

#endif
