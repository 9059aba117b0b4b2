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

/* Median (mean of the two middle values for an even count), min and max of n >= 1 samples
 * (batch is set to 1).  The input array is not modified. */
timing_t stats_summary(const float *ms, int n);

/* GB/s with 1 GB = 1e9 bytes: the bytes the algorithm must move over the time it took. */
double stats_gbs(double bytes, double ms);

/* Theoretical DRAM bandwidth in GB/s: double data rate (2 transfers per clock) x clock x bus width.
 * mem_clock_khz and bus_bits as cudaDevAttrMemoryClockRate / cudaDevAttrGlobalMemoryBusWidth give them. */
double stats_peak_gbs(int mem_clock_khz, int bus_bits);

/* Flush the L2 before each timed launch?  Forced on/off by the user, otherwise only when the data
 * touched is smaller than 4x the L2, where a warm cache would serve part of it. */
int stats_should_flush(int flush_flag, size_t working_set_bytes, size_t l2_bytes);

/* A default working set that cannot live in the L2: the smallest power of two >= 8 x L2 and
 * >= min_bytes. */
size_t stats_default_ws(size_t l2_bytes, size_t min_bytes);

#ifdef __cplusplus
}
#endif
#endif
