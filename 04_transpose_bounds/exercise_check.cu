/* Checker for the lesson 04 exercise: verifies launch_copy_fast (exercise.cu, or solution.cu for the
 * reference) at odd shapes against its input, then times it against copyRow and cudaMemcpy. */
#include "args.h"
#include "exercise.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <stdio.h>

/* The checker's --help summary. */
static const char SUMMARY[] =
    "Lesson 04 exercise: verifies your copy_fast (exercise.cu) at odd shapes, then times it\n"
    "against copyRow and cudaMemcpy.";

/* Your launch_copy_fast picks its own blocks (and launches on the default stream, which the runner's
 * stream waits for). */
static void launch_yours(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    (void)s;
    launch_copy_fast(c->out, c->in, c->nx, c->ny);
}

/* copyRow (t[0]) against yours (t[1]) */
static void takeaway(const tbench_t *b, const dim3 *blocks, const timing_t *t, char *take, size_t len)
{
    (void)blocks;
    snprintf(take, len, "copy_fast is %.2fx copyRow and reaches %.1f%% of cudaMemcpy.", t[0].median_ms / t[1].median_ms,
             100.0 * stats_gbs(b->bytes, t[1].median_ms) / b->d2d_gbs);
}

int main(int argc, char **argv)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {3, 5}, {4, 4}, {7, 3}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {1024, 1000}, {8191, 4097}};
    const tkernel_t ks[] = {{"copyRow (given)", launch_copy_row, TMATRIX_COPY},
                            {"copy_fast (yours)", launch_yours, TMATRIX_COPY}};
    const dim3 blocks[] = {dim3(32, 8), dim3(32, 8)};   /* copyRow's; yours ignores it */
    args_t a;
    gpu_info_t g;
    int nx, ny, rc;

    texercise_args(argc, argv, &a, SUMMARY, 0, &nx, &ny);
    if (ny > 65535)
        args_reject("bad --size '%s': at most 65535 rows here (a launch may use one row per block)",
                    args_raw_value(argc, argv, "--size"));
    report_init("04_transpose_bounds_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 04 exercise - a faster copyRow", &a);

    /* Correct first: your copy at shapes that are multiples of nothing, on poisoned output. */
    report_say("\nVerification (out must equal in, element by element):\n");
    rc = texercise_verify(&ks[1], "copy_fast", shapes, (int)(sizeof shapes / sizeof shapes[0]), 1, blocks, 1, NULL, &a);
    if (rc >= 0) return rc;

    /* Then fast: both copies at the full size, each verified once more before it is timed. */
    return texercise_time(&g, &a, nx, ny, "Copies of the whole matrix (GB/s = (bytes read + bytes written) / time):", ks,
                          blocks, 2, takeaway);
}
