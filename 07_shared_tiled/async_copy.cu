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
#include "async_kernels.cuh"
#include "cublas_check.h"
#include "cuda_check.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 07, part 3: asynchronous copies. Transposes an NY x NX matrix with part 1's best tile, a copy\n"
    "through the same tile (copySharedMem), cp.async pipelines (compute capability 8.0) and the Tensor Memory\n"
    "Accelerator (9.0), against cudaMemcpy, lesson 04's float4 copy kernel and cublasSgeam; every kernel is\n"
    "verified against the CPU before it is timed. Rows this GPU or build cannot run say why and are skipped.";

/* The lesson's matrix limits are shared_tiled.cu's (tmatrix_size_or_exit, 8 rows a block):
 * every program of lesson 07 takes the same --size, since `make run ARGS=...` hands it to all. */

/* ---- the rows ------------------------------------------------------------------------------ */

enum { R_COPY, R_SGEAM, R_TILE64, R_COPY_SMEM, R_CPA_COPY, R_CPA_S2, R_CPA_S4, R_TMA_COPY, R_TMA, NROWS };
enum { TMA_NONE, TMA_COPY_MAPS, TMA_TRANSPOSE_MAPS };

/* A row: the kernel (or library call) as a table row, and what decides whether this GPU and this
 * build can run it.  Every row is launched with 256 threads: the float4 copy takes them (1-D
 * blocks of 256, lesson 04's "f4 x1 one pass"), every other kernel fixes its own block. */
typedef struct {
    trow_t r;               /* label (table, --check, the NVTX range `make profile` names it by),
                               launcher, reference                                                  */
    /* a persistent kernel's launcher on 3 blocks (--check), else NULL */
    void (*on_3_blocks)(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s);
    int needs;              /* compute capability x 10 the hardware needs (0: any)                     */
    int tma;                /* TMA_COPY_MAPS / TMA_TRANSPOSE_MAPS: needs tensor maps for the shape      */
    const void *fn;         /* the kernel (the 16-byte-copy variant): its code here, its occupancy     */
    int threads, smem;      /* per block of fn: threads, dynamic shared memory in bytes (persistent) */
    int kib_in_flight;      /* KiB one block has on its way from DRAM at most (0: unknown)              */
} row_t;

/* Labels stay within 23 characters: the odd size adds " @odd" in the table's 28-wide column.  A
 * build without CUtensorMap (CUDA 11) has no TMA kernels: those rows have no launcher and are
 * skipped, saying why, before anything is launched (async_skips). */
static const row_t ROWS[NROWS] = {
    {{"copy float4 one pass", launch_copy_f4_x1, TMATRIX_COPY}, NULL, 0, TMA_NONE, (const void *)copy_f4_x1, 256, 0,
     4},
    {{"cublasSgeam (op T)", launch_cublas_sgeam, TMATRIX_TRANSPOSE}, NULL, 0, TMA_NONE, NULL, 0, 0, 0},
    {{"tile64 thr64x4 [64][65]", launch_transpose_tile<64, 4, 65>, TMATRIX_TRANSPOSE}, NULL, 0, TMA_NONE,
     (const void *)transpose_tile<64, 4, 65>, 256, 0, 16},
    {{"copySharedMem tile64", launch_copy_shared_mem_tile64, TMATRIX_COPY}, NULL, 0, TMA_NONE,
     (const void *)copy_shared_mem_tile64, 256, 0, 16},
    {{"copy cp.async 4-stage", launch_cpasync_copy<4>, TMATRIX_COPY}, launch_cpasync_copy<4, 3>, 80, TMA_NONE,
     (const void *)cpasync_copy<4, 16>, CPA_THREADS, cpa_smem_bytes(4), 3 * 16},
    {{"cp.async tile64 2-stage", launch_cpasync_transpose<2>, TMATRIX_TRANSPOSE}, launch_cpasync_transpose<2, 3>, 80,
     TMA_NONE, (const void *)cpasync_transpose<2, 16>, CPA_THREADS, cpa_smem_bytes(2), 1 * 16},
    {{"cp.async tile64 4-stage", launch_cpasync_transpose<4>, TMATRIX_TRANSPOSE}, launch_cpasync_transpose<4, 3>, 80,
     TMA_NONE, (const void *)cpasync_transpose<4, 16>, CPA_THREADS, cpa_smem_bytes(4), 3 * 16},
#if ASYNC_HAVE_TMA
    {{"copy TMA 4-stage", launch_tma_copy<TMA_STAGES>, TMATRIX_COPY}, launch_tma_copy<TMA_STAGES, 3>, 90,
     TMA_COPY_MAPS, (const void *)tma_copy<TMA_STAGES>, 32, tma_copy_smem_bytes(TMA_STAGES), 3 * 8},
    {{"TMA tile32x64 4-stage", launch_tma_transpose<TMA_STAGES>, TMATRIX_TRANSPOSE},
     launch_tma_transpose<TMA_STAGES, 3>, 90, TMA_TRANSPOSE_MAPS, (const void *)tma_transpose<TMA_STAGES>, TMA_THREADS,
     tma_transpose_smem_bytes(TMA_STAGES), 3 * 8},
#else
    {{"copy TMA 4-stage", NULL, TMATRIX_COPY}, NULL, 90, TMA_COPY_MAPS, NULL, 32, 0, 3 * 8},
    {{"TMA tile32x64 4-stage", NULL, TMATRIX_TRANSPOSE}, NULL, 90, TMA_TRANSPOSE_MAPS, NULL, TMA_THREADS, 0, 3 * 8},
#endif
};

/* Why each row cannot run on this GPU with this build ("" when it can): async_skips. */
static char skip_why[NROWS][240];

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

/* Decides which rows this GPU and this build can run (skip_why says why not).  The cp.async and
 * TMA kernels exist only as empty bodies below compute capability 8.0 and 9.0 (async_kernels.cuh):
 * a row is skipped when the GPU is older, when the binary carries only older code for it (a
 * PTX-only or sm_80 build on an H100), when its shared memory does not fit, or when no tensor map
 * can be made -- so an empty body is never timed.  Asking how many blocks fit on an SM also readies
 * each persistent kernel's shared memory (async_blocks_per_sm) before anything is timed. */
static void async_skips(const gpu_info_t *g)
{
    const int cc = 10 * g->cc_major + g->cc_minor;
    const char *no_encoder = NULL;
    int optin = 0, i;
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, g->device));
#if ASYNC_HAVE_TMA
    if (cc >= 90) tma_encoder(&no_encoder);
#endif
    for (i = 0; i < NROWS; i++) {
        const row_t *r = &ROWS[i];
        char *why = skip_why[i];
        why[0] = '\0';
        if (r->tma && !ASYNC_HAVE_TMA)
            snprintf(why, sizeof skip_why[i], "needs CUDA 12 or newer at build time (this binary: CUDA %d.%d)",
                     CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
        else if (cc < r->needs)
            snprintf(why, sizeof skip_why[i], "needs compute capability %d.%d (this GPU is %d.%d)", r->needs / 10,
                     r->needs % 10, g->cc_major, g->cc_minor);
        else if (r->needs && compiled_arch(r->fn) < r->needs)
            snprintf(why, sizeof skip_why[i],
                     "this binary has no sm_%d code for it (it would run compute_%d code): rebuild with ARCH=native",
                     r->needs, compiled_arch(r->fn));
        else if (r->smem > optin)
            snprintf(why, sizeof skip_why[i], "needs %d KiB of shared memory per block; this GPU allows %d KiB",
                     (r->smem + 1023) / 1024, optin / 1024);
        else if (r->smem && async_blocks_per_sm(r->fn, r->threads, r->smem) < 1)
            snprintf(why, sizeof skip_why[i], "no block of it fits on an SM (%d KiB of shared memory, %d threads)",
                     (r->smem + 1023) / 1024, r->threads);
        else if (r->tma && no_encoder)
            snprintf(why, sizeof skip_why[i], "%s", no_encoder);
    }
}

/* Why row i cannot run on matrix m, into why ("" when it can): its setup reason, or for the TMA
 * rows a shape no tensor map can describe.  At 8191 x 4097 the input's rows are 32764 bytes apart:
 * not a multiple of 16, so no map -- the cp.async rows are that size's asynchronous transpose
 * (ASYNC.md, "Odd sizes"). */
static void row_problem(int i, const tmatrix_t *m, char *why, size_t len)
{
    const row_t *r = &ROWS[i];
    const int transpose = r->tma == TMA_TRANSPOSE_MAPS, out_pitch = transpose ? m->ny : m->nx;
    const char *p;
    snprintf(why, len, "%.*s", (int)sizeof skip_why[i] - 1, skip_why[i]);
    if (why[0] || r->tma == TMA_NONE) return;
    p = tma_map_problem(m->nx, m->ny, (uintptr_t)m->d_in, TMA_BOX_X, TMA_BOX_Y, 128);
    if (p) {
        snprintf(why, len, "TMA: %s (input: %d floats a row = %lld bytes): no tensor map; the cp.async rows are "
                 "this size's asynchronous %s", p, m->nx, 4LL * m->nx, transpose ? "transpose" : "copy");
        return;
    }
    p = transpose ? tma_map_problem(m->ny, m->nx, (uintptr_t)m->d_out, TMA_SUB, TMA_SUB, 128)
                  : tma_map_problem(m->nx, m->ny, (uintptr_t)m->d_out, TMA_BOX_X, TMA_BOX_Y, 128);
    if (p)
        snprintf(why, len, "TMA: %s (output: %d floats a row = %lld bytes): no tensor map; the cp.async rows are "
                 "this size's asynchronous %s", p, out_pitch, 4LL * out_pitch, transpose ? "transpose" : "copy");
}

/* Bytes per cp.async copy on matrix m (the rows print it). */
static int cpa_vec(const tmatrix_t *m) { return cpasync_vec(m->d_out, m->d_in, m->nx); }

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
    const dim3 block[1] = {dim3(256)};  /* the float4 copy's 256 threads; every other kernel fixes its own */
    trow_t ks[NROWS], tma[NROWS], cap_cpa[NROWS], cap_tma[NROWS];
    char cap_labels[NROWS][64];
    int i, nk = 0, nt = 0, ncc = 0, nct = 0;
    check_tally_t tally = {0, 0, stdout};
    for (i = 0; i < NROWS; i++) {
        const row_t *r = &ROWS[i];
        if (skip_why[i][0]) {
            printf("  SKIP  %-28s %s\n", r->r.label, skip_why[i]);
            continue;
        }
        if (r->tma) tma[nt++] = r->r;
        else ks[nk++] = r->r;
        if (r->on_3_blocks) {  /* the persistent kernels, once more on 3 blocks */
            trow_t *k = r->tma ? &cap_tma[nct++] : &cap_cpa[ncc++];
            snprintf(cap_labels[i], sizeof cap_labels[i], "%s, 3 blocks", r->r.label);
            *k = r->r;
            k->label = cap_labels[i];
            k->launch = r->on_3_blocks;
        }
    }
    tcheck_sweep(ks, nk, CHECK_SHAPES, NSHAPES(CHECK_SHAPES), 1, block, 1, NULL, a, &tally);
    if (nt) {
        printf("  (the TMA rows at shapes whose row pitches are multiples of 16 bytes: a tensor map needs it)\n");
        tcheck_sweep(tma, nt, TMA_SHAPES, NSHAPES(TMA_SHAPES), 1, block, 1, NULL, a, &tally);
    }
    if (ncc) tcheck_sweep(cap_cpa, ncc, CAP_SHAPES, NSHAPES(CAP_SHAPES), 0, block, 1, NULL, a, &tally);
    if (nct) tcheck_sweep(cap_tma, nct, CAP_TMA_SHAPES, NSHAPES(CAP_TMA_SHAPES), 0, block, 1, NULL, a, &tally);
    return check_summary(&tally);
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
    if (!r->fn || !r->kib_in_flight) return NAN;
    if (r->smem) per_sm = async_blocks_per_sm(r->fn, r->threads, r->smem);   /* asked once, at async_skips */
    else if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, r->fn, r->threads, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        return NAN;
    }
    return (double)per_sm * r->kib_in_flight;
}

/* Every row at nx x ny, verified, then timed (trow_time), in a table whose extra column is the
 * copy kernel's GB/s as 100% -- so the copy kernel is measured first, then cudaMemcpy's row and the
 * others are printed -- then the same figures against cublasSgeam.  A row that fails verification
 * gets trow_time's FAILED row where it stands, no figures.  Returns 1 if a row failed. */
static int experiment(const gpu_info_t *g, const args_t *a, int nx, int ny, const char *suffix, const char *name,
                      best_t *best)
{
    const dim3 block(256);   /* the float4 copy's; every other kernel fixes its own */
    tbench_t b;
    timing_t t[NROWS];
    double gbs[NROWS], copy_gbs, sgeam_gbs;
    char labels[NROWS][48], skip[NROWS][300], title[200], take[600], smem_words[80];
    int ok[NROWS], i, failed = 0, bi = -1;

    tbench_init(&b, g, a, nx, ny, TMATRIX_COPY | TMATRIX_TRANSPOSE);
    snprintf(title, sizeof title, "  %d x %d floats; last column: GB/s as %% of the copy kernel's (copy float4 one "
             "pass):", nx, ny);
    report_begin(name, title, "% copy krn");
    for (i = 0; i < NROWS; i++) {   /* R_COPY first: its GB/s is the last column's 100% */
        trow_t r = ROWS[i].r;
        snprintf(labels[i], sizeof labels[i], "%s%s", r.label, suffix);
        row_problem(i, &b.m, skip[i], sizeof skip[i]);
        r.label = labels[i];
        ok[i] = 0;
        gbs[i] = 0.0;
        if (skip[i][0]) report_say("  %-28s skipped: %s\n", labels[i], skip[i]);
        else if ((ok[i] = trow_time(&b, &r, block, &t[i])) != 0) gbs[i] = stats_gbs(b.bytes, t[i].median_ms);
        else failed = 1;
        /* cudaMemcpy's row heads the table, as in every table of the course */
        if (i == R_COPY) report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, pct_of(b.d2d_gbs, gbs[R_COPY]));
        if (ok[i]) report_row(labels[i], &t[i], b.bytes, pct_of(gbs[i], gbs[R_COPY]));
        if (ok[i] && ROWS[i].r.reference == TMATRIX_TRANSPOSE && i != R_SGEAM && (bi < 0 || gbs[i] > gbs[bi])) bi = i;
    }
    copy_gbs = gbs[R_COPY];
    sgeam_gbs = gbs[R_SGEAM];
    if (ok[R_COPY_SMEM])
        snprintf(smem_words, sizeof smem_words, "reaches %.1f%% of the copy kernel", pct_of(gbs[R_COPY_SMEM], copy_gbs));
    else
        snprintf(smem_words, sizeof smem_words, "did not run or failed");
    if (bi >= 0 && copy_gbs > 0) {
        snprintf(take, sizeof take,
                 "fastest transpose here: %s, %.1f%% of the copy kernel (%.1f%% of cudaMemcpy), %.2fx cublasSgeam; "
                 "copySharedMem, part 1's tile storing in place order, %s.",
                 ROWS[bi].r.label, pct_of(gbs[bi], copy_gbs), pct_of(gbs[bi], b.d2d_gbs),
                 sgeam_gbs > 0 ? gbs[bi] / sgeam_gbs : 0.0, smem_words);
        report_end(take);
        best->label = ROWS[bi].r.label;
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
    if (!skip_why[R_CPA_S4][0])
        report_say("  cp.async copies at this size: %d bytes each (rows of %d floats = %lld bytes%s).\n", cpa_vec(&b.m),
                   nx, 4LL * nx,
                   cpa_vec(&b.m) == 16 ? ", a multiple of 16"
                   : cpa_vec(&b.m) == 8 ? ", a multiple of 8 but not 16" : ": not a multiple of 8");
    tbench_free(&b);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    best_t big = {NULL, 0.0, 0.0}, odd = {NULL, 0.0, 0.0};
    int nx, ny, failed = 0, defaults;

    args_configure(0, "--block", NULL);  /* no --block: every kernel here fixes its own block */
    args_parse_or_exit(argc, argv, &a, SUMMARY, TMATRIX_SIZE_HELP, NULL, 0);
    tmatrix_size_or_exit(&a, 8, &nx, &ny);   /* part 1's 32 x 8 tiles: a block per 8 rows */
    gpu_start(&g, "07_shared_tiled",
              "Lesson 07, part 3 - asynchronous copies: cp.async and the Tensor Memory Accelerator", &a);
    async_skips(&g);
    if (a.check) return run_checks(&a);

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
        report_say("\nThe two targets set for this part (a transpose at 97%% and at 95%% of the copy kernel), against this run:\n");
        if (big.label)
            report_say("  %-10s a transpose at 97%% of the copy kernel; the fastest here: %s at %.1f%%\n", "8192x8192",
                       big.label, big.pct_copy);
        if (odd.label)
            report_say("  %-10s a transpose at 95%% of the copy kernel; the fastest here: %s at %.1f%%\n", "8191x4097",
                       odd.label, odd.pct_copy);
    } else if (big.label) {
        report_say("\nFastest transpose: %s at %.1f%% of the copy kernel (the part's targets are set at the\n"
                   "default sizes, 8192x8192 and 8191x4097).\n", big.label, big.pct_copy);
    }
    return gpu_finish_status(failed);
}
