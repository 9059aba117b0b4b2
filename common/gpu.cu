/* CUDA-side shared helpers (see gpu.h and cuda_check.h). */
#include "gpu.h"
#include "bench.h"
#include "cuda_check.h"
#include "report.h"
#include "rng.h"
#include "verify.h"
#include "tests/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *hint_rebuild =
    "rebuild for this GPU: `make clean && make` (ARCH defaults to -arch=native when a GPU is visible), "
    "or `make clean && make ARCH=sm_XY` with XY your GPU's compute capability";

/* In an exercise checker (checker_start): the student's kernel, whose fault is a wrong answer. */
static const char *faults_are_wrong = NULL;

void gpu_faults_are_wrong(const char *kernel) { faults_are_wrong = kernel; }

/* A fault inside a kernel: the context is lost, nothing more can run. */
static int kernel_fault(cudaError_t err)
{
    return err == cudaErrorIllegalAddress || err == cudaErrorMisalignedAddress || err == cudaErrorLaunchFailure ||
           err == cudaErrorIllegalInstruction || err == cudaErrorInvalidAddressSpace || err == cudaErrorInvalidPc ||
           err == cudaErrorHardwareStackError || err == cudaErrorAssert || err == cudaErrorLaunchTimeout;
}

void check_fail(int code, const char *cublas_name, const char *call, const char *file, int line)
{
    cudaError_t err = (cudaError_t)code;
    if (cublas_name) {
        fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d (%s)\n", file, line, call, code, cublas_name);
        exit(EXIT_CUDA);
    }
    fprintf(stderr, "%s:%d: %s failed: %s: %s\n", file, line, call, cudaGetErrorName(err),
            cudaGetErrorString(err));
    if (faults_are_wrong && kernel_fault(err)) {
        fflush(stderr);
        if (err == cudaErrorIllegalInstruction)   /* a __trap: one of the course's checks inside a kernel */
            printf("VERDICT: wrong: a kernel stopped itself (%s), most likely %s: a check of the course's helpers "
                   "failed, e.g. warp_sum_xor called by fewer than 32 lanes of a warp (a lane returned early)\n",
                   cudaGetErrorName(err), faults_are_wrong);
        else
            printf("VERDICT: wrong: a kernel faulted (%s: %s), most likely %s; compute-sanitizer names the access: "
                   "COURSE_CHECKER_CHILD=1 compute-sanitizer ./student --check --quick\n",
                   cudaGetErrorName(err), cudaGetErrorString(err), faults_are_wrong);
        exit(EXIT_VERIFY);
    }
    if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction ||
        err == cudaErrorUnsupportedPtxVersion) {
        fprintf(stderr, "This binary has no code this GPU can run: %s.\n", hint_rebuild);
        exit(EXIT_NO_GPU);
    }
    if (err == cudaErrorMemoryAllocation) {
        size_t fr = 0, total = 0;
        if (cudaMemGetInfo(&fr, &total) == cudaSuccess)
            fprintf(stderr, "GPU memory: %.1f MiB free of %.1f MiB. Try a smaller --size.\n",
                    fr / 1048576.0, total / 1048576.0);
        exit(EXIT_NO_MEMORY);
    }
    exit(EXIT_CUDA);
}

static void no_gpu(const char *what, const char *fix)
{
    fprintf(stderr, "No usable GPU: %s.\n%s\n", what, fix);
    exit(EXIT_NO_GPU);
}

__global__ void probe_kernel(int *out)
{
    if (out) *out = 1;
}

static cudaStream_t stream = NULL;
/* The GPU's theoretical DRAM bandwidth (gpu_init), the report's second ceiling (gpu_d2d_gbs). */
static double peak_gbs = 0.0;

cudaStream_t gpu_stream(void) { return stream; }

void gpu_init(gpu_info_t *g)
{
    int n = 0, v = 0;
    cudaError_t e;
    char msg[400];
    cudaDeviceProp p;

    if (args_dry_run()) {
        printf("dry run: arguments accepted; nothing was run.\n");
        exit(EXIT_OK);
    }
    cudaDriverGetVersion(&g->driver_version);
    cudaRuntimeGetVersion(&g->runtime_version);
    e = cudaGetDeviceCount(&n);
    if (g->driver_version == 0)
        no_gpu("no NVIDIA driver is installed on this machine (libcuda.so was not found)",
               "These lessons need an NVIDIA GPU and its driver. Without one, `make` and "
               "`make test` still build everything and run the host-side tests.");
    if (e == cudaErrorInsufficientDriver) {
        snprintf(msg, sizeof msg,
                 "the NVIDIA driver supports CUDA %d.%d, older than the CUDA %d.%d this program was built with",
                 g->driver_version / 1000, (g->driver_version % 1000) / 10,
                 g->runtime_version / 1000, (g->runtime_version % 1000) / 10);
        no_gpu(msg, "Update the driver (nvidia-smi shows its version) or build with a CUDA toolkit "
                    "no newer than the driver supports.");
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0))
        no_gpu("the driver is installed but sees no CUDA GPU",
               "Check `nvidia-smi`, and that CUDA_VISIBLE_DEVICES (if set) names a GPU that exists.");
    if (e != cudaSuccess) {
        snprintf(msg, sizeof msg, "cudaGetDeviceCount failed with %s (%s)", cudaGetErrorName(e),
                 cudaGetErrorString(e));
        no_gpu(msg, "Check `nvidia-smi`; if it also fails, the driver or the GPU needs attention.");
    }

    g->device = 0;  /* the first visible GPU: choose another with CUDA_VISIBLE_DEVICES */
    CHECK(cudaSetDevice(g->device));
    CHECK(cudaGetDeviceProperties(&p, g->device));
    snprintf(g->name, sizeof g->name, "%s", p.name);
    g->total_mem = p.totalGlobalMem;
    CHECK(cudaDeviceGetAttribute(&g->cc_major, cudaDevAttrComputeCapabilityMajor, g->device));
    CHECK(cudaDeviceGetAttribute(&g->cc_minor, cudaDevAttrComputeCapabilityMinor, g->device));
    CHECK(cudaDeviceGetAttribute(&g->sms, cudaDevAttrMultiProcessorCount, g->device));
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, g->device));
    g->l2_bytes = (size_t)v;
    CHECK(cudaDeviceGetAttribute(&g->mem_clock_khz, cudaDevAttrMemoryClockRate, g->device));
    CHECK(cudaDeviceGetAttribute(&g->bus_bits, cudaDevAttrGlobalMemoryBusWidth, g->device));
    g->peak_gbs = stats_peak_gbs(g->mem_clock_khz, g->bus_bits);
    peak_gbs = g->peak_gbs;

    if (g->cc_major < 7) {
        snprintf(msg, sizeof msg, "%s has compute capability %d.%d", g->name, g->cc_major, g->cc_minor);
        no_gpu(msg, "The lessons need compute capability 7.0 (Volta) or newer.");
    }
    /* A kernel built for other GPUs fails at its first launch: find out now, with a clear fix. */
    probe_kernel<<<1, 1>>>(NULL);
    CHECK_LAST();
    CHECK(cudaDeviceSynchronize());
    /* A blocking stream: it waits for the default stream and the default stream for it, so the
     * helpers' cudaMemset/cudaMemcpy order with every launch. */
    CHECK(cudaStreamCreate(&stream));
}

void gpu_print_header(const gpu_info_t *g, const char *title, const args_t *a)
{
    report_say("%s\n", title);
    report_say("GPU 0: %s, sm_%d%d, %d SMs, L2 %.1f MiB, %.1f GiB\n", g->name, g->cc_major, g->cc_minor,
               g->sms, g->l2_bytes / 1048576.0, g->total_mem / 1073741824.0);
    report_say("Theoretical peak: 2 x %d MHz x %d-bit bus / 8 = %.0f GB/s (1 GB = 1e9 B)\n",
               g->mem_clock_khz / 1000, g->bus_bits, g->peak_gbs);
    report_say("CUDA runtime %d.%d, driver %d.%d\n", g->runtime_version / 1000, (g->runtime_version % 1000) / 10,
               g->driver_version / 1000, (g->driver_version % 1000) / 10);
    report_say("Timing: CUDA events, median (min - max) of %d runs after %d warm-ups; L2 flushed before each run: %s;\n"
               "  without a flush a run is a batch of back-to-back launches (about 1 ms) and counts per launch\n",
               a->reps, a->warmup,
               a->flush == FLUSH_ON ? "always" : a->flush == FLUSH_OFF ? "never" : "when the data touched is < 4x L2");
}

size_t gpu_free_bytes(void)
{
    size_t fr = 0, total = 0;
    CHECK(cudaMemGetInfo(&fr, &total));
    return fr;
}

void gpu_require_bytes(size_t bytes, const char *what)
{
    size_t fr = 0, total = 0;
    /* what the helpers allocate besides: the L2 flush buffer (at most 2 x L2, 32 MiB at least)
     * and some slack for the CUDA context's own allocations */
    size_t extra = (size_t)512 << 20;
    CHECK(cudaMemGetInfo(&fr, &total));
    if (bytes + extra > fr) {
        fprintf(stderr, "Not enough GPU memory: %s needs %.2f GiB (plus about %.1f GiB for the helpers), "
                        "%.2f GiB of %.2f GiB are free.\n"
                        "Try a smaller --size, or free the GPU (nvidia-smi lists who uses it).\n",
                what, bytes / 1073741824.0, extra / 1073741824.0, fr / 1073741824.0, total / 1073741824.0);
        exit(EXIT_NO_MEMORY);
    }
}

void *gpu_alloc(size_t bytes, const char *what)
{
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation) {
        size_t fr = 0, total = 0;
        cudaGetLastError();  /* clear it so cudaMemGetInfo answers */
        cudaMemGetInfo(&fr, &total);
        fprintf(stderr, "Out of GPU memory allocating %s: asked for %.1f MiB, %.1f MiB free of %.1f MiB.\n"
                        "Try a smaller --size, or free the GPU (nvidia-smi lists who uses it).\n",
                what, bytes / 1048576.0, fr / 1048576.0, total / 1048576.0);
        exit(EXIT_NO_MEMORY);
    }
    CHECK(e);
    return p;
}

void *host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "Out of host memory allocating %s (%.1f MiB). Try a smaller --size.\n", what,
                bytes / 1048576.0);
        exit(EXIT_NO_MEMORY);
    }
    return p;
}

void *host_alloc_pinned(size_t bytes, const char *what)
{
    void *p = NULL;
    cudaError_t e = cudaMallocHost(&p, bytes ? bytes : 1);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        fprintf(stderr, "Out of pinned host memory allocating %s (%.1f MiB). Try a smaller --size.\n", what,
                bytes / 1048576.0);
        exit(EXIT_NO_MEMORY);
    }
    CHECK(e);
    return p;
}

void gpu_poison(void *p, size_t bytes)
{
    CHECK(cudaMemset(p, POISON_BYTE, bytes));
}

__global__ void fill_random_kernel(float *d, size_t n, uint64_t seed)
{
    size_t i;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        d[i] = rng_float(seed, i);
}

void gpu_fill_random_f32(float *d, size_t n, uint64_t seed)
{
    if (n == 0) return;
    fill_random_kernel<<<1024, 256, 0, stream>>>(d, n, seed);
    CHECK_LAST();
}

/* ---- L2 flush ---------------------------------------------------------------------------- */

/* Reading (not writing) a buffer twice the L2 size pushes everything else out of the L2 and
 * leaves only clean lines behind, so the timed kernel pays no write-back of the flush. */
static float *flush_buf = NULL, *flush_sink = NULL;
static size_t flush_n4 = 0;

__global__ void l2_flush_kernel(const float4 *buf, size_t n4, float *sink)
{
    float acc = 0.0f;
    size_t i;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = buf[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 1.0f) *sink = acc;  /* never true (buffer is zero); keeps the loads alive */
}

void gpu_l2_flush(void)
{
    if (!flush_buf) {
        int l2 = 0, dev = 0;
        size_t bytes;
        CHECK(cudaGetDevice(&dev));
        CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        bytes = 2 * (size_t)l2 > ((size_t)32 << 20) ? 2 * (size_t)l2 : ((size_t)32 << 20);
        flush_buf = (float *)gpu_alloc(bytes, "the L2 flush buffer");
        flush_sink = (float *)gpu_alloc(sizeof(float), "the L2 flush sink");
        CHECK(cudaMemset(flush_buf, 0, bytes));
        flush_n4 = bytes / sizeof(float4);
    }
    l2_flush_kernel<<<1024, 256, 0, stream>>>((const float4 *)flush_buf, flush_n4, flush_sink);
    CHECK_LAST();
}

int gpu_flush_wanted(const gpu_info_t *g, const args_t *a, size_t ws_bytes)
{
    return stats_should_flush(a->flush, ws_bytes, g->l2_bytes);
}

/* ---- the copy ceiling -------------------------------------------------------------------- */

int gpu_blocks_per_sm(const void *kernel, int threads)
{
    int n = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, 0));
    return n;
}

size_t gpu_l2_fetch(int bytes)
{
    size_t gran = 0;
    if (bytes) CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, (size_t)bytes));
    CHECK(cudaDeviceGetLimit(&gran, cudaLimitMaxL2FetchGranularity));
    return gran;
}

double gpu_d2d_gbs(void *dst, const void *src, size_t bytes, const args_t *a, int flush, timing_t *t)
{
    bench_t b;
    double gbs;
    for (bench_start(&b, "cudaMemcpy D2D", a, flush); bench_next(&b);)
        CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
    if (t) *t = b.t;
    gbs = stats_gbs(2.0 * (double)bytes, b.t.median_ms);
    report_set_ceilings(gbs, peak_gbs);
    return gbs;
}

void gpu_finish(void)
{
    CHECK(cudaDeviceSynchronize());
    bench_free_scratch();
    if (flush_buf) CHECK(cudaFree(flush_buf));
    if (flush_sink) CHECK(cudaFree(flush_sink));
    flush_buf = flush_sink = NULL;
    if (stream) CHECK(cudaStreamDestroy(stream));
    stream = NULL;
}

void gpu_start(gpu_info_t *g, const char *lesson, const char *title, const args_t *a)
{
    report_init(lesson, a->csv);
    gpu_init(g);
    gpu_print_header(g, title, a);
}

int gpu_finish_status(int failed)
{
    gpu_finish();
    if (failed) {
        fprintf(stderr, "A kernel FAILED verification: its figures were not reported.\n");
        return EXIT_VERIFY;
    }
    return EXIT_OK;
}
