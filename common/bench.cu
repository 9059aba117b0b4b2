/* Verify, then time (see bench.h). */
#include "bench.h"
#include "cuda_check.h"
#include "report.h"

#include <string.h>

/* Bit-for-bit equal and free of NaN implies what verify_f32 accepts (it would also accept -0 for +0,
 * which the slow path below then does).  memcmp runs at memory speed; verify_f32 looks at every
 * element in double and costs several times more on the large matrices of the lessons. */
static int same_bits_no_nan(const float *want, const float *got, size_t n)
{
    size_t i;
    int nan = 0;
    if (memcmp(want, got, n * sizeof(float)) != 0) return 0;
    for (i = 0; i < n; i++) nan |= (got[i] != got[i]);
    return !nan;
}

static size_t run_f32(const check_t *c, launch_fn_t launch, void *ctx, mismatch_t *m, size_t *n, size_t *width)
{
    gpu_poison(c->d_out, c->n * sizeof(float));
    launch(ctx, gpu_stream());
    CHECK_LAST();
    CHECK(cudaMemcpy(c->got, c->d_out, c->n * sizeof(float), cudaMemcpyDeviceToHost));
    *n = c->n;
    *width = c->width;
    if (same_bits_no_nan(c->want, c->got, c->n)) {
        memset(m, 0, sizeof *m);
        return 0;
    }
    return verify_f32(c->want, c->got, c->n, 0.0, 0.0, m);
}

check_t check_f32(float *d_out, const float *want, float *got, size_t n, size_t width)
{
    check_t c;
    memset(&c, 0, sizeof c);
    c.run = run_f32;
    c.d_out = d_out;
    c.want = want;
    c.got = got;
    c.n = n;
    c.width = width;
    return c;
}

int check_line(const check_t *c, const char *what, const char *size, launch_fn_t launch, void *ctx, FILE *f,
               check_tally_t *t)
{
    mismatch_t m;
    size_t n, width;
    int bad = c->run(c, launch, ctx, &m, &n, &width) != 0;
    if (f) verify_print(f, what, size, &m, n, width);
    if (t) {
        t->fails += bad;
        t->checks++;
    }
    return bad;
}

int verify_then_time(const char *label, launch_fn_t launch, void *ctx, const check_t *c, const args_t *a, int flush,
                     timing_t *t)
{
    mismatch_t m;
    size_t n, width;
    if (c->run(c, launch, ctx, &m, &n, &width)) {
        char d[200];
        verify_describe(&m, n, width, d, sizeof d);
        fprintf(stderr, "%s: FAILED verification: %s\n", label, d);
        return 0;
    }
    *t = bench_median_ms(label, launch, ctx, a, flush);
    return 1;
}

int measure_row(const char *label, launch_fn_t launch, void *ctx, const check_t *c, const args_t *a, int flush,
                double bytes, double extra, timing_t *t)
{
    int ok = verify_then_time(label, launch, ctx, c, a, flush, t);
    report_result(label, ok, t, bytes, extra);
    return ok;
}
