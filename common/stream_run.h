/* The runner of the memory-stream lessons (01 to 03) and their exercise checkers, beside bench.h's
 * verify-then-time path:
 *   - the check of a kernel that adds 1 in place to part of a buffer (lesson 03's offset and stride
 *     kernels, its exercise): the buffer is refilled, the kernel runs once, and EVERY value of the
 *     buffer is compared on the GPU with what it must hold -- a buffer of several GiB is checked in
 *     milliseconds, where reading it back to the host would take seconds;
 *   - what the exercise checkers of 01 to 03 share: their start (arguments, report, GPU, header),
 *     the copy ceiling of their table, and the verdict of their verification sweep.
 * The expectation (incr_touched, incr_expected) is plain C as well as device code, so the host unit
 * tests check the very rule the GPU applies. */
#ifndef STREAM_RUN_H
#define STREAM_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "args.h"
#include "bench.h"
#include "gpu.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- in-place increments, every value checked ------------------------------------------------ */

/* A device buffer of `elems` elements -- `comps` floats each (1: float, 4: float4), or with f64 one
 * double -- holds rng_float(seed, v) at value v = element * comps + component before the launch
 * (check_increment fills it).  The kernel must add 1 to every value of the elements
 * first + k * step, k < count, and leave every other value as it was. */
typedef struct {
    void *buf;
    size_t elems;
    int comps, f64;
    size_t first, step, count;
    uint64_t seed;
} incr_check_t;

/* Is element j one the kernel adds 1 to? */
static inline RNG_HD int incr_touched(size_t j, size_t first, size_t step, size_t count)
{
    size_t d = j - first;
    return j >= first && d % step == 0 && d / step < count;
}

/* The value v (a float, or a double with f64) must hold after the launch.  rng_float's values lie on
 * a grid of 2^-23 in [-1, 1), so value + 1 is exact in float: the comparison is equality. */
static inline RNG_HD double incr_expected(incr_check_t ic, size_t v)
{
    size_t j = ic.f64 ? v : v / (size_t)ic.comps;
    return (double)rng_float(ic.seed, (uint64_t)v) + (incr_touched(j, ic.first, ic.step, ic.count) ? 1.0 : 0.0);
}

/* The check (bench.h) of such a kernel: run() fills the buffer, launches once, and compares all
 * elems x comps values on the GPU; a mismatch names the element (m->first) and its first differing
 * value.  n (verify_describe's "of n") is elems.  *ic must outlive the check. */
check_t check_increment(const incr_check_t *ic);

/* d[j] = rng_float(seed, j) as a double for j < n: gpu_fill_random_f32's double twin. */
void gpu_fill_random_f64(double *d, size_t n, uint64_t seed);

/* ---- an exercise checker: its start, its ceiling, the verdict of its sweep ---------------------- */

/* What one exercise checker is. */
typedef struct {
    const char *lesson;      /* report_init's name, e.g. "01_dram_burst_exercise" */
    const char *title;       /* the header's title */
    const char *summary;     /* the --help text */
    const char *size_help;   /* the --help line of --size */
    int size_forms;          /* ARGS_SIZE_N or ARGS_SIZE_NXNY (args_size_forms) */
    int whole_warps;         /* 1: --block must also be a multiple of 32 threads */
    const char *block_why;   /* the reason a --block of more than one row (or, with whole_warps, not a
                                multiple of 32) is refused: "bad --block 'W': <block_why>" */
} exercise_t;

/* The start of an exercise checker's main: args_size_forms, args_parse_or_exit (usage and exit 0 on
 * --help, exit 2 on an error), a wrong --block refused with args_reject (exit 2, quoting it as
 * typed), report_init, gpu_init, the header. */
void exercise_start(const exercise_t *ex, int argc, char **argv, args_t *a, gpu_info_t *g);


/* The copy ceiling of an exercise's table: cudaMemcpy D2D of `bytes` between the two halves of a
 * scratch buffer (allocated and zeroed here, freed again: call it before the exercise allocates its
 * own buffers), flushed as gpu_flush_wanted says for 2 x bytes; set, with g->peak_gbs, as the
 * report's ceilings.  Returns its GB/s. */
double exercise_ceiling(const gpu_info_t *g, const args_t *a, size_t bytes);

/* The end of an exercise checker's verification sweep (t: its check_line tally).  A failure:
 * "FAILED: f of n checks failed; fix <kernel> in exercise.cu (no timing until it passes)." on stderr,
 * gpu_finish, EXIT_VERIFY.  All passed: "OK: n of n checks passed" (report_say), then with check_only
 * (--check) gpu_finish and EXIT_OK; otherwise -1: go on and time.  Use:
 *     if ((rc = exercise_verdict(&tally, "mass_sums_soa", a.check)) >= 0) return rc; */
int exercise_verdict(const check_tally_t *t, const char *kernel, int check_only);

#ifdef __cplusplus
}
#endif
#endif
