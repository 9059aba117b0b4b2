/* Lesson 01: 32-byte sectors and the L2's fetch -- what a partly used line costs.
 *
 * Experiment 1: where the theoretical peak comes from, and how close a copy gets to it.
 * Experiment 2: one segment per line.  The first S bytes of every 128-byte line (S = 4 ... 128),
 * the lines in order, copied out one float per thread.  The fetch model predicts every row: the
 * caches move whole 32-byte sectors, and for each segment the L2 asks DRAM for a whole fetch
 * (cudaLimitMaxL2FetchGranularity, 64 bytes by default on the H100); if DRAM moved those bytes at
 * cudaMemcpy's rate, the useful bandwidth would fall with S below the fetch.  The table prints
 * the model's GB/s beside the measurement.
 * Experiment 3 (In depth; only with --order): bytes or accesses?  The same segments, copied by one
 * kernel with the lines in sequential and in scattered order: same bytes, same sectors.  If the
 * order changes the time, what a small access costs is its place in memory, not the bytes it
 * moves.
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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 01: sectors and the L2's fetch. Derives the peak bandwidth, measures the copy ceiling, then\n"
    "copies the first S bytes (4 to 128) of every 128-byte line against what the L2's fetch predicts.\n"
    "--order: only the In depth experiment, the same segments in sequential and in scattered order.";

/* ---- the rows ----------------------------------------------------------------------------- */

/* Experiment 2: one kernel per segment size (kernels.cuh's copy_segment_per_line<S>), smallest
 * first.  The last row, whole lines, is a plain copy done one float per thread. */
typedef void (*segment_launch_t)(float *out, const float *in, size_t n, dim3 block, cudaStream_t s);
typedef struct {
    const char *label;
    int seg_bytes;
    segment_launch_t launch;
} segment_row_t;

static const segment_row_t SEGMENT_ROWS[] = {
    {"S=4 B per line", 4, launch_copy_segment_per_line<4>},
    {"S=8 B per line", 8, launch_copy_segment_per_line<8>},
    {"S=16 B per line", 16, launch_copy_segment_per_line<16>},
    {"S=32 B per line", 32, launch_copy_segment_per_line<32>},
    {"S=64 B per line", 64, launch_copy_segment_per_line<64>},
    {"S=128 B per line", 128, launch_copy_segment_per_line<128>},
};
#define NSEG ((int)(sizeof SEGMENT_ROWS / sizeof SEGMENT_ROWS[0]))

/* Experiment 3: the same sizes, each copied by copy_segment_per_permuted_line<S> with the lines in
 * both orders; label[o] names order o (ORDER_SEQUENTIAL, ORDER_SCATTERED). */
enum { ORDER_SEQUENTIAL, ORDER_SCATTERED };
typedef void (*permuted_launch_t)(float *out, const float *in, size_t n, line_order_t order, dim3 block,
                                  cudaStream_t s);
typedef struct {
    const char *label[2];
    int seg_bytes;
    permuted_launch_t launch;
} order_row_t;

static const order_row_t ORDER_ROWS[] = {
    {{"S=4 B sequential lines", "S=4 B scattered lines"}, 4, launch_copy_segment_per_permuted_line<4>},
    {{"S=8 B sequential lines", "S=8 B scattered lines"}, 8, launch_copy_segment_per_permuted_line<8>},
    {{"S=16 B sequential lines", "S=16 B scattered lines"}, 16, launch_copy_segment_per_permuted_line<16>},
    {{"S=32 B sequential lines", "S=32 B scattered lines"}, 32, launch_copy_segment_per_permuted_line<32>},
    {{"S=64 B sequential lines", "S=64 B scattered lines"}, 64, launch_copy_segment_per_permuted_line<64>},
    {{"S=128 B sequential lines", "S=128 B scattered lines"}, 128, launch_copy_segment_per_permuted_line<128>},
};
#define NORDER ((int)(sizeof ORDER_ROWS / sizeof ORDER_ROWS[0]))

static int l2_fetch = 0;   /* --l2-fetch: cudaLimitMaxL2FetchGranularity, 0 = leave as is */

/* ---- the models ----------------------------------------------------------------------------- */

/* Bytes one segment of S bytes makes the memory move: the bytes the L2 fetches for it (at least a
 * 32-byte sector, at least the fetch granularity; a segment starts its own line, so one fetch
 * covers it up to S = 64) and the S bytes written. */
static double moved_bytes(int seg_bytes, size_t gran)
{
    double b = seg_bytes > 32 ? seg_bytes : 32;
    return ((double)gran > b ? (double)gran : b) + seg_bytes;
}

/* The fetch model of experiment 2, as a fraction of cudaMemcpy's GB/s: a segment of S bytes moves
 * moved_bytes (the fetch read, S written), of which 2S are useful; if DRAM moved those bytes at the
 * copy's rate, useful GB/s = the copy's x 2S / moved_bytes.  gran = 32 is the sector model. */
static double moved_model(int seg_bytes, size_t gran)
{
    return 2.0 * seg_bytes / moved_bytes(seg_bytes, gran);
}

/* Bytes the sectors of a segment copy of n floats hold (read and written): what the L2 could keep
 * between two launches, which decides the flush (gpu_flush_wanted). */
static size_t segment_touched_bytes(size_t n, int seg_bytes)
{
    return segments_count(n, (unsigned)seg_bytes / 4) * (size_t)(seg_bytes > 32 ? seg_bytes : 32) + n * sizeof(float);
}

/* ---- what the kernels must write ------------------------------------------------------------ */

/* The source holds rng_float(seed, j) at float j, so element i of a segment copy must be
 * rng_float(seed, the float it reads): segments.h's index, experiment 2's (order NULL) or
 * experiment 3's.  Returns the floats the source needs: the last one read + 1. */
static size_t segment_want(float *want, size_t n, unsigned seg_floats, const line_order_t *order, uint64_t seed)
{
    size_t i, at, end = 0;
    for (i = 0; i < n; i++) {
        at = order ? permuted_line_index(i, seg_floats, *order) : segment_per_line_index(i, seg_floats);
        want[i] = rng_float(seed, at);
        if (at + 1 > end) end = at + 1;
    }
    return end;
}

/* ---- --check ------------------------------------------------------------------------------ */

/* The buffers of one --check case, each with guard zones (bench.h): a write past a buffer is a
 * FAIL, and the source holds exactly the floats the kernel reads, so a read past them reads NaN. */
typedef struct {
    size_t n;
    guarded_t g_src, g_out;
    float *d_src, *d_out, *want;
} check_case_t;

/* A case of n floats in segments of seg_floats (LINE_FLOATS: every float, experiment 1's copy),
 * the lines in order (order NULL) or in experiment 3's order. */
static void check_case_init(check_case_t *c, size_t n, unsigned seg_floats, const line_order_t *order, uint64_t seed)
{
    size_t src;
    c->n = n;
    c->want = (float *)host_alloc(n * sizeof(float), "the expected copy");
    src = segment_want(c->want, n, seg_floats, order, seed);
    c->d_src = (float *)guarded_alloc(&c->g_src, src * sizeof(float), "in");
    c->d_out = (float *)guarded_alloc(&c->g_out, n * sizeof(float), "out");
    gpu_fill_random_f32(c->d_src, src, seed);
}

static void check_case_free(check_case_t *c)
{
    guarded_free(&c->g_src);
    guarded_free(&c->g_out);
    free(c->want);
}

/* After the case's launch: every float compared, the guards of both buffers checked (one line). */
static void check_case_report(const check_case_t *c, const char *what, const char *size, check_tally_t *t)
{
    const guarded_t bufs[2] = {c->g_src, c->g_out};
    mismatch_t m;
    CHECK_LAST();
    gpu_compare_f32(c->d_out, c->want, c->n, &m);
    check_report(t, what, size, &m, c->n, 0, bufs, 2);
}

/* --check: every kernel at sizes that are not multiples of anything, with three block sizes (a
 * grid of several blocks from n = 33 on); then check_summary: the GPU finished, the summary line and the exit code. */
static int run_checks(const args_t *a)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 4097, 100003};
    static const int blocks[] = {32, 256, 1024};
    const int nb = a->bx ? 1 : 3;
    check_tally_t t = {0, 0, stdout};
    cudaStream_t st = gpu_stream();
    check_case_t c;
    size_t si;
    int bi, s, o;
    char what[96], size[64];

    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        /* experiment 1 */
        check_case_init(&c, n, LINE_FLOATS, NULL, a->seed);
        for (bi = 0; bi < nb; bi++) {
            dim3 block(a->bx ? a->bx : blocks[bi]);
            snprintf(size, sizeof size, "n=%zu block=%u", n, block.x);
            gpu_poison(c.d_out, n * sizeof(float));
            launch_copy_one_per_thread(c.d_out, c.d_src, n, block, st);
            check_case_report(&c, "copy_one_per_thread", size, &t);
        }
        check_case_free(&c);
        /* experiment 2 */
        for (s = 0; s < NSEG; s++) {
            const segment_row_t *r = &SEGMENT_ROWS[s];
            check_case_init(&c, n, (unsigned)r->seg_bytes / 4, NULL, a->seed);
            snprintf(what, sizeof what, "copy_segment_per_line<%d>", r->seg_bytes);
            for (bi = 0; bi < nb; bi++) {
                dim3 block(a->bx ? a->bx : blocks[bi]);
                snprintf(size, sizeof size, "n=%zu block=%u", n, block.x);
                gpu_poison(c.d_out, n * sizeof(float));
                r->launch(c.d_out, c.d_src, n, block, st);
                check_case_report(&c, what, size, &t);
            }
            check_case_free(&c);
        }
        /* experiment 3: both orders */
        for (s = 0; s < NORDER; s++)
            for (o = 0; o < 2; o++) {
                const order_row_t *r = &ORDER_ROWS[s];
                line_order_t order = make_line_order(n, (unsigned)r->seg_bytes / 4, o == ORDER_SCATTERED);
                check_case_init(&c, n, (unsigned)r->seg_bytes / 4, &order, a->seed);
                snprintf(what, sizeof what, "copy_segment_per_permuted_line<%d> %s", r->seg_bytes,
                         o == ORDER_SCATTERED ? "scattered" : "sequential");
                for (bi = 0; bi < nb; bi++) {
                    dim3 block(a->bx ? a->bx : blocks[bi]);
                    snprintf(size, sizeof size, "n=%zu block=%u", n, block.x);
                    gpu_poison(c.d_out, n * sizeof(float));
                    r->launch(c.d_out, c.d_src, n, order, block, st);
                    check_case_report(&c, what, size, &t);
                }
                check_case_free(&c);
            }
    }
    return check_summary(&t);
}

/* ---- the take-aways, computed from the measurements ------------------------------------------ */

/* "a to b", or "a" alone where the two agree to the two decimals printed (not "1.16 to 1.16"). */
static const char *ratio_range(char *buf, size_t len, double a, double b)
{
    char sa[32], sb[32];
    snprintf(sa, sizeof sa, "%.2f", a);
    snprintf(sb, sizeof sb, "%.2f", b);
    if (strcmp(sa, sb) == 0) snprintf(buf, len, "%s", sa);
    else snprintf(buf, len, "%s to %s", sa, sb);
    return buf;
}

/* Experiment 2's: each row's GB/s over the fetch model's (gbs[s], model[s]: NAN where a row
 * failed), then the ranges of that ratio below the fetch (partly used fetches) and from it (whole
 * fetches used), the second beside the one-float copy's share of cudaMemcpy (one_pct, experiment
 * 1; NAN if it failed): whole fetches read one float per thread as that copy does.  fetch: the
 * model's F, the L2 fetch granularity in force (at least 32). */
static void segments_takeaway(char *buf, size_t len, const double *gbs, const double *model, double fetch,
                              double one_pct)
{
    double lo = 0.0, hi = 0.0, wlo = 0.0, whi = 0.0, r;
    int s, listed = 0, nparts = 0, nwhole = 0;
    size_t used;
    char range[80], wrange[80];

    used = (size_t)snprintf(buf, len, "measured / fetch model:");
    for (s = 0; s < NSEG && used < len; s++) {
        r = gbs[s] / model[s];
        if (!(r > 0)) continue;   /* failed (NAN) or no model: not counted */
        used += (size_t)snprintf(buf + used, len - used, "%s%d B %.2f", listed++ ? ", " : " S = ",
                                 SEGMENT_ROWS[s].seg_bytes, r);
        if (SEGMENT_ROWS[s].seg_bytes < fetch) {
            if (!nparts || r < lo) lo = r;
            if (!nparts || r > hi) hi = r;
            nparts++;
        } else {
            if (!nwhole || r < wlo) wlo = r;
            if (!nwhole || r > whi) whi = r;
            nwhole++;
        }
    }
    if (used >= len) return;
    if (!listed) {
        snprintf(buf + used, len - used, " no row verified.");
        return;
    }
    if (nparts && lo >= 0.85)
        used += (size_t)snprintf(buf + used, len - used,
                 ". Below %.0f B (part of each fetch used) the rows reach %s of the model: each segment cost "
                 "its whole fetch, moved at nearly the copy's rate.", fetch, ratio_range(range, sizeof range, lo, hi));
    else if (nparts)
        used += (size_t)snprintf(buf + used, len - used,
                 ". Below %.0f B (part of each fetch used) the rows reach only %s of the model: the fetched "
                 "bytes moved well below the copy's rate.", fetch, ratio_range(range, sizeof range, lo, hi));
    if (nwhole && used < len) {
        ratio_range(wrange, sizeof wrange, wlo, whi);
        if (one_pct > 0 && fabs(wlo - one_pct / 100.0) <= 0.05 && fabs(whi - one_pct / 100.0) <= 0.05)
            snprintf(buf + used, len - used,
                     " From %.0f B (whole fetches used) %s, like the one-float copy's %.2f of cudaMemcpy "
                     "(experiment 1): lesson 04 asks why.", fetch, wrange, one_pct / 100.0);
        else
            snprintf(buf + used, len - used, " From %.0f B (whole fetches used) %s.", fetch, wrange);
    }
}

/* G accesses/s: segments copied per second at the median time. */
static double accesses_per_s(size_t nseg, const timing_t *t)
{
    return (double)nseg / (t->median_ms * 1e6);
}

/* Experiment 3's verdict, from the sizes below 64 bytes: r = sequential / scattered accesses per
 * second at the same S, from the same bytes.  rate[s][o]: G/s of ORDER_ROWS[s] in order o (NAN:
 * failed, not counted); gran: the L2 fetch granularity in force; d2d: the copy's GB/s.  The DRAM
 * traffic of a row is its accesses x moved_bytes; as a % of the copy it says whether the bytes
 * could be the limit.  Sequential much faster somewhere (r >= 1.3): the scattered cost is per
 * access, not per byte; r < 1.1 everywhere: the order is not the cost; in between: part of it. */
static void order_takeaway(char *buf, size_t len, const double rate[][2], size_t gran, double d2d)
{
    double r, r_lo = 0.0, r_hi = 0.0, seq_hi = 0.0, scat_lo = 0.0, scat_hi = 0.0, pct_seq = 0.0,
           pct_scat = 0.0, p;
    int s, n = 0, at_lo = 0, at_hi = 0;
    size_t used;

    for (s = 0; s < NORDER; s++) {
        const double *q = rate[s];
        int S = ORDER_ROWS[s].seg_bytes;
        if (S >= 64 || !(q[ORDER_SEQUENTIAL] > 0) || !(q[ORDER_SCATTERED] > 0)) continue;
        r = q[ORDER_SEQUENTIAL] / q[ORDER_SCATTERED];
        if (!n || r < r_lo) { r_lo = r; at_lo = S; }
        if (!n || r > r_hi) { r_hi = r; at_hi = S; }
        if (!n || q[ORDER_SEQUENTIAL] > seq_hi) seq_hi = q[ORDER_SEQUENTIAL];
        if (!n || q[ORDER_SCATTERED] < scat_lo) scat_lo = q[ORDER_SCATTERED];
        if (!n || q[ORDER_SCATTERED] > scat_hi) scat_hi = q[ORDER_SCATTERED];
        /* % of the copy's GB/s the bytes moved make (G accesses/s x bytes = GB/s) */
        p = d2d > 0 ? 100.0 * q[ORDER_SEQUENTIAL] * moved_bytes(S, gran) / d2d : 0.0;
        if (p > pct_seq) pct_seq = p;
        p = d2d > 0 ? 100.0 * q[ORDER_SCATTERED] * moved_bytes(S, gran) / d2d : 0.0;
        if (p > pct_scat) pct_scat = p;
        n++;
    }
    if (!n) {
        snprintf(buf, len, "no size below 64 B verified in both orders: no verdict.");
        return;
    }
    if (r_hi >= 1.3)
        used = (size_t)snprintf(buf, len,
                 "from the same bytes, the sequential order copies %.2fx (S = %d B) to %.2fx (S = %d B) as many "
                 "segments per second as the scattered one (up to %.0f G/s against %.0f to %.0f), whose "
                 "bytes moved (fetches of %zu B or more, plus the bytes written) make at most %.0f%% of the "
                 "copy's GB/s: in this run small scattered reads were limited by their accesses, not their bytes.",
                 r_lo, at_lo, r_hi, at_hi, seq_hi, scat_lo, scat_hi, gran > 32 ? gran : (size_t)32, pct_scat);
    else if (r_hi < 1.1 && pct_scat >= 85.0)
        used = (size_t)snprintf(buf, len,
                 "the order makes no real difference (sequential / scattered: %.2fx at S = %d B to %.2fx at "
                 "S = %d B), and the bytes moved make up to %.0f%% of the copy's GB/s: here the bytes set the "
                 "pace.", r_lo, at_lo, r_hi, at_hi, pct_scat);
    else if (r_hi < 1.1)
        used = (size_t)snprintf(buf, len,
                 "the order makes no real difference (sequential / scattered: %.2fx at S = %d B to %.2fx at "
                 "S = %d B), and the bytes moved make at most %.0f%% of the copy's GB/s: neither the bytes "
                 "nor the order sets the pace; each access costs a slot wherever it lands.",
                 r_lo, at_lo, r_hi, at_hi, pct_scat);
    else
        used = (size_t)snprintf(buf, len,
                 "from the same bytes, the sequential order is somewhat faster: %.2fx (S = %d B) to %.2fx "
                 "(S = %d B) as many segments per second as the scattered one: the order is part of what a "
                 "small scattered access costs, not all of it.", r_lo, at_lo, r_hi, at_hi);
    if (r_hi >= 1.1 && pct_seq >= 85.0 && used < len)
        snprintf(buf + used, len - used,
                 " The sequential rows' bytes moved reach %.0f%% of the copy's GB/s: there the bytes are the "
                 "limit%s.", pct_seq, gran > 32 ? " (try --l2-fetch 32)" : "");
}

/* Experiment 3's second line: whole lines (S = 128 B, the last size), where the sequential order
 * is a plain copy.  gbs_seq, gbs_scat: the two rows' GB/s (NAN: failed). */
static void whole_lines_takeaway(char *buf, size_t len, double gbs_seq, double gbs_scat)
{
    double r = gbs_seq / gbs_scat;
    int S = ORDER_ROWS[NORDER - 1].seg_bytes;
    if (!(gbs_seq > 0) || !(gbs_scat > 0))
        snprintf(buf, len, "S = %d B did not verify in both orders: nothing to say about whole lines.", S);
    else if (r >= 1.2)
        snprintf(buf, len,
                 "whole lines (S = %d B): sequential (a plain copy) %.0f GB/s against %.0f with the lines "
                 "scattered (%.2fx): the order costs even when every byte of a line is used.", S, gbs_seq, gbs_scat, r);
    else if (r < 1.1)
        snprintf(buf, len,
                 "whole lines (S = %d B): sequential (a plain copy) %.0f GB/s against %.0f with the lines "
                 "scattered (%.2fx): when every byte of a line is used, the order of the lines hardly matters.",
                 S, gbs_seq, gbs_scat, r);
    else
        snprintf(buf, len,
                 "whole lines (S = %d B): sequential (a plain copy) %.0f GB/s against %.0f with the lines "
                 "scattered (%.2fx): somewhat faster in order.", S, gbs_seq, gbs_scat, r);
}

/* ---- the experiments ---------------------------------------------------------------------- */

/* Experiment 1: the peak from the attributes, then the copy ceiling and a plain copy kernel.
 * *d2d: cudaMemcpy's GB/s (experiment 2's model needs it); *one_pct: the copy kernel's % of it
 * (NAN if it failed verification). */
static int experiment_peak(const gpu_info_t *g, const args_t *a, size_t ws, dim3 block, int flush, double *d2d,
                           double *one_pct)
{
    const char *label = "copy_one_per_thread";
    cudaStream_t s = gpu_stream();
    size_t n = ws / sizeof(float);
    float *d_src = (float *)gpu_alloc(ws, "the copy source");
    float *d_dst = (float *)gpu_alloc(ws, "the copy destination");
    float *want = (float *)host_alloc(ws, "the expected copy");
    double per_pin_gbps = 2.0 * g->mem_clock_khz / 1e6;  /* Gb/s per data pin */
    double slice_gbs = per_pin_gbps * 32 / 8;            /* 32 pins of the bus */
    timing_t t_d2d;
    mismatch_t m;
    bench_t bt;
    int ok;

    report_say("\nExperiment 1: where the peak comes from (copies of %.0f MiB)\n", ws / 1048576.0);
    report_say("  memory clock %d MHz x 2 transfers per clock (double data rate) = %.2f Gb/s per pin\n",
               g->mem_clock_khz / 1000, per_pin_gbps);
    report_say("  x %d-bit bus / 8 bits per byte = %.0f GB/s", g->bus_bits, g->peak_gbs);
    if (g->bus_bits >= 1024)
        report_say("  (%d HBM stacks of 1024 bits)\n", g->bus_bits / 1024);
    else
        report_say("  (%d chips of 32 bits)\n", g->bus_bits / 32);
    report_say("  32 pins of the bus at this rate move %.1f GB/s; the peak needs %.0f such 32-bit slices side by side.\n",
               slice_gbs, g->peak_gbs / slice_gbs);
    report_say("  For comparison, a GDDR6 card (RTX 6000, 384-bit bus): 14 Gb/s per pin x 32 bits / 8 = 56 GB/s "
               "per 32-bit chip, x 12 chips = 672 GB/s.\n");

    gpu_fill_random_f32(d_src, n, a->seed);
    segment_want(want, n, LINE_FLOATS, NULL, a->seed);   /* every float of every line: want[i] = in[i] */
    *d2d = gpu_d2d_gbs(d_dst, d_src, ws, a, flush, &t_d2d);   /* also the report's ceiling */
    report_begin("peak", "  Copies against the ceilings (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &t_d2d, 2.0 * ws, NAN);
    *one_pct = NAN;
    /* the copy kernel's row: verified (poisoned output, one launch, every float compared), then timed */
    gpu_poison(d_dst, ws);
    launch_copy_one_per_thread(d_dst, d_src, n, block, s);
    CHECK_LAST();
    ok = gpu_compare_f32(d_dst, want, n, &m) == 0;
    if (ok) {
        for (bench_start(&bt, label, a, flush); bench_next(&bt);) launch_copy_one_per_thread(d_dst, d_src, n, block, s);
        report_row(label, &bt.t, 2.0 * ws, NAN);
        *one_pct = 100.0 * stats_gbs(2.0 * ws, bt.t.median_ms) / *d2d;
    } else {
        report_failed(label, &m, n, 0);
    }
    report_end("cudaMemcpy sets the practical ceiling; no row of this run reached the theoretical peak (causes\n"
               "  named by the course's model, not measured here: DRAM refresh, row switches, read/write turnarounds).");
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_dst));
    free(want);
    return !ok;
}

/* --order runs experiment 3 alone: first the copy ceiling its %D2D column needs, measured as in
 * experiment 1 (ws bytes copied by cudaMemcpy) and printed as one line.  Returns its GB/s. */
static double measure_ceiling(const gpu_info_t *g, const args_t *a, size_t ws)
{
    float *d_src = (float *)gpu_alloc(ws, "the copy source");
    float *d_dst = (float *)gpu_alloc(ws, "the copy destination");
    double d2d;
    CHECK(cudaMemset(d_src, 0, ws));
    d2d = gpu_d2d_gbs(d_dst, d_src, ws, a, gpu_flush_wanted(g, a, 2 * ws), NULL);
    report_say("\nCeiling: cudaMemcpy D2D of %.0f MiB (experiment 1): %.0f GB/s; theoretical peak %.0f GB/s.\n",
               ws / 1048576.0, d2d, g->peak_gbs);
    CHECK(cudaFree(d_src));
    CHECK(cudaFree(d_dst));
    return d2d;
}

/* The buffers of experiments 2 and 3: the source the segments are copied from (src_floats, the
 * most any row reads: S = 4 B spreads the widest), the output, and on the host the expected copy;
 * with them the L2 fetch granularity in force, which both experiments' models need. */
typedef struct {
    size_t n, src_floats, gran;
    float *d_src, *d_out, *want;
    double bytes;   /* the useful bytes of every row: n floats read, n floats written */
} segment_bufs_t;

static void segment_bufs_init(segment_bufs_t *b, size_t n, size_t src_floats, uint64_t seed)
{
    b->n = n;
    b->src_floats = src_floats;
    b->d_src = (float *)gpu_alloc(src_floats * sizeof(float), "the segments' source");
    b->d_out = (float *)gpu_alloc(n * sizeof(float), "the copied segments");
    b->want = (float *)host_alloc(n * sizeof(float), "the expected copy");
    b->bytes = 2.0 * (double)n * sizeof(float);
    b->gran = gpu_l2_fetch(l2_fetch);   /* sets --l2-fetch's value, if given; the granularity in force */
    gpu_fill_random_f32(b->d_src, src_floats, seed);
}

static void segment_bufs_free(segment_bufs_t *b)
{
    CHECK(cudaFree(b->d_src));
    CHECK(cudaFree(b->d_out));
    free(b->want);
}

/* One row of experiment 2, verified then timed.  Verify: the expected copy on the CPU, the output
 * poisoned, one launch, every float compared; a copy that differs gets no timing (returns 0; *m
 * says what differs, and the table prints it with report_failed).  Time: bench.h's loop, flushing
 * the L2 first when the sectors this copy touches would fit in it.  Returns 1 and *t.  The rows are
 * printed once every S is timed. */
static int segment_row_time(const gpu_info_t *g, const args_t *a, segment_bufs_t *b, const segment_row_t *r,
                            dim3 block, timing_t *t, mismatch_t *m)
{
    cudaStream_t s = gpu_stream();
    bench_t bt;
    segment_want(b->want, b->n, (unsigned)r->seg_bytes / 4, NULL, a->seed);
    gpu_poison(b->d_out, b->n * sizeof(float));
    r->launch(b->d_out, b->d_src, b->n, block, s);
    CHECK_LAST();
    if (gpu_compare_f32(b->d_out, b->want, b->n, m)) return 0;
    for (bench_start(&bt, r->label, a, gpu_flush_wanted(g, a, segment_touched_bytes(b->n, r->seg_bytes)));
         bench_next(&bt);)
        r->launch(b->d_out, b->d_src, b->n, block, s);
    *t = bt.t;
    return 1;
}

/* Experiment 2: the first S bytes of every line, the lines in order.  Every S is verified and timed
 * first, then printed beside the fetch model at the copy's rate (d2d: cudaMemcpy's GB/s from
 * experiment 1; one_pct: the one-float copy's % of it, for the take-away). */
static int experiment_segments(const gpu_info_t *g, const args_t *a, size_t n, dim3 block, double d2d,
                               double one_pct)
{
    segment_bufs_t b;
    timing_t t[NSEG];
    mismatch_t m[NSEG];
    int ok[NSEG], s, failed = 0;
    double fetch, gbs[NSEG], model[NSEG];
    char takeaway[800];

    memset(t, 0, sizeof t);   /* a failed row keeps zeros */
    segment_bufs_init(&b, n, segment_per_line_src_floats(n, 1), a->seed);
    report_say("\nExperiment 2: one segment per line. The first S bytes of every 128-byte line, the lines in order,\n"
               "  copied out one float per thread: a warp reads S bytes from each of 128/S consecutive lines and writes\n"
               "  128 consecutive bytes. %.0f MiB read and %.0f MiB written for every S (source buffer %.0f MiB at\n"
               "  S = 4 B); cudaLimitMaxL2FetchGranularity = %zu B.\n",
               n * 4.0 / 1048576.0, n * 4.0 / 1048576.0, b.src_floats * 4.0 / 1048576.0, b.gran);
    fetch = moved_bytes(0, b.gran);   /* the bytes one fetch reads: at least the missing sector */
    report_say("  The fetch model: for each segment the L2 asks DRAM for max(S, %.0f) bytes (a fetch; at least a\n"
               "  32-byte sector) and the kernel writes S. If DRAM moved those bytes at cudaMemcpy's rate, useful\n"
               "  GB/s = the copy's x 2S / (max(S, %.0f) + S): S = 4 %.1f%%, 8 %.1f%%, 16 %.1f%%, 32 %.1f%%, 64 %.1f%%,\n"
               "  128 %.1f%% of the copy.\n", fetch, fetch,
               100.0 * moved_model(4, b.gran), 100.0 * moved_model(8, b.gran), 100.0 * moved_model(16, b.gran),
               100.0 * moved_model(32, b.gran), 100.0 * moved_model(64, b.gran), 100.0 * moved_model(128, b.gran));

    for (s = 0; s < NSEG; s++) {
        ok[s] = segment_row_time(g, a, &b, &SEGMENT_ROWS[s], block, &t[s], &m[s]);
        gbs[s] = ok[s] ? stats_gbs(b.bytes, t[s].median_ms) : NAN;
        failed |= !ok[s];
    }

    report_begin("segments", "  Useful bandwidth by segment size (GB/s = useful bytes read + written / time; "
                 "model GB/s: the fetch model):", "model GB/s");
    for (s = 0; s < NSEG; s++) {
        model[s] = d2d * moved_model(SEGMENT_ROWS[s].seg_bytes, b.gran);
        if (ok[s]) report_row(SEGMENT_ROWS[s].label, &t[s], b.bytes, model[s]);
        else report_failed(SEGMENT_ROWS[s].label, &m[s], n, 0);
    }
    segments_takeaway(takeaway, sizeof takeaway, gbs, model, fetch, one_pct);
    report_end(takeaway);
    segment_bufs_free(&b);
    return failed;
}

/* One row of experiment 3, verified then timed as experiment 2's (segment_row_time), with the
 * lines in order `order`; *rate: segments copied per second (G/s). */
static int order_row_time(const gpu_info_t *g, const args_t *a, segment_bufs_t *b, const order_row_t *r,
                          int o, dim3 block, timing_t *t, double *rate, mismatch_t *m)
{
    cudaStream_t s = gpu_stream();
    unsigned f = (unsigned)r->seg_bytes / 4;
    line_order_t order = make_line_order(b->n, f, o == ORDER_SCATTERED);
    bench_t bt;
    *rate = NAN;
    segment_want(b->want, b->n, f, &order, a->seed);
    gpu_poison(b->d_out, b->n * sizeof(float));
    r->launch(b->d_out, b->d_src, b->n, order, block, s);
    CHECK_LAST();
    if (gpu_compare_f32(b->d_out, b->want, b->n, m)) return 0;
    for (bench_start(&bt, r->label[o], a, gpu_flush_wanted(g, a, segment_touched_bytes(b->n, r->seg_bytes)));
         bench_next(&bt);)
        r->launch(b->d_out, b->d_src, b->n, order, block, s);
    *t = bt.t;
    *rate = accesses_per_s(segments_count(b->n, f), t);
    return 1;
}

/* Experiment 3 (In depth, --order): bytes or accesses?  For each S, the same segments -- the same
 * lines, so the same useful bytes, the same sectors, the same L2 fetches -- copied by one kernel in
 * sequential order (segment k in line k: experiment 2's addresses) and in scattered order.  The
 * extra column counts accesses: segments copied per second.  If the bytes set the pace, the two
 * orders take the same time; if the scattered access itself does, the sequential order is faster. */
static int experiment_order(const gpu_info_t *g, const args_t *a, size_t n, dim3 block, double d2d)
{
    segment_bufs_t b;
    double rate[NORDER][2];
    timing_t t[NORDER][2];
    mismatch_t m[NORDER][2];
    int ok[NORDER][2], s, o, failed = 0;
    char takeaway[768];

    memset(t, 0, sizeof t);   /* a failed row keeps zeros */
    segment_bufs_init(&b, n, permuted_line_src_floats(n, 1), a->seed);
    report_say("\nExperiment 3 (In depth): bytes or accesses? Experiment 2's segments, %.0f MiB of them, copied by one\n"
               "  kernel with the lines in two orders: sequential (segment k in line k: experiment 2's addresses) and\n"
               "  scattered (neighbouring segments far apart). The same lines, so the same bytes, the same sectors and\n"
               "  the same L2 fetches (cudaLimitMaxL2FetchGranularity = %zu B); only the order of the addresses differs.\n"
               "  Source buffer %.0f MiB. G accesses/s = segments copied per second.\n",
               n * 4.0 / 1048576.0, b.gran, b.src_floats * 4.0 / 1048576.0);

    for (s = 0; s < NORDER; s++)
        for (o = 0; o < 2; o++) {
            ok[s][o] = order_row_time(g, a, &b, &ORDER_ROWS[s], o, block, &t[s][o], &rate[s][o], &m[s][o]);
            failed |= !ok[s][o];
        }

    report_begin("line_order", "  Accesses per second by order (same segments, same bytes in both orders):",
                 "G accesses/s");
    for (s = 0; s < NORDER; s++)
        for (o = 0; o < 2; o++) {
            if (ok[s][o]) report_row(ORDER_ROWS[s].label[o], &t[s][o], b.bytes, rate[s][o]);
            else report_failed(ORDER_ROWS[s].label[o], &m[s][o], n, 0);
        }

    order_takeaway(takeaway, sizeof takeaway, rate, b.gran, d2d);
    report_end(takeaway);
    s = NORDER - 1;
    whole_lines_takeaway(takeaway, sizeof takeaway,
                         ok[s][ORDER_SEQUENTIAL] ? stats_gbs(b.bytes, t[s][ORDER_SEQUENTIAL].median_ms) : NAN,
                         ok[s][ORDER_SCATTERED] ? stats_gbs(b.bytes, t[s][ORDER_SCATTERED].median_ms) : NAN);
    report_end(takeaway);
    segment_bufs_free(&b);
    return failed;
}

/* GPU memory experiment 2 (or, with --order, 3) takes for n floats: its source at S = 4 B (the
 * widest) and its output. */
static size_t segments_bytes(size_t n, int order)
{
    return ((order ? permuted_line_src_floats(n, 1) : segment_per_line_src_floats(n, 1)) + n) * sizeof(float);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    int order = 0;
    lesson_opt_t opts[] = {
        {"--l2-fetch", OPT_INT, &l2_fetch, 1, 1024, "B",
         "set cudaLimitMaxL2FetchGranularity to 32, 64 or 128 bytes first (a hint)"},
        {"--order", OPT_FLAG, &order, 0, 0, NULL,
         "run only experiment 3 (In depth): the segments in sequential and in scattered order"},
    };
    args_t a;
    gpu_info_t g;
    size_t n, ws, need;
    dim3 block;
    int failed = 0;

    args_configure(0, NULL, "N");   /* --size N only: a number of particles */
    args_parse_or_exit(argc, argv, &a, SUMMARY,
                       "floats to copy in experiments 2 and 3 (default 16M = 64 MiB; 1M with --quick)", opts, 2);
    args_check_l2_fetch(l2_fetch);
    if (a.by > 1 || (a.bx && a.bx % 32))
        args_reject("bad --block '%s': this lesson needs a one-dimensional block of a multiple of 32 "
                    "threads (its tables reason about whole warps)", args_raw_value(argc, argv, "--block"));
    gpu_start(&g, "01_dram_burst", "Lesson 01 - sectors and the L2's fetch: what a partly used line costs", &a);
    if (a.check) return run_checks(&a);

    block = dim3(a.bx ? a.bx : 256);
    ws = a.quick ? ((size_t)64 << 20) : stats_default_ws(g.l2_bytes, (size_t)256 << 20);
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)1 << 20) : ((size_t)16 << 20));
    /* S = 4 B spreads n floats over n lines of 128 bytes: shrink the default to what fits. */
    if (!a.nx)
        while (n > ((size_t)1 << 20) && segments_bytes(n, order) + 2 * ws + 4 * g.l2_bytes > gpu_free_bytes() / 10 * 9)
            n /= 2;
    /* The experiments run one after the other, each freeing its buffers: the larger one is the need. */
    need = segments_bytes(n, order) > 2 * ws ? segments_bytes(n, order) : 2 * ws;
    gpu_require_bytes(need, "this run (S = 4 B: a 128-byte line of the source per float)");

    if (order) {
        double d2d = measure_ceiling(&g, &a, ws);
        failed |= experiment_order(&g, &a, n, block, d2d);
    } else {
        double d2d, one_pct;
        failed |= experiment_peak(&g, &a, ws, block, gpu_flush_wanted(&g, &a, 2 * ws), &d2d, &one_pct);
        failed |= experiment_segments(&g, &a, n, block, d2d, one_pct);
    }
    return gpu_finish_status(failed);
}
