/* Checker for the lesson 08 exercise: verifies transpose_reg2x2 (exercise.cu, or solution.cu for the
 * reference) at odd and even sizes with several block shapes against the CPU, then times it with
 * 8x8 and 16x16 blocks against cudaMemcpy. */
#include "args.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "matrix_args.h"
#include "report.h"
#include "sectors.h"
#include "stats.h"
#include "transpose_matrix.h"
#include "verify.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    const float *in;
    float *out;
    int nx, ny, bx, by;
} ctx_t;

static void launch_yours(void *p)
{
    const ctx_t *c = (const ctx_t *)p;
    dim3 block((unsigned)c->bx, (unsigned)c->by);
    dim3 grid((unsigned)((c->nx + 2 * c->bx - 1) / (2 * c->bx)), (unsigned)((c->ny + 2 * c->by - 1) / (2 * c->by)));
    transpose_reg2x2<<<grid, block>>>(c->in, c->out, c->nx, c->ny);
}

/* the block shapes it is checked with: square, the source's two, a single warp of 32 x 1, a tall one */
static const int BLOCKS[][2] = {{8, 8}, {16, 16}, {32, 1}, {4, 32}};
#define N_BLOCKS ((int)(sizeof BLOCKS / sizeof BLOCKS[0]))
/* even shapes (the float2 path) that are not multiples of any block, plus the odd ones */
static const int EVEN_SHAPES[][2] = {{2, 2}, {34, 30}, {1002, 778}};
#define N_EVEN ((int)(sizeof EVEN_SHAPES / sizeof EVEN_SHAPES[0]))
#define MAX_ROWS (65535 * 16)  /* the timed 8x8 blocks cover 16 rows each; gridDim.y <= 65535 */
#define MAX_COLS (INT_MAX - 1024)

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    int nx, ny, def, s, k, fails = 0, checks = 0, nodd;
    char size[80];
    mismatch_t mm;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 08 exercise: verifies your transpose_reg2x2 (exercise.cu) at odd and even sizes with\n"
                       "several block shapes, then times it with 8x8 and 16x16 blocks against cudaMemcpy.",
                       "matrix NXxNY to time (default 8192x8192, 2048x2048 with --quick); N means NxN", NULL, 0);
    def = a.quick ? 2048 : 8192;
    matrix_size_or_exit(&a, def, def, &nx, &ny);
    if (ny > MAX_ROWS) args_reject("bad --size '%dx%d': at most %d rows", nx, ny, MAX_ROWS);
    if (nx > MAX_COLS) args_reject("bad --size '%dx%d': at most %d columns", nx, ny, MAX_COLS);
    if (a.bx) args_reject("bad --block '%dx%d': the checker tries its own block shapes", a.bx, a.by);
    report_init("08_register_tiles_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 08 exercise - the float2 2x2 register-tile transpose", &a);

    /* Correct first: every shape and block shape, on poisoned output, compared exactly with the CPU. */
    report_say("\nVerification (compared exactly with the CPU transpose):\n");
    nodd = tmatrix_check_count(a.quick);
    for (s = 0; s < nodd + N_EVEN; s++) {
        tmatrix_t m;
        int sx = s < nodd ? TMATRIX_CHECK_SHAPES[s][0] : EVEN_SHAPES[s - nodd][0];
        int sy = s < nodd ? TMATRIX_CHECK_SHAPES[s][1] : EVEN_SHAPES[s - nodd][1];
        tmatrix_init(&m, sx, sy, a.seed, 0);
        for (k = 0; k < N_BLOCKS; k++) {
            ctx_t c = {m.d_in, m.d_out, sx, sy, BLOCKS[k][0], BLOCKS[k][1]};
            snprintf(size, sizeof size, "%dx%d block %dx%d", sx, sy, c.bx, c.by);
            verify_launch_f32(launch_yours, &c, m.d_out, m.want, m.got, m.n, &mm);
            if (!a.csv) fails += verify_print(stdout, "transpose_reg2x2", size, &mm, m.n, (size_t)sy);
            else fails += mm.count != 0;
            checks++;
        }
        tmatrix_free(&m);
    }
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix transpose_reg2x2 in exercise.cu (no timing until it passes).\n",
                fails, checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", checks, checks);
    if (a.check) {
        gpu_finish();
        return EXIT_OK;
    }

    {
        tmatrix_t m;
        timing_t t_d2d, t[2];
        double bytes, d2d, gbs[2];
        int flush, ok = 1;
        char take[300], label[2][40];
        tmatrix_init(&m, nx, ny, a.seed, 0);
        bytes = 2.0 * (double)m.n * sizeof(float);
        flush = gpu_flush_wanted(&g, &a, 2 * m.n * sizeof(float));
        d2d = gpu_d2d_gbs(m.d_out, m.d_in, m.n * sizeof(float), &a, flush, &t_d2d);
        report_set_ceilings(d2d, g.peak_gbs);
        for (k = 0; k < 2; k++) {
            ctx_t c = {m.d_in, m.d_out, nx, ny, BLOCKS[k][0], BLOCKS[k][1]};
            snprintf(label[k], sizeof label[k], "yours f2 2x2 %dx%d", c.bx, c.by);
            ok &= verify_then_time(label[k], launch_yours, &c, m.d_out, m.want, m.got, m.n, (size_t)ny, &a, flush, &t[k]);
            gbs[k] = ok ? stats_gbs(bytes, t[k].median_ms) : 0.0;
        }
        if (!ok) {
            fprintf(stderr, "FAILED verification at %dx%d: no timing reported.\n", nx, ny);
            tmatrix_free(&m);
            gpu_finish();
            return EXIT_VERIFY;
        }
        if ((nx | ny) & 1) report_say("NOTE: %dx%d has an odd side, so your kernel takes its scalar path here.\n", nx, ny);
        report_say("\nSectors one warp's float2 store touches (sectors.h): 8x8 blocks %d (all 32 bytes used), "
                   "16x16 blocks %d.\n", regtile_sectors(8, 8, 2, 1), regtile_sectors(16, 16, 2, 1));
        report_begin("exercise", "Your float2 2x2 transpose against the copy of the same bytes:", NULL);
        report_row("cudaMemcpy D2D", &t_d2d, bytes, NAN);
        for (k = 0; k < 2; k++) report_row(label[k], &t[k], bytes, NAN);
        snprintf(take, sizeof take,
                 "16x16 blocks run at %.0f%% of 8x8: a 16x2 warp stores 8 bytes to each of 16 output rows, half of each "
                 "sector; compare both with the float4 rows of experiment 1.", 100.0 * gbs[1] / gbs[0]);
        report_end(take);
        tmatrix_free(&m);
    }
    gpu_finish();
    return EXIT_OK;
}
