/* Lesson 01: DRAM bursts and 32-byte sectors -- what a small scattered read costs.
 *
 * Experiment 1: where the theoretical peak comes from, and how close a copy gets to it.
 * Experiment 2: segment gather.  The same number of useful bytes is read as segments of S bytes
 * (S = 4 ... 512) scattered over memory.  Below some size every access costs about the same time
 * whatever it carries, so useful bandwidth falls with S.
 * Experiment 3: bytes or accesses?  The same segments (same bytes, same sectors) gathered in
 * sequential and in scattered order: if the order changes the time, what a small access costs is
 * its place in memory (DRAM row locality), not the bytes it moves.
 *
 * The kernels are in kernels.cuh; this file verifies, times and prints them. */
#include "args.h"
#include "bench.h"
#include "cuda_check.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"
#include "warp_sums.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int SEG_BYTES[] = {4, 8, 16, 32, 64, 128, 256, 512};
#define NSEG ((int)(sizeof SEG_BYTES / sizeof SEG_BYTES[0]))
/* Experiment 3's segment sizes: those below the knee of experiment 2, the knee, and the plateau's
 * last (the sequential order of 512-byte segments is a plain contiguous read). */
static const int ORDER_SEG_BYTES[] = {4, 8, 16, 32, 64, 512};
#define NORDER_SEG ((int)(sizeof ORDER_SEG_BYTES / sizeof ORDER_SEG_BYTES[0]))
/* Experiment 3's orders, in the table's order; ORDER_NAMES[o] names ORDERS[o] */
static const gather_order_t ORDERS[] = {GATHER_SEQUENTIAL, GATHER_SCATTERED};
static const char *const ORDER_NAMES[] = {"sequential", "scattered"};

static int l2_fetch = 0;   /* --l2-fetch: cudaLimitMaxL2FetchGranularity, 0 = leave as is */

/* --l2-fetch B: sets the limit (a hint to the L2 for this context, kept until the program ends);
 * then, asked or not, returns the granularity in force, which the experiments print. */
static size_t l2_fetch_granularity(void)
{
    size_t gran = 0;
    if (l2_fetch) CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)l2_fetch));
    CHECK(cudaDeviceGetLimit(&gran, cudaLimitMaxL2FetchGranularity));
    return gran;
}

/* The bytes a gather touches: every segment costs at least one 32-byte sector. */
static size_t gather_touched_bytes(size_t n, gather_geom_t g, int seg_bytes)
{
    return gather_segments_count(n, g) * (size_t)(seg_bytes > 32 ? seg_bytes : 32);
}

/* ---- what the kernels must write ------------------------------------------------------------ */

/* The source holds rng_float(seed, i) at float i, so the copy must hold it too. */
static void copy_want(float *want, size_t n, uint64_t seed)
{
    size_t i;
    for (i = 0; i < n; i++) want[i] = rng_float(seed, i);
}

/* The gather's expected sums: the CPU gathers the same elements (recomputing the random source
 * values into vals) and adds them in the GPU's order (warp_sums.h), so the sums must match
 * exactly.  want gets (n + 31) / 32 sums. */
static void gather_want(size_t n, gather_geom_t g, uint64_t seed, float *vals, float *want)
{
    size_t i;
    for (i = 0; i < n; i++) vals[i] = rng_float(seed, gather_src_index(i, g));
    cpu_warp_sums_f32(vals, n, want);
}

/* ---- --check ------------------------------------------------------------------------------ */

/* The buffers of one --check size, each with guard zones (bench.h): a write past a buffer is a
 * FAIL, a read past it reads NaN. */
typedef struct {
    size_t n, nw;
    guarded_t g_src, g_out, g_sums;
    float *d_src, *d_out, *d_sums;         /* the gather's source (the copy reads its first n floats) */
    float *want_copy, *vals, *want_sums, *got;
} check_bufs_t;

static void check_bufs_init(check_bufs_t *b, size_t n, uint64_t seed)
{
    size_t src = gather_src_floats(n, 4);  /* S = 4 B spreads the widest */
    b->n = n;
    b->nw = (n + 31) / 32;
    b->d_src = (float *)guarded_alloc(&b->g_src, src * sizeof(float), "src");
    b->d_out = (float *)guarded_alloc(&b->g_out, n * sizeof(float), "out");
    b->d_sums = (float *)guarded_alloc(&b->g_sums, b->nw * sizeof(float), "warp_sums");
    b->want_copy = (float *)host_alloc(n * sizeof(float), "the expected copy");
    b->vals = (float *)host_alloc(n * sizeof(float), "the gathered values");
    b->want_sums = (float *)host_alloc(b->nw * sizeof(float), "the expected sums");
    b->got = (float *)host_alloc_pinned(n * sizeof(float), "the GPU's result");
    gpu_fill_random_f32(b->d_src, src, seed);
    copy_want(b->want_copy, n, seed);
}

static void check_bufs_free(check_bufs_t *b)
{
    guarded_free(&b->g_src);
    guarded_free(&b->g_out);
    guarded_free(&b->g_sums);
    free(b->want_copy);
    free(b->vals);
    free(b->want_sums);
    gpu_free_host(b->got);
}

/* One --check line of the gather at geometry geom: poisoned sums, one launch, every sum compared
 * and the guards of the source and the sums checked (check_report). */
static void check_gather(check_bufs_t *b, gather_geom_t geom, dim3 block, uint64_t seed, const char *what,
                         const char *size, check_tally_t *t)
{
    const guarded_t bufs[2] = {b->g_src, b->g_sums};
    mismatch_t m;
    gather_want(b->n, geom, seed, b->vals, b->want_sums);
    gpu_poison(b->d_sums, b->nw * sizeof(float));
    launch_gather_segments(b->d_sums, b->d_src, b->n, geom, block, gpu_stream());
    CHECK_LAST();
    gpu_compare_f32(b->d_sums, b->want_sums, b->got, b->nw, &m);
    check_report(t, what, size, &m, b->nw, 0, bufs, 2);
}

/* --check: every kernel at sizes that are not multiples of anything, with three block sizes; then
 * gpu_finish, the summary line and the exit code. */
static int run_checks(const args_t *a)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 4097, 100003};
    static const int blocks[] = {32, 256, 1024};
    check_tally_t t = CHECK_TALLY_INIT;
    size_t si;
    int bi, s;
    char what[64], size[64];

    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        check_bufs_t b;
        check_bufs_init(&b, sizes[si], a->seed);
        for (bi = 0; bi < 3; bi++) {
            dim3 block(a->bx ? a->bx : blocks[bi]);
            const guarded_t bufs[2] = {b.g_src, b.g_out};
            mismatch_t m;
            snprintf(size, sizeof size, "n=%zu block=%u", b.n, block.x);
            gpu_poison(b.d_out, b.n * sizeof(float));
            launch_copy_one_per_thread(b.d_out, b.d_src, b.n, block, gpu_stream());
            CHECK_LAST();
            gpu_compare_f32(b.d_out, b.want_copy, b.got, b.n, &m);
            check_report(&t, "copy_one_per_thread", size, &m, b.n, 0, bufs, 2);
            for (s = 0; s < NSEG; s++) {
                snprintf(what, sizeof what, "gather_segments S=%d", SEG_BYTES[s]);
                check_gather(&b, make_geom(b.n, SEG_BYTES[s], GATHER_SCATTERED), block, a->seed, what, size, &t);
                /* experiment 3's other order: the same kernel, segment k in slot k */
                snprintf(what, sizeof what, "gather_segments S=%d sequential", SEG_BYTES[s]);
                check_gather(&b, make_geom(b.n, SEG_BYTES[s], GATHER_SEQUENTIAL), block, a->seed, what, size, &t);
            }
            if (a->bx) break;
        }
        check_bufs_free(&b);
    }
    gpu_finish();
    return check_summary(&t);
}

/* Experiment 3's row label: "gather S=8 B sequential" for ORDER_SEG_BYTES[s] in ORDERS[o]. */
static void order_label(char *buf, size_t len, int s, int o)
{
    snprintf(buf, len, "gather S=%d B %s", ORDER_SEG_BYTES[s], ORDER_NAMES[o]);
}

/* ---- the take-aways, computed from the measurements ------------------------------------------ */

/* G accesses/s: segments gathered per second at the median time. */
static double accesses_per_s(size_t nseg, const timing_t *t)
{
    return (double)nseg / (t->median_ms * 1e6);
}

/* Experiment 2's: where useful bandwidth reaches 90% of S = 512 (knee, 0: nowhere), and below it
 * the range of scattered accesses per second (rate[s]: G/s at SEG_BYTES[s], NAN if it failed). */
static void gather_takeaway(char *buf, size_t len, int knee, const double *rate)
{
    double lo = 0.0, hi = 0.0;
    int s, any = 0;

    for (s = 0; knee && s < NSEG && SEG_BYTES[s] < knee; s++) {
        if (!(rate[s] > 0)) continue;   /* failed (NAN): not counted */
        if (!any || rate[s] < lo) lo = rate[s];
        if (!any || rate[s] > hi) hi = rate[s];
        any = 1;
    }
    if (!knee)
        snprintf(buf, len, "no segment size reached 90%% of S = 512.");
    else if (!any)
        snprintf(buf, len, "useful bandwidth reaches 90%% of S = 512 at S = %d B.", knee);
    else if (hi <= 1.3 * lo)
        snprintf(buf, len,
                 "useful bandwidth reaches 90%% of S = 512 at S = %d B; below that the GPU completes about the "
                 "same number of scattered accesses per second whatever S (%.0f to %.0f G/s), so the useful "
                 "bandwidth falls in proportion to S. Is that cost per byte or per access? Experiment 3.",
                 knee, lo, hi);
    else
        snprintf(buf, len,
                 "useful bandwidth reaches 90%% of S = 512 at S = %d B; below that the GPU completes %.0f to "
                 "%.0f G scattered accesses/s, depending on S.", knee, lo, hi);
}

/* Bytes an access of S bytes makes the L2 fetch from DRAM: at least a 32-byte sector, at least the
 * fetch granularity (a segment starts its own 128-byte line, so one fetch covers it up to S = 64). */
static double fetched_bytes(int seg_bytes, size_t gran)
{
    double b = seg_bytes > 32 ? seg_bytes : 32;
    return (double)gran > b ? (double)gran : b;
}

/* Experiment 3's verdict, from the sizes below 64 bytes (where experiment 2's accesses cost about
 * the same time whatever S): r = sequential / scattered accesses per second at the same S, from
 * the same bytes.  rate[s][o]: G/s at ORDER_SEG_BYTES[s] in ORDERS[o] (NAN: failed, not counted);
 * gran: the L2 fetch granularity in force; d2d: the copy's GB/s.  The DRAM traffic of a row is
 * its accesses x fetched_bytes; as a % of the copy it says whether the bytes could be the limit.
 * Sequential much faster somewhere (r >= 1.3): the scattered cost is per access, not per byte;
 * r < 1.1 everywhere: the order (locality) is not the cost; in between: part of it. */
static void order_takeaway(char *buf, size_t len, const double rate[][2], size_t gran, double d2d)
{
    double r, r_lo = 0.0, r_hi = 0.0, seq_hi = 0.0, scat_lo = 0.0, scat_hi = 0.0, pct_seq = 0.0,
           pct_scat = 0.0, p;
    int s, n = 0, at_lo = 0, at_hi = 0;
    size_t used;

    for (s = 0; s < NORDER_SEG; s++) {
        if (ORDER_SEG_BYTES[s] >= 64 || !(rate[s][0] > 0) || !(rate[s][1] > 0)) continue;
        r = rate[s][0] / rate[s][1];
        if (!n || r < r_lo) { r_lo = r; at_lo = ORDER_SEG_BYTES[s]; }
        if (!n || r > r_hi) { r_hi = r; at_hi = ORDER_SEG_BYTES[s]; }
        if (!n || rate[s][0] > seq_hi) seq_hi = rate[s][0];
        if (!n || rate[s][1] < scat_lo) scat_lo = rate[s][1];
        if (!n || rate[s][1] > scat_hi) scat_hi = rate[s][1];
        /* % of the copy's GB/s the fetched bytes make (G accesses/s x bytes = GB/s) */
        p = d2d > 0 ? 100.0 * rate[s][0] * fetched_bytes(ORDER_SEG_BYTES[s], gran) / d2d : 0.0;
        if (p > pct_seq) pct_seq = p;
        p = d2d > 0 ? 100.0 * rate[s][1] * fetched_bytes(ORDER_SEG_BYTES[s], gran) / d2d : 0.0;
        if (p > pct_scat) pct_scat = p;
        n++;
    }
    if (!n) {
        snprintf(buf, len, "no size below 64 B verified in both orders: no verdict.");
        return;
    }
    if (r_hi >= 1.3)
        used = (size_t)snprintf(buf, len,
                 "from the same bytes, the sequential order gathers %.2fx (S = %d B) to %.2fx (S = %d B) as many "
                 "segments per second as the scattered one (up to %.0f G/s against %.0f to %.0f), whose "
                 "fetches (%.0f B each) make at most %.0f%% of the copy's GB/s: a small scattered read costs "
                 "per scattered access (its DRAM row, or its page), not per byte.",
                 r_lo, at_lo, r_hi, at_hi, seq_hi, scat_lo, scat_hi, fetched_bytes(4, gran), pct_scat);
    else if (r_hi < 1.1 && pct_scat >= 85.0)
        used = (size_t)snprintf(buf, len,
                 "the order makes no real difference (sequential / scattered: %.2fx at S = %d B to %.2fx at "
                 "S = %d B), and the fetches (%.0f B per access) make up to %.0f%% of the copy's GB/s: here "
                 "the bytes set the pace.", r_lo, at_lo, r_hi, at_hi, fetched_bytes(4, gran), pct_scat);
    else if (r_hi < 1.1)
        used = (size_t)snprintf(buf, len,
                 "the order makes no real difference (sequential / scattered: %.2fx at S = %d B to %.2fx at "
                 "S = %d B), and the fetches (%.0f B per access) make at most %.0f%% of the copy's GB/s: "
                 "neither the bytes nor DRAM row locality sets the pace; each access costs a slot wherever "
                 "it lands.", r_lo, at_lo, r_hi, at_hi, fetched_bytes(4, gran), pct_scat);
    else
        used = (size_t)snprintf(buf, len,
                 "from the same bytes, the sequential order is somewhat faster: %.2fx (S = %d B) to %.2fx "
                 "(S = %d B) as many segments per second as the scattered one: locality (DRAM rows) is part "
                 "of what a small scattered access costs, not all of it.", r_lo, at_lo, r_hi, at_hi);
    if (r_hi >= 1.1 && pct_seq >= 85.0 && used < len)
        snprintf(buf + used, len - used,
                 " The sequential rows' fetches reach %.0f%% of the copy's GB/s: there the bytes are the limit%s.",
                 pct_seq, gran > 32 ? " (try --l2-fetch 32)" : "");
}

/* Experiment 3's second line: at S = 512 B (the last size) the two orders run the same loads in
 * flight per thread, so if the sequential order is faster, experiment 2's plateau is the scattered
 * order's, not the loads in flight's.  gbs_seq, gbs_scat: the two rows' GB/s (NAN: failed). */
static void plateau_takeaway(char *buf, size_t len, double gbs_seq, double gbs_scat)
{
    double r = gbs_seq / gbs_scat;
    if (!(gbs_seq > 0) || !(gbs_scat > 0))
        snprintf(buf, len, "S = 512 B did not verify in both orders: nothing to say about the plateau.");
    else if (r >= 1.2)
        snprintf(buf, len,
                 "at S = %d B the sequential order (a contiguous read) reaches %.0f GB/s against %.0f "
                 "scattered (%.2fx) with the same loads in flight per thread: experiment 2's plateau is set "
                 "by the scattered order, not by too few loads in flight.",
                 ORDER_SEG_BYTES[NORDER_SEG - 1], gbs_seq, gbs_scat, r);
    else if (r < 1.1)
        snprintf(buf, len,
                 "at S = %d B the sequential order (a contiguous read) is no faster: %.0f GB/s against %.0f "
                 "scattered (%.2fx): experiment 2's plateau is not the order's; the kernel itself (its loads "
                 "in flight) is what remains to suspect.", ORDER_SEG_BYTES[NORDER_SEG - 1], gbs_seq, gbs_scat, r);
    else
        snprintf(buf, len,
                 "at S = %d B the sequential order (a contiguous read) is somewhat faster: %.0f GB/s against "
                 "%.0f scattered (%.2fx): the scattered order explains part of experiment 2's plateau.",
                 ORDER_SEG_BYTES[NORDER_SEG - 1], gbs_seq, gbs_scat, r);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* Experiment 1: the peak from the attributes, then the copy ceiling and a plain copy kernel. */
static int experiment_peak(const gpu_info_t *g, const args_t *a, size_t ws, dim3 block, int flush, double *d2d_out)
{
    const char *label = "copy_one_per_thread";
    cudaStream_t s = gpu_stream();
    size_t n = ws / sizeof(float);
    float *d_src = (float *)gpu_alloc(ws, "the copy source");
    float *d_dst = (float *)gpu_alloc(ws, "the copy destination");
    float *want = (float *)host_alloc(ws, "the expected copy");
    float *got = (float *)host_alloc_pinned(ws, "the copy from the GPU");
    double per_pin_gbps = 2.0 * g->mem_clock_khz / 1e6;  /* Gb/s per data pin */
    double chan_gbs = per_pin_gbps * 32 / 8;             /* one 32-bit channel */
    timing_t t_d2d;
    mismatch_t m;
    bench_t bt;
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
    report_say("  Astron-fjh's GDDR6 card: 14 Gb/s per pin x 32 bits / 8 = 56 GB/s per channel, "
               "x 12 channels = 672 GB/s.\n");

    gpu_fill_random_f32(d_src, n, a->seed);
    copy_want(want, n, a->seed);
    d2d = gpu_d2d_gbs(d_dst, d_src, ws, a, flush, &t_d2d);
    report_set_ceilings(d2d, g->peak_gbs);
    *d2d_out = d2d;
    report_begin("peak", "  Copies against the ceilings (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &t_d2d, 2.0 * ws, NAN);
    /* the copy kernel's row: verified (poisoned output, one launch, every float compared), then timed */
    gpu_poison(d_dst, ws);
    launch_copy_one_per_thread(d_dst, d_src, n, block, s);
    CHECK_LAST();
    ok = gpu_compare_f32(d_dst, want, got, n, &m) == 0;
    if (ok) {
        for (bench_start(&bt, label, a, flush); bench_next(&bt);) launch_copy_one_per_thread(d_dst, d_src, n, block, s);
        report_row(label, &bt.t, 2.0 * ws, NAN);
    } else {
        report_failed(label, &m, n, 0);
    }
    report_end("cudaMemcpy sets the practical ceiling; the theoretical peak is never reached (the usual "
               "causes: DRAM refresh, row switches, read/write turnarounds; not measured here).");
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_dst));
    free(want);
    gpu_free_host(got);
    return !ok;
}

/* The buffers of experiments 2 and 3: the source the segments are gathered from (large enough for
 * S = 4 B, the widest spread), the per-warp sums on the GPU, and on the host the gathered values,
 * the expected sums and the GPU's sums read back. */
typedef struct {
    size_t n, nw, src_floats;
    float *d_src, *d_sums, *vals, *want, *got;
    double bytes;   /* the useful bytes of every row: n floats read, nw sums written */
} gather_bufs_t;

static void gather_bufs_init(gather_bufs_t *b, size_t n, uint64_t seed)
{
    b->n = n;
    b->nw = (n + 31) / 32;
    b->src_floats = gather_src_floats(n, 4);
    b->d_src = (float *)gpu_alloc(b->src_floats * sizeof(float), "the gather source");
    b->d_sums = (float *)gpu_alloc(b->nw * sizeof(float), "the per-warp sums");
    b->vals = (float *)host_alloc(n * sizeof(float), "the gathered values");
    b->want = (float *)host_alloc(b->nw * sizeof(float), "the expected sums");
    b->got = (float *)host_alloc_pinned(b->nw * sizeof(float), "the sums from the GPU");
    b->bytes = (double)n * sizeof(float) + (double)b->nw * sizeof(float);
    gpu_fill_random_f32(b->d_src, b->src_floats, seed);
}

static void gather_bufs_free(gather_bufs_t *b)
{
    CHECK(cudaFree(b->d_src));
    CHECK(cudaFree(b->d_sums));
    free(b->vals);
    free(b->want);
    gpu_free_host(b->got);
}

/* One gather row, verified then timed.  Verify: the expected sums on the CPU, the sums poisoned,
 * one launch, every sum compared exactly; a gather that differs gets no timing (returns 0; *m says
 * what differs, and the table prints it with report_failed).  Time: bench.h's loop, flushing the
 * L2 first when the bytes this gather touches would fit in it.  Returns 1, *t and *rate (segments
 * gathered per second).  The rows are printed once every S is timed: each row's last column
 * compares it with another row. */
static int gather_time(const gpu_info_t *g, const args_t *a, gather_bufs_t *b, dim3 block, gather_geom_t geom,
                       int seg_bytes, const char *label, timing_t *t, double *rate, mismatch_t *m)
{
    cudaStream_t s = gpu_stream();
    bench_t bt;
    *rate = NAN;
    gather_want(b->n, geom, a->seed, b->vals, b->want);
    gpu_poison(b->d_sums, b->nw * sizeof(float));
    launch_gather_segments(b->d_sums, b->d_src, b->n, geom, block, s);
    CHECK_LAST();
    if (gpu_compare_f32(b->d_sums, b->want, b->got, b->nw, m)) return 0;
    for (bench_start(&bt, label, a, gpu_flush_wanted(g, a, gather_touched_bytes(b->n, geom, seg_bytes)));
         bench_next(&bt);)
        launch_gather_segments(b->d_sums, b->d_src, b->n, geom, block, s);
    *t = bt.t;
    *rate = accesses_per_s(gather_segments_count(b->n, geom), t);
    return 1;
}

/* Experiment 2: the same useful bytes gathered as scattered segments of S bytes.  Every S is
 * verified and timed first: the table's last column compares each row with S = 512. */
static int experiment_gather(const gpu_info_t *g, const args_t *a, size_t n, dim3 block)
{
    gather_bufs_t b;
    timing_t t[NSEG];
    mismatch_t m[NSEG];
    int ok[NSEG], s, failed = 0, knee = 0;
    size_t gran;
    double base, rate[NSEG];
    char label[64], takeaway[384];

    memset(t, 0, sizeof t);
    gather_bufs_init(&b, n, a->seed);
    gran = l2_fetch_granularity();
    report_say("\nExperiment 2: segment gather. %.0f MiB of useful data read as segments of S bytes in a "
               "scattered order\n  (each segment alone in its own 128-byte line; source buffer %.0f MiB; GB/s "
               "also counts the %.1f MiB of\n  per-warp sums written). cudaLimitMaxL2FetchGranularity = %zu B.\n",
               n * 4.0 / 1048576.0, b.src_floats * 4.0 / 1048576.0, b.nw * 4.0 / 1048576.0, gran);
    report_say("  If every access moved one whole 32-byte sector, S = 4 would reach 4/32 = 12.5%% of S = 512,\n"
               "  S = 8 25%%, S = 16 50%%, S >= 32 100%%.\n");

    for (s = 0; s < NSEG; s++) {
        snprintf(label, sizeof label, "gather S=%d B", SEG_BYTES[s]);
        ok[s] = gather_time(g, a, &b, block, make_geom(n, SEG_BYTES[s], GATHER_SCATTERED), SEG_BYTES[s], label, &t[s],
                            &rate[s], &m[s]);
        failed |= !ok[s];
    }

    report_begin("gather", "  Useful bandwidth by segment size (same useful bytes for every S):", "% of S=512");
    base = ok[NSEG - 1] ? stats_gbs(b.bytes, t[NSEG - 1].median_ms) : 0.0;
    for (s = 0; s < NSEG; s++) {
        double ratio = ok[s] && base > 0 ? 100.0 * stats_gbs(b.bytes, t[s].median_ms) / base : NAN;
        if (!knee && ratio >= 90.0) knee = SEG_BYTES[s];
        snprintf(label, sizeof label, "gather S=%d B", SEG_BYTES[s]);
        if (ok[s]) report_row(label, &t[s], b.bytes, ratio);
        else report_failed(label, &m[s], b.nw, 0);
    }
    gather_takeaway(takeaway, sizeof takeaway, knee, rate);
    report_end(takeaway);
    gather_bufs_free(&b);
    return failed;
}

/* Experiment 3: bytes or accesses?  For each S below the knee (the knee, and 512), the same segments --
 * the same slots, so the same useful bytes, the same sectors, the same L2 fetches -- gathered in
 * sequential order (segment k next to segment k + 1) and in experiment 2's scattered order, by the
 * same kernel.  The extra column counts accesses: segments gathered per second.  If the bytes set
 * the pace, the two orders take the same time; if the scattered access itself does (a DRAM row
 * opened for it), the sequential order is faster. */
static int experiment_order(const gpu_info_t *g, const args_t *a, size_t n, dim3 block, double d2d)
{
    gather_bufs_t b;
    double rate[NORDER_SEG][2];
    timing_t t[NORDER_SEG][2];
    mismatch_t m[NORDER_SEG][2];
    int ok[NORDER_SEG][2], s, o, failed = 0;
    size_t gran;
    char label[64], takeaway[768];

    memset(t, 0, sizeof t);
    gather_bufs_init(&b, n, a->seed);
    gran = l2_fetch_granularity();
    report_say("\nExperiment 3: bytes or accesses? The same %.0f MiB gathered as the same segments (each alone in "
               "its own\n  max(S, 128)-byte slot) visited in two orders: sequential (segment k next to segment "
               "k + 1) and scattered\n  (experiment 2's order). Same bytes, same sectors, same L2 fetches "
               "(cudaLimitMaxL2FetchGranularity = %zu B);\n  only the order of the addresses differs. "
               "G accesses/s = segments gathered per second.\n",
               n * 4.0 / 1048576.0, gran);

    for (s = 0; s < NORDER_SEG; s++)
        for (o = 0; o < 2; o++) {
            order_label(label, sizeof label, s, o);
            ok[s][o] = gather_time(g, a, &b, block, make_geom(n, ORDER_SEG_BYTES[s], ORDERS[o]), ORDER_SEG_BYTES[s],
                                   label, &t[s][o], &rate[s][o], &m[s][o]);
            failed |= !ok[s][o];
        }

    report_begin("order", "  Accesses per second by order (same segments, same bytes in both orders):", "G accesses/s");
    for (s = 0; s < NORDER_SEG; s++)
        for (o = 0; o < 2; o++) {
            order_label(label, sizeof label, s, o);
            if (ok[s][o]) report_row(label, &t[s][o], b.bytes, rate[s][o]);
            else report_failed(label, &m[s][o], b.nw, 0);
        }

    order_takeaway(takeaway, sizeof takeaway, rate, gran, d2d);
    report_end(takeaway);
    s = NORDER_SEG - 1;
    plateau_takeaway(takeaway, sizeof takeaway, ok[s][0] ? stats_gbs(b.bytes, t[s][0].median_ms) : NAN,
                     ok[s][1] ? stats_gbs(b.bytes, t[s][1].median_ms) : NAN);
    report_end(takeaway);
    gather_bufs_free(&b);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const char *summary =
        "Lesson 01: DRAM bursts and sectors. Derives the peak bandwidth, measures the copy ceiling,\n"
        "gathers the same useful bytes as scattered segments of 4 to 512 bytes, then the same\n"
        "segments in sequential and in scattered order (bytes or accesses?).";
    lesson_opt_t opts[] = {
        {"--l2-fetch", OPT_INT, &l2_fetch, 1, 1024, "B",
         "set cudaLimitMaxL2FetchGranularity to 32, 64 or 128 bytes first (a hint)"},
    };
    args_t a;
    gpu_info_t g;
    size_t n, ws, need;
    dim3 block;
    int failed = 0;
    double d2d = 0.0;

    args_size_forms(ARGS_SIZE_N);
    args_parse_or_exit(argc, argv, &a, summary,
                       "floats to gather in experiments 2 and 3 (default 16M = 64 MiB; 1M with --quick)", opts, 1);
    if (l2_fetch && l2_fetch != 32 && l2_fetch != 64 && l2_fetch != 128)
        args_reject("bad --l2-fetch '%s': expected 32, 64 or 128", args_raw_value(argc, argv, "--l2-fetch"));
    if (a.by > 1 || (a.bx && a.bx % 32))
        args_reject("bad --block '%s': this lesson needs a one-dimensional block of a multiple of 32 "
                    "threads (each warp adds its values)", args_raw_value(argc, argv, "--block"));
    report_init("01_dram_burst", a.csv);

    gpu_init(&g);
    gpu_print_header(&g, "Lesson 01 - DRAM bursts and sectors: what a scattered access costs", &a);
    if (a.check) return run_checks(&a);

    block = dim3(a.bx ? a.bx : 256);
    ws = a.quick ? ((size_t)64 << 20) : stats_default_ws(g.l2_bytes, (size_t)256 << 20);
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)1 << 20) : ((size_t)16 << 20));
    /* The S = 4 B gather spreads n floats over n x 128 bytes: shrink the default to what fits. */
    if (!a.nx)
        while (n > ((size_t)1 << 20) &&
               gather_src_floats(n, 4) * sizeof(float) + 2 * ws + 4 * g.l2_bytes > gpu_free_bytes() / 10 * 9)
            n /= 2;
    /* The experiments run one after the other, each freeing its buffers: the larger one is the need
     * (experiments 2 and 3 need the same: the S = 4 B source). */
    need = gather_src_floats(n, 4) * sizeof(float) + (n + 31) / 32 * sizeof(float);
    gpu_require_bytes(need > 2 * ws ? need : 2 * ws, "this run (the S = 4 B gather: 128 bytes per float)");

    failed |= experiment_peak(&g, &a, ws, block, gpu_flush_wanted(&g, &a, 2 * ws), &d2d);
    failed |= experiment_gather(&g, &a, n, block);
    failed |= experiment_order(&g, &a, n, block, d2d);
    return gpu_finish_status(failed);
}
