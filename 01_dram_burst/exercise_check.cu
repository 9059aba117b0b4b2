/* Checker for the lesson 01 exercise: verifies mass_sums_soa (exercise.cu, or solution.cu for the
 * reference) at odd sizes against the CPU, then times it against the array-of-structures version. */
#include "args.h"
#include "bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "gpu.h"
#include "grid.cuh"
#include "report.h"
#include "rng.h"
#include "stream_run.h"
#include "verify.h"
#include "warp.cuh"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The given AoS kernel: lane i reads the mass field of particle i, 32 bytes after lane i-1's. */
__global__ void mass_sums_aos(const particle_t *p, float *warp_sums, size_t n)
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

typedef struct {
    const particle_t *aos;
    const float *soa;
    float *sums;
    size_t n;
    int block;
} ctx_t;

static void launch_aos(void *p, cudaStream_t s)
{
    ctx_t *c = (ctx_t *)p;
    mass_sums_aos<<<div_up(c->n, (unsigned)c->block), c->block, 0, s>>>(c->aos, c->sums, c->n);
}

static void launch_soa(void *p, cudaStream_t s)
{
    ctx_t *c = (ctx_t *)p;
    mass_sums_soa<<<div_up(c->n, (unsigned)c->block), c->block, 0, s>>>(c->soa, c->sums, c->n);
}

/* Device buffers for n particles, filled, and on the host the sums both kernels must write: the
 * CPU's sums of the masses in the GPU's order (cpu_warp_sums_f32), compared exactly. */
typedef struct {
    float *want, *got;
} host_t;

static void setup(ctx_t *c, host_t *h, size_t n, uint64_t seed)
{
    size_t i, nw = (n + 31) / 32;
    float *mass = (float *)host_alloc(n * sizeof(float), "the masses");
    c->n = n;
    c->aos = (const particle_t *)gpu_alloc(n * sizeof(particle_t), "the particles (AoS)");
    c->soa = (const float *)gpu_alloc(n * sizeof(float), "the masses (SoA)");
    c->sums = (float *)gpu_alloc(nw * sizeof(float), "the per-warp sums");
    gpu_fill_random_f32((float *)c->aos, 8 * n, seed);
    fill_mass_soa<<<1024, 256, 0, gpu_stream()>>>((float *)c->soa, n, seed);
    CHECK_LAST();
    h->want = (float *)host_alloc(nw * sizeof(float), "the expected sums");
    h->got = (float *)host_alloc_pinned(nw * sizeof(float), "the sums from the GPU");
    for (i = 0; i < n; i++) mass[i] = rng_float(seed, 8 * i + MASS_FIELD);
    cpu_warp_sums_f32(mass, n, h->want);
    free(mass);
}

static void teardown(ctx_t *c, host_t *h)
{
    CHECK(cudaFree((void *)c->aos));
    CHECK(cudaFree((void *)c->soa));
    CHECK(cudaFree(c->sums));
    free(h->want);
    gpu_free_host(h->got);
}

int main(int argc, char **argv)
{
    static const exercise_t ex = {
        "01_dram_burst_exercise", "Lesson 01 exercise - read only the bytes you use",
        "Lesson 01 exercise: verifies your mass_sums_soa (exercise.cu) and times it against\n"
        "the array-of-structures version.",
        "particles (default 32M; 4M with --quick)", ARGS_SIZE_N, 1,
        "one-dimensional blocks of a multiple of 32 threads only"};
    static const size_t sizes[] = {1, 31, 33, 1000, 100003};
    static const int blocks[] = {32, 256, 1024};
    args_t a;
    gpu_info_t g;
    ctx_t c;
    host_t h;
    check_t chk;
    check_tally_t tally = {0, 0};
    char size[64];
    int bi, rc, ok;
    size_t si, n;
    timing_t t_aos, t_soa;
    double d2d, useful;

    exercise_start(&ex, argc, argv, &a, &g);
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)4 << 20) : ((size_t)32 << 20));
    if (!a.check)   /* the particles, the masses and the sums at the timed size */
        gpu_require_bytes(n * (sizeof(particle_t) + sizeof(float)) + (n + 31) / 32 * sizeof(float), "the particles");

    /* Correct first: both kernels at odd sizes and three block sizes. */
    report_say("\nVerification (sums compared exactly with the CPU):\n");
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        setup(&c, &h, sizes[si], a.seed);
        chk = check_f32(c.sums, h.want, h.got, (c.n + 31) / 32, 0);
        for (bi = 0; bi < 3; bi++) {
            c.block = a.bx ? a.bx : blocks[bi];
            snprintf(size, sizeof size, "n=%zu block=%d", c.n, c.block);
            check_line(&chk, "mass_sums_aos (given)", size, launch_aos, &c, a.csv ? NULL : stdout, &tally);
            check_line(&chk, "mass_sums_soa (yours)", size, launch_soa, &c, a.csv ? NULL : stdout, &tally);
            if (a.bx) break;
        }
        teardown(&c, &h);
    }
    if ((rc = exercise_verdict(&tally, "mass_sums_soa", a.check)) >= 0) return rc;

    /* the copy ceiling: the AoS buffer's bytes copied half onto half, before the buffers exist */
    d2d = exercise_ceiling(&g, &a, n * sizeof(particle_t) / 2);
    setup(&c, &h, n, a.seed);
    c.block = a.bx ? a.bx : 256;
    chk = check_f32(c.sums, h.want, h.got, (n + 31) / 32, 0);
    ok = verify_then_time("mass_sums_aos (given)", launch_aos, &c, &chk, &a,
                          gpu_flush_wanted(&g, &a, n * sizeof(particle_t)), &t_aos) &&
         verify_then_time("mass_sums_soa (yours)", launch_soa, &c, &chk, &a,
                          gpu_flush_wanted(&g, &a, n * sizeof(float)), &t_soa);
    if (ok) {
        /* The verdict comes from the two measured times.  AoS makes DRAM move every 32-byte particle,
         * SoA only the 4-byte masses: the bytes alone predict a speed-up of bytes_ratio (8).  The
         * measured speed-up is that ratio times the pace ratio (the GB/s of the bytes each kernel
         * really moves), t_aos / t_soa = (B_aos / B_soa) x (R_soa / R_aos), so comparing the two
         * paces says whether the time followed the bytes or something else set it. */
        char take[480];
        double sums = (double)((n + 31) / 32) * sizeof(float);
        double aos_bytes = (double)n * sizeof(particle_t) + sums, soa_bytes, bytes_ratio, speedup;
        double aos_pace, soa_pace, pace_ratio;
        const char *verdict;
        useful = (double)n * sizeof(float) + sums;
        soa_bytes = useful;  /* the SoA kernel moves exactly the useful bytes */
        bytes_ratio = aos_bytes / soa_bytes;
        speedup = t_aos.median_ms / t_soa.median_ms;
        aos_pace = stats_gbs(aos_bytes, t_aos.median_ms);
        soa_pace = stats_gbs(soa_bytes, t_soa.median_ms);
        pace_ratio = soa_pace / aos_pace;
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
        report_begin("exercise", "Useful bandwidth (mass bytes read + sums written) for n particles:", NULL);
        report_row("mass_sums_aos (given)", &t_aos, useful, NAN);
        report_row("mass_sums_soa (yours)", &t_soa, useful, NAN);
        snprintf(take, sizeof take,
                 "SoA runs at %.2fx the speed of AoS; the bytes alone predict %.1fx (%zu B per particle against %zu). "
                 "Pace of the bytes each moves: AoS %.0f GB/s (%.0f%% of the copy), SoA %.0f GB/s (%.0f%%), "
                 "ratio %.2f, and %.1f x %.2f = %.2fx: %s.",
                 speedup, bytes_ratio, sizeof(particle_t), sizeof(float), aos_pace, 100.0 * aos_pace / d2d,
                 soa_pace, 100.0 * soa_pace / d2d, pace_ratio, bytes_ratio, pace_ratio, bytes_ratio * pace_ratio,
                 verdict);
        report_end(take);
    }
    teardown(&c, &h);
    return gpu_finish_status(!ok);
}
