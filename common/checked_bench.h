/* Verify a kernel launch against a host reference on poisoned output, then time it -- the two steps
 * every table row of a lesson takes, in that order.  Used by the lessons whose kernels write one
 * float array (the copies and transposes of lessons 04-06). */
#ifndef CHECKED_BENCH_H
#define CHECKED_BENCH_H

#include <stddef.h>
#include "args.h"
#include "gpu.h"
#include "stats.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* malloc that explains itself: on failure says what for and how much, then exits 4. */
void *host_alloc(size_t bytes, const char *what);

/* cudaMallocHost for n floats (page-locked: copies from the GPU run several times faster than into
 * malloc'ed memory), with a clear message and exit 4 when it fails.  Free with cudaFreeHost. */
float *host_alloc_pinned_f32(size_t n, const char *what);

/* Poisons d_out (n floats, POISON_BYTE), runs launch(ctx) once, copies the n floats back into got
 * (host memory the caller owns) and compares them exactly with want (bit-for-bit first,
 * element by element with verify_f32 when the bits differ).  Fills *m and returns the
 * number of differing elements: an element the kernel forgot to write is a NaN and never matches. */
size_t verify_launch_f32(launch_fn_t launch, void *ctx, float *d_out, const float *want, float *got,
                         size_t n, mismatch_t *m);

/* verify_launch_f32, then, only if every element matched, bench_median_ms(label, ...).
 * Returns 1 and stores the timing in *t when the kernel verified; otherwise prints
 * "label: FAILED verification: <what differs>" on stderr and returns 0 (no timing is taken).
 * width > 0 names a mismatch by [row, col] of a matrix with that many columns. */
int verify_then_time(const char *label, launch_fn_t launch, void *ctx, float *d_out, const float *want,
                     float *got, size_t n, size_t width, const args_t *a, int flush, timing_t *t);

#ifdef __cplusplus
}
#endif
#endif
