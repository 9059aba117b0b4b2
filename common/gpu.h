/* The CUDA side of the shared helpers: device discovery and report, the stream every launch goes
 * to, allocation (with the memory a run needs checked up front), poisoning and random fill, the L2
 * flush, the cudaMemcpy ceiling, and the end of a run.  Timing is bench.h's. */
#ifndef GPU_H
#define GPU_H

#include <stddef.h>
#include <stdint.h>
#include "args.h"
#include "stats.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif

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

/* The start of every lesson program, after its arguments: the report (`lesson` names the CSV rows;
 * --csv), then the GPU, found and checked (exits 3 with a reason and a fix when there is no driver,
 * no GPU, a driver older than the toolkit, or no code for this GPU; with --dry-run it says so and
 * exits 0 instead: this is the program's first CUDA call), then the lesson's header (title, GPU,
 * peak arithmetic, CUDA versions, timing method) into *g. */
void gpu_start(gpu_info_t *g, const char *lesson, const char *title, const args_t *a);

#ifdef __CUDACC__
/* The stream every launch of the course goes to (created by gpu_start; it synchronises with the
 * default stream, so cudaMemcpy and cudaMemset order with it).  CUDA code only: the host-only C
 * files have no cudaStream_t. */
cudaStream_t gpu_stream(void);
#endif

/* Before any experiment: exits 5 (EXIT_NO_MEMORY) with what is needed, what is free and what to
 * do when `bytes` of GPU memory (everything the run allocates, helpers' buffers included) are not
 * free. */
void gpu_require_bytes(size_t bytes, const char *what);

/* cudaMalloc that explains itself: on failure says what for, how much was asked and how much
 * is free, then exits 5. */
void *gpu_alloc(size_t bytes, const char *what);
/* Bytes free on the device now. */
size_t gpu_free_bytes(void);

/* malloc that explains itself: on failure says what for and how much, then exits 5.  Free with free. */
void *host_alloc(size_t bytes, const char *what);

/* Fills outputs with POISON_BYTE (NaN) so unwritten elements fail verification. */
void gpu_poison(void *p, size_t bytes);

/* d[i] = rng_float(seed, i) for i < n, computed on the GPU (see rng.h). */
void gpu_fill_random_f32(float *d, size_t n, uint64_t seed);

/* Should timed launches of a kernel touching ws_bytes be preceded by an L2 flush? */
int gpu_flush_wanted(const gpu_info_t *g, const args_t *a, size_t ws_bytes);

/* The copy ceiling: cudaMemcpy device-to-device of `bytes` from src to dst, timed like a kernel;
 * returns GB/s counting bytes read plus bytes written (2 x bytes), and the timing in *t if t is
 * not NULL (so the lesson can show it as a table row).  It is also the ceiling every later row is
 * compared with (% of the copy, next to % of the theoretical peak): the report's (--csv: two rows). */
double gpu_d2d_gbs(void *dst, const void *src, size_t bytes, const args_t *a, int flush, timing_t *t);

/* Blocks of `threads` threads one SM holds for `kernel` (no dynamic shared memory), as the occupancy
 * API counts them from its registers, shared memory and block size: what sets the bytes an SM keeps
 * in flight, and whether two kernels with the same block compare like for like. */
int gpu_blocks_per_sm(const void *kernel, int threads);

/* The L2's fetch granularity, cudaLimitMaxL2FetchGranularity: how many bytes the L2 may ask DRAM for
 * on a miss (a hint to the driver, 64 by default on the H100).  bytes != 0 sets it for this
 * context until the program ends (--l2-fetch, checked by args_check_l2_fetch); then, set or not,
 * returns the granularity in force, which a lesson prints beside the rows it shaped. */
size_t gpu_l2_fetch(int bytes);

/* The end of main: synchronises, reports any pending error, frees the helpers' own buffers, then, when failed, "A kernel FAILED verification: its figures were
 * not reported." on stderr.  Returns the exit code: EXIT_OK, or EXIT_VERIFY when failed. */
int gpu_finish_status(int failed);

#ifdef __cplusplus
}
#endif
#endif
