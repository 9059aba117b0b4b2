/* Verify, then time (see bench.h). */
#include "bench.h"
#include "cuda_check.h"
#include "report.h"
#include "tests/internal.h"

#include <nvtx3/nvToolsExt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- verify ---------------------------------------------------------------------------------- */

/* The host copy of the output gpu_compare_f32 compares: page-locked (copies from the GPU run several
 * times faster), grown to the largest output compared, freed by gpu_finish (bench_free_scratch). */
static float *h_got = NULL;
static size_t h_got_n = 0;

size_t gpu_compare_f32(const float *d_out, const float *want, size_t n, mismatch_t *m)
{
    float *got;
    size_t i;
    int nan = 0;
    if (n > h_got_n) {
        if (h_got) CHECK(cudaFreeHost(h_got));
        h_got = (float *)host_alloc_pinned(n * sizeof(float), "the GPU's result (host copy)");
        h_got_n = n;
    }
    got = h_got;
    CHECK(cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    /* The common case first: equal bits and no NaN is a pass.  memcmp runs at memory speed; the
     * element-by-element comparison below, in double, costs several times more. */
    if (memcmp(want, got, n * sizeof(float)) == 0) {
        for (i = 0; i < n; i++) nan |= (got[i] != got[i]);
        if (!nan) {
            memset(m, 0, sizeof *m);
            return 0;
        }
    }
    return verify_f32(want, got, n, 0.0, 0.0, m);
}

/* ---- guard zones ---- */

#define MIB ((size_t)1 << 20)

int checker_child_run(void)
{
    const char *v = getenv(CHECKER_CHILD_ENV);
    return v && *v && strcmp(v, "0") != 0;
}

static void poison_guards(const guarded_t *g)
{
    gpu_poison(g->base, g->guard);
    gpu_poison(g->base + g->guard + g->bytes, g->guard);
}

size_t guarded_guard_bytes(size_t bytes)
{
    /* a whole number of 2 MiB pages, so the buffer starts where a cudaMalloc of its size would */
    size_t g = bytes / 4;
    if (g > 64 * MIB) g = 64 * MIB;
    g = (g + 2 * MIB - 1) / (2 * MIB) * (2 * MIB);
    return g ? g : 2 * MIB;
}

void *guarded_alloc(guarded_t *g, size_t bytes, const char *name)
{
    g->bytes = bytes;
    g->name = name;
    g->guard = checker_child_run() ? 0 : guarded_guard_bytes(bytes);
    g->base = (unsigned char *)gpu_alloc(bytes + 2 * g->guard, name);
    if (g->guard) poison_guards(g);
    return g->base + g->guard;
}

void guarded_free(guarded_t *g)
{
    if (g->base) CHECK(cudaFree(g->base));
    g->base = NULL;
}

/* The first byte of the n at d that is not POISON_BYTE, and how many are not; 0 when none. */
__global__ void guard_scan(const unsigned char *d, size_t n, unsigned long long *res)
{
    size_t i;
    unsigned long long bad = 0, first = ~0ull;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        if (d[i] != POISON_BYTE) {
            if (bad == 0) first = i;
            bad++;
        }
    if (bad) {
        atomicAdd(&res[0], bad);
        atomicMin(&res[1], first);
    }
}

/* guarded_check's result on the GPU: allocated once, freed by gpu_finish (bench_free_scratch). */
static unsigned long long *d_res = NULL;

void bench_free_scratch(void)
{
    if (d_res) CHECK(cudaFree(d_res));
    d_res = NULL;
    if (h_got) CHECK(cudaFreeHost(h_got));
    h_got = NULL;
    h_got_n = 0;
}

/* After a launch: 0 when both guards are intact; else 1 and `why` says where the kernel wrote
 * ("wrote outside `out`: 4 bytes after its end were changed, the nearest 0 bytes past it"); the
 * guards are then poisoned again for the next launch. */
static int guarded_check(const guarded_t *g, char *why, size_t len)
{
    unsigned long long res[2][2];
    const unsigned long long init[2][2] = {{0, ~0ull}, {0, ~0ull}};   /* per side: count, first */
    int side;
    if (!g->guard) return 0;
    if (!d_res) d_res = (unsigned long long *)gpu_alloc(4 * sizeof *d_res, "the guard check");
    CHECK(cudaMemcpy(d_res, init, sizeof init, cudaMemcpyHostToDevice));
    for (side = 0; side < 2; side++) {
        const unsigned char *p = side ? g->base + g->guard + g->bytes : g->base;
        guard_scan<<<256, 256, 0, gpu_stream()>>>(p, g->guard, d_res + 2 * side);
        CHECK_LAST();
    }
    CHECK(cudaMemcpy(res, d_res, sizeof res, cudaMemcpyDeviceToHost));
    if (!res[0][0] && !res[1][0]) return 0;
    if (res[1][0])   /* after the end: the usual overrun; its first byte is the nearest to the buffer */
        snprintf(why, len, "wrote outside `%s`: %llu bytes after its end were changed, the nearest %llu bytes past it",
                 g->name, res[1][0], res[1][1]);
    else   /* before the start */
        snprintf(why, len, "wrote outside `%s`: %llu bytes before its start were changed", g->name, res[0][0]);
    poison_guards(g);   /* for the next launch */
    return 1;
}

int row_failed(const char *label, const mismatch_t *m, size_t n, size_t width, const guarded_t *bufs, int nbufs)
{
    char why[240];
    int k, wrote = 0;
    for (k = 0; k < nbufs; k++)   /* every buffer checked, so every written guard is poisoned again */
        if (guarded_check(&bufs[k], why, sizeof why)) {
            if (!wrote && m->count == 0) fprintf(stderr, "%s: FAILED verification: %s\n", label, why);
            wrote = 1;
        }
    if (m->count != 0) report_failed(label, m, n, width);
    else if (wrote) report_failed(label, NULL, 0, 0);
    return m->count != 0 || wrote;
}

int check_report(check_tally_t *t, const char *what, const char *size, const mismatch_t *m, size_t n, size_t width,
                 const guarded_t *bufs, int nbufs)
{
    char why[240];
    int k, bad = m->count != 0;
    for (k = 0; k < nbufs; k++)   /* every buffer checked, so every written guard is poisoned again */
        if (guarded_check(&bufs[k], why, sizeof why) && !bad) {
            bad = 1;
            if (t->out) fprintf(t->out, "  FAIL  %s  (%s): %s\n", what, size, why);
        }
    if (t->out && (m->count != 0 || !bad)) verify_print(t->out, what, size, m, n, width);
    t->fails += bad;
    t->checks++;
    return bad;
}

int check_summary(const check_tally_t *t)
{
    gpu_finish();
    return verify_summary(stdout, t->fails, t->checks);
}

/* ---- time ------------------------------------------------------------------------------------ */

/* Launches per timed sample without a flush: enough back-to-back launches for about this long. */
#define BATCH_TARGET_MS 1.0
#define BATCH_MAX 256

enum { FIRST_WARMUP, AFTER_FIRST, WARMUPS, SAMPLES, DONE, OVER };

void bench_start(bench_t *b, const char *label, const args_t *a, int flush)
{
    int i;
    memset(b, 0, sizeof *b);
    b->a = a;
    b->flush = flush;
    b->batch = 1;
    snprintf(b->range, sizeof b->range, "L:%s", label);
    b->ev = (void **)host_alloc(2 * (size_t)a->reps * sizeof *b->ev, "the timing events");
    b->ms = (float *)host_alloc((size_t)a->reps * sizeof *b->ms, "the timings");
    for (i = 0; i < 2 * a->reps; i++) CHECK(cudaEventCreate((cudaEvent_t *)&b->ev[i]));
    b->phase = a->warmup > 0 ? FIRST_WARMUP : SAMPLES;
    b->k = -1;   /* SAMPLES: no sample open */
}

int bench_next(bench_t *b)
{
    cudaStream_t s = gpu_stream();
    cudaEvent_t *ev = (cudaEvent_t *)b->ev;
    const int reps = b->a->reps, warmups = b->a->warmup > 1 ? b->a->warmup - 1 : 1;
    float w;
    int i;

    if (b->launched) CHECK_LAST();   /* the launch the caller just made */
    b->launched = 0;
    for (;;) {
        switch (b->phase) {
        case FIRST_WARMUP:   /* alone: it may load the module */
            b->phase = AFTER_FIRST;
            b->launched = 1;
            return 1;
        case AFTER_FIRST:    /* then the other warm-ups back to back, between two events */
            CHECK(cudaStreamSynchronize(s));
            CHECK(cudaEventRecord(ev[0], s));
            b->phase = WARMUPS;
            b->k = 0;
            continue;
        case WARMUPS:
            if (b->k < warmups) {
                b->k++;
                b->launched = 1;
                return 1;
            }
            CHECK(cudaEventRecord(ev[1], s));
            CHECK(cudaEventSynchronize(ev[1]));
            CHECK(cudaEventElapsedTime(&w, ev[0], ev[1]));
            w /= (float)warmups;   /* one launch */
            if (!b->flush && w > 0.0f) b->batch = (int)ceil(BATCH_TARGET_MS / w);
            b->batch = b->flush || b->batch < 1 ? 1 : b->batch > BATCH_MAX ? BATCH_MAX : b->batch;
            b->phase = SAMPLES;
            b->k = -1;
            continue;
        case SAMPLES:
            if (b->k < 0) {   /* open sample i */
                if (b->i == reps) {
                    b->phase = DONE;
                    continue;
                }
                if (b->flush) gpu_l2_flush();
                nvtxRangePushA(b->range);
                CHECK(cudaEventRecord(ev[2 * b->i], s));
                b->k = 0;
            }
            if (b->k < b->batch) {
                b->k++;
                b->launched = 1;
                return 1;
            }
            CHECK(cudaEventRecord(ev[2 * b->i + 1], s));   /* close it */
            nvtxRangePop();
            b->i++;
            b->k = -1;
            continue;
        case DONE:
            CHECK(cudaEventSynchronize(ev[2 * reps - 1]));
            for (i = 0; i < reps; i++) {
                CHECK(cudaEventElapsedTime(&b->ms[i], ev[2 * i], ev[2 * i + 1]));
                b->ms[i] /= (float)b->batch;
            }
            for (i = 0; i < 2 * reps; i++) CHECK(cudaEventDestroy(ev[i]));
            b->t = stats_summary(b->ms, reps);
            b->t.batch = b->batch;
            free(b->ev);
            free(b->ms);
            b->ev = NULL;
            b->ms = NULL;
            b->phase = OVER;
            return 0;
        default:   /* OVER: called again after the end */
            return 0;
        }
    }
}
