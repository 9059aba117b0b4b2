/* Checker for the lesson 04 exercise: verifies launch_copy_fast (exercise.cu, or solution.cu for the
 * reference) at odd shapes against its input, then times it against copyRow and cudaMemcpy. */
#include "args.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    float *out;
    const float *in;
    int nx, ny;
} ctx_t;

static void launch_yours(void *p)
{
    ctx_t *c = (ctx_t *)p;
    launch_copy_fast(c->out, c->in, c->nx, c->ny);
}

static void launch_given(void *p)
{
    ctx_t *c = (ctx_t *)p;
    dim3 block(32, 8);
    copy_row<<<grid_2d(c->nx, c->ny, block), block>>>(c->out, c->in, c->nx, c->ny);
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {3, 5}, {4, 4}, {7, 3}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {1024, 1000}, {8191, 4097}};
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    args_t a;
    gpu_info_t g;
    ctx_t c;
    mismatch_t m;
    char size[64], take[300];
    int s, nx, ny, fails = 0, checks = 0, ok_given, ok_yours, flush;
    size_t n, max_n = 0, i;
    float *d_in, *d_out, *h_in, *got;
    timing_t t_d2d, t_given, t_yours;
    double bytes, d2d;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 04 exercise: verifies your copy_fast (exercise.cu) at odd shapes, then times it\n"
                       "against copyRow and cudaMemcpy.",
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)",
                       NULL, 0);
    if (a.bx) args_reject("bad --block '%dx%d': your launch_copy_fast in exercise.cu chooses its own blocks", a.bx, a.by);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    if (ny > 65535) args_reject("bad --size '%dx%d': at most 65535 rows here (a launch may use one row per block)", nx, ny);
    if (a.quick) {
        a.reps = 5;
        a.warmup = 1;
        nshapes--;  /* not 8191x4097 */
    }
    report_init("04_transpose_bounds_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 04 exercise - a faster copyRow", &a);

    /* Correct first: your copy at shapes that are multiples of nothing, on poisoned output. */
    for (s = 0; s < nshapes; s++)
        if ((size_t)shapes[s][0] * shapes[s][1] > max_n) max_n = (size_t)shapes[s][0] * shapes[s][1];
    n = (size_t)nx * ny;
    if (!a.check && n > max_n) max_n = n;
    d_in = (float *)gpu_alloc(max_n * sizeof(float), "the input matrix");
    d_out = (float *)gpu_alloc(max_n * sizeof(float), "the output matrix");
    h_in = (float *)host_alloc(max_n * sizeof(float), "the input matrix (host copy)");
    got = host_alloc_pinned_f32(max_n, "the output matrix (host copy)");
    c.out = d_out;
    c.in = d_in;
    report_say("\nVerification (out must equal in, element by element):\n");
    for (s = 0; s < nshapes; s++) {
        c.nx = shapes[s][0];
        c.ny = shapes[s][1];
        n = (size_t)c.nx * c.ny;
        gpu_fill_random_f32(d_in, n, a.seed);
        for (i = 0; i < n; i++) h_in[i] = rng_float(a.seed, i);
        snprintf(size, sizeof size, "%dx%d", c.nx, c.ny);
        verify_launch_f32(launch_yours, &c, d_out, h_in, got, n, &m);
        if (!a.csv) fails += verify_print(stdout, "copy_fast (yours)", size, &m, n, (size_t)c.nx);
        else fails += m.count != 0;
        checks++;
    }
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix copy_fast in exercise.cu (no timing until it passes).\n",
                fails, checks);
    } else {
        report_say("OK: %d of %d checks passed\n", checks, checks);
    }
    if (fails || a.check) {
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
        free(h_in);
        CHECK(cudaFreeHost(got));
        gpu_finish();
        return fails ? EXIT_VERIFY : EXIT_OK;
    }

    /* Then fast: both copies at the full size, each verified once more before it is timed. */
    c.nx = nx;
    c.ny = ny;
    n = (size_t)nx * ny;
    bytes = 2.0 * (double)n * sizeof(float);
    flush = gpu_flush_wanted(&g, &a, 2 * n * sizeof(float));
    gpu_fill_random_f32(d_in, n, a.seed);
    for (i = 0; i < n; i++) h_in[i] = rng_float(a.seed, i);
    d2d = gpu_d2d_gbs(d_out, d_in, n * sizeof(float), &a, flush, &t_d2d);
    report_set_ceilings(d2d, g.peak_gbs);
    report_begin("exercise", "Copies of the whole matrix (GB/s = bytes read + bytes written / time):", NULL);
    report_row("cudaMemcpy D2D", &t_d2d, bytes, NAN);
    ok_given = verify_then_time("copyRow (given)", launch_given, &c, d_out, h_in, got, n, (size_t)nx, &a, flush, &t_given);
    if (ok_given) report_row("copyRow (given)", &t_given, bytes, NAN);
    else report_row_failed("copyRow (given)");
    ok_yours = verify_then_time("copy_fast (yours)", launch_yours, &c, d_out, h_in, got, n, (size_t)nx, &a, flush, &t_yours);
    if (ok_yours) report_row("copy_fast (yours)", &t_yours, bytes, NAN);
    else report_row_failed("copy_fast (yours)");
    if (ok_given && ok_yours) {
        snprintf(take, sizeof take, "copy_fast is %.2fx copyRow and reaches %.1f%% of cudaMemcpy.",
                 t_given.median_ms / t_yours.median_ms, 100.0 * stats_gbs(bytes, t_yours.median_ms) / d2d);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(h_in);
    CHECK(cudaFreeHost(got));
    gpu_finish();
    return ok_given && ok_yours ? EXIT_OK : EXIT_VERIFY;
}
