/* Checker for the lesson 04 exercise: verifies launch_copy_fast (exercise.cu, or solution.cu for the
 * reference) at odd shapes against its input, then times it against copyRow and cudaMemcpy. */
#include "args.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "stats.h"
#include "transpose_kernels.cuh"
#include "transpose_matrix.h"

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
    tbench_t b;
    char size[64], take[300];
    int s, nx, ny, fails = 0, checks = 0, ok_given, ok_yours;
    timing_t t_given, t_yours;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 04 exercise: verifies your copy_fast (exercise.cu) at odd shapes, then times it\n"
                       "against copyRow and cudaMemcpy.",
                       "matrix NXxNY = NX columns x NY rows, or N for N x N (default 8192x8192; 2048x2048 with --quick)",
                       NULL, 0);
    if (a.bx) args_reject("bad --block '%dx%d': your launch_copy_fast in exercise.cu chooses its own blocks", a.bx, a.by);
    matrix_size_or_exit(&a, a.quick ? 2048 : 8192, a.quick ? 2048 : 8192, &nx, &ny);
    if (ny > 65535) args_reject("bad --size '%dx%d': at most 65535 rows here (a launch may use one row per block)", nx, ny);
    if (a.quick) {
        nshapes--;  /* not 8191x4097 */
    }
    report_init("04_transpose_bounds_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 04 exercise - a faster copyRow", &a);

    /* Correct first: your copy at shapes that are multiples of nothing, on poisoned output (no
     * PASS/FAIL lines with --csv: stdout is only CSV then). */
    report_say("\nVerification (out must equal in, element by element):\n");
    for (s = 0; s < nshapes; s++) {
        tmatrix_t m;
        tmatrix_init(&m, shapes[s][0], shapes[s][1], a.seed, TMATRIX_INPUT_ONLY);
        c.out = m.d_out;
        c.in = m.d_in;
        c.nx = m.nx;
        c.ny = m.ny;
        snprintf(size, sizeof size, "%dx%d", c.nx, c.ny);
        fails += tmatrix_check(&m, TMATRIX_COPY, "copy_fast (yours)", size, launch_yours, &c, a.csv ? NULL : stdout);
        checks++;
        tmatrix_free(&m);
    }
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix copy_fast in exercise.cu (no timing until it passes).\n",
                fails, checks);
    } else {
        report_say("OK: %d of %d checks passed\n", checks, checks);
    }
    if (fails || a.check) {
        gpu_finish();
        return fails ? EXIT_VERIFY : EXIT_OK;
    }

    /* Then fast: both copies at the full size, each verified once more before it is timed. */
    tbench_init(&b, &g, &a, nx, ny, TMATRIX_INPUT_ONLY);
    c.out = b.m.d_out;
    c.in = b.m.d_in;
    c.nx = nx;
    c.ny = ny;
    report_begin("exercise", "Copies of the whole matrix (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    ok_given = tbench_verify_then_time(&b, TMATRIX_COPY, "copyRow (given)", launch_given, &c, &t_given);
    if (ok_given) report_row("copyRow (given)", &t_given, b.bytes, NAN);
    else report_row_failed("copyRow (given)");
    ok_yours = tbench_verify_then_time(&b, TMATRIX_COPY, "copy_fast (yours)", launch_yours, &c, &t_yours);
    if (ok_yours) report_row("copy_fast (yours)", &t_yours, b.bytes, NAN);
    else report_row_failed("copy_fast (yours)");
    if (ok_given && ok_yours) {
        snprintf(take, sizeof take, "copy_fast is %.2fx copyRow and reaches %.1f%% of cudaMemcpy.",
                 t_given.median_ms / t_yours.median_ms, 100.0 * stats_gbs(b.bytes, t_yours.median_ms) / b.d2d_gbs);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    tbench_free(&b);
    gpu_finish();
    return ok_given && ok_yours ? EXIT_OK : EXIT_VERIFY;
}
