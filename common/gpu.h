/* The CUDA side of the shared helpers: device discovery and report, allocation, poisoning and
 * random fill, the L2 flush, event timing, and the cudaMemcpy ceiling. */
#ifndef GPU_H
#define GPU_H

#include <stddef.h>
#include <stdint.h>
#include "args.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int device;
    char name[256];
    int cc_major, cc_minor, sms;
    size_t l2_bytes, total_mem;
    int mem_clock_khz, bus_bits;   /* read with cudaDeviceGetAttribute (the cudaDeviceProp
                                      clock fields are gone in CUDA 13)                    */
    double peak_gbs;               /* 2 x clock x bus width / 8                             */
    int runtime_version, driver_version;
} gpu_info_t;

/* Finds the GPU and checks it can run this binary; exits 3 with a reason and a fix when there
 * is no driver, no GPU, a driver older than the toolkit, or no code for this GPU. */
void gpu_init(gpu_info_t *g);

/* The lesson's header: title, GPU, peak arithmetic, CUDA versions, timing method. */
void gpu_print_header(const gpu_info_t *g, const char *title, const args_t *a);

/* cudaMalloc that explains itself: on failure says what for, how much was asked and how much
 * is free, then exits 4. */
void *gpu_alloc(size_t bytes, const char *what);
/* Bytes free on the device now. */
size_t gpu_free_bytes(void);

/* Fills outputs with POISON_BYTE (NaN) so unwritten elements fail verification. */
void gpu_poison(void *p, size_t bytes);

/* d[i] = rng_float(seed, i) for i < n, computed on the GPU (see rng.h). */
void gpu_fill_random_f32(float *d, size_t n, uint64_t seed);

/* Should timed launches of a kernel touching ws_bytes be preceded by an L2 flush? */
int gpu_flush_wanted(const gpu_info_t *g, const args_t *a, size_t ws_bytes);

/* Times launch(ctx) with CUDA events: a->warmup untimed launches, then a->reps timed ones, each
 * preceded by an L2 flush when flush is set.  Every timed launch sits in an NVTX range named
 * "L:<label>" so `make profile` can name the kernel by its table row. */
typedef void (*launch_fn_t)(void *ctx);
timing_t bench_median_ms(const char *label, launch_fn_t launch, void *ctx, const args_t *a, int flush);

/* The copy ceiling: cudaMemcpy device-to-device of `bytes` from src to dst, timed like a kernel;
 * returns GB/s counting bytes read plus bytes written (2 x bytes), and the timing in *t if t is
 * not NULL (so the lesson can show it as a table row). */
double gpu_d2d_gbs(void *dst, const void *src, size_t bytes, const args_t *a, int flush, timing_t *t);

/* Synchronises, reports any pending error, frees the helpers' own buffers. */
void gpu_finish(void);

#ifdef __cplusplus
}
#endif
#endif
