/* Verify, then time: the two halves of every table row.
 *
 * Verify.  Poison the output (gpu_poison), launch the kernel once, then gpu_compare_f32: the output
 * is copied back and compared with a host reference; a kernel that differs gets no figures
 * (report_failed).  A --check sweep prints one PASS/FAIL line per kernel and size (check_report)
 * and ends with check_summary.
 *
 * Time.  A loop whose body is the launch, so the kernel's own launcher is called right there:
 *
 *     bench_t b;
 *     for (bench_start(&b, "NaiveCol", a, flush); bench_next(&b);)
 *         launch_naive_col(out, in, nx, ny, block, s);
 *     // b.t: median, min and max milliseconds per launch
 *
 * bench_next decides what each pass is: a warm-up, or part of a timed sample.  The first warm-up
 * runs alone (it may load the module); the others run back to back and say how long one launch
 * takes.  Then a->reps samples, each one pair of CUDA events around its launches:
 *   - with flush: an L2 flush (gpu_l2_flush) before the sample, then ONE launch;
 *   - without: a batch of back-to-back launches lasting about a millisecond, divided by its size,
 *     so that a short kernel is not charged the gap between two launches.
 * Every sample sits in an NVTX range "L:<label>": `make profile` names ncu's rows after it. */
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

/* ---- verify ---------------------------------------------------------------------------------- */

/* Copies the n floats at d_out (device) back to the host (into the library's page-locked buffer,
 * kept until the end of the run) and compares them with want: equal bit for bit, and no NaN (a
 * poisoned element never passes).  Fills *m; returns the number of elements that differ. */
size_t gpu_compare_f32(const float *d_out, const float *want, size_t n, mismatch_t *m);

/* The PASS/FAIL lines of a --check sweep, added up: a sweep starts from {0, 0, stdout}. */
typedef struct {
    int fails, checks;
    FILE *out;   /* where the lines go: stdout; NULL prints nothing (a checker under --csv) */
} check_tally_t;

/* Guard zones: a device buffer with a guard on each side, filled with POISON_BYTE (a float NaN) and
 * checked after every launch.  A write outside the buffer changes a guard; a read outside it reads
 * NaN, which then shows in the results.  A guard is a quarter of the buffer rounded up to whole 2 MiB
 * pages (so the buffer starts where a cudaMalloc of its own would), at least 2 MiB and at most 64 MiB:
 * even a store one whole row past the end lands in it.  With
 * COURSE_CHECKER_CHILD=1 in the environment (an exercise checker's run under compute-sanitizer,
 * checker.h) there are no guards: memcheck then sees every byte past the buffer's ends. */
typedef struct {
    unsigned char *base;   /* the allocation: guard, buffer, guard */
    size_t bytes, guard;
    const char *name;      /* "in", "out", ... as the kernel names its parameters */
} guarded_t;

/* Allocates the buffer and its guards; returns the buffer, 256-byte aligned as cudaMalloc's are.
 * Exits 5 (gpu_alloc) when the GPU memory runs out. */
void *guarded_alloc(guarded_t *g, size_t bytes, const char *name);
void guarded_free(guarded_t *g);


/* For a timed row, after its verifying launch: 1 (no timing then) when m counts a mismatch of its n
 * elements (report_failed(label, m, n, width)) or a guard of bufs[0..nbufs) was written ("<label>:
 * FAILED verification: wrote outside ..." on stderr and report_failed's row); else 0.  Every guard
 * is checked, and poisoned again, either way: the next row starts clean. */
int row_failed(const char *label, const mismatch_t *m, size_t n, size_t width, const guarded_t *bufs, int nbufs);

/* One line, "  PASS  what  (size)" or "  FAIL  what  (size): 3 of 1000 differ; first at [row 2,
 * col 5]: expected 0.25, got nan", counted in *t.  n elements were compared; width > 0 names a
 * mismatch by row and column of a matrix of that many columns.  bufs[0..nbufs) (may be NULL, 0):
 * the guarded buffers of the launch; a written guard is a FAIL too, named ("wrote outside `out`:
 * ...").  Returns 1 for a failure. */
int check_report(check_tally_t *t, const char *what, const char *size, const mismatch_t *m, size_t n, size_t width,
                 const guarded_t *bufs, int nbufs);

/* The end of a --check run: the GPU finished (synchronised, any pending error reported, the helpers'
 * buffers freed), then the sweep's last line, "OK: 12 of 12 checks passed" or "FAILED: 10 of 12 checks
 * passed"; returns the exit code (0, or 1 when a check failed). */
int check_summary(const check_tally_t *t);

/* ---- time ------------------------------------------------------------------------------------ */

typedef struct {
    /* the result, once bench_next has returned 0: per launch */
    timing_t t;
    /* the loop's state (bench.cu) */
    const args_t *a;
    int flush, phase, i, k, batch, launched;
    char range[160];
    void **ev;      /* cudaEvent_t[2 x reps] */
    float *ms;      /* one per sample        */
} bench_t;

/* Starts timing the launches of the loop that follows (see the top of this file). */
void bench_start(bench_t *b, const char *label, const args_t *a, int flush);

/* Call before every launch: 1 means launch once more, 0 means done (b->t holds the timing).  It
 * checks the previous launch (CHECK_LAST) too. */
int bench_next(bench_t *b);

#ifdef __cplusplus
}
#endif
#endif
