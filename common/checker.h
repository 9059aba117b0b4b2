/* The exercise checkers: one pattern for every lesson's `make exercise`.  A checker's main reads
 *
 *     checker_start(&CK, argc, argv, &a, &g);        arguments, GPU, header
 *     ... the verification sweep: for each odd size, the student's kernel on guarded buffers
 *         (bench.h), then check_report(&t, ...): PASS, or FAIL with what differs or which guard
 *         was written (tcheck_sweep does both for a transpose)
 *     if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc;
 *                                                    FAILED -> exit 1; else the kernel runs again
 *                                                    under compute-sanitizer; --check stops here
 *     ... the timing table: the lesson's given kernels and the student's (bench.h, trow_measure)
 *     return checker_verdict(&CK, ratio);            the one verdict, and its exit code
 *
 * One verdict, the same in every lesson (its exit code in brackets):
 *   wrong                       [1, EXIT_VERIFY]  a FAILED line: what differs at which size, a write
 *                                                 outside a buffer, or a sanitizer's first report
 *   correct, short of the goal  [6, EXIT_SHORT]   "VERDICT: correct; ... 1.05x ... (goal 1.20x): short"
 *   correct, goal met           [0, EXIT_OK]
 * A kernel that faults (an illegal or misaligned address) ends the checker with `wrong` too.
 * (2, 3, 4, 5 keep their meaning: bad arguments, no GPU, a CUDA error, too little memory.)
 *
 * Guard zones (bench.h's guarded_alloc): every buffer the student's kernel reads or writes during
 * the sweep has a guard on each side, checked after every launch.  Under the sanitizer the buffers
 * are allocated without guards, so that memcheck sees every byte past their ends.
 *
 * The sanitizer.  After a sweep that passed, checker_verified runs the checker again under
 * compute-sanitizer (memcheck, and racecheck and synccheck for a kernel with shared memory or warp
 * shuffles), with COURSE_CHECKER_CHILD=1 in its environment: that run verifies the small sizes only
 * (--check --quick) and stops.  An error fails the exercise with the sanitizer's first report.
 * compute-sanitizer is found as COMPUTE_SANITIZER, on PATH or in /usr/local/cuda/bin; without it
 * the checker says so and goes on.  COURSE_CHECKER_SANITIZE=0 skips this run (make sanitize sets
 * it: there the checker already runs under a sanitizer, and one cannot run inside another). */
#ifndef CHECKER_H
#define CHECKER_H

#include <stddef.h>
#include "args.h"
#include "bench.h"
#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one exercise checker is. */
typedef struct {
    const char *lesson;      /* report_init's name, e.g. "05_transpose_naive_exercise"              */
    const char *title;       /* the header's title                                                */
    const char *summary;     /* the --help text                                                   */
    const char *size_help;   /* the --help line of --size                                         */
    const char *size_form;   /* "N" or "NXxNY": the one form of --size taken, or NULL for both      */
    const char *block_rule;  /* NULL: no --block; else the rule a --block must follow, quoted when
                                one breaks it: "a multiple of 32 threads, one row" (check_block)  */
    int (*check_block)(int bx, int by);   /* 1 when --block bx x by follows the rule (NULL: any)   */
    const char *kernel;      /* the student's kernel (or launch) as exercise.cu names it           */
    const char *goal;        /* what the ratio compares with: "NaiveRow with its best block shape" */
    double goal_ratio;       /* the goal: the student's kernel at >= goal_ratio x that             */
    const char *sanitizers;  /* compute-sanitizer's tools that run the student's kernel, by their
                                --tool names: "memcheck", "racecheck", "synccheck", e.g.
                                "memcheck synccheck" (they run in that order; NULL: none)          */
    /* --size as a transpose's matrix, checked after parsing and before the GPU is touched
     * (tmatrix_size_or_exit: exit 2 on a broken one), for a grid with a block per tile_rows rows (a
     * --block's height when one is given) and at most 65535 blocks down (gridDim.y).  0: not here. */
    int tile_rows;
} checker_t;

/* The start of a checker's main: args_configure, args_parse_or_exit (usage and exit 0 on --help, exit
 * 2 on an error), --block refused or checked, ck->tile_rows, report_init, gpu_init, the header.  In the sanitizer's
 * run (COURSE_CHECKER_CHILD=1) it sets a->check and a->quick: the sweep's small sizes, no timing. */
void checker_start(const checker_t *ck, int argc, char **argv, args_t *a, gpu_info_t *g);

/* ---- the verification sweep ---------------------------------------------------------------- */

/* The end of the sweep.  A failure: "FAILED: f of n checks failed; fix <kernel> in exercise.cu (no
 * timing until it passes)." on stderr, the verdict `wrong`, EXIT_VERIFY.  All passed: "OK: n of n
 * checks passed", then the sanitizer's run (see the top); an error there: its first report, the
 * verdict `wrong`, EXIT_VERIFY.  Then with --check (or in the sanitizer's run): EXIT_OK.  Otherwise
 * -1: go on and time.  Use:  if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc; */
int checker_verified(const checker_t *ck, const check_tally_t *t, const args_t *a);

/* ---- the timing and the verdict ------------------------------------------------------------ */

/* The copy ceiling of a table that has no matrix of its own (01 to 03): cudaMemcpy D2D of `bytes`
 * between the two halves of a scratch buffer (allocated here and freed again: call it before the
 * checker allocates its own buffers), flushed as gpu_flush_wanted says for 2 x bytes; set, with
 * g->peak_gbs, as the report's ceilings.  Returns its GB/s. */
double checker_ceiling(const gpu_info_t *g, const args_t *a, size_t bytes);

/* The last line and the exit code.  ratio: the student's kernel against ck->goal, measured (speed of
 * yours / speed of the goal's; NAN when the timing failed verification: `wrong`).  Prints
 * "VERDICT: correct; <kernel> runs at 1.23x <goal> (goal: 1.20x or more): goal met." (or "short of
 * the goal"), or under --csv the row "<lesson>,verdict,<kernel>,<met|short|wrong>,<ratio>,<goal>";
 * returns EXIT_OK, EXIT_SHORT or EXIT_VERIFY.  gpu_finish first. */
int checker_verdict(const checker_t *ck, double ratio);

#ifdef __cplusplus
}
#endif
#endif
