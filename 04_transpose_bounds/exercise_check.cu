/* Checker for the lesson 04 exercise (common/checker.h's pattern): verifies launch_copy_fast
 * (exercise.cu, or solution.cu for the reference) at odd shapes against its input, then times it
 * against copyRow and cudaMemcpy and gives the verdict.
 *
 * The goal: your copy at 0.90x the speed of cudaMemcpy D2D or more.  The lesson's point is that
 * copyRow bounded one-float-per-thread code, not a copy: with more bytes in flight per thread the
 * same copy runs at cudaMemcpy's speed.  On the H100 (results/NVIDIA_H100_80GB_HBM3/answers/
 * 04_transpose_bounds.txt, ./solution at 8192 x 8192) the reference copy_fast ran at 100.0% of
 * cudaMemcpy, and lesson 06's copyRow x4 (the other idea exercise.cu offers) at 99.8%, while copyRow
 * itself reached 74.1% (57.6% on the H200): 0.90 leaves the reference a 10% margin and copyRow short. */
#include "args.h"
#include "checker.h"
#include "exercise.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>

/* The checker's --help summary. */
static const char SUMMARY[] =
    "Lesson 04 exercise: verifies your copy_fast (exercise.cu) at odd shapes, then times it\n"
    "against copyRow and cudaMemcpy.";

static const checker_t CK = {"04_transpose_bounds_exercise", "Lesson 04 exercise - a faster copyRow", SUMMARY,
                             TMATRIX_SIZE_HELP, NULL, NULL /* no --block: your launch picks it */, NULL, "copy_fast",
                             "cudaMemcpy D2D", 0.90, "memcheck",
                             1 /* --size: a launch may use one row per block, so at most 65535 rows */};

/* Your launch_copy_fast picks its own blocks and launches on the default stream, which the course's
 * stream waits for (gpu.h): block and s are not used. */
static void launch_yours(float *out, const float *in, int nx, int ny, dim3 block, cudaStream_t s)
{
    (void)block;
    (void)s;
    launch_copy_fast(out, in, nx, ny);
}

static const trow_t COPY_ROW = {"copyRow (given)", launch_copy_row, TMATRIX_COPY};
static const trow_t YOURS = {"copy_fast (yours)", launch_yours, TMATRIX_COPY};

int main(int argc, char **argv)
{
    /* 1x1 to 7x3: less than one float4 per row; 1000x777 and 4097x13: rows that are not a multiple of
     * 4 floats long, so no row after the first starts on a 16-byte boundary; 1x40009 and 40009x1:
     * one column, one row; 8191x4097 (left out with --quick) the large odd one */
    static const int shapes[][2] = {{1, 1}, {2, 1}, {3, 5}, {4, 4}, {7, 3}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {1024, 1000}, {8191, 4097}};
    const dim3 block(32, 8);   /* copyRow's; yours ignores it */
    args_t a;
    gpu_info_t g;
    tbench_t b;
    timing_t t_row, t_yours;
    check_tally_t t = {0, 0, stdout};
    int nx, ny, rc, row_ok, yours_ok;
    double ratio;
    char take[300];

    checker_start(&CK, argc, argv, &a, &g);
    tmatrix_size_or_exit(&a, 0, &nx, &ny);

    /* Correct first: your copy at shapes that are multiples of nothing, on poisoned output inside
     * guard zones (a write past either end of `out` is a FAIL too). */
    t.out = a.csv ? NULL : stdout;
    report_say("\nVerification (out must equal in, element by element):\n");
    tcheck_sweep(&YOURS, 1, shapes, (int)(sizeof shapes / sizeof shapes[0]), 1, &block, 1, NULL, &a, &t);
    if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc;

    /* Then fast: both copies at the full size, each verified once more before it is timed. */
    tbench_init(&b, &g, &a, nx, ny, TMATRIX_COPY);
    report_begin("exercise", "Copies of the whole matrix (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    row_ok = trow_measure(&b, &COPY_ROW, block, NAN, &t_row);
    yours_ok = trow_measure(&b, &YOURS, block, NAN, &t_yours);
    if (row_ok && yours_ok) {
        snprintf(take, sizeof take, "copy_fast is %.2fx copyRow and reaches %.1f%% of cudaMemcpy.",
                 t_row.median_ms / t_yours.median_ms, 100.0 * stats_gbs(b.bytes, t_yours.median_ms) / b.d2d_gbs);
        report_end(take);
    } else {
        report_end("a kernel failed verification at the full size: no comparison.");
    }
    ratio = yours_ok ? b.t_d2d.median_ms / t_yours.median_ms : NAN;   /* speed of yours / speed of cudaMemcpy */
    tbench_free(&b);
    return checker_verdict(&CK, ratio);
}
