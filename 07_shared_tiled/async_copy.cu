/* Lesson 07, part 3: asynchronous copies -- cp.async and the Tensor Memory Accelerator take the
 * transpose to the copy ceiling (notes: ASYNC.md; kernels: async_kernels.cuh).
 *
 * Every load into shared memory in parts 1 and 2 goes through a register: a thread loads, waits for
 * the value, stores it to shared memory, and the block waits at a barrier before anyone stores the
 * tile out.  Part 1's best tile (64 x 64) stops near 95% of the copy.  This program measures where
 * the rest goes and what asynchronous copies change:
 *   - copySharedMem: part 1's tile, barrier and indexing, storing in place order (a copy through
 *     shared memory): what the load / barrier / store phasing costs without any corner turn;
 *   - cp.async (compute capability 8.0): copies global -> shared that skip the registers, several
 *     tiles in flight per block while it stores the oldest (2 and 4 stages), and the same pipeline
 *     as a copy;
 *   - TMA (compute capability 9.0): one thread loads a whole 2-D box through a tensor map, the block
 *     transposes it in shared memory (swizzled, conflict-free), one thread stores it -- and the same
 *     machinery as a copy.
 * Each row is verified (every element) before it is timed, next to cudaMemcpy, lesson 04's float4
 * copy kernel and cublasSgeam, at 8192 x 8192 (or --size) and, by default, 8191 x 4097.
 *
 * A variant this GPU or this build cannot run is not launched: its row says why ("needs compute
 * capability 9.0", "needs CUDA 12 or newer at build time", a row pitch a tensor map cannot describe)
 * and the run goes on. */
#include "args.h"
#include "cublas_check.h"
#include "cuda_check.h"
#include "gpu.h"
#include "kernels.cuh"
#include "async_kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"
#include "verify.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The lesson's matrix limits are shared_tiled.cu's (tmatrix_size_limited_or_exit, 8 rows a block):
 * every program of lesson 07 takes the same --size, since `make run ARGS=...` hands it to all. */

static cublasHandle_t blas;   /* created in main, for the cublasSgeam row        */
static int n_sms;             /* SMs of this GPU, for the persistent grids       */
static unsigned grid_cap;     /* > 0: persistent kernels on at most this many blocks (--check) */

/* ---- launches: each enqueues the kernel (or library call) of one table row on stream s ------ */

/* Lesson 04's float4 copy, one pass: a block of 256 threads per 256 float4s (its "f4 x1 one pass",
 * which matched cudaMemcpy there): the ceiling a kernel reaches on these bytes. */
#define COPY_THREADS 256
static void launch_copy_f4(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    const size_t n = (size_t)c->nx * (size_t)c->ny;
    const unsigned blocks = div_up(n / 4, COPY_THREADS);
    copy_f4_x1<<<blocks ? blocks : 1u, COPY_THREADS, 0, s>>>(c->out, c->in, n);
}

/* cublasSgeam as a transpose (cublas_check.h says how the row-major matrices map onto it). */
static void launch_sgeam(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    cublas_sgeam_transpose(blas, s, c->in, c->out, c->nx, c->ny);
}

/* Part 1's best tile (kernels.cuh) and copySharedMem: a block of 64 x 4 threads per 64 x 64 tile. */
static void launch_tile64(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    transpose_tile64_blk64x4_pad<<<dim3(div_up(c->nx, 64), div_up(c->ny, 64)), dim3(64, 4), 0, s>>>(c->in, c->out, c->nx,
                                                                                                   c->ny);
}

static void launch_copy_shared_mem(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    copy_shared_mem_tile64<<<dim3(div_up(c->nx, 64), div_up(c->ny, 64)), dim3(64, 4), 0, s>>>(c->in, c->out, c->nx,
                                                                                             c->ny);
}

/* The persistent kernels: threads, dynamic shared memory and, once async_setup has asked the
 * occupancy calculator, how many blocks fit on one SM (0: none, or not set up). */
typedef struct {
    const void *fn;
    int threads, smem, per_sm;
} pkernel_t;

static pkernel_t PK[] = {
    {(const void *)cpasync_copy_s4_v16, CPA_THREADS, cpa_smem_bytes(4), 0},
    {(const void *)cpasync_copy_s4_v8, CPA_THREADS, cpa_smem_bytes(4), 0},
    {(const void *)cpasync_copy_s4_v4, CPA_THREADS, cpa_smem_bytes(4), 0},
    {(const void *)cpasync_transpose_s2_v16, CPA_THREADS, cpa_smem_bytes(2), 0},
    {(const void *)cpasync_transpose_s2_v8, CPA_THREADS, cpa_smem_bytes(2), 0},
    {(const void *)cpasync_transpose_s2_v4, CPA_THREADS, cpa_smem_bytes(2), 0},
    {(const void *)cpasync_transpose_s4_v16, CPA_THREADS, cpa_smem_bytes(4), 0},
    {(const void *)cpasync_transpose_s4_v8, CPA_THREADS, cpa_smem_bytes(4), 0},
    {(const void *)cpasync_transpose_s4_v4, CPA_THREADS, cpa_smem_bytes(4), 0},
#if ASYNC_HAVE_TMA
    {(const void *)tma_copy_s4, 32, tma_copy_smem_bytes(TMA_STAGES), 0},
    {(const void *)tma_transpose_s4, TMA_THREADS, tma_transpose_smem_bytes(TMA_STAGES), 0},
#endif
};
#define N_PK ((int)(sizeof PK / sizeof PK[0]))

static const pkernel_t *pkernel(const void *fn)
{
    int i;
    for (i = 0; i < N_PK; i++)
        if (PK[i].fn == fn) return &PK[i];
    return NULL;
}

/* The persistent grid of fn over `tiles` pieces of work (persistent_blocks). */
static unsigned pgrid(const void *fn, long long tiles)
{
    const pkernel_t *k = pkernel(fn);
    return persistent_blocks(tiles, n_sms, k && k->per_sm > 0 ? k->per_sm : 1, grid_cap);
}

static long long cpa_tiles(const tctx_t *c) { return (long long)div_up(c->nx, CPA_T) * div_up(c->ny, CPA_T); }

/* The cp.async kernels: 16-, 8- or 4-byte copies, as the rows and buffers allow (cpasync_vec_bytes). */
#define CPA_LAUNCHER(name, k16, k8, k4)                                                                         \
    static void name(void *p, cudaStream_t s)                                                                   \
    {                                                                                                           \
        const tctx_t *c = (const tctx_t *)p;                                                                    \
        const int vec = cpasync_vec_bytes(c->nx, (unsigned long long)((uintptr_t)c->in | (uintptr_t)c->out));   \
        const void *fn = vec == 16 ? (const void *)k16 : vec == 8 ? (const void *)k8 : (const void *)k4;        \
        const pkernel_t *k = pkernel(fn);                                                                       \
        const unsigned grid = pgrid(fn, cpa_tiles(c));                                                          \
        if (vec == 16) k16<<<grid, k->threads, k->smem, s>>>(c->in, c->out, c->nx, c->ny);                      \
        else if (vec == 8) k8<<<grid, k->threads, k->smem, s>>>(c->in, c->out, c->nx, c->ny);                  \
        else k4<<<grid, k->threads, k->smem, s>>>(c->in, c->out, c->nx, c->ny);                                 \
    }
CPA_LAUNCHER(launch_cpa_copy_s4, cpasync_copy_s4_v16, cpasync_copy_s4_v8, cpasync_copy_s4_v4)
CPA_LAUNCHER(launch_cpa_transpose_s2, cpasync_transpose_s2_v16, cpasync_transpose_s2_v8, cpasync_transpose_s2_v4)
CPA_LAUNCHER(launch_cpa_transpose_s4, cpasync_transpose_s4_v16, cpasync_transpose_s4_v8, cpasync_transpose_s4_v4)

/* ---- tensor maps (CUDA 12: the types come from <cuda.h>, the encoder from the driver) -------- */
#if ASYNC_HAVE_TMA
/* cuTensorMapEncodeTiled as of CUDA 12.0.  The program does not link the driver library (a machine
 * without a GPU still builds and runs --help): the runtime hands over the driver's function. */
typedef CUresult (*encode_tiled_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                   const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                   CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static encode_tiled_t encode_tiled;

/* NULL when found; otherwise why not. */
static const char *tma_find_encoder(void)
{
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
        return "the runtime could not look up the driver's cuTensorMapEncodeTiled";
    }
    if (found != cudaDriverEntryPointSuccess || !fn) return "the driver has no cuTensorMapEncodeTiled";
    encode_tiled = (encode_tiled_t)fn;
    return NULL;
}

/* A tensor map of a row-major float matrix (rows x cols), box box_x x box_y, 128-byte swizzle,
 * out-of-bounds loads filled with zeros; NULL or why not. */
static const char *tma_encode(CUtensorMap *map, const float *base, int cols, int rows, int box_x, int box_y)
{
    const char *why = tma_map_problem(cols, rows, (unsigned long long)(uintptr_t)base, box_x, box_y, 128);
    cuuint64_t dims[2], strides[1];
    cuuint32_t box[2], elem[2] = {1, 1};
    if (why) return why;
    if (!encode_tiled) return "no tensor map encoder";
    dims[0] = (cuuint64_t)cols;
    dims[1] = (cuuint64_t)rows;
    strides[0] = (cuuint64_t)cols * sizeof(float);
    box[0] = (cuuint32_t)box_x;
    box[1] = (cuuint32_t)box_y;
    if (encode_tiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides, box, elem,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        return "cuTensorMapEncodeTiled refused the map";
    return NULL;
}

/* The two maps of a launch, encoded again only when the buffers or the shape change. */
typedef struct {
    const float *in;
    float *out;
    int nx, ny, ok;
    CUtensorMap in_map, out_map;
} tma_maps_t;
static tma_maps_t maps_transpose, maps_copy;

/* transpose: the output has nx rows of ny floats, stored in 32 x 32 boxes; copy: the input's shape
 * and box.  NULL or why not. */
static const char *tma_maps(tma_maps_t *m, const tctx_t *c, int transpose)
{
    const char *why;
    if (m->ok && m->in == c->in && m->out == c->out && m->nx == c->nx && m->ny == c->ny) return NULL;
    m->ok = 0;
    why = tma_encode(&m->in_map, c->in, c->nx, c->ny, TMA_BOX_X, TMA_BOX_Y);
    if (!why)
        why = transpose ? tma_encode(&m->out_map, c->out, c->ny, c->nx, TMA_SUB, TMA_SUB)
                        : tma_encode(&m->out_map, c->out, c->nx, c->ny, TMA_BOX_X, TMA_BOX_Y);
    if (why) return why;
    m->in = c->in;
    m->out = c->out;
    m->nx = c->nx;
    m->ny = c->ny;
    m->ok = 1;
    return NULL;
}

/* The TMA copy (transpose 0) or transpose (1).  Never launched without its maps (the rows check
 * row_problem first); if it happened, nothing is launched, the output stays poisoned and the row
 * says FAILED. */
static void launch_tma(const tctx_t *c, cudaStream_t s, int transpose)
{
    tma_maps_t *m = transpose ? &maps_transpose : &maps_copy;
    const void *fn = transpose ? (const void *)tma_transpose_s4 : (const void *)tma_copy_s4;
    const pkernel_t *k = pkernel(fn);
    const unsigned grid = pgrid(fn, (long long)div_up(c->nx, TMA_BOX_X) * div_up(c->ny, TMA_BOX_Y));
    const char *why = tma_maps(m, c, transpose);
    if (why) {
        fprintf(stderr, "TMA %s: no tensor map for %dx%d: %s\n", transpose ? "transpose" : "copy", c->nx, c->ny, why);
        return;
    }
    if (transpose) tma_transpose_s4<<<grid, k->threads, k->smem, s>>>(m->in_map, m->out_map, c->nx, c->ny);
    else tma_copy_s4<<<grid, k->threads, k->smem, s>>>(m->in_map, m->out_map, c->nx, c->ny);
}
static void launch_tma_copy(void *p, cudaStream_t s) { launch_tma((const tctx_t *)p, s, 0); }
static void launch_tma_transpose(void *p, cudaStream_t s) { launch_tma((const tctx_t *)p, s, 1); }
#else
/* Built with CUDA 11: no TMA kernels; these rows are skipped before any launch. */
static void launch_tma_copy(void *p, cudaStream_t s) { (void)p, (void)s; }
static void launch_tma_transpose(void *p, cudaStream_t s) { (void)p, (void)s; }
#endif

/* ---- the rows ------------------------------------------------------------------------------ */

enum { R_COPY, R_SGEAM, R_TILE64, R_COPY_SMEM, R_CPA_COPY, R_CPA_S2, R_CPA_S4, R_TMA_COPY, R_TMA, NROWS };
enum { TMA_NONE, TMA_COPY_MAPS, TMA_TRANSPOSE_MAPS };

typedef struct {
    tkernel_t k;
    int needs;          /* compute capability x 10 the hardware needs (0: any)                  */
    int tma;            /* TMA_COPY_MAPS / TMA_TRANSPOSE_MAPS: needs tensor maps for the shape   */
    const void *fn;     /* the kernel (one of them): its code in this binary, its occupancy     */
    int threads;        /* threads per block of fn                                              */
    int kib_in_flight;  /* KiB one block has on its way from DRAM at most (0: unknown)           */
    char why[240];      /* non-empty: this GPU or build cannot run it (async_setup)             */
} row_t;

/* Labels stay within 23 characters: the odd size adds " @odd" in the table's 28-wide column. */
static row_t ROWS[NROWS] = {
    {{"copy float4 one pass", launch_copy_f4, TMATRIX_COPY}, 0, TMA_NONE, (const void *)copy_f4_x1, 256, 4, ""},
    {{"cublasSgeam (op T)", launch_sgeam, TMATRIX_TRANSPOSE}, 0, TMA_NONE, NULL, 0, 0, ""},
    {{"tile64 thr64x4 [64][65]", launch_tile64, TMATRIX_TRANSPOSE}, 0, TMA_NONE,
     (const void *)transpose_tile64_blk64x4_pad, 256, 16, ""},
    {{"copySharedMem tile64", launch_copy_shared_mem, TMATRIX_COPY}, 0, TMA_NONE, (const void *)copy_shared_mem_tile64,
     256, 16, ""},
    {{"copy cp.async 4-stage", launch_cpa_copy_s4, TMATRIX_COPY}, 80, TMA_NONE, (const void *)cpasync_copy_s4_v16,
     CPA_THREADS, 3 * 16, ""},
    {{"cp.async tile64 2-stage", launch_cpa_transpose_s2, TMATRIX_TRANSPOSE}, 80, TMA_NONE,
     (const void *)cpasync_transpose_s2_v16, CPA_THREADS, 1 * 16, ""},
    {{"cp.async tile64 4-stage", launch_cpa_transpose_s4, TMATRIX_TRANSPOSE}, 80, TMA_NONE,
     (const void *)cpasync_transpose_s4_v16, CPA_THREADS, 3 * 16, ""},
#if ASYNC_HAVE_TMA
    {{"copy TMA 4-stage", launch_tma_copy, TMATRIX_COPY}, 90, TMA_COPY_MAPS, (const void *)tma_copy_s4, 32, 3 * 8, ""},
    {{"TMA tile32x64 4-stage", launch_tma_transpose, TMATRIX_TRANSPOSE}, 90, TMA_TRANSPOSE_MAPS,
     (const void *)tma_transpose_s4, TMA_THREADS, 3 * 8, ""},
#else
    {{"copy TMA 4-stage", launch_tma_copy, TMATRIX_COPY}, 90, TMA_COPY_MAPS, NULL, 32, 3 * 8, ""},
    {{"TMA tile32x64 4-stage", launch_tma_transpose, TMATRIX_TRANSPOSE}, 90, TMA_TRANSPOSE_MAPS, NULL, TMA_THREADS,
     3 * 8, ""},
#endif
};

/* The compute capability (x 10) of the code this binary runs for fn on this GPU: the PTX target it
 * was compiled from.  A compute_80 (PTX) build run on an H100 runs that PTX: no TMA body.  0 when
 * there is no code for this GPU at all. */
static int compiled_arch(const void *fn)
{
    struct cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, fn) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return fa.ptxVersion;
}

/* Decides which rows this GPU and this build can run (ROWS[i].why says why not), and readies the
 * persistent kernels: the shared memory they ask for, and how many blocks of each fit on an SM. */
static void async_setup(const gpu_info_t *g)
{
    const int cc = 10 * g->cc_major + g->cc_minor;
    int optin = 0, i;
    const char *no_encoder = "needs CUDA 12 or newer at build time (CUtensorMap)";
    n_sms = g->sms;
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, g->device));
#if ASYNC_HAVE_TMA
    no_encoder = cc >= 90 ? tma_find_encoder() : NULL;
#endif
    for (i = 0; i < N_PK; i++) {
        PK[i].per_sm = 0;
        if (cc < 80 || PK[i].smem > optin) continue;
        if (cudaFuncSetAttribute(PK[i].fn, cudaFuncAttributeMaxDynamicSharedMemorySize, PK[i].smem) != cudaSuccess ||
            cudaFuncSetAttribute(PK[i].fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 cudaSharedmemCarveoutMaxShared) != cudaSuccess ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PK[i].per_sm, PK[i].fn, PK[i].threads, PK[i].smem) !=
                cudaSuccess) {
            (void)cudaGetLastError();
            PK[i].per_sm = 0;
        }
    }
    for (i = 0; i < NROWS; i++) {
        row_t *r = &ROWS[i];
        const pkernel_t *pk = r->fn ? pkernel(r->fn) : NULL;
        r->why[0] = '\0';
        if (r->tma && !ASYNC_HAVE_TMA)
            snprintf(r->why, sizeof r->why, "needs CUDA 12 or newer at build time (this binary: CUDA %d.%d)",
                     CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
        else if (cc < r->needs)
            snprintf(r->why, sizeof r->why, "needs compute capability %d.%d (this GPU is %d.%d)", r->needs / 10,
                     r->needs % 10, g->cc_major, g->cc_minor);
        else if (r->needs && compiled_arch(r->fn) < r->needs)
            snprintf(r->why, sizeof r->why,
                     "this binary has no sm_%d code for it (it would run compute_%d code): rebuild with ARCH=native",
                     r->needs, compiled_arch(r->fn));
        else if (pk && pk->smem > optin)
            snprintf(r->why, sizeof r->why, "needs %d KiB of shared memory per block; this GPU allows %d KiB",
                     (pk->smem + 1023) / 1024, optin / 1024);
        else if (pk && pk->per_sm < 1)
            snprintf(r->why, sizeof r->why, "no block of it fits on an SM (%d KiB of shared memory, %d threads)",
                     (pk->smem + 1023) / 1024, pk->threads);
        else if (r->tma && no_encoder)
            snprintf(r->why, sizeof r->why, "%s", no_encoder);
    }
}

/* Why row r cannot run at nx x ny on these buffers ("" when it can): its setup reason, or for the
 * TMA rows a shape no tensor map can describe.  At 8191 x 4097 the input's rows are 32764 bytes
 * apart: not a multiple of 16, so no map -- the cp.async rows are that size's asynchronous
 * transpose (ASYNC.md, "Odd sizes"). */
static const char *row_problem(const row_t *r, const tctx_t *c)
{
    static char why[300];
    const char *p;
    if (r->why[0]) return r->why;
    if (r->tma == TMA_NONE) return "";
    p = tma_map_problem(c->nx, c->ny, (uintptr_t)c->in, TMA_BOX_X, TMA_BOX_Y, 128);
    if (p) {
        snprintf(why, sizeof why, "TMA: %s (input: %d floats a row = %lld bytes): no tensor map; the cp.async rows "
                 "are this size's asynchronous %s", p, c->nx, 4LL * c->nx,
                 r->tma == TMA_COPY_MAPS ? "copy" : "transpose");
        return why;
    }
    p = r->tma == TMA_TRANSPOSE_MAPS ? tma_map_problem(c->ny, c->nx, (uintptr_t)c->out, TMA_SUB, TMA_SUB, 128)
                                     : tma_map_problem(c->nx, c->ny, (uintptr_t)c->out, TMA_BOX_X, TMA_BOX_Y, 128);
    if (p) {
        const int pitch = r->tma == TMA_TRANSPOSE_MAPS ? c->ny : c->nx;
        snprintf(why, sizeof why, "TMA: %s (output: %d floats a row = %lld bytes): no tensor map; the cp.async rows "
                 "are this size's asynchronous %s", p, pitch, 4LL * pitch,
                 r->tma == TMA_COPY_MAPS ? "copy" : "transpose");
        return why;
    }
    return "";
}

/* Bytes per cp.async copy at this size (the rows print it). */
static int cpa_vec(const tctx_t *c)
{
    return cpasync_vec_bytes(c->nx, (unsigned long long)((uintptr_t)c->in | (uintptr_t)c->out));
}

/* ---- --check ------------------------------------------------------------------------------- */

/* Shapes for every row: part 1's (1x1, one column, one row, 33x31, 1000x777, 8191x4097), small
 * primes (7x13), one 64 x 64 tile and just past it (64x64, 65x63); rows of 16-byte multiples
 * (1000x777, 4x4100, 4100x4: 16-byte cp.async), of 8-byte ones (1002x777: 8-byte cp.async), and
 * the rest with 4-byte copies. */
static const int CHECK_SHAPES[][2] = {{1, 1},    {1, 4099},   {4099, 1}, {33, 31},  {7, 13},     {65, 63},
                                      {64, 64},  {1000, 777}, {1002, 777}, {4, 4100}, {4100, 4}, {8191, 4097}};
/* Shapes for the TMA rows: both row pitches multiples of 16 bytes, most of them not of the box. */
static const int TMA_SHAPES[][2] = {{4, 4}, {36, 28}, {32, 64}, {4, 4100}, {4100, 4}, {1000, 772}, {1028, 68},
                                    {8188, 4100}};
/* The pipelines again on 3 blocks, so that every block goes round its stages many times. */
static const int CAP_SHAPES[][2] = {{1000, 777}, {1002, 777}, {65, 63}, {1028, 772}};
static const int CAP_TMA_SHAPES[][2] = {{1028, 772}, {36, 4100}};
#define NSHAPES(s) ((int)(sizeof s / sizeof s[0]))

static int run_checks(const args_t *a)
{
    const dim3 any_block[1] = {dim3(256)};  /* every kernel here fixes its own block */
    tkernel_t ks[NROWS], tma[NROWS], cap_cpa[NROWS], cap_tma[NROWS];
    char cap_labels[NROWS][64];
    int i, nk = 0, nt = 0, ncc = 0, nct = 0;
    check_tally_t tally = {0, 0};
    for (i = 0; i < NROWS; i++) {
        const row_t *r = &ROWS[i];
        if (r->why[0]) {
            printf("  SKIP  %-28s %s\n", r->k.label, r->why);
            continue;
        }
        if (r->tma) tma[nt++] = r->k;
        else ks[nk++] = r->k;
        if (r->needs) {  /* the persistent kernels, once more on 3 blocks */
            tkernel_t *k = r->tma ? &cap_tma[nct++] : &cap_cpa[ncc++];
            snprintf(cap_labels[i], sizeof cap_labels[i], "%s, 3 blocks", r->k.label);
            *k = r->k;
            k->label = cap_labels[i];
        }
    }
    tcheck_sweep(ks, nk, CHECK_SHAPES, NSHAPES(CHECK_SHAPES), 1, any_block, 1, a, &tally);
    if (nt) {
        printf("  (the TMA rows at shapes whose row pitches are multiples of 16 bytes: a tensor map needs it)\n");
        tcheck_sweep(tma, nt, TMA_SHAPES, NSHAPES(TMA_SHAPES), 1, any_block, 1, a, &tally);
    }
    grid_cap = 3;
    if (ncc) tcheck_sweep(cap_cpa, ncc, CAP_SHAPES, NSHAPES(CAP_SHAPES), 0, any_block, 1, a, &tally);
    if (nct) tcheck_sweep(cap_tma, nct, CAP_TMA_SHAPES, NSHAPES(CAP_TMA_SHAPES), 0, any_block, 1, a, &tally);
    grid_cap = 0;
    gpu_finish();
    return verify_summary(stdout, tally.fails, tally.checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    const char *label;  /* the fastest transpose (cuBLAS aside) */
    double pct_copy;    /* its GB/s as % of the copy kernel's   */
    double pct_d2d;     /* ... of cudaMemcpy's                  */
} best_t;

static double pct_of(double x, double ref) { return ref > 0 ? 100.0 * x / ref : 0.0; }

/* KiB one SM has on its way from DRAM at most: blocks per SM x what one block keeps in flight. */
static double kib_per_sm(const row_t *r)
{
    int per_sm = 0;
    const pkernel_t *pk = r->fn ? pkernel(r->fn) : NULL;
    if (!r->fn || !r->kib_in_flight) return NAN;
    if (pk) per_sm = pk->per_sm;
    else if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, r->fn, r->threads, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        return NAN;
    }
    return (double)per_sm * r->kib_in_flight;
}

/* Every row at nx x ny: verified, then timed (tbench_measure), then the table with the copy kernel
 * as the extra column's 100%, then the same figures against cublasSgeam.  Returns 1 if a row failed
 * verification. */
static int experiment(const gpu_info_t *g, const args_t *a, int nx, int ny, const char *suffix, const char *name,
                      best_t *best)
{
    tbench_t b;
    tctx_t c;
    timing_t t[NROWS];
    double gbs[NROWS], copy_gbs, sgeam_gbs;
    char labels[NROWS][48], skip[NROWS][300], title[200], take[600], smem_words[80];
    int ok[NROWS], i, failed = 0, bi = -1;

    tbench_init(&b, g, a, nx, ny, TMATRIX_KEEP_BOTH);
    c = tmatrix_ctx(&b.m, dim3(256));
    for (i = 0; i < NROWS; i++) {
        snprintf(labels[i], sizeof labels[i], "%s%s", ROWS[i].k.label, suffix);
        snprintf(skip[i], sizeof skip[i], "%s", row_problem(&ROWS[i], &c));
        ok[i] = 0;
        gbs[i] = 0.0;
        if (skip[i][0]) continue;
        ok[i] = tbench_measure(&b, &ROWS[i].k, labels[i], &c, &t[i]);
        failed |= !ok[i];
        if (ok[i]) gbs[i] = stats_gbs(b.bytes, t[i].median_ms);
    }
    copy_gbs = gbs[R_COPY];
    sgeam_gbs = gbs[R_SGEAM];

    snprintf(title, sizeof title, "  %d x %d floats; last column: GB/s as %% of the copy kernel's (copy float4 one "
             "pass):", nx, ny);
    report_begin(name, title, copy_gbs > 0 ? "% copy krn" : NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, pct_of(b.d2d_gbs, copy_gbs));
    for (i = 0; i < NROWS; i++) {
        if (skip[i][0]) report_say("  %-28s skipped: %s\n", labels[i], skip[i]);
        else report_result(labels[i], ok[i], &t[i], b.bytes, pct_of(gbs[i], copy_gbs));
        if (ok[i] && ROWS[i].k.reference == TMATRIX_TRANSPOSE && i != R_SGEAM && (bi < 0 || gbs[i] > gbs[bi])) bi = i;
    }
    if (ok[R_COPY_SMEM])
        snprintf(smem_words, sizeof smem_words, "reaches %.1f%% of the copy kernel", pct_of(gbs[R_COPY_SMEM], copy_gbs));
    else
        snprintf(smem_words, sizeof smem_words, "did not run or failed");
    if (bi >= 0 && copy_gbs > 0) {
        snprintf(take, sizeof take,
                 "fastest transpose here: %s, %.1f%% of the copy kernel (%.1f%% of cudaMemcpy), %.2fx cublasSgeam; "
                 "copySharedMem, part 1's tile storing in place order, %s.",
                 ROWS[bi].k.label, pct_of(gbs[bi], copy_gbs), pct_of(gbs[bi], b.d2d_gbs),
                 sgeam_gbs > 0 ? gbs[bi] / sgeam_gbs : 0.0, smem_words);
        report_end(take);
        best->label = ROWS[bi].k.label;
        best->pct_copy = pct_of(gbs[bi], copy_gbs);
        best->pct_d2d = pct_of(gbs[bi], b.d2d_gbs);
    } else {
        report_end("the copy kernel or every transpose failed verification: no comparison.");
        best->label = NULL;
    }

    /* The same rows against the three references at once (terminal only). */
    report_say("\n  %-28s %8s %6s %11s %9s %13s\n", "kernel", "GB/s", "%D2D", "% copy krn", "x Sgeam", "KiB/SM flight");
    for (i = 0; i < NROWS; i++) {
        double kib = kib_per_sm(&ROWS[i]);
        char kibs[24];
        if (!ok[i]) continue;
        if (isnan(kib)) snprintf(kibs, sizeof kibs, "-");
        else snprintf(kibs, sizeof kibs, "%.0f", kib);
        report_say("  %-28s %8.1f %6.1f %11.1f %9.2f %13s\n", labels[i], gbs[i], pct_of(gbs[i], b.d2d_gbs),
                   pct_of(gbs[i], copy_gbs), sgeam_gbs > 0 ? gbs[i] / sgeam_gbs : 0.0, kibs);
    }
    if (!ROWS[R_CPA_S4].why[0])
        report_say("  cp.async copies at this size: %d bytes each (rows of %d floats = %lld bytes%s).\n", cpa_vec(&c),
                   nx, 4LL * nx,
                   cpa_vec(&c) == 16 ? ", a multiple of 16"
                   : cpa_vec(&c) == 8 ? ", a multiple of 8 but not 16" : ": not a multiple of 8");
    tbench_free(&b);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 07, part 3: asynchronous copies. Transposes an NY x NX matrix with part 1's best tile, a copy\n"
        "through the same tile (copySharedMem), cp.async pipelines (compute capability 8.0) and the Tensor Memory\n"
        "Accelerator (9.0), against cudaMemcpy, lesson 04's float4 copy kernel and cublasSgeam; every kernel is\n"
        "verified against the CPU before it is timed. Rows this GPU or build cannot run say why and are skipped.";
    args_t a;
    gpu_info_t g;
    best_t big = {NULL, 0.0, 0.0}, odd = {NULL, 0.0, 0.0};
    int nx, ny, failed = 0, defaults;

    args_without("--block");  /* every kernel here fixes its own block */
    args_parse_or_exit(argc, argv, &a, summary, TMATRIX_SIZE_HELP, NULL, 0);
    tmatrix_size_limited_or_exit(argc, argv, &a, 8, &nx, &ny);   /* part 1's 32 x 8 tiles: a block per 8 rows */
    report_init("07_shared_tiled", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 07, part 3 - asynchronous copies: cp.async and the Tensor Memory Accelerator", &a);
    CUBLAS_CHECK(cublasCreate(&blas));
    async_setup(&g);
    if (a.check) {
        int rc = run_checks(&a);
        CUBLAS_CHECK(cublasDestroy(blas));
        return rc;
    }

    report_say("\nExperiment 1: where the transpose loses against the copy, and what asynchronous loads change.\n"
               "  copySharedMem is part 1's tile (64 x 64, 64 x 4 threads, [64][65]) storing in place order: a copy\n"
               "  through shared memory. cp.async rows: persistent blocks with S buffers of a 16 KiB tile: while one\n"
               "  tile is stored, the next S-1 load. TMA rows: one thread loads a 32 x 64 box, the block transposes it\n"
               "  in shared memory, one thread stores it, 4 boxes in flight. KiB/SM flight: what one SM can have on\n"
               "  its way from DRAM at full occupancy.\n");
    failed |= experiment(&g, &a, nx, ny, "", "async", &big);
    defaults = !a.nx;
    if (defaults) {
        const int onx = a.quick ? 2047 : 8191, ony = a.quick ? 1025 : 4097;
        report_say("\nExperiment 2: the same rows at %d x %d: rows of %d floats start on 4-byte boundaries only, so\n"
                   "  cp.async copies 4 bytes at a time, and no tensor map can describe the matrix.\n", onx, ony, onx);
        failed |= experiment(&g, &a, onx, ony, " @odd", "async_odd", &odd);
    }

    if (defaults && !a.quick) {
        report_say("\nThe challenges of ASYNC.md, against this run:\n");
        if (big.label)
            report_say("  %-10s a transpose at 97%% of the copy kernel; the fastest here: %s at %.1f%%\n", "8192x8192",
                       big.label, big.pct_copy);
        if (odd.label)
            report_say("  %-10s a transpose at 95%% of the copy kernel; the fastest here: %s at %.1f%%\n", "8191x4097",
                       odd.label, odd.pct_copy);
    } else if (big.label) {
        report_say("\nFastest transpose: %s at %.1f%% of the copy kernel (ASYNC.md's challenges are set at the\n"
                   "default sizes, 8192x8192 and 8191x4097).\n", big.label, big.pct_copy);
    }
    CUBLAS_CHECK(cublasDestroy(blas));
    return gpu_finish_status(failed);
}
