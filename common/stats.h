/* Arithmetic the lessons report: summaries of repeated timings, bandwidth, theoretical peak.
 * Plain C99, unit-tested on the CPU. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double median_ms, min_ms, max_ms;   /* per launch                                        */
    int n;                              /* timed samples                                     */
    int batch;                          /* launches per sample: each sample is one event pair
                                           around `batch` back-to-back launches, divided by it */
} timing_t;

/* GB/s with 1 GB = 1e9 bytes: the bytes the algorithm must move over the time it took. */
double stats_gbs(double bytes, double ms);

/* 1 when two timings' min-max ranges do not overlap: then their difference is more than this run's
 * run-to-run spread; 0 when they overlap (a tie, as far as the run can tell). */
int stats_ranges_apart(const timing_t *x, const timing_t *y);

/* The labels of the timings tied with t[best] (min-max ranges not apart), ", "-separated, into buf
 * ("" if none); best itself and rows with ok[k] == 0 (failed, not timed) are left out.  Returns how
 * many.  A take-away names them beside "the fastest", which it does not beat beyond the run's spread. */
int stats_tied_labels(char *buf, size_t len, const timing_t *t, const int *ok, const char *const *labels, int n,
                      int best);

/* A default working set that cannot live in the L2: the smallest power of two >= 8 x L2 and
 * >= min_bytes. */
size_t stats_default_ws(size_t l2_bytes, size_t min_bytes);

#ifdef __cplusplus
}
#endif
#endif
