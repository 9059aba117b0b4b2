/* Checker for the lesson 08 exercise: verifies transpose_reg2x2 (exercise.cu, or solution.cu for the
 * reference) at odd and even sizes with several block shapes against the CPU, then times it with
 * 8x8 and 16x16 blocks against cudaMemcpy and the lesson's float4 4x4 tile (rowwise, 8x8 threads). */
#include "kernels.cuh"
#include "args.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "sectors.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

/* The launch exercise.h promises: any block, each thread a 2x2 block of the matrix. */
static void launch_yours(void *p, cudaStream_t s)
{
    const tctx_t *c = (const tctx_t *)p;
    dim3 grid(div_up(c->nx, 2 * c->block.x), div_up(c->ny, 2 * c->block.y));
    transpose_reg2x2<<<grid, c->block, 0, s>>>(c->in, c->out, c->nx, c->ny);
}

static const tkernel_t YOURS = {"transpose_reg2x2", launch_yours, TMATRIX_TRANSPOSE};

/* What to compare it with: the lesson's float4 4x4 tile, rowwise, 8x8 threads (experiment 1). */
REG_LAUNCHER(launch_f4_rowwise_8x8, transpose_reg4x4_rowwise, 4, 8, 8)
static const tkernel_t F4_ROWWISE = {"f4 4x4 rowwise 8x8", launch_f4_rowwise_8x8, TMATRIX_TRANSPOSE};

/* the block shapes it is checked with: square, the source's two (timed), a single warp of 32 x 1, a tall one */
static const dim3 BLOCKS[] = {dim3(8, 8), dim3(16, 16), dim3(32, 1), dim3(4, 32)};
#define N_BLOCKS ((int)(sizeof BLOCKS / sizeof BLOCKS[0]))
/* even shapes (the float2 path) that are not multiples of any block, after the odd ones */
static const int EVEN_SHAPES[][2] = {{2, 2}, {34, 30}, {1002, 778}};
#define N_EVEN ((int)(sizeof EVEN_SHAPES / sizeof EVEN_SHAPES[0]))

int main(int argc, char **argv)
{
    const int big = TMATRIX_N_CHECK_SHAPES - 1;  /* the last odd shape, 8191x4097 */
    args_t a;
    gpu_info_t g;
    tbench_t b;
    timing_t t[2], tf4;
    check_tally_t tally = {0, 0};
    int nx, ny, s, k, nodd, ok = 1;
    size_t most;
    char take[400], label[2][40];
    double g8, g16, gf4;

    args_without("--block");  /* the checker tries its own block shapes */
    args_parse_or_exit(argc, argv, &a,
                       "Lesson 08 exercise: verifies your transpose_reg2x2 (exercise.cu) at odd and even sizes with\n"
                       "several block shapes, then times it with 8x8 and 16x16 blocks against cudaMemcpy.",
                       "matrix NXxNY to time (default 8192x8192, 2048x2048 with --quick); N means NxN", NULL, 0);
    tmatrix_size_limited_or_exit(argc, argv, &a, 16, &nx, &ny);   /* the timed 8x8 blocks cover 16 rows each */
    report_init("08_register_tiles_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 08 exercise - the float2 2x2 register-tile transpose", &a);
    /* the largest matrices of the run: the last odd shape (8191x4097), or the timed ones */
    most = (size_t)TMATRIX_CHECK_SHAPES[big][0] * TMATRIX_CHECK_SHAPES[big][1];
    if (!a.check && (size_t)nx * ny > most) most = (size_t)nx * ny;
    gpu_require_bytes(2 * most * sizeof(float), "the input and output matrices");

    /* Correct first: every shape and block shape, on poisoned output, compared exactly with the CPU. */
    report_say("\nVerification (compared exactly with the CPU transpose):\n");
    nodd = TMATRIX_N_CHECK_SHAPES - (a.quick ? 1 : 0);  /* 8191x4097 only without --quick */
    for (s = 0; s < nodd + N_EVEN; s++) {
        const int *shape = s < nodd ? TMATRIX_CHECK_SHAPES[s] : EVEN_SHAPES[s - nodd];
        tmatrix_t m;
        check_t chk;
        tmatrix_init(&m, shape[0], shape[1], a.seed, TMATRIX_KEEP_TRANSPOSE);
        chk = tmatrix_check_of(&m, TMATRIX_TRANSPOSE);
        for (k = 0; k < N_BLOCKS; k++) {
            tctx_t c = tmatrix_ctx(&m, BLOCKS[k]);
            char size[80];
            snprintf(size, sizeof size, "%dx%d block %ux%u", m.nx, m.ny, c.block.x, c.block.y);
            check_line(&chk, YOURS.label, size, launch_yours, &c, a.csv ? NULL : stdout, &tally);
        }
        tmatrix_free(&m);
    }
    if (tally.fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix transpose_reg2x2 in exercise.cu (no timing until it passes).\n",
                tally.fails, tally.checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", tally.checks, tally.checks);
    if (a.check) return gpu_finish_status(0);

    tbench_init(&b, &g, &a, nx, ny, TMATRIX_KEEP_TRANSPOSE);
    for (k = 0; k < 2; k++) {  /* the first two blocks: 8x8 and 16x16 */
        tctx_t c = tmatrix_ctx(&b.m, BLOCKS[k]);
        snprintf(label[k], sizeof label[k], "yours f2 2x2 %ux%u", BLOCKS[k].x, BLOCKS[k].y);
        ok &= tbench_measure(&b, &YOURS, label[k], &c, &t[k]);
    }
    {
        tctx_t c = tmatrix_ctx(&b.m, dim3(8, 8));
        ok &= tbench_measure(&b, &F4_ROWWISE, F4_ROWWISE.label, &c, &tf4);
    }
    if (!ok) {
        tbench_free(&b);
        return gpu_finish_status(1);
    }
    if ((nx | ny) & 1) report_say("NOTE: %dx%d has an odd side, so your kernel takes its scalar path here.\n", nx, ny);
    report_say("\nSectors one warp's float2 store touches (sectors.h): 8x8 blocks %d (all 32 bytes used), "
               "16x16 blocks %d.\n", regtile_sectors(8, 8, 2, 1), regtile_sectors(16, 16, 2, 1));
    g8 = stats_gbs(b.bytes, t[0].median_ms);
    g16 = stats_gbs(b.bytes, t[1].median_ms);
    gf4 = stats_gbs(b.bytes, tf4.median_ms);
    report_begin("exercise", "Your float2 2x2 transpose against the copy of the same bytes and the lesson's float4 4x4 tile:",
                 "% f4 8x8");
    report_row("cudaMemcpy D2D", &b.t_d2d, b.bytes, 100.0 * b.d2d_gbs / gf4);
    for (k = 0; k < 2; k++) report_row(label[k], &t[k], b.bytes, 100.0 * stats_gbs(b.bytes, t[k].median_ms) / gf4);
    report_row(F4_ROWWISE.label, &tf4, b.bytes, 100.0);
    snprintf(take, sizeof take,
             "yours with 8x8 blocks: %.0f%% of the float4 4x4 tile; with 16x16 blocks: %.0f%% of your 8x8 (%s). "
             "Did the store sectors per request (%d and %d) predict that order?",
             100.0 * g8 / gf4, 100.0 * g16 / g8, g16 < 0.97 * g8 ? "slower" : g16 > 1.03 * g8 ? "faster" : "within 3%",
             regtile_sectors(8, 8, 2, 1), regtile_sectors(16, 16, 2, 1));
    report_end(take);
    tbench_free(&b);
    return gpu_finish_status(0);
}
