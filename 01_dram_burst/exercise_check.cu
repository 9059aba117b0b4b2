/* Checker for the lesson 01 exercise: verifies mass_sums_soa (exercise.cu, or solution.cu for the
 * reference) at odd sizes against the CPU, then times it against the array-of-structures version. */
#include "args.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "report.h"
#include "rng.h"
#include "verify.h"
#include "warp.cuh"

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

static void launch_aos(void *p)
{
    ctx_t *c = (ctx_t *)p;
    mass_sums_aos<<<(unsigned)((c->n + c->block - 1) / c->block), c->block>>>(c->aos, c->sums, c->n);
}

static void launch_soa(void *p)
{
    ctx_t *c = (ctx_t *)p;
    mass_sums_soa<<<(unsigned)((c->n + c->block - 1) / c->block), c->block>>>(c->soa, c->sums, c->n);
}

/* One run on poisoned output, compared exactly with the CPU's sums in the GPU's order. */
static size_t verify(void (*launch)(void *), ctx_t *c, uint64_t seed, mismatch_t *m)
{
    size_t i, nw = (c->n + 31) / 32, bad;
    float *mass = (float *)malloc(c->n * sizeof(float)), *want = (float *)malloc(nw * sizeof(float)),
          *got = (float *)malloc(nw * sizeof(float));
    if (!mass || !want || !got) { fprintf(stderr, "out of host memory\n"); exit(EXIT_CUDA); }
    gpu_poison(c->sums, nw * sizeof(float));
    launch(c);
    CHECK_LAST();
    CHECK(cudaMemcpy(got, c->sums, nw * sizeof(float), cudaMemcpyDeviceToHost));
    for (i = 0; i < c->n; i++) mass[i] = rng_float(seed, 8 * i + MASS_FIELD);
    cpu_warp_sums_f32(mass, c->n, want);
    bad = verify_f32(want, got, nw, 0.0, 0.0, m);
    free(mass);
    free(want);
    free(got);
    return bad;
}

static void fill(ctx_t *c, uint64_t seed)
{
    gpu_fill_random_f32((float *)c->aos, 8 * c->n, seed);
    fill_mass_soa<<<1024, 256>>>((float *)c->soa, c->n, seed);
    CHECK_LAST();
}

static void setup(ctx_t *c, size_t n, int block, uint64_t seed)
{
    c->n = n;
    c->block = block;
    c->aos = (const particle_t *)gpu_alloc(n * sizeof(particle_t), "the particles (AoS)");
    c->soa = (const float *)gpu_alloc(n * sizeof(float), "the masses (SoA)");
    c->sums = (float *)gpu_alloc(((n + 31) / 32) * sizeof(float), "the per-warp sums");
    fill(c, seed);
}

static void teardown(ctx_t *c)
{
    CHECK(cudaFree((void *)c->aos));
    CHECK(cudaFree((void *)c->soa));
    CHECK(cudaFree(c->sums));
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1, 31, 33, 1000, 100003};
    static const int blocks[] = {32, 256, 1024};
    args_t a;
    gpu_info_t g;
    ctx_t c;
    mismatch_t m;
    char size[64];
    int fails = 0, checks = 0, bi;
    size_t si, n;
    timing_t t_aos, t_soa;
    double d2d, useful;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 01 exercise: verifies your mass_sums_soa (exercise.cu) and times it against\n"
                       "the array-of-structures version.",
                       "particles (default 32M; 4M with --quick)", NULL, 0);
    if (a.ny) args_reject("bad --size '%ldx%ld': this program takes one number (particles)", a.nx, a.ny);
    if (a.by > 1 || (a.bx && a.bx % 32))
        args_reject("bad --block '%dx%d': one-dimensional blocks of a multiple of 32 threads only", a.bx, a.by);
    report_init("01_dram_burst_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 01 exercise - read only the bytes you use", &a);

    /* Correct first: both kernels at odd sizes and three block sizes. */
    report_say("\nVerification (sums compared exactly with the CPU):\n");
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        setup(&c, sizes[si], 256, a.seed);
        for (bi = 0; bi < 3; bi++) {
            c.block = a.bx ? a.bx : blocks[bi];
            snprintf(size, sizeof size, "n=%zu block=%d", c.n, c.block);
            verify(launch_aos, &c, a.seed, &m);
            if (!a.csv) fails += verify_print(stdout, "mass_sums_aos (given)", size, &m, (c.n + 31) / 32, 0);
            else fails += m.count != 0;
            verify(launch_soa, &c, a.seed, &m);
            if (!a.csv) fails += verify_print(stdout, "mass_sums_soa (yours)", size, &m, (c.n + 31) / 32, 0);
            else fails += m.count != 0;
            checks += 2;
            if (a.bx) break;
        }
        teardown(&c);
    }
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix mass_sums_soa in exercise.cu (no timing until it passes).\n",
                fails, checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", checks, checks);
    if (a.check) {
        gpu_finish();
        return EXIT_OK;
    }

    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)4 << 20) : ((size_t)32 << 20));
    setup(&c, n, a.bx ? a.bx : 256, a.seed);
    {
        /* the copy ceiling, on the AoS buffer's two halves, before the data is filled for real */
        size_t half = n * sizeof(particle_t) / 2;
        d2d = gpu_d2d_gbs((char *)c.aos + half, c.aos, half, &a, gpu_flush_wanted(&g, &a, 2 * half), NULL);
        fill(&c, a.seed);
    }
    if (verify(launch_soa, &c, a.seed, &m) || verify(launch_aos, &c, a.seed, &m)) {
        fprintf(stderr, "FAILED verification at n=%zu: no timing reported.\n", n);
        teardown(&c);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_set_ceilings(d2d, g.peak_gbs);
    t_aos = bench_median_ms("mass_sums_aos", launch_aos, &c, &a, gpu_flush_wanted(&g, &a, n * sizeof(particle_t)));
    t_soa = bench_median_ms("mass_sums_soa", launch_soa, &c, &a, gpu_flush_wanted(&g, &a, n * sizeof(float)));
    useful = (double)n * sizeof(float) + (double)((n + 31) / 32) * sizeof(float);
    report_begin("exercise", "Useful bandwidth (mass bytes read + sums written) for n particles:", NULL);
    report_row("mass_sums_aos (given)", &t_aos, useful, NAN);
    report_row("mass_sums_soa (yours)", &t_soa, useful, NAN);
    {
        /* The AoS kernel drags whole 32-byte particles through DRAM: its real traffic is 8x the
         * useful bytes.  The ratio of the two times is therefore bounded by 8 only if the SoA kernel
         * keeps the memory as busy as the AoS one does, which one 4-byte load per thread does not. */
        char take[320];
        double aos_moved = stats_gbs((double)n * sizeof(particle_t), t_aos.median_ms);
        double soa_pct = 100.0 * stats_gbs(useful, t_soa.median_ms) / d2d;
        snprintf(take, sizeof take,
                 "SoA is %.1fx faster, not 8x: AoS streams all 32 bytes of each particle at %.0f GB/s, "
                 "the memory's pace; SoA reads only the masses but, one 4-byte load per thread, reaches "
                 "%.0f%% of the copy.", t_aos.median_ms / t_soa.median_ms, aos_moved, soa_pct);
        report_end(take);
    }
    teardown(&c);
    gpu_finish();
    return EXIT_OK;
}
