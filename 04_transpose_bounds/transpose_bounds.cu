/* Lesson 04: know the bounds before you optimize a transpose.
 *
 * Experiment 1: copyRow (read rows, write rows) and copyCol (read columns, write columns) move the
 * same bytes as a transpose with both sides coalesced or both sides strided: the upper and lower
 * bounds Tan Sheng's article measures for any transpose (REFERENCES.md).
 * Experiment 2: is copyRow's speed a ceiling?  The same copy with more bytes in flight per thread
 * (1 to 3 floats, or 1 to 8 float4s, issued before the first store; one pass or grid-stride;
 * streaming hints), timed beside cudaMemcpy and the theoretical peak (the README asks how close
 * each comes before the run).
 *
 * The kernels and their launchers are in kernels.cuh (lessons 05 and 06 measure copyRow and copyCol
 * too); this file lists them as table rows, verifies, times and prints them (trow_measure). */
#include "args.h"
#include "cuda_check.h"
#include "gpu.h"
#include "kernels.cuh"
#include "report.h"
#include "stats.h"
#include "transpose_matrix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The program's --help summary. */
static const char SUMMARY[] =
    "Lesson 04: bytes in flight. Times copyRow and copyCol (the bounds a transpose is often said to lie between),\n"
    "then 1-D copies with more bytes in flight per thread (floats, then float4s) against cudaMemcpy and the\n"
    "theoretical peak.";

/* ---- the table rows ------------------------------------------------------------------------- */

/* Experiment 1: the two bounds, with 2-D blocks of --block (default 32x8). */
static const trow_t COPY_ROW = {"copyRow", launch_copy_row, TMATRIX_COPY};
static const trow_t COPY_COL = {"copyCol", launch_copy_col, TMATRIX_COPY};

/* Experiment 2: the 1-D copies, blocks of --threads.  Their launchers pick the grid: one pass (a
 * block per tile of U x threads elements), or grid-stride (only the blocks resident on the GPU at
 * once, each taking tile after tile).  `kernel` and `bytes` give the KiB/SM column: the occupancy
 * of that kernel x the bytes each thread loads before its first store. */
typedef struct {
    trow_t row;
    const void *kernel;
    int bytes;   /* per thread in flight: U floats of 4 bytes, or U float4s of 16 */
} flight_row_t;

/* The floats first: 8, 16 and 24 KiB per SM (with 2048 resident threads), around the knee of
 * Little's law; then the float4s, 32 KiB per SM and more. */
#define N_FLOAT_ROWS 3
static const flight_row_t FLIGHT_ROWS[] = {
    {{"f1 x1 one pass", launch_copy_f1_x1, TMATRIX_COPY}, (const void *)copy_f1_x1, 4},
    {{"f1 x2 one pass", launch_copy_f1_x2, TMATRIX_COPY}, (const void *)copy_f1_x2, 8},
    {{"f1 x3 one pass", launch_copy_f1_x3, TMATRIX_COPY}, (const void *)copy_f1_x3, 12},
    {{"f4 x1 grid-stride", launch_copy_f4_x1_grid_stride, TMATRIX_COPY}, (const void *)copy_f4_x1, 16},
    {{"f4 x2 grid-stride", launch_copy_f4_x2_grid_stride, TMATRIX_COPY}, (const void *)copy_f4_x2, 32},
    {{"f4 x4 grid-stride", launch_copy_f4_x4_grid_stride, TMATRIX_COPY}, (const void *)copy_f4_x4, 64},
    {{"f4 x4 grid-stride cs", launch_copy_f4_x4_cs_grid_stride, TMATRIX_COPY}, (const void *)copy_f4_x4_cs, 64},
    {{"f4 x1 one pass", launch_copy_f4_x1, TMATRIX_COPY}, (const void *)copy_f4_x1, 16},
    {{"f4 x2 one pass", launch_copy_f4_x2, TMATRIX_COPY}, (const void *)copy_f4_x2, 32},
    {{"f4 x4 one pass", launch_copy_f4_x4, TMATRIX_COPY}, (const void *)copy_f4_x4, 64},
    {{"f4 x8 one pass", launch_copy_f4_x8, TMATRIX_COPY}, (const void *)copy_f4_x8, 128},
    {{"f4 x4 one pass cs", launch_copy_f4_x4_cs, TMATRIX_COPY}, (const void *)copy_f4_x4_cs, 64},
};
#define N_FLIGHT ((int)(sizeof FLIGHT_ROWS / sizeof FLIGHT_ROWS[0]))

/* Experiment 3: copies of experiment 2 (one pass) timed from inside, from 8 to 128 KiB per SM. */
static const flight_row_t TIMED_ROWS[] = {
    {{"f1 x1 timed", launch_copy_f1_x1_timed, TMATRIX_COPY}, (const void *)copy_f1_x1_timed, 4},
    {{"f1 x2 timed", launch_copy_f1_x2_timed, TMATRIX_COPY}, (const void *)copy_f1_x2_timed, 8},
    {{"f1 x3 timed", launch_copy_f1_x3_timed, TMATRIX_COPY}, (const void *)copy_f1_x3_timed, 12},
    {{"f4 x1 timed", launch_copy_f4_x1_timed, TMATRIX_COPY}, (const void *)copy_f4_x1_timed, 16},
    {{"f4 x4 timed", launch_copy_f4_x4_timed, TMATRIX_COPY}, (const void *)copy_f4_x4_timed, 64},
};
#define N_TIMED ((int)(sizeof TIMED_ROWS / sizeof TIMED_ROWS[0]))

/* --threads: block size of the 1-D copies */
static int threads_opt = 256;
static const lesson_opt_t OPTS[] = {
    {"--threads", OPT_INT, &threads_opt, 32, 1024, "T",
     "threads per block of the 1-D copies (f1, f4), a multiple of 32 (default 256)"},
};

/* ---- --check ------------------------------------------------------------------------------- */

/* Every kernel at shapes that are multiples of nothing (a copy is checked against its input):
 * copyRow and copyCol with several 2-D block shapes (or --block), the 1-D copies with 32, 256,
 * 1024 and --threads threads per block.  The grid-stride loop must run more than once somewhere:
 * at 8191x4097 (8.4 M float4s) even the fewest tiles, x4 with 1024 threads (2049 tiles), outnumber
 * the blocks resident on any GPU of the course (an H100: 132 SMs x at most 2 such blocks), and with
 * 32 threads the x1 copy has 262176 tiles for at most 132 x 32 resident blocks; --quick leaves that
 * shape out. */
static int run_checks(const args_t *a)
{
    static const int shapes[][2] = {{1, 1}, {2, 1}, {3, 1}, {1, 5}, {7, 3}, {33, 31}, {31, 33}, {1000, 777},
                                    {1, 40009}, {40009, 1}, {4097, 13}, {1, 600001}, {600001, 1}, {8191, 4097}};
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    const trow_t copies[] = {COPY_ROW, COPY_COL};
    const dim3 blocks2d[] = {dim3(32, 8), dim3(16, 16), dim3(7, 5)};
    dim3 blocks1d[4] = {dim3(32), dim3(256), dim3(1024)};
    trow_t flight[N_FLIGHT + N_TIMED];
    args_t a1d = *a;   /* the 1-D copies take 1-D blocks: --block is for copyRow and copyCol */
    check_tally_t tally = {0, 0, stdout};
    int n1d = 3, k;

    if (threads_opt != 32 && threads_opt != 256 && threads_opt != 1024) blocks1d[n1d++] = dim3(threads_opt);
    for (k = 0; k < N_FLIGHT; k++) flight[k] = FLIGHT_ROWS[k].row;
    for (k = 0; k < N_TIMED; k++) flight[N_FLIGHT + k] = TIMED_ROWS[k].row;
    a1d.bx = a1d.by = 0;
    tcheck_sweep(copies, 2, shapes, nshapes, 1, blocks2d, 3, NULL, a, &tally);
    tcheck_sweep(flight, N_FLIGHT + N_TIMED, shapes, nshapes, 1, blocks1d, n1d, NULL, &a1d, &tally);
    return check_summary(&tally);
}

/* ---- the experiments ---------------------------------------------------------------------- */

typedef struct {
    const gpu_info_t *g;
    tbench_t b;    /* the matrix with its input kept: a copy must reproduce it */
    dim3 block;    /* copyRow / copyCol: --block (default 32x8)                 */
} run_t;

/* Bytes one SM has asked for and not yet used, at most: resident threads x bytes each thread loads
 * before its first store. */
static double kib_in_flight_per_sm(const void *kernel, int threads, int bytes_per_thread)
{
    int nb = gpu_blocks_per_sm(kernel, threads);
    return (nb > 0 ? nb : 1) * (double)threads * bytes_per_thread / 1024.0;
}

/* Experiment 1: the ceiling and lesson 02's two copies (the source's two bounds).  Returns 1 if a kernel failed verification. */
static int experiment_bounds(run_t *r, timing_t *t_row, int *row_ok)
{
    timing_t t_col;
    int col_ok;
    char take[300];

    report_begin("bounds", "Experiment 1: the ceiling (cudaMemcpy) and lesson 02's two copies (the bytes of a transpose, nothing transposed)", NULL);
    report_row("cudaMemcpy D2D", &r->b.t_d2d, r->b.bytes, NAN);
    *row_ok = trow_measure(&r->b, &COPY_ROW, r->block, NAN, t_row);
    col_ok = trow_measure(&r->b, &COPY_COL, r->block, NAN, &t_col);
    if (*row_ok && col_ok) {
        snprintf(take, sizeof take,
                 "copyCol runs at %.0f%% of copyRow: if these two were the bounds, every transpose of this matrix "
                 "would run between %.0f and %.0f GB/s.",
                 100.0 * t_row->median_ms / t_col.median_ms, stats_gbs(r->b.bytes, t_col.median_ms),
                 stats_gbs(r->b.bytes, t_row->median_ms));
        report_end(take);
    } else {
        report_end("a kernel failed verification: no bounds can be drawn.");
    }
    return !(*row_ok && col_ok);
}

/* Experiment 2: the same copy with more bytes in flight per thread. */
static int experiment_ceiling(run_t *r, const timing_t *t_row, int row_ok)
{
    timing_t t[N_FLIGHT];
    int v, best = -1, failed = 0, n_float = 0;
    double d2d = r->b.d2d_gbs, best_gbs, kib;
    char take[500], floats[200] = "";   /* "; the float copies: 77% at 8, ... KiB/SM", when all three verified */

    report_say("\nExperiment 2: copyRow is not the ceiling. 1-D copies, %d threads per block;\n"
               "  f1 xU = U float loads (4 B each), f4 xU = U float4 loads (16 B each), issued per thread before its\n"
               "  first store; one pass = a block per tile of U x %d loads; grid-stride = %d SMs x the blocks resident\n"
               "  per SM, looping; cs = __ldcs/__stcs.\n"
               "  KiB/SM: the most one SM can have in flight = resident threads x bytes each loads before its first store.\n",
               threads_opt, threads_opt, r->g->sms);
    report_begin("in_flight", "Copies of the same matrix (%D2D: against the cudaMemcpy row of experiment 1):", "KiB/SM");
    if (row_ok)   /* copyRow was verified and timed in experiment 1: its row again, for comparison */
        report_row(COPY_ROW.label, t_row, r->b.bytes,
                   kib_in_flight_per_sm((const void *)copy_row, (int)(r->block.x * r->block.y), 4));
    else
        report_failed(COPY_ROW.label, NULL, 0, 0);
    for (v = 0; v < N_FLIGHT; v++) {
        const flight_row_t *f = &FLIGHT_ROWS[v];
        kib = kib_in_flight_per_sm(f->kernel, threads_opt, f->bytes);
        if (!trow_measure(&r->b, &f->row, dim3(threads_opt), kib, &t[v])) {
            failed = 1;
            continue;
        }
        if (v < N_FLOAT_ROWS) {   /* the float copies' climb, for the take-away */
            size_t len = strlen(floats);
            snprintf(floats + len, sizeof floats - len, "%s%.0f%% at %.0f%s", n_float ? ", " : "; the float copies: ",
                     100.0 * stats_gbs(r->b.bytes, t[v].median_ms) / d2d, kib, v == N_FLOAT_ROWS - 1 ? " KiB/SM" : "");
            n_float++;
        }
        if (best < 0 || t[v].median_ms < t[best].median_ms) best = v;
    }
    if (best >= 0) {
        best_gbs = stats_gbs(r->b.bytes, t[best].median_ms);
        snprintf(take, sizeof take,
                 "best copy kernel: %s, %.1f%% of cudaMemcpy and %.1f%% of the theoretical peak; "
                 "copyRow was %.1f%% of cudaMemcpy: not the ceiling of a copy%s.",
                 FLIGHT_ROWS[best].row.label, 100.0 * best_gbs / d2d, 100.0 * best_gbs / r->g->peak_gbs,
                 row_ok ? 100.0 * stats_gbs(r->b.bytes, t_row->median_ms) / d2d : 0.0,
                 n_float == N_FLOAT_ROWS ? floats : "");
        report_end(take);
    } else {
        report_end("every 1-D copy failed verification.");
    }
    return failed;
}

/* Experiment 3: the latency, measured.  Each timed copy is verified and timed as in experiment 2
 * while its sampled warps add up their first load's round trip (kernels.cuh: the slots of
 * flight_clocks and flight_samples, zeroed before the row, summed after it).  The row's extra column is the mean
 * round trip in ns, at the SM clock the GPU reports; Little's law turns it into the bytes that were
 * in flight on average (read GB/s x latency), which the take-away sets beside the KiB/SM count. */
static int experiment_latency(run_t *r)
{
    static unsigned long long clocks[FLIGHT_SLOTS * FLIGHT_SLOT_STRIDE], samples[FLIGHT_SLOTS * FLIGHT_SLOT_STRIDE];
    unsigned long long sum_clocks, sum_samples;
    void *d_clocks, *d_samples;
    timing_t t;
    int v, k, clock_khz = 0, failed = 0, used = 0, lo = -1, hi = -1;
    double lat_ns[N_TIMED], kib, in_flight;
    char take[600];

    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, r->g->device));
    CHECK(cudaGetSymbolAddress(&d_clocks, flight_clocks));
    CHECK(cudaGetSymbolAddress(&d_samples, flight_samples));
    report_say("\nExperiment 3: the latency, measured. The one-pass copies again; in one warp of every %dth tile the\n"
               "  SM's clock (clock64) is read before the first load and after the first store, which waits for its\n"
               "  data: the load's round trip while every other load is in flight too. lat ns: its mean, at the\n"
               "  %.0f MHz SM clock the GPU reports (cudaDevAttrClockRate).\n",
               FLIGHT_EVERY, clock_khz / 1000.0);
    report_begin("latency", "Copies timed from inside (%D2D: against the cudaMemcpy row of experiment 1):", "lat ns");
    used = snprintf(take, sizeof take, "bytes in flight by Little's law (read GB/s x lat ns) against the KiB/SM count:");
    for (v = 0; v < N_TIMED; v++) {
        const flight_row_t *f = &TIMED_ROWS[v];
        CHECK(cudaMemset(d_clocks, 0, sizeof clocks));
        CHECK(cudaMemset(d_samples, 0, sizeof samples));
        if (!trow_time(&r->b, &f->row, dim3(threads_opt), &t)) {
            failed = 1;
            lat_ns[v] = NAN;
            continue;
        }
        CHECK(cudaMemcpy(clocks, d_clocks, sizeof clocks, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(samples, d_samples, sizeof samples, cudaMemcpyDeviceToHost));
        for (sum_clocks = sum_samples = 0, k = 0; k < FLIGHT_SLOTS * FLIGHT_SLOT_STRIDE; k += FLIGHT_SLOT_STRIDE) {
            sum_clocks += clocks[k];
            sum_samples += samples[k];
        }
        lat_ns[v] = sum_samples ? (double)sum_clocks / sum_samples / (clock_khz / 1e6) : NAN;
        report_row(f->row.label, &t, r->b.bytes, lat_ns[v]);
        kib = kib_in_flight_per_sm(f->kernel, threads_opt, f->bytes);
        /* read GB/s (half the copy's) x latency = bytes in flight, over the SMs */
        in_flight = stats_gbs(r->b.bytes, t.median_ms) / 2 * lat_ns[v] / r->g->sms / 1024.0;
        if (used < (int)sizeof take)
            used += snprintf(take + used, sizeof take - used, "%s %s %.1f of %.0f", v ? "," : "", f->row.label, in_flight, kib);
        if (lo < 0 || lat_ns[v] < lat_ns[lo]) lo = v;
        if (hi < 0 || lat_ns[v] > lat_ns[hi]) hi = v;
    }
    if (lo >= 0 && used < (int)sizeof take)
        snprintf(take + used, sizeof take - used, " KiB/SM; the latency ran from %.0f ns (%s) to %.0f ns (%s).",
                 lat_ns[lo], TIMED_ROWS[lo].row.label, lat_ns[hi], TIMED_ROWS[hi].row.label);
    report_end(lo >= 0 ? take : "every timed copy failed verification.");
    return failed;
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    run_t r;
    timing_t t_row;
    int nx, ny, row_ok, failed = 0;
    size_t bytes;

    args_parse_or_exit(argc, argv, &a, SUMMARY, TMATRIX_SIZE_HELP, OPTS, 1);
    if (threads_opt % 32)
        args_reject("bad --threads '%s': expected a multiple of 32 (whole warps)", args_raw_value(argc, argv, "--threads"));
    tmatrix_size_or_exit(&a, 0, &nx, &ny);
    gpu_start(&g, "04_transpose_bounds", "Lesson 04 - bytes in flight: copyRow, copyCol and the copy ceiling", &a);
    if (a.check) return run_checks(&a);

    bytes = (size_t)nx * ny * sizeof(float);
    r.g = &g;
    r.block = a.bx ? dim3(a.bx, a.by) : dim3(32, 8);
    report_say("\nMatrix %d x %d floats (%d rows of %d), %.0f MiB each way; copyRow/copyCol blocks %ux%u.\n"
               "GB/s counts every element read once and written once: 2 x %.0f MiB per kernel.\n",
               nx, ny, ny, nx, bytes / 1048576.0, r.block.x, r.block.y, bytes / 1048576.0);
    tbench_init(&r.b, &g, &a, nx, ny, TMATRIX_COPY);

    failed |= experiment_bounds(&r, &t_row, &row_ok);
    failed |= experiment_ceiling(&r, &t_row, row_ok);
    failed |= experiment_latency(&r);

    tbench_free(&r.b);
    return gpu_finish_status(failed);
}
