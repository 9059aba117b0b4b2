/* Checker for the lesson 01 exercise (the pattern of common/checker.h): verifies mass_sums_soa
 * (exercise.cu, or solution.cu for the reference) at odd sizes against the CPU, on buffers with
 * guard zones; runs it once more under compute-sanitizer (memcheck, and synccheck: the kernel
 * shuffles across its warp); then times it against the array-of-structures version and gives the
 * verdict. */
#include "args.h"
#include "bench.h"
#include "checker.h"
#include "cuda_check.h"
#include "exercise.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"
#include "warp.cuh"
#include "warp_sums.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The goal comes from the reference solution's run on the H100 (results/NVIDIA_H100_80GB_HBM3/
 * answers/01_dram_burst.txt): AoS 0.3491 ms, SoA 0.0966 ms, 3.61x.  Half of that, 2x, leaves a wide
 * margin, also for GPUs whose DRAM moves AoS's eight times more bytes relatively faster (an H200:
 * about 1.4x the H100's bandwidth, the SoA kernel's loads in flight about the same), while a kernel
 * that still drags a sector per mass, or keeps far fewer loads in flight, falls short. */
static int whole_warps(int bx, int by) { return by == 1 && bx % 32 == 0; }

static const checker_t CK = {
    "01_dram_burst_exercise", "Lesson 01 exercise - read only the bytes you use",
    "Lesson 01 exercise: verifies your mass_sums_soa (exercise.cu), then times it against the\n"
    "array-of-structures version and gives the verdict (goal: twice its speed).",
    "particles (default 32M; 4M with --quick)", "N",
    "one-dimensional blocks of a multiple of 32 threads only", whole_warps,
    "mass_sums_soa", "the given AoS kernel", 2.0, "memcheck synccheck", 0};

/* The given AoS kernel: lane i reads the mass field of particle i, 32 bytes after lane i-1's. */
__global__ void mass_sums_aos(float *warp_sums, const particle_t *p, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    float v = (i < n) ? p[i].mass : 0.0f;
    v = warp_sum_xor(v);
    if ((threadIdx.x & 31) == 0 && i < n) warp_sums[i / 32] = v;
}

/* The particles' floats are rng_float(seed, 8 i + field); the SoA mass array holds field 6. */
#define MASS_FIELD 6
__global__ void fill_mass_soa(float *mass, size_t n, uint64_t seed)
{
    size_t i;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        mass[i] = rng_float(seed, 8 * i + MASS_FIELD);
}

enum { AOS, SOA };
static const char *const LABEL[2] = {"mass_sums_aos (given)", "mass_sums_soa (yours)"};

/* n particles on the GPU, both ways, each buffer with guard zones (bench.h), and on the host the
 * sums both kernels must write: the CPU's sums of the masses in the GPU's order (warp_sums.h),
 * compared exactly. */
typedef struct {
    size_t n, nw;
    guarded_t g_aos, g_soa, g_sums;
    particle_t *aos;
    float *soa, *sums, *want;
} bufs_t;

static void bufs_init(bufs_t *b, size_t n, uint64_t seed)
{
    size_t i;
    float *mass = (float *)host_alloc(n * sizeof(float), "the masses");
    b->n = n;
    b->nw = (n + 31) / 32;
    b->aos = (particle_t *)guarded_alloc(&b->g_aos, n * sizeof(particle_t), "p");
    b->soa = (float *)guarded_alloc(&b->g_soa, n * sizeof(float), "mass");
    b->sums = (float *)guarded_alloc(&b->g_sums, b->nw * sizeof(float), "warp_sums");
    gpu_fill_random_f32((float *)b->aos, 8 * n, seed);
    fill_mass_soa<<<1024, 256, 0, gpu_stream()>>>(b->soa, n, seed);
    CHECK_LAST();
    b->want = (float *)host_alloc(b->nw * sizeof(float), "the expected sums");
    for (i = 0; i < n; i++) mass[i] = rng_float(seed, 8 * i + MASS_FIELD);
    cpu_warp_sums_f32(mass, n, b->want);
    free(mass);
}

static void bufs_free(bufs_t *b)
{
    guarded_free(&b->g_aos);
    guarded_free(&b->g_soa);
    guarded_free(&b->g_sums);
    free(b->want);
}

/* GPU memory bufs_init takes for n particles, guards included (a guard is at most a quarter of its
 * buffer plus 2 MiB, and at most 64 MiB: bench.h). */
static size_t guarded_need(size_t bytes)
{
    size_t guard = bytes / 4 < ((size_t)64 << 20) ? bytes / 4 + ((size_t)2 << 20) : ((size_t)64 << 20);
    return bytes + 2 * guard;
}
static size_t bufs_bytes(size_t n)
{
    return guarded_need(n * sizeof(particle_t)) + guarded_need(n * sizeof(float)) +
           guarded_need((n + 31) / 32 * sizeof(float));
}

/* One thread per particle: div_up(n, block) blocks. */
static void launch(const bufs_t *b, int which, dim3 block, cudaStream_t s)
{
    if (which == AOS) mass_sums_aos<<<div_up(b->n, block.x), block, 0, s>>>(b->sums, b->aos, b->n);
    else mass_sums_soa<<<div_up(b->n, block.x), block, 0, s>>>(b->sums, b->soa, b->n);
}

/* Poisoned sums (a sum the kernel forgets stays NaN), one launch, every sum compared with the CPU's. */
static size_t verify(const bufs_t *b, int which, dim3 block, mismatch_t *m)
{
    gpu_poison(b->sums, b->nw * sizeof(float));
    launch(b, which, block, gpu_stream());
    CHECK_LAST();
    return gpu_compare_f32(b->sums, b->want, b->nw, m);
}

/* A row of the timing table: verified (the sums, then the guards of the kernel's two buffers), then
 * timed and printed.  Returns 1 and *t; 0, with report_failed's line and row, when it fails. */
static int sums_measure(const bufs_t *b, int which, dim3 block, const args_t *a, int flush, double bytes,
                        timing_t *t)
{
    const guarded_t *in = which == AOS ? &b->g_aos : &b->g_soa;
    mismatch_t m;
    bench_t bt;
    verify(b, which, block, &m);
    {
        const guarded_t bufs[2] = {*in, b->g_sums};
        if (row_failed(LABEL[which], &m, b->nw, 0, bufs, 2)) return 0;
    }
    for (bench_start(&bt, LABEL[which], a, flush); bench_next(&bt);) launch(b, which, block, gpu_stream());
    *t = bt.t;
    report_row(LABEL[which], t, bytes, NAN);
    return 1;
}

/* The table's take-away.  AoS makes DRAM move every 32-byte particle, SoA only the 4-byte masses:
 * the bytes alone predict a speed-up of bytes_ratio (8).  The measured speed-up is that ratio times
 * the pace ratio (the GB/s of the bytes each kernel really moves), t_aos / t_soa = (B_aos / B_soa) x
 * (R_soa / R_aos), so comparing the two paces says whether the time followed the bytes or something
 * else set it. */
static void takeaway(char *take, size_t len, size_t n, const timing_t *t_aos, const timing_t *t_soa, double d2d)
{
    double sums = (double)((n + 31) / 32) * sizeof(float);
    double aos_bytes = (double)n * sizeof(particle_t) + sums, soa_bytes = (double)n * sizeof(float) + sums;
    double bytes_ratio = aos_bytes / soa_bytes, speedup = t_aos->median_ms / t_soa->median_ms;
    double aos_pace = stats_gbs(aos_bytes, t_aos->median_ms);
    double soa_pace = stats_gbs(soa_bytes, t_soa->median_ms);   /* SoA moves exactly the useful bytes */
    double pace_ratio = soa_pace / aos_pace;
    const char *verdict;
    if (pace_ratio >= 0.9 && pace_ratio <= 1.1)
        verdict = "the two kernels moved their bytes at about the same pace, so the time followed the bytes: "
                  "the speed-up is close to the bytes ratio";
    else if (pace_ratio < 0.9 && speedup > 1.0)
        verdict = "your kernel moves its bytes at a slower pace than AoS, so the speed-up falls short of the "
                  "bytes ratio: the fewer bytes are not what limits it now (bytes in flight per thread: "
                  "lessons 04 and 06)";
    else if (pace_ratio < 0.9)
        verdict = "your kernel is not faster than AoS although it reads an eighth of the bytes: look at how "
                  "it reads mass[] (consecutive threads on consecutive floats?)";
    else
        verdict = "your kernel moves its bytes at a faster pace than AoS, so the speed-up exceeds the bytes "
                  "ratio: AoS was slower than its bytes";
    snprintf(take, len,
             "SoA runs at %.2fx the speed of AoS; the bytes alone predict %.1fx (%zu B per particle against %zu). "
             "Pace of the bytes each moves: AoS %.0f GB/s (%.0f%% of the copy), SoA %.0f GB/s (%.0f%%), "
             "ratio %.2f, and %.1f x %.2f = %.2fx: %s.",
             speedup, bytes_ratio, sizeof(particle_t), sizeof(float), aos_pace, 100.0 * aos_pace / d2d, soa_pace,
             100.0 * soa_pace / d2d, pace_ratio, bytes_ratio, pace_ratio, bytes_ratio * pace_ratio, verdict);
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 100003};
    static const int blocks[] = {32, 256, 1024};
    args_t a;
    gpu_info_t g;
    bufs_t b;
    check_tally_t t = {0, 0, stdout};
    char size[64], take[480];
    int bi, k, rc, ok;
    size_t si, n;
    timing_t t_aos, t_soa;
    double d2d, useful, ratio = NAN;

    checker_start(&CK, argc, argv, &a, &g);
    t.out = a.csv ? NULL : stdout;
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)4 << 20) : ((size_t)32 << 20));
    if (!a.check) gpu_require_bytes(bufs_bytes(n), "the particles, the masses and the sums");

    /* Correct first: both kernels at odd sizes and three block sizes, every buffer guarded. */
    report_say("\nVerification (sums compared exactly with the CPU; guard zones around every buffer):\n");
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        bufs_init(&b, sizes[si], a.seed);
        for (bi = 0; bi < 3; bi++) {
            dim3 block(a.bx ? a.bx : blocks[bi]);
            snprintf(size, sizeof size, "n=%zu block=%u", b.n, block.x);
            for (k = AOS; k <= SOA; k++) {
                const guarded_t bufs[2] = {k == AOS ? b.g_aos : b.g_soa, b.g_sums};
                mismatch_t m;
                verify(&b, k, block, &m);
                check_report(&t, LABEL[k], size, &m, b.nw, 0, bufs, 2);
            }
            if (a.bx) break;
        }
        bufs_free(&b);
    }
    if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc;

    /* The timing: the copy ceiling (the AoS buffer's bytes copied half onto half, before the
     * buffers exist), then both kernels at the timed size, each verified first. */
    d2d = checker_ceiling(&g, &a, n * sizeof(particle_t) / 2);
    bufs_init(&b, n, a.seed);
    useful = (double)n * sizeof(float) + (double)b.nw * sizeof(float);
    {
        dim3 block(a.bx ? a.bx : 256);
        report_begin("exercise", "Useful bandwidth (mass bytes read + sums written) for n particles:", NULL);
        ok = sums_measure(&b, AOS, block, &a, gpu_flush_wanted(&g, &a, n * sizeof(particle_t)), useful, &t_aos);
        ok &= sums_measure(&b, SOA, block, &a, gpu_flush_wanted(&g, &a, n * sizeof(float)), useful, &t_soa);
    }
    if (ok) {
        takeaway(take, sizeof take, n, &t_aos, &t_soa, d2d);
        report_end(take);
        ratio = t_aos.median_ms / t_soa.median_ms;   /* the speed of yours over the speed of AoS */
    }
    bufs_free(&b);
    return checker_verdict(&CK, ratio);
}
