/* Lesson 03: offset and stride -- a warp's addresses shifted and spread apart.
 *
 * Experiment 1: the source's 4 MB fits in today's L2; the same kernel from the L2 and from DRAM.
 * Experiment 2: the offset sweep (float, double).
 * Experiment 3: the stride sweep (float, double, float4), each point next to a byte-count model.
 *
 * The kernels are in kernels.cuh; this file verifies, times and prints them.  Every point is
 * checked over its whole buffer (incr_check.cuh compares it on the GPU). */
#include "args.h"
#include "bench.h"
#include "cuda_check.h"
#include "gpu.h"
#include "incr_check.cuh"
#include "kernels.cuh"
#include "offset_stride.h"
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
    "Lesson 03: offset and stride. a[i + o] += 1 for o in 0..32 and a[i * s] += 1 for s in 1..32,\n"
    "in float, double (and float4 for strides), on more data than the L2 holds; each stride next to\n"
    "a model that counts the bytes DRAM must move.";

/* ---- one point of a sweep ----------------------------------------------------------------- */

enum { T_F32, T_F64, T_F128, NTYPES };
static const int ELEM[NTYPES] = {4, 8, 16};
static const int COMPS[NTYPES] = {1, 1, 4};   /* floats per element when checked */
static const char *TYPE_NAME[NTYPES] = {"float", "double", "float4"};
/* How close a stride row must come to the byte model to count as "the bytes explain the time": the
 * min-max spread of these rows was 0.2% to 1.8% of their medians (H100, 2026-11-28), so 3% separates
 * a model that holds from one that drifts; the page's What it means uses the same test. */
#define MODEL_TOLERANCE 0.03

typedef struct {
    void *buf;
    size_t n;          /* elements incremented */
    int kind, type, param;
    dim3 block;        /* 1-D */
} point_t;

/* The point's kernel (kernels.cuh) on its buffer. */
static void launch_point(const point_t *c, cudaStream_t s)
{
    if (c->kind == OS_OFFSET) {
        if (c->type == T_F32) launch_offset_f32((float *)c->buf, c->n, c->param, c->block, s);
        else launch_offset_f64((double *)c->buf, c->n, c->param, c->block, s);
    } else if (c->type == T_F32) {
        launch_stride_f32((float *)c->buf, c->n, c->param, c->block, s);
    } else if (c->type == T_F64) {
        launch_stride_f64((double *)c->buf, c->n, c->param, c->block, s);
    } else {
        launch_stride_f128((float4 *)c->buf, c->n, c->param, c->block, s);
    }
}

/* Elements of the point's type the buffer needs: the kernel's span plus the guard. */
static size_t point_total(int kind, int param, size_t n) { return os_span(kind, param, n) + OS_GUARD; }

/* Verification of one point: the buffer is filled with known values (the sweep's in-place
 * increments keep changing it, so it is re-initialised every time), the kernel runs ONCE, and
 * every element of the span and the guard must hold its initial value, plus exactly 1 where the
 * kernel was meant to add it (compared on the GPU: incr_check.cuh).  Returns the values that
 * differ; *m names the first. */
static size_t point_verify(const point_t *c, uint64_t seed, mismatch_t *m)
{
    incr_check_t ic = os_check_of(c->buf, c->kind, c->param, c->n, COMPS[c->type], c->type == T_F64, seed);
    incr_fill(&ic);
    launch_point(c, gpu_stream());
    CHECK_LAST();
    return incr_compare(&ic, m);
}

/* ---- --check ------------------------------------------------------------------------------ */

/* The check of the check: stride_f32 s=3 on 100003 floats (a buffer of 300071, larger than the 8
 * windows of 8192 elements an earlier version compared at the timed size) with one element in the
 * middle left alone -- the point's kernel, then the element's old value put back: the whole-buffer
 * comparison must find exactly that element. */
static void check_planted_fault(void *buf, dim3 block, uint64_t seed, check_tally_t *t)
{
    point_t c = {buf, 100003, OS_STRIDE, T_F32, 3, block};
    incr_check_t ic = os_check_of(c.buf, c.kind, c.param, c.n, 1, 0, seed);
    size_t skip = os_fault_elem(OS_STRIDE, 3, c.n);
    float old = rng_float(seed, skip);
    mismatch_t m;
    char what[64], size[64];
    int caught;
    incr_fill(&ic);
    launch_point(&c, gpu_stream());
    CHECK_LAST();
    CHECK(cudaMemcpyAsync((float *)c.buf + skip, &old, sizeof(float), cudaMemcpyHostToDevice, gpu_stream()));
    incr_compare(&ic, &m);
    caught = m.count == 1 && m.first == skip;
    snprintf(what, sizeof what, "planted: element %zu skipped", skip);
    snprintf(size, sizeof size, "stride_f32 s=3 n=%zu block=%u", c.n, block.x);
    if (caught) {
        fprintf(t->out, "  PASS  %-28s %s: the check caught it\n", what, size);
    } else {
        char d[200];
        verify_describe(&m, ic.elems, 0, d, sizeof d);
        fprintf(t->out, "  FAIL  %-28s %s: the check did not catch it exactly (%s)\n", what, size,
                m.count ? d : "no difference");
    }
    t->fails += !caught;
    t->checks++;
}

/* Every kernel, every offset 0..32 and stride 1..32, whole buffers checked, at sizes that are
 * multiples of nothing and with block sizes that leave partial warps and partial blocks (one line
 * per kernel and size: every offset or stride passed, or the first that failed), then the planted
 * fault; then check_summary: the GPU finished, the summary line and the exit code.  The buffer has guard zones
 * (bench.h): a write before its start or far past the span is a FAIL too. */
static int run_checks(const args_t *a)
{
    static const size_t quick_n[] = {1, 33, 4097, 1000};
    static const int quick_b[] = {256, 256, 256, 1000};
    static const size_t full_n[] = {1, 31, 33, 1000, 4097, 100003, 33, 4097, 4097};
    static const int full_b[] = {256, 256, 256, 256, 256, 256, 1000, 1000, 32};
    static const struct { int kind, type; const char *name; } kern[] = {
        {OS_OFFSET, T_F32, "offset_f32"}, {OS_OFFSET, T_F64, "offset_f64"}, {OS_STRIDE, T_F32, "stride_f32"},
        {OS_STRIDE, T_F64, "stride_f64"}, {OS_STRIDE, T_F128, "stride_f128"}};
    const size_t *ns = a->quick ? quick_n : full_n;
    const int *bs = a->quick ? quick_b : full_b;
    int ncases = a->quick ? 4 : 9, ci, k, p;
    size_t max_n = 100003, bytes = (point_total(OS_STRIDE, OS_MAX_STRIDE, max_n) + OS_GUARD) * 16;
    guarded_t gbuf;
    void *buf = guarded_alloc(&gbuf, bytes, "a");
    check_tally_t t = {0, 0, stdout};

    for (ci = 0; ci < ncases; ci++) {
        for (k = 0; k < 5; k++) {
            int lo = kern[k].kind == OS_OFFSET ? 0 : 1, hi = kern[k].kind == OS_OFFSET ? OS_MAX_OFFSET : OS_MAX_STRIDE;
            char what[64], size[64];
            mismatch_t m, first_bad;
            int bad_param = -1;
            point_t c;
            c.buf = buf;
            c.n = ns[ci];
            c.kind = kern[k].kind;
            c.type = kern[k].type;
            c.block = dim3(a->bx ? a->bx : bs[ci]);
            memset(&first_bad, 0, sizeof first_bad);
            for (p = lo; p <= hi; p++) {
                c.param = p;
                if (point_verify(&c, a->seed + (uint64_t)p, &m) && bad_param < 0) {
                    bad_param = p;
                    first_bad = m;
                }
            }
            if (bad_param < 0)
                snprintf(what, sizeof what, "%s %s=%d..%d", kern[k].name, c.kind == OS_OFFSET ? "o" : "s", lo, hi);
            else
                snprintf(what, sizeof what, "%s %s=%d", kern[k].name, c.kind == OS_OFFSET ? "o" : "s", bad_param);
            snprintf(size, sizeof size, "n=%zu block=%u", c.n, c.block.x);
            c.param = bad_param < 0 ? hi : bad_param;
            check_report(&t, what, size, &first_bad, point_total(c.kind, c.param, c.n), 0, &gbuf, 1);
        }
    }
    check_planted_fault(buf, dim3(a->bx ? a->bx : 256), a->seed, &t);
    guarded_free(&gbuf);
    return check_summary(&t);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    args_list_t offsets, strides;
    size_t useful;       /* bytes incremented per point (read once, written once) */
    void *buf;
    int block, fetch;    /* block: 1-D; fetch: cudaLimitMaxL2FetchGranularity */
    double d2d;
} sweep_t;

/* One point at the timing size, verified (point_verify), then timed in bench.h's loop.  Returns 1
 * and *t; 0 and *m (what differs) when it fails verification.  The tables print the rows once
 * every point is timed (point_row): a row's last column compares it with another row. */
static int point_time(const gpu_info_t *g, const args_t *a, const point_t *c, const char *label, int flush_mode,
                      timing_t *t, mismatch_t *m)
{
    bench_t bt;
    if (point_verify(c, a->seed, m)) return 0;
    if (flush_mode < 0) {   /* auto: flush when the sectors this point touches could sit in the L2 */
        size_t touched = (size_t)(c->n * os_bytes_per_elem(ELEM[c->type], c->kind == OS_STRIDE ? c->param : 1, OS_SECTOR));
        flush_mode = gpu_flush_wanted(g, a, touched);
    }
    for (bench_start(&bt, label, a, flush_mode); bench_next(&bt);) launch_point(c, gpu_stream());
    *t = bt.t;
    return 1;
}

/* A timed point's row, or report_failed's line and row (elems: the elements its check compared). */
static void point_row(const char *label, int ok, const timing_t *t, double bytes, double extra, const mismatch_t *m,
                      size_t elems)
{
    if (ok) report_row(label, t, bytes, extra);
    else report_failed(label, m, elems, 0);
}

/* Experiment 1: offset 0 (every element, in order) at the source's 4 MiB and at the sweep size. */
static int experiment_l2(const gpu_info_t *g, const args_t *a, const sweep_t *s)
{
    point_t c = {s->buf, ((size_t)4 << 20) / 4, OS_OFFSET, T_F32, 0, dim3(s->block)};
    timing_t t_l2 = {0, 0, 0, 0, 0}, t_fl = t_l2, t_big = t_l2;
    mismatch_t m_l2, m_fl, m_big;
    size_t small = point_total(OS_OFFSET, 0, c.n);
    int ok_l2, ok_fl, ok_big;
    char big[64], take[300];
    double b4 = 2.0 * 4.0 * c.n;

    report_say("\nExperiment 1: the alignment-and-coalescing post's 4 MiB next to a working set the L2 cannot hold (float, offset 0)\n");
    ok_l2 = point_time(g, a, &c, "4 MiB, L2 warm", 0, &t_l2, &m_l2);
    ok_fl = point_time(g, a, &c, "4 MiB, L2 flushed", 1, &t_fl, &m_fl);
    c.n = s->useful / 4;
    snprintf(big, sizeof big, "%.0f MiB from DRAM", s->useful / 1048576.0);
    ok_big = point_time(g, a, &c, big, -1, &t_big, &m_big);
    report_begin("l2_vs_dram", "  a[i] += 1 on floats (GB/s = (bytes read + bytes written) / time):", NULL);
    point_row("4 MiB, L2 warm", ok_l2, &t_l2, b4, NAN, &m_l2, small);
    point_row("4 MiB, L2 flushed", ok_fl, &t_fl, b4, NAN, &m_fl, small);
    point_row(big, ok_big, &t_big, 2.0 * s->useful, NAN, &m_big, point_total(OS_OFFSET, 0, c.n));
    if (ok_l2 && ok_fl && ok_big)
        snprintf(take, sizeof take,
                 "the post's 4 MiB: %.0f GB/s from a warm L2 (%.1f us a launch), %.0f GB/s after a flush; "
                 "%.0f MiB streams at %.0f GB/s. The sweeps below use %.0f MiB.",
                 stats_gbs(b4, t_l2.median_ms), 1000.0 * t_l2.median_ms, stats_gbs(b4, t_fl.median_ms),
                 s->useful / 1048576.0, stats_gbs(2.0 * s->useful, t_big.median_ms), s->useful / 1048576.0);
    else
        snprintf(take, sizeof take, "a point FAILED verification: no comparison.");
    report_end(take);
    return !(ok_l2 && ok_fl && ok_big);
}

/* Experiment 2: the offset sweep for one element type. */
static int experiment_offsets(const gpu_info_t *g, const args_t *a, const sweep_t *s, int type)
{
    point_t c = {s->buf, s->useful / ELEM[type], OS_OFFSET, type, 0, dim3(s->block)};
    timing_t t[ARGS_LIST_MAX];
    mismatch_t m[ARGS_LIST_MAX];
    int ok[ARGS_LIST_MAX], i, failed = 0, worst = -1;
    double bytes = 2.0 * (double)c.n * ELEM[type], ref = 0.0, lo = 1e30, hi = 0.0;
    char label[64], title[160], exp_name[32], extra[32], take[300];

    for (i = 0; i < s->offsets.n; i++) {
        c.param = s->offsets.v[i];
        snprintf(label, sizeof label, "%s o=%d", TYPE_NAME[type], c.param);
        ok[i] = point_time(g, a, &c, label, -1, &t[i], &m[i]);
        failed |= !ok[i];
    }
    snprintf(exp_name, sizeof exp_name, "offset_%s", TYPE_NAME[type]);
    snprintf(extra, sizeof extra, "%% of o=%d", s->offsets.v[0]);
    snprintf(title, sizeof title, "  Offsets, %s (%zu elements of %d B; GB/s = useful bytes read + written / time):",
             TYPE_NAME[type], c.n, ELEM[type]);
    report_begin(exp_name, title, extra);
    if (ok[0]) ref = stats_gbs(bytes, t[0].median_ms);
    for (i = 0; i < s->offsets.n; i++) {
        snprintf(label, sizeof label, "%s o=%d", TYPE_NAME[type], s->offsets.v[i]);
        point_row(label, ok[i], &t[i], bytes, ok[i] && ref > 0 ? 100.0 * stats_gbs(bytes, t[i].median_ms) / ref : NAN,
                  &m[i], point_total(OS_OFFSET, s->offsets.v[i], c.n));
        if (!ok[i]) continue;
        if (i > 0 && ref > 0) {
            double r = stats_gbs(bytes, t[i].median_ms) / ref;
            if (r < lo) { lo = r; worst = s->offsets.v[i]; }
            if (r > hi) hi = r;
        }
    }
    if (worst >= 0)
        snprintf(take, sizeof take,
                 "every other offset ran at %.1f%% to %.1f%% of o=%d (slowest: o=%d). A misaligned warp spans one "
                 "128-byte line more, but its neighbours share it: the bytes moved barely change.",
                 100.0 * lo, 100.0 * hi, s->offsets.v[0], worst);
    else
        snprintf(take, sizeof take, "%s", failed ? "a point FAILED verification." : "one offset only: nothing to compare.");
    report_end(take);
    return failed;
}

/* The arithmetic the stride tables are compared with, printed once. */
static void say_model(const sweep_t *s)
{
    static const int show[] = {1, 2, 4, 8, 16, 32};
    int i, ty, n = (int)(sizeof show / sizeof show[0]);
    report_say("\n  The model.  A warp's request costs one 32-byte sector per sector its 32 elements touch; the L2\n"
               "  fetches %d bytes from DRAM per miss (cudaLimitMaxL2FetchGranularity) and writes back whole\n"
               "  32-byte sectors.  Per element of e bytes at a byte stride d = s x e:\n"
               "    read = min(d, %d), written = min(d, 32); useful = 2e\n"
               "    model GB/s = min(GB/s at s=1, cudaMemcpy D2D %.0f GB/s / (DRAM bytes per useful byte))\n",
               s->fetch, s->fetch, s->d2d);
    report_say("    %-28s", "stride s");
    for (i = 0; i < n; i++) report_say("%6d", show[i]);
    report_say("\n");
    for (ty = 0; ty < NTYPES; ty++) {
        char head[40];
        snprintf(head, sizeof head, "%s sectors per request", TYPE_NAME[ty]);
        report_say("    %-28s", head);
        for (i = 0; i < n; i++) report_say("%6d", os_warp_sectors(ELEM[ty], 0, show[i]));
        report_say("\n");
    }
    for (ty = 0; ty < NTYPES; ty++) {
        char head[40];
        snprintf(head, sizeof head, "%s DRAM B per useful B", TYPE_NAME[ty]);
        report_say("    %-28s", head);
        for (i = 0; i < n; i++) report_say("%6.2f", os_dram_per_useful(ELEM[ty], show[i], s->fetch));
        report_say("\n");
    }
}

/* Experiment 3: the stride sweep for one element type. */
static int experiment_strides(const gpu_info_t *g, const args_t *a, const sweep_t *s, int type)
{
    point_t c = {s->buf, s->useful / ELEM[type], OS_STRIDE, type, 1, dim3(s->block)};
    timing_t t[ARGS_LIST_MAX];
    mismatch_t m[ARGS_LIST_MAX];
    int ok[ARGS_LIST_MAX], i, failed = 0, holds_to = -1, broke = 0, last = -1;
    double bytes = 2.0 * (double)c.n * ELEM[type], s1 = 0.0, model[ARGS_LIST_MAX];
    char label[64], title[160], exp_name[32], take[400];

    for (i = 0; i < s->strides.n; i++) {
        c.param = s->strides.v[i];
        snprintf(label, sizeof label, "%s s=%d", TYPE_NAME[type], c.param);
        ok[i] = point_time(g, a, &c, label, -1, &t[i], &m[i]);
        failed |= !ok[i];
        if (ok[i] && c.param == 1) s1 = stats_gbs(bytes, t[i].median_ms);
    }
    snprintf(exp_name, sizeof exp_name, "stride_%s", TYPE_NAME[type]);
    snprintf(title, sizeof title, "  Strides, %s (%zu elements of %d B; GB/s = useful bytes read + written / time):",
             TYPE_NAME[type], c.n, ELEM[type]);
    report_begin(exp_name, title, "model GB/s");
    for (i = 0; i < s->strides.n; i++) {
        double gbs;
        model[i] = s->d2d / os_dram_per_useful(ELEM[type], s->strides.v[i], s->fetch);
        if (s1 > 0 && s1 < model[i]) model[i] = s1;
        snprintf(label, sizeof label, "%s s=%d", TYPE_NAME[type], s->strides.v[i]);
        point_row(label, ok[i], &t[i], bytes, model[i], &m[i], point_total(OS_STRIDE, s->strides.v[i], c.n));
        if (!ok[i]) continue;
        gbs = stats_gbs(bytes, t[i].median_ms);
        if (!broke && fabs(gbs / model[i] - 1.0) <= MODEL_TOLERANCE) holds_to = s->strides.v[i];
        else broke = 1;
        last = i;
    }
    if (last >= 0) {
        double gl = stats_gbs(bytes, t[last].median_ms);
        int n = 0;
        n += snprintf(take + n, sizeof take - n, "s=%d: %.0f GB/s", s->strides.v[last], gl);
        if (s1 > 0) n += snprintf(take + n, sizeof take - n, " = %.1f%% of s=1", 100.0 * gl / s1);
        n += snprintf(take + n, sizeof take - n, ", model %.0f GB/s. ", model[last]);
        if (holds_to < 0)
            snprintf(take + n, sizeof take - n, "The model is off by more than %.0f%% from the first stride measured.",
                     100.0 * MODEL_TOLERANCE);
        else if (!broke)
            snprintf(take + n, sizeof take - n, "Within %.0f%% of the model at every stride measured.", 100.0 * MODEL_TOLERANCE);
        else
            snprintf(take + n, sizeof take - n, "Within %.0f%% of the model up to s=%d (%d bytes between lanes); beyond, "
                     "bytes alone do not explain the time (make profile).", 100.0 * MODEL_TOLERANCE, holds_to,
                     holds_to * ELEM[type]);
    } else {
        snprintf(take, sizeof take, "every point FAILED verification.");
    }
    report_end(take);
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

/* The default points: enough to show each curve's shape in a terminal's worth of rows (the whole
 * sweep, every offset 0..32 and every stride 1..32, is one --offsets/--strides list away). */
static const int DEFAULT_OFFSETS[] = {0, 1, 2, 4, 8, 12, 16, 20, 24, 28, 31, 32};
static const int DEFAULT_STRIDES[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 28, 32};

static void default_list(args_list_t *l, const int *v, int n)
{
    int i;
    if (l->n) return;   /* given on the command line */
    for (i = 0; i < n; i++) l->v[l->n++] = v[i];
}

static int list_max(const args_list_t *l)
{
    int i, m = 0;
    for (i = 0; i < l->n; i++) m = l->v[i] > m ? l->v[i] : m;
    return m;
}

int main(int argc, char **argv)
{
    int l2_fetch = 0, failed = 0, ty;
    args_t a;
    gpu_info_t g;
    sweep_t s;
    size_t fetch = 0, bytes, min_useful;
    lesson_opt_t opts[] = {
        {"--l2-fetch", OPT_INT, &l2_fetch, 1, 1024, "B",
         "set cudaLimitMaxL2FetchGranularity to 32, 64 or 128 bytes first (a hint; the model uses it)"},
        {"--strides", OPT_LIST, &s.strides, 1, OS_MAX_STRIDE, "LIST",
         "strides to time, 1 to 32, e.g. 1,2,4,8,16,32 (default 1,2,3,4,5,6,8,10,12,16,20,24,28,32)"},
        {"--offsets", OPT_LIST, &s.offsets, 0, OS_MAX_OFFSET, "LIST",
         "offsets to time, 0 to 32, e.g. 0,1,16 (default 0,1,2,4,8,12,16,20,24,28,31,32)"},
    };

    memset(&s, 0, sizeof s);
    /* 69 points by default: 10 timed runs each unless --reps or --quick says otherwise (the header shows it) */
    args_configure(10, NULL, "N");   /* 10 reps a point (many points); --size N only: floats */
    args_parse_or_exit(argc, argv, &a, SUMMARY,
                       "floats incremented per point (default: 4x the L2 or more, 64M = 256 MiB on an H100;\n"
                       "                  4M with --quick); double and float4 points move the same bytes", opts, 3);
    default_list(&s.strides, DEFAULT_STRIDES, (int)(sizeof DEFAULT_STRIDES / sizeof DEFAULT_STRIDES[0]));
    default_list(&s.offsets, DEFAULT_OFFSETS, (int)(sizeof DEFAULT_OFFSETS / sizeof DEFAULT_OFFSETS[0]));
    if (a.by > 1)
        args_reject("bad --block '%s': this lesson uses one-dimensional blocks", args_raw_value(argc, argv, "--block"));
    args_check_l2_fetch(l2_fetch);
    s.block = a.bx ? a.bx : 256;
    /* the float points' blocks must fit gridDim.x; the message names what was typed (--size, and the
     * --block when one was given) */
    if (a.nx && (size_t)a.nx / (size_t)s.block >= (size_t)INT32_MAX) {
        if (a.bx)
            args_reject("bad --size '%s' with --block '%s': %ld floats need more than 2^31 - 1 blocks of %d threads",
                        args_raw_value(argc, argv, "--size"), args_raw_value(argc, argv, "--block"), (long)a.nx,
                        s.block);
        args_reject("bad --size '%s': %ld floats need more than 2^31 - 1 blocks of %d threads (the default --block "
                    "256; a larger --block needs fewer)", args_raw_value(argc, argv, "--size"), (long)a.nx, s.block);
    }
    gpu_start(&g, "03_offset_stride", "Lesson 03 - offset and stride: a warp's addresses shifted and spread apart", &a);
    if (a.check) return run_checks(&a);

    fetch = gpu_l2_fetch(l2_fetch);   /* sets --l2-fetch's value, if given; the granularity in force */
    s.fetch = fetch >= 32 ? (int)fetch : 32;
    s.useful = a.nx ? (size_t)a.nx * 4 : a.quick ? ((size_t)16 << 20) : stats_default_ws(g.l2_bytes, (size_t)64 << 20) / 2;
    if (s.useful < 16) s.useful = 16;   /* at least one float4 */
    min_useful = (size_t)16 << 20;
    for (;;) {   /* the buffer: the largest span of any point, the 4 MiB of experiment 1, 2 x useful for the copy */
        int st = list_max(&s.strides), of = list_max(&s.offsets);
        bytes = 2 * s.useful;
        for (ty = 0; ty < NTYPES; ty++) {
            size_t b = point_total(OS_STRIDE, st, s.useful / ELEM[ty]) * ELEM[ty];
            bytes = b > bytes ? b : bytes;
        }
        if (point_total(OS_OFFSET, of, s.useful / 4) * 4 > bytes) bytes = point_total(OS_OFFSET, of, s.useful / 4) * 4;
        if (point_total(OS_OFFSET, 0, (size_t)1 << 20) * 4 > bytes) bytes = point_total(OS_OFFSET, 0, (size_t)1 << 20) * 4;
        if (a.nx || s.useful <= min_useful || bytes <= gpu_free_bytes() / 10 * 9) break;
        s.useful /= 2;   /* the default does not fit this GPU: halve it (the header line below shows the size) */
    }
    gpu_require_bytes(bytes, "the sweep buffer (the span of the largest stride)");
    s.buf = gpu_alloc(bytes, "the sweep buffer");

    CHECK(cudaMemset(s.buf, 0, 2 * s.useful));
    s.d2d = gpu_d2d_gbs((char *)s.buf + s.useful, s.buf, s.useful, &a, gpu_flush_wanted(&g, &a, 2 * s.useful), NULL);
    report_say("\nCeilings: cudaMemcpy D2D of %.0f MiB: %.0f GB/s; theoretical peak %.0f GB/s.\n",
               s.useful / 1048576.0, s.d2d, g.peak_gbs);
    report_say("Every point: %.0f MiB of useful data (%.1fx the L2), read once and written once; buffer %.1f GiB "
               "(the span of the largest stride).\n", s.useful / 1048576.0, (double)s.useful / g.l2_bytes,
               bytes / 1073741824.0);
    report_say("Each point is verified before it is timed: the buffer is re-initialised, the kernel runs once, and\n"
               "every element of it (the %d-element guard past the span included) must hold exactly +1 where\n"
               "intended and its old value everywhere else, compared on the GPU.  --check does so at odd sizes.\n",
               OS_GUARD);

    failed |= experiment_l2(&g, &a, &s);
    report_say("\nExperiment 2: misaligned starts, a[i + o] += 1\n");
    failed |= experiment_offsets(&g, &a, &s, T_F32);
    failed |= experiment_offsets(&g, &a, &s, T_F64);
    report_say("\nExperiment 3: strides, a[i * s] += 1\n");
    say_model(&s);
    for (ty = 0; ty < NTYPES; ty++) failed |= experiment_strides(&g, &a, &s, ty);

    CHECK(cudaFree(s.buf));
    return gpu_finish_status(failed);
}
