/* Checker for the lesson 07 exercise: verifies transpose_tile_noconflict (exercise.cu, or
 * solution.cu for the reference) at odd sizes against the CPU, reports how much shared memory it
 * declares, then times it against cudaMemcpy at the lesson's default size. */
#include "kernels.cuh"
#include "args.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

/* The launch exercise.h promises: EX_TILE x EX_ROWS threads, one block per EX_TILE x EX_TILE tile. */
static void launch_yours(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    dim3 grid(div_up(c->nx, EX_TILE), div_up(c->ny, EX_TILE));
    transpose_tile_noconflict<<<grid, dim3(EX_TILE, EX_ROWS), 0, s>>>(c->in, c->out, c->nx, c->ny);
}

static const tkernel_t YOURS = {"yours [32][32] no padding", launch_yours, TMATRIX_TRANSPOSE};

/* What to compare it with: the lesson's 32 x 32 tile with 32 x 8 threads, unpadded and padded
 * (experiment 2's rows, kernels.cuh). */
TILE_LAUNCHER(launch_nopad, transpose_tile32_blk32x8_nopad, 32, 32, 8)
TILE_LAUNCHER(launch_pad, transpose_tile32_blk32x8_pad, 32, 32, 8)
static const tkernel_t GIVEN[2] = {{"tile32 thr32x8 [32][32]", launch_nopad, TMATRIX_TRANSPOSE},
                                   {"tile32 thr32x8 [32][33]", launch_pad, TMATRIX_TRANSPOSE}};


int main(int argc, char **argv)
{
    const size_t tile_bytes = (size_t)EX_TILE * EX_TILE * sizeof(float);
    const int nshapes = TMATRIX_N_CHECK_SHAPES;
    args_t a;
    gpu_info_t g;
    tbench_t b;
    tctx_t c;
    timing_t t, tg[2];
    check_tally_t tally = {0, 0};
    struct cudaFuncAttributes attr;
    int nx, ny, s;
    size_t most;
    double pct, x_nopad, x_pad;
    int k;
    char take[400];

    args_without("--block");  /* the exercise's kernel runs with EX_TILE x EX_ROWS threads */
    args_parse_or_exit(argc, argv, &a,
                       "Lesson 07 exercise: verifies your transpose_tile_noconflict (exercise.cu) at odd sizes,\n"
                       "then times it against cudaMemcpy.",
                       "matrix NXxNY to time (default 8192x8192, 2048x2048 with --quick); N means NxN", NULL, 0);
    tmatrix_size_limited_or_exit(argc, argv, &a, EX_TILE, &nx, &ny);
    report_init("07_shared_tiled_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 07 exercise - a tile transpose without bank conflicts or padding", &a);
    /* the largest matrices of the run: the last odd shape (8191x4097), or the timed ones */
    most = (size_t)TMATRIX_CHECK_SHAPES[nshapes - 1][0] * TMATRIX_CHECK_SHAPES[nshapes - 1][1];
    if (!a.check && (size_t)nx * ny > most) most = (size_t)nx * ny;
    gpu_require_bytes(2 * most * sizeof(float), "the input and output matrices");

    /* Correct first: every odd shape, on poisoned output, compared exactly with the CPU. */
    report_say("\nVerification (compared exactly with the CPU transpose):\n");
    for (s = 0; s < nshapes - (a.quick ? 1 : 0); s++) {  /* 8191x4097, the last, only without --quick */
        tmatrix_t m;
        check_t chk;
        char size[64];
        tmatrix_init(&m, TMATRIX_CHECK_SHAPES[s][0], TMATRIX_CHECK_SHAPES[s][1], a.seed, TMATRIX_KEEP_TRANSPOSE);
        c = tmatrix_ctx(&m, dim3(EX_TILE, EX_ROWS));
        chk = tmatrix_check_of(&m, TMATRIX_TRANSPOSE);
        snprintf(size, sizeof size, "%dx%d", m.nx, m.ny);
        check_line(&chk, "transpose_tile_noconflict", size, launch_yours, &c, a.csv ? NULL : stdout, &tally);
        tmatrix_free(&m);
    }
    if (tally.fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix transpose_tile_noconflict in exercise.cu "
                        "(no timing until it passes).\n", tally.fails, tally.checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", tally.checks, tally.checks);

    CHECK(cudaFuncGetAttributes(&attr, transpose_tile_noconflict));
    report_say("Your kernel declares %zu bytes of shared memory per block", attr.sharedSizeBytes);
    if (attr.sharedSizeBytes > tile_bytes)
        report_say(": more than the %zu of a [32][32] tile -- the exercise asks for no padding.\n", tile_bytes);
    else
        report_say(" (a [32][32] tile: no padding).\n");
    if (a.check) return gpu_finish_status(0);

    tbench_init(&b, &g, &a, nx, ny, TMATRIX_KEEP_TRANSPOSE);
    c = tmatrix_ctx(&b.m, dim3(EX_TILE, EX_ROWS));
    if (!tbench_measure(&b, &YOURS, NULL, &c, &t) || !tbench_measure(&b, &GIVEN[0], NULL, &c, &tg[0]) ||
        !tbench_measure(&b, &GIVEN[1], NULL, &c, &tg[1])) {
        tbench_free(&b);
        return gpu_finish_status(1);
    }
    report_begin("exercise", "Your transpose against the copy of the same bytes and the lesson's two 32 x 32 tiles:", NULL);
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, NAN);
    report_row(YOURS.label, &t, b.bytes, NAN);
    for (k = 0; k < 2; k++) report_row(GIVEN[k].label, &tg[k], b.bytes, NAN);
    pct = 100.0 * stats_gbs(b.bytes, t.median_ms) / b.d2d_gbs;
    x_nopad = tg[0].median_ms / t.median_ms;
    x_pad = tg[1].median_ms / t.median_ms;
    /* the verdict follows the measured times: the unpadded tile has the 32-way conflicts, the
     * padded one none; a conflict-free kernel without padding should run like the padded one */
    snprintf(take, sizeof take, "yours: %.0f%% of the copy, %.2fx the unpadded tile and %.2fx the padded one: %s", pct,
             x_nopad, x_pad,
             x_pad >= 0.97 ? "as fast as padding, without its extra column."
             : x_nopad > 1.5 ? "most of the conflicts are gone, not all of them (make profile-exercise counts them)."
                             : "still close to the unpadded tile: are the 32 lanes of a column read on 32 different banks?");
    report_end(take);
    tbench_free(&b);
    return gpu_finish_status(0);
}
