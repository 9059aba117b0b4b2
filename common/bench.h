/* Verify, then time: the one path every table row of every lesson takes.  A kernel's output is
 * poisoned, the kernel runs once, its output is compared with a host reference (a check_t says
 * how), and only a kernel that matched is timed (bench_median_ms) and gets its figures. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdio.h>
#include "args.h"
#include "gpu.h"
#include "stats.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How one kernel's output is checked.  run() poisons the output, runs launch(ctx, gpu_stream())
 * once, copies the result back and compares it; it returns the number of differing elements and
 * fills *m, *n (elements compared) and *width (> 0: name a mismatch by [row, col] of a matrix of
 * that many columns).  check_f32 builds the usual one: n floats at d_out, equal bit for bit to
 * want (host), read back into got (host memory the caller owns, best page-locked). */
typedef struct check_s check_t;
struct check_s {
    size_t (*run)(const check_t *c, launch_fn_t launch, void *ctx, mismatch_t *m, size_t *n, size_t *width);
    float *d_out;
    const float *want;
    float *got;
    size_t n, width;
    void *user;   /* what another run() needs (gemm_problem.h's) */
};
check_t check_f32(float *d_out, const float *want, float *got, size_t n, size_t width);

/* Adds up a --check sweep's PASS/FAIL lines; verify_summary(f, t.fails, t.checks) ends it. */
typedef struct { int fails, checks; } check_tally_t;

/* One line of a --check sweep: c->run, then verify_print on f (PASS, or FAIL with what differs);
 * f = NULL prints nothing (an exercise checker under --csv).  Counted in *t when t is not NULL.
 * Returns 1 when the output differs, 0 when it matches. */
int check_line(const check_t *c, const char *what, const char *size, launch_fn_t launch, void *ctx, FILE *f,
               check_tally_t *t);

/* c->run, then, only if every element matched, bench_median_ms(label, ...) into *t.  Returns 1
 * when the kernel verified and was timed; otherwise prints "label: FAILED verification: <what
 * differs>" on stderr and returns 0 (no timing is taken). */
int verify_then_time(const char *label, launch_fn_t launch, void *ctx, const check_t *c, const args_t *a, int flush,
                     timing_t *t);

/* verify_then_time, then the table row: report_result(label, ok, t, bytes, extra). */
int measure_row(const char *label, launch_fn_t launch, void *ctx, const check_t *c, const args_t *a, int flush,
                double bytes, double extra, timing_t *t);

#ifdef __cplusplus
}
#endif
#endif
