/* The runner of the memory-stream lessons (see stream_run.h). */
#include "stream_run.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

/* ---- in-place increments, every value checked ------------------------------------------------ */

__global__ void fill_random_f64_kernel(double *d, size_t n, uint64_t seed)
{
    size_t j;
    for (j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
        d[j] = (double)rng_float(seed, j);
}

void gpu_fill_random_f64(double *d, size_t n, uint64_t seed)
{
    if (n == 0) return;
    fill_random_f64_kernel<<<1024, 256, 0, gpu_stream()>>>(d, n, seed);
    CHECK_LAST();
}

/* What the comparison found: [0] how many values differ, [1] the index of the first (lowest). */
__device__ unsigned long long incr_found[2];

/* Every value of the buffer against incr_expected, grid-stride.  Atomics only where a value differs,
 * so a correct buffer costs one read of it. */
__global__ void incr_compare_kernel(incr_check_t ic, size_t nvals)
{
    size_t v;
    for (v = blockIdx.x * (size_t)blockDim.x + threadIdx.x; v < nvals; v += (size_t)gridDim.x * blockDim.x) {
        double got = ic.f64 ? ((const double *)ic.buf)[v] : (double)((const float *)ic.buf)[v];
        if (!(got == incr_expected(ic, v))) {   /* a NaN never matches */
            atomicAdd(&incr_found[0], 1ull);
            atomicMin(&incr_found[1], (unsigned long long)v);
        }
    }
}

static size_t run_increment(const check_t *c, launch_fn_t launch, void *ctx, mismatch_t *m, size_t *n, size_t *width)
{
    const incr_check_t *ic = (const incr_check_t *)c->user;
    size_t nvals = ic->f64 ? ic->elems : ic->elems * (size_t)ic->comps;
    unsigned long long found[2] = {0ull, ~0ull};

    if (ic->f64) gpu_fill_random_f64((double *)ic->buf, ic->elems, ic->seed);
    else gpu_fill_random_f32((float *)ic->buf, nvals, ic->seed);
    launch(ctx, gpu_stream());
    CHECK_LAST();
    /* gpu_stream() synchronises with the default stream: these copies order with its kernels */
    CHECK(cudaMemcpyToSymbol(incr_found, found, sizeof found));
    incr_compare_kernel<<<2048, 256, 0, gpu_stream()>>>(*ic, nvals);
    CHECK_LAST();
    CHECK(cudaMemcpyFromSymbol(found, incr_found, sizeof found));

    memset(m, 0, sizeof *m);
    *n = ic->elems;
    *width = 0;
    if (found[0]) {
        size_t v = (size_t)found[1];
        m->count = (size_t)found[0];
        m->first = ic->f64 ? v : v / (size_t)ic->comps;
        m->expected = incr_expected(*ic, v);
        if (ic->f64) {
            CHECK(cudaMemcpy(&m->got, (const double *)ic->buf + v, sizeof(double), cudaMemcpyDeviceToHost));
        } else {
            float g;
            CHECK(cudaMemcpy(&g, (const float *)ic->buf + v, sizeof g, cudaMemcpyDeviceToHost));
            m->got = g;
        }
    }
    return m->count;
}

check_t check_increment(const incr_check_t *ic)
{
    check_t c;
    memset(&c, 0, sizeof c);
    c.run = run_increment;
    c.n = ic->elems;
    c.user = (void *)ic;
    return c;
}

/* ---- an exercise checker: its start, its ceiling, the verdict of its sweep ---------------------- */

void exercise_start(const exercise_t *ex, int argc, char **argv, args_t *a, gpu_info_t *g)
{
    args_size_forms(ex->size_forms);
    args_parse_or_exit(argc, argv, a, ex->summary, ex->size_help, NULL, 0);
    if (a->by > 1 || (ex->whole_warps && a->bx % 32))
        args_reject("bad --block '%s': %s", args_raw_value(argc, argv, "--block"), ex->block_why);
    report_init(ex->lesson, a->csv);
    gpu_init(g);
    gpu_print_header(g, ex->title, a);
}


double exercise_ceiling(const gpu_info_t *g, const args_t *a, size_t bytes)
{
    char *buf = (char *)gpu_alloc(2 * bytes, "the copy ceiling's buffer");
    double d2d;
    CHECK(cudaMemset(buf, 0, 2 * bytes));
    d2d = gpu_d2d_gbs(buf + bytes, buf, bytes, a, gpu_flush_wanted(g, a, 2 * bytes), NULL);
    CHECK(cudaFree(buf));
    report_set_ceilings(d2d, g->peak_gbs);
    return d2d;
}

int exercise_verdict(const check_tally_t *t, const char *kernel, int check_only)
{
    if (t->fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix %s in exercise.cu (no timing until it passes).\n",
                t->fails, t->checks, kernel);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", t->checks, t->checks);
    if (!check_only) return -1;
    gpu_finish();
    return EXIT_OK;
}
