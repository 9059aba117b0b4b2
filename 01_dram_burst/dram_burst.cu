/* Lesson 01: DRAM bursts and 32-byte sectors -- you pay for whole bursts.
 *
 * Experiment 1: where the theoretical peak comes from, and how close a copy gets to it.
 * Experiment 2: segment gather.  The same number of useful bytes is read as segments of S bytes
 * (S = 4 ... 512) scattered over memory.  Below the hardware's access granularity every access
 * still moves a whole sector/burst, so useful bandwidth falls in proportion to S. */
#include "args.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gpu.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"
#include "warp.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ------------------------------------------------------------------------------ */

/* The simplest copy: one float per thread, consecutive threads on consecutive floats, so every
 * warp reads and writes four whole 32-byte sectors. */
__global__ void copy_one_per_thread(float *dst, const float *src, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

/* Where segment-gather element i lives.  Element i belongs to segment k = i / seg_floats; segment
 * k sits alone in slot (k * mult) mod nslots, slots being max(S, 128) bytes apart.  mult is odd
 * and nslots a power of two, so this is a permutation of the slots: neighbouring segments land
 * far apart and no two segments ever share a 32-byte sector (or a 128-byte line).  S is a power
 * of two, so the division is a shift. */
typedef struct {
    unsigned seg_shift;    /* log2(S / 4): floats per segment = 1 << seg_shift */
    unsigned slot_floats;  /* max(S, 128) / 4                                  */
    size_t nslots;         /* power of two >= number of segments               */
    size_t mult;           /* odd: a bijection modulo nslots                   */
} gather_geom_t;

static __host__ __device__ size_t gather_src_index(size_t i, gather_geom_t g)
{
    size_t k = i >> g.seg_shift, within = i & (((size_t)1 << g.seg_shift) - 1);
    size_t slot = (k * g.mult) & (g.nslots - 1);
    return slot * g.slot_floats + within;
}

/* Each thread loads GATHER_ILP floats, each from some segment: S/4 consecutive threads read one
 * segment, so the instruction count is the same for every S and only the addresses change.  All
 * the loads are issued before any is used, so several are in flight per thread: with one, the
 * kernel would wait on latency, not on DRAM, and the large-S plateau would sit far below what the
 * memory can do.  Each warp adds every group of 32 values so the result can be checked and only one
 * float per 32 is written back. */
#define GATHER_ILP 4
__global__ void gather_segments(const float *src, float *warp_sums, size_t n, gather_geom_t g)
{
    size_t base = blockIdx.x * (size_t)blockDim.x * GATHER_ILP + threadIdx.x;
    float v[GATHER_ILP];
    int u;
#pragma unroll
    for (u = 0; u < GATHER_ILP; u++) {
        size_t i = base + (size_t)u * blockDim.x;
        v[u] = (i < n) ? src[gather_src_index(i, g)] : 0.0f;
    }
#pragma unroll
    for (u = 0; u < GATHER_ILP; u++) {
        size_t i = base + (size_t)u * blockDim.x;
        float sum = warp_sum_xor(v[u]);  /* every lane takes part, in range or not */
        if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = sum;
    }
}

/* ---- the experiments ---------------------------------------------------------------------- */

static const int SEG_BYTES[] = {4, 8, 16, 32, 64, 128, 256, 512};
#define NSEG ((int)(sizeof SEG_BYTES / sizeof SEG_BYTES[0]))

static int l2_fetch = 0;   /* --l2-fetch: cudaLimitMaxL2FetchGranularity, 0 = leave as is */

static gather_geom_t make_geom(size_t n, int seg_bytes)
{
    gather_geom_t g;
    size_t nseg, seg_floats = (size_t)seg_bytes / 4;
    g.seg_shift = 0;
    while (((size_t)1 << g.seg_shift) < seg_floats) g.seg_shift++;
    g.slot_floats = (unsigned)((seg_bytes > 128 ? seg_bytes : 128) / 4);
    nseg = (n + seg_floats - 1) / seg_floats;
    g.nslots = 1;
    while (g.nslots < nseg) g.nslots <<= 1;
    g.mult = (size_t)0x9E3779B1u & (g.nslots - 1);
    g.mult |= 1;
    return g;
}

/* Floats the source buffer needs for n gathered floats at segment size S. */
static size_t gather_src_floats(size_t n, int seg_bytes)
{
    gather_geom_t g = make_geom(n, seg_bytes);
    return g.nslots * g.slot_floats;
}

typedef struct {
    const float *src;
    float *dst;
    size_t n;
    int block;
    gather_geom_t g;
} launch_ctx_t;

static unsigned grid_for(size_t n, int per_block) { return (unsigned)((n + per_block - 1) / per_block); }

static void launch_copy(void *p)
{
    launch_ctx_t *c = (launch_ctx_t *)p;
    copy_one_per_thread<<<grid_for(c->n, c->block), c->block>>>(c->dst, c->src, c->n);
}

static void launch_gather(void *p)
{
    launch_ctx_t *c = (launch_ctx_t *)p;
    gather_segments<<<grid_for(c->n, c->block * GATHER_ILP), c->block>>>(c->src, c->dst, c->n, c->g);
}

/* Runs the copy once on a poisoned output and compares it with the input, recomputed on the CPU. */
static size_t verify_copy(float *d_dst, const float *d_src, size_t n, int block, uint64_t seed, mismatch_t *m)
{
    launch_ctx_t c = {d_src, d_dst, n, block, {0, 0, 0, 0}};
    float *want = (float *)host_alloc(n * sizeof *want, "the expected copy"),
          *got = (float *)host_alloc(n * sizeof *got, "the copy from the GPU");
    size_t i, bad;
    gpu_poison(d_dst, n * sizeof(float));
    launch_copy(&c);
    CHECK_LAST();
    CHECK(cudaMemcpy(got, d_dst, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++) want[i] = rng_float(seed, i);
    bad = verify_f32(want, got, n, 0.0, 0.0, m);
    free(want);
    free(got);
    return bad;
}

/* Runs the gather once on poisoned output; the CPU gathers the same elements (recomputing the
 * random source values) and adds them in the GPU's order, so the sums must match exactly. */
static size_t verify_gather(const float *d_src, float *d_sums, size_t n, int seg_bytes, int block,
                            uint64_t seed, mismatch_t *m)
{
    launch_ctx_t c = {d_src, d_sums, n, block, make_geom(n, seg_bytes)};
    size_t i, nw = (n + 31) / 32, bad;
    float *vals = (float *)host_alloc(n * sizeof *vals, "the gathered values"),
          *want = (float *)host_alloc(nw * sizeof *want, "the expected sums"),
          *got = (float *)host_alloc(nw * sizeof *got, "the sums from the GPU");
    gpu_poison(d_sums, nw * sizeof(float));
    launch_gather(&c);
    CHECK_LAST();
    CHECK(cudaMemcpy(got, d_sums, nw * sizeof(float), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++) vals[i] = rng_float(seed, gather_src_index(i, c.g));
    cpu_warp_sums_f32(vals, n, want);
    bad = verify_f32(want, got, nw, 0.0, 0.0, m);
    free(vals);
    free(want);
    free(got);
    return bad;
}

/* --check: every kernel at sizes that are not multiples of anything, with three block sizes. */
static int run_checks(const args_t *a)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 4097, 100003};
    static const int blocks[] = {32, 256, 1024};
    size_t max_n = 100003, max_src = gather_src_floats(max_n, 4);
    float *d_src = (float *)gpu_alloc(max_src * sizeof(float), "the check source");
    float *d_out = (float *)gpu_alloc(max_n * sizeof(float), "the check output");
    int fails = 0, checks = 0;
    size_t si;
    int bi, s;
    char what[64], size[64];
    mismatch_t m;

    gpu_fill_random_f32(d_src, max_src, a->seed);
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (bi = 0; bi < 3; bi++) {
            size_t n = sizes[si];
            int block = a->bx ? a->bx : blocks[bi];
            snprintf(size, sizeof size, "n=%zu block=%d", n, block);
            verify_copy(d_out, d_src, n, block, a->seed, &m);
            fails += verify_print(stdout, "copy_one_per_thread", size, &m, n, 0);
            checks++;
            for (s = 0; s < NSEG; s++) {
                snprintf(what, sizeof what, "gather_segments S=%d", SEG_BYTES[s]);
                verify_gather(d_src, d_out, n, SEG_BYTES[s], block, a->seed, &m);
                fails += verify_print(stdout, what, size, &m, (n + 31) / 32, 0);
                checks++;
            }
            if (a->bx) break;
        }
    }
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_out));
    return verify_summary(stdout, fails, checks);
}

/* Experiment 1: the peak from the attributes, then the copy ceiling and a plain copy kernel. */
static int experiment_peak(const gpu_info_t *g, const args_t *a, size_t ws, int block, int flush)
{
    size_t n = ws / sizeof(float);
    float *d_src = (float *)gpu_alloc(ws, "the copy source");
    float *d_dst = (float *)gpu_alloc(ws, "the copy destination");
    double per_pin_gbps = 2.0 * g->mem_clock_khz / 1e6;  /* Gb/s per data pin */
    double chan_gbs = per_pin_gbps * 32 / 8;             /* one 32-bit channel */
    launch_ctx_t c = {d_src, d_dst, n, block, {0, 0, 0, 0}};
    mismatch_t m;
    timing_t t_d2d, t_copy;
    double d2d;
    int failed;

    report_say("\nExperiment 1: where the peak comes from (copies of %.0f MiB)\n", ws / 1048576.0);
    report_say("  memory clock %d MHz x 2 transfers per clock (double data rate) = %.2f Gb/s per pin\n",
               g->mem_clock_khz / 1000, per_pin_gbps);
    report_say("  x %d-bit bus / 8 bits per byte = %.0f GB/s", g->bus_bits, g->peak_gbs);
    if (g->bus_bits >= 1024)
        report_say("  (%d HBM stacks of 1024 bits)\n", g->bus_bits / 1024);
    else
        report_say("  (%d channels of 32 bits)\n", g->bus_bits / 32);
    report_say("  one 32-bit channel at this rate moves %.1f GB/s; the peak needs %.0f of them in parallel.\n",
               chan_gbs, g->peak_gbs / chan_gbs);
    report_say("  The source's GDDR6 card: 14 Gb/s per pin x 32 bits / 8 = 56 GB/s per channel, "
               "x 12 channels = 672 GB/s.\n");

    gpu_fill_random_f32(d_src, n, a->seed);
    failed = verify_copy(d_dst, d_src, n, block, a->seed, &m) != 0;
    d2d = gpu_d2d_gbs(d_dst, d_src, ws, a, flush, &t_d2d);
    report_set_ceilings(d2d, g->peak_gbs);
    report_begin("peak", "  Copies against the ceilings (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &t_d2d, 2.0 * ws, NAN);
    if (failed) {
        char d[200];
        verify_describe(&m, n, 0, d, sizeof d);
        fprintf(stderr, "copy_one_per_thread: %s\n", d);
        report_row_failed("copy_one_per_thread");
    } else {
        t_copy = bench_median_ms("copy_one_per_thread", launch_copy, &c, a, flush);
        report_row("copy_one_per_thread", &t_copy, 2.0 * ws, NAN);
    }
    report_end("cudaMemcpy sets the practical ceiling; the theoretical peak is never reached (the usual "
               "causes: DRAM refresh, row switches, read/write turnarounds; not measured here).");
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_dst));
    return failed;
}

/* Experiment 2: the same useful bytes gathered as scattered segments of S bytes. */
static int experiment_gather(const gpu_info_t *g, const args_t *a, size_t n, int block)
{
    size_t nw = (n + 31) / 32, src_floats = gather_src_floats(n, SEG_BYTES[0]);
    float *d_src = (float *)gpu_alloc(src_floats * sizeof(float), "the gather source");
    float *d_sums = (float *)gpu_alloc(nw * sizeof(float), "the per-warp sums");
    double bytes = (double)n * sizeof(float) + (double)nw * sizeof(float);
    timing_t t[NSEG];
    int ok[NSEG], s, failed = 0, knee = 0;
    size_t gran = 0;
    double ratio, base;
    char label[64], takeaway[256];
    mismatch_t m;

    gpu_fill_random_f32(d_src, src_floats, a->seed);
    if (l2_fetch) CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)l2_fetch));
    CHECK(cudaDeviceGetLimit(&gran, cudaLimitMaxL2FetchGranularity));
    report_say("\nExperiment 2: segment gather. %.0f MiB of useful data read as segments of S bytes in a "
               "scattered order\n  (each segment alone in its own 128-byte line; source buffer %.0f MiB; GB/s "
               "also counts the %.1f MiB of\n  per-warp sums written). cudaLimitMaxL2FetchGranularity = %zu B.\n",
               n * 4.0 / 1048576.0, src_floats * 4.0 / 1048576.0, nw * 4.0 / 1048576.0, gran);
    report_say("  If every access moved one whole 32-byte sector, S = 4 would reach 4/32 = 12.5%% of S = 512,\n"
               "  S = 8 25%%, S = 16 50%%, S >= 32 100%%.\n");

    for (s = 0; s < NSEG; s++) {
        launch_ctx_t c = {d_src, d_sums, n, block, make_geom(n, SEG_BYTES[s])};
        /* data touched: every segment costs at least one 32-byte sector */
        size_t nseg = (n + ((size_t)1 << c.g.seg_shift) - 1) >> c.g.seg_shift;
        size_t touched = nseg * (size_t)(SEG_BYTES[s] > 32 ? SEG_BYTES[s] : 32);
        snprintf(label, sizeof label, "gather S=%d B", SEG_BYTES[s]);
        ok[s] = verify_gather(d_src, d_sums, n, SEG_BYTES[s], block, a->seed, &m) == 0;
        if (!ok[s]) {
            char d[200];
            verify_describe(&m, nw, 0, d, sizeof d);
            fprintf(stderr, "%s: %s\n", label, d);
            failed = 1;
            continue;
        }
        t[s] = bench_median_ms(label, launch_gather, &c, a, gpu_flush_wanted(g, a, touched));
    }

    report_begin("gather", "  Useful bandwidth by segment size (same useful bytes for every S):", "% of S=512");
    base = ok[NSEG - 1] ? stats_gbs(bytes, t[NSEG - 1].median_ms) : 0.0;
    for (s = 0; s < NSEG; s++) {
        snprintf(label, sizeof label, "gather S=%d B", SEG_BYTES[s]);
        if (!ok[s]) {
            report_row_failed(label);
            continue;
        }
        ratio = base > 0 ? 100.0 * stats_gbs(bytes, t[s].median_ms) / base : NAN;
        if (!knee && ratio >= 90.0) knee = SEG_BYTES[s];
        report_row(label, &t[s], bytes, ratio);
    }
    if (knee)
        snprintf(takeaway, sizeof takeaway,
                 "useful bandwidth reaches 90%% of S = 512 at S = %d B: a smaller access still pays for "
                 "a whole %d-byte transfer.", knee, knee);
    else
        snprintf(takeaway, sizeof takeaway, "no segment size reached 90%% of S = 512.");
    report_end(takeaway);
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_sums));
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 01: DRAM bursts and sectors. Derives the peak bandwidth, measures the copy ceiling,\n"
        "then gathers the same useful bytes as scattered segments of 4 to 512 bytes.";
    lesson_opt_t opts[] = {
        {"--l2-fetch", OPT_INT, &l2_fetch, 1, 1024, "B",
         "set cudaLimitMaxL2FetchGranularity to 32, 64 or 128 bytes first (a hint)"},
    };
    args_t a;
    gpu_info_t g;
    size_t n, ws;
    int block, failed = 0;

    args_parse_or_exit(argc, argv, &a, summary,
                       "floats to gather in experiment 2 (default 16M = 64 MiB; 1M with --quick)", opts, 1);
    if (a.ny) args_reject("bad --size '%ldx%ld': this lesson takes one number (floats to gather)", a.nx, a.ny);
    if (l2_fetch && l2_fetch != 32 && l2_fetch != 64 && l2_fetch != 128)
        args_reject("bad --l2-fetch '%d': expected 32, 64 or 128", l2_fetch);
    if (a.by > 1 || (a.bx && a.bx % 32))
        args_reject("bad --block '%dx%d': this lesson needs a one-dimensional block of a multiple of 32 "
                    "threads (each warp adds its values)", a.bx, a.by);
    report_init("01_dram_burst", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 01 - DRAM bursts: you pay for whole bursts", &a);
    if (a.check) {
        failed = run_checks(&a);
        gpu_finish();
        return failed;
    }

    block = a.bx ? a.bx : 256;
    ws = a.quick ? ((size_t)64 << 20) : stats_default_ws(g.l2_bytes, (size_t)256 << 20);
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)1 << 20) : ((size_t)16 << 20));
    /* The S = 4 B gather spreads n floats over n x 128 bytes: shrink the default to what fits. */
    if (!a.nx)
        while (n > ((size_t)1 << 20) &&
               gather_src_floats(n, 4) * sizeof(float) + 2 * ws + 4 * g.l2_bytes > gpu_free_bytes() / 10 * 9)
            n /= 2;

    failed |= experiment_peak(&g, &a, ws, block, gpu_flush_wanted(&g, &a, 2 * ws));
    failed |= experiment_gather(&g, &a, n, block);
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
