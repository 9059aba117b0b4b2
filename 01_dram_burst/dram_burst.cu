/* Lesson 01: DRAM bursts and 32-byte sectors -- you pay for whole bursts.
 *
 * Experiment 1: where the theoretical peak comes from, and how close a copy gets to it.
 * Experiment 2: segment gather.  The same number of useful bytes is read as segments of S bytes
 * (S = 4 ... 512) scattered over memory.  Below the hardware's access granularity every access
 * still moves a whole sector/burst, so useful bandwidth falls in proportion to S.
 *
 * The kernels are in kernels.cuh; this file verifies, times and prints them. */
#include "args.h"
#include "bench.h"
#include "cuda_check.h"
#include "gpu.h"
#include "grid.cuh"
#include "kernels.cuh"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int SEG_BYTES[] = {4, 8, 16, 32, 64, 128, 256, 512};
#define NSEG ((int)(sizeof SEG_BYTES / sizeof SEG_BYTES[0]))

static int l2_fetch = 0;   /* --l2-fetch: cudaLimitMaxL2FetchGranularity, 0 = leave as is */

/* Floats the source buffer needs for n gathered floats at segment size S. */
static size_t gather_src_floats(size_t n, int seg_bytes)
{
    gather_geom_t g = make_geom(n, seg_bytes);
    return g.nslots * g.slot_floats;
}

/* ---- launching and checking ----------------------------------------------------------------- */

typedef struct {
    const float *src;
    float *dst;
    size_t n;
    int block;
    gather_geom_t g;
} launch_ctx_t;

static void launch_copy(void *p, cudaStream_t s)
{
    launch_ctx_t *c = (launch_ctx_t *)p;
    copy_one_per_thread<<<div_up(c->n, (unsigned)c->block), c->block, 0, s>>>(c->dst, c->src, c->n);
}

static void launch_gather(void *p, cudaStream_t s)
{
    launch_ctx_t *c = (launch_ctx_t *)p;
    gather_segments<<<div_up(c->n, (unsigned)c->block * GATHER_ILP), c->block, 0, s>>>(c->src, c->dst, c->n, c->g);
}

/* The source holds rng_float(seed, i) at float i, so the copy must hold it too. */
static void copy_want(float *want, size_t n, uint64_t seed)
{
    size_t i;
    for (i = 0; i < n; i++) want[i] = rng_float(seed, i);
}

/* The gather's expected sums: the CPU gathers the same elements (recomputing the random source
 * values into vals) and adds them in the GPU's order (cpu_warp_sums_f32), so the sums must match
 * exactly.  want gets (n + 31) / 32 sums. */
static void gather_want(size_t n, gather_geom_t g, uint64_t seed, float *vals, float *want)
{
    size_t i;
    for (i = 0; i < n; i++) vals[i] = rng_float(seed, gather_src_index(i, g));
    cpu_warp_sums_f32(vals, n, want);
}

/* --check: every kernel at sizes that are not multiples of anything, with three block sizes; then
 * gpu_finish, the summary line and the exit code. */
static int run_checks(const args_t *a)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 4097, 100003};
    static const int blocks[] = {32, 256, 1024};
    size_t max_n = 100003, max_src = gather_src_floats(max_n, 4), si;
    float *d_src = (float *)gpu_alloc(max_src * sizeof(float), "the check source");
    float *d_out = (float *)gpu_alloc(max_n * sizeof(float), "the check output");
    float *want_copy = (float *)host_alloc(max_n * sizeof(float), "the expected copy");
    float *vals = (float *)host_alloc(max_n * sizeof(float), "the gathered values");
    float *want_sums = (float *)host_alloc(max_n * sizeof(float), "the expected sums");
    float *got = (float *)host_alloc_pinned(max_n * sizeof(float), "the GPU's result");
    check_tally_t t = {0, 0};
    int bi, s;
    char what[64], size[64];

    gpu_fill_random_f32(d_src, max_src, a->seed);
    copy_want(want_copy, max_n, a->seed);
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (bi = 0; bi < 3; bi++) {
            launch_ctx_t c = {d_src, d_out, sizes[si], a->bx ? a->bx : blocks[bi], {0, 0, 0, 0}};
            check_t chk = check_f32(d_out, want_copy, got, c.n, 0);
            snprintf(size, sizeof size, "n=%zu block=%d", c.n, c.block);
            check_line(&chk, "copy_one_per_thread", size, launch_copy, &c, stdout, &t);
            for (s = 0; s < NSEG; s++) {
                c.g = make_geom(c.n, SEG_BYTES[s]);
                gather_want(c.n, c.g, a->seed, vals, want_sums);
                chk = check_f32(d_out, want_sums, got, (c.n + 31) / 32, 0);
                snprintf(what, sizeof what, "gather_segments S=%d", SEG_BYTES[s]);
                check_line(&chk, what, size, launch_gather, &c, stdout, &t);
            }
            if (a->bx) break;
        }
    }
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_out));
    free(want_copy);
    free(vals);
    free(want_sums);
    gpu_free_host(got);
    gpu_finish();
    return verify_summary(stdout, t.fails, t.checks);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* Experiment 1: the peak from the attributes, then the copy ceiling and a plain copy kernel. */
static int experiment_peak(const gpu_info_t *g, const args_t *a, size_t ws, int block, int flush)
{
    size_t n = ws / sizeof(float);
    float *d_src = (float *)gpu_alloc(ws, "the copy source");
    float *d_dst = (float *)gpu_alloc(ws, "the copy destination");
    float *want = (float *)host_alloc(ws, "the expected copy");
    float *got = (float *)host_alloc_pinned(ws, "the copy from the GPU");
    double per_pin_gbps = 2.0 * g->mem_clock_khz / 1e6;  /* Gb/s per data pin */
    double chan_gbs = per_pin_gbps * 32 / 8;             /* one 32-bit channel */
    launch_ctx_t c = {d_src, d_dst, n, block, {0, 0, 0, 0}};
    check_t chk = check_f32(d_dst, want, got, n, 0);
    timing_t t_d2d, t_copy;
    double d2d;
    int ok;

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
    copy_want(want, n, a->seed);
    d2d = gpu_d2d_gbs(d_dst, d_src, ws, a, flush, &t_d2d);
    report_set_ceilings(d2d, g->peak_gbs);
    report_begin("peak", "  Copies against the ceilings (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &t_d2d, 2.0 * ws, NAN);
    ok = measure_row("copy_one_per_thread", launch_copy, &c, &chk, a, flush, 2.0 * ws, NAN, &t_copy);
    report_end("cudaMemcpy sets the practical ceiling; the theoretical peak is never reached (the usual "
               "causes: DRAM refresh, row switches, read/write turnarounds; not measured here).");
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_dst));
    free(want);
    gpu_free_host(got);
    return !ok;
}

/* Experiment 2: the same useful bytes gathered as scattered segments of S bytes.  Every S is
 * verified and timed first: the table's last column compares each row with S = 512. */
static int experiment_gather(const gpu_info_t *g, const args_t *a, size_t n, int block)
{
    size_t nw = (n + 31) / 32, src_floats = gather_src_floats(n, SEG_BYTES[0]);
    float *d_src = (float *)gpu_alloc(src_floats * sizeof(float), "the gather source");
    float *d_sums = (float *)gpu_alloc(nw * sizeof(float), "the per-warp sums");
    float *vals = (float *)host_alloc(n * sizeof(float), "the gathered values");
    float *want = (float *)host_alloc(nw * sizeof(float), "the expected sums");
    float *got = (float *)host_alloc_pinned(nw * sizeof(float), "the sums from the GPU");
    double bytes = (double)n * sizeof(float) + (double)nw * sizeof(float);
    timing_t t[NSEG];
    int ok[NSEG], s, failed = 0, knee = 0;
    size_t gran = 0;
    double base;
    char label[64], takeaway[256];

    memset(t, 0, sizeof t);
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
        check_t chk = check_f32(d_sums, want, got, nw, 0);
        /* data touched: every segment costs at least one 32-byte sector */
        size_t nseg = (n + ((size_t)1 << c.g.seg_shift) - 1) >> c.g.seg_shift;
        size_t touched = nseg * (size_t)(SEG_BYTES[s] > 32 ? SEG_BYTES[s] : 32);
        snprintf(label, sizeof label, "gather S=%d B", SEG_BYTES[s]);
        gather_want(n, c.g, a->seed, vals, want);
        ok[s] = verify_then_time(label, launch_gather, &c, &chk, a, gpu_flush_wanted(g, a, touched), &t[s]);
        failed |= !ok[s];
    }

    report_begin("gather", "  Useful bandwidth by segment size (same useful bytes for every S):", "% of S=512");
    base = ok[NSEG - 1] ? stats_gbs(bytes, t[NSEG - 1].median_ms) : 0.0;
    for (s = 0; s < NSEG; s++) {
        double ratio = ok[s] && base > 0 ? 100.0 * stats_gbs(bytes, t[s].median_ms) / base : NAN;
        if (!knee && ratio >= 90.0) knee = SEG_BYTES[s];
        snprintf(label, sizeof label, "gather S=%d B", SEG_BYTES[s]);
        report_result(label, ok[s], &t[s], bytes, ratio);
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
    free(vals);
    free(want);
    gpu_free_host(got);
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
    size_t n, ws, need;
    int block, failed = 0;

    args_size_forms(ARGS_SIZE_N);
    args_parse_or_exit(argc, argv, &a, summary,
                       "floats to gather in experiment 2 (default 16M = 64 MiB; 1M with --quick)", opts, 1);
    if (l2_fetch && l2_fetch != 32 && l2_fetch != 64 && l2_fetch != 128)
        args_reject("bad --l2-fetch '%s': expected 32, 64 or 128", args_raw_value(argc, argv, "--l2-fetch"));
    if (a.by > 1 || (a.bx && a.bx % 32))
        args_reject("bad --block '%s': this lesson needs a one-dimensional block of a multiple of 32 "
                    "threads (each warp adds its values)", args_raw_value(argc, argv, "--block"));
    report_init("01_dram_burst", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 01 - DRAM bursts: you pay for whole bursts", &a);
    if (a.check) return run_checks(&a);

    block = a.bx ? a.bx : 256;
    ws = a.quick ? ((size_t)64 << 20) : stats_default_ws(g.l2_bytes, (size_t)256 << 20);
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)1 << 20) : ((size_t)16 << 20));
    /* The S = 4 B gather spreads n floats over n x 128 bytes: shrink the default to what fits. */
    if (!a.nx)
        while (n > ((size_t)1 << 20) &&
               gather_src_floats(n, 4) * sizeof(float) + 2 * ws + 4 * g.l2_bytes > gpu_free_bytes() / 10 * 9)
            n /= 2;
    /* The experiments run one after the other, each freeing its buffers: the larger one is the need. */
    need = gather_src_floats(n, 4) * sizeof(float) + (n + 31) / 32 * sizeof(float);
    gpu_require_bytes(need > 2 * ws ? need : 2 * ws, "this run (the S = 4 B gather: 128 bytes per float)");

    failed |= experiment_peak(&g, &a, ws, block, gpu_flush_wanted(&g, &a, 2 * ws));
    failed |= experiment_gather(&g, &a, n, block);
    return gpu_finish_status(failed);
}
