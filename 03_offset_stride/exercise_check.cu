/* Checker for the lesson 03 exercise: verifies add_one_interleaved (exercise.cu, or solution.cu for
 * the reference) at odd sizes and block sizes, then times it against the chunked version below. */
#include "args.h"
#include "checked_bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "exitcodes.h"
#include "gpu.h"
#include "offset_stride.h"
#include "report.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The given kernel: thread t increments ELEMS_PER_THREAD consecutive elements of its block's tile.
 * At each step the warp's lanes are ELEMS_PER_THREAD floats apart: a stride in disguise. */
__global__ void add_one_chunked(float *a, size_t n)
{
    size_t first = blockIdx.x * (size_t)blockDim.x * ELEMS_PER_THREAD + (size_t)threadIdx.x * ELEMS_PER_THREAD;
    int k;
#pragma unroll
    for (k = 0; k < ELEMS_PER_THREAD; k++)
        if (first + k < n) a[first + k] += 1.0f;
}

typedef struct {
    float *a;
    size_t n;
    int block;
} ctx_t;

static unsigned grid_of(const ctx_t *c)
{
    size_t tile = (size_t)c->block * ELEMS_PER_THREAD;
    return (unsigned)((c->n + tile - 1) / tile);
}

static void launch_chunked(void *p)
{
    ctx_t *c = (ctx_t *)p;
    add_one_chunked<<<grid_of(c), c->block>>>(c->a, c->n);
}

static void launch_interleaved(void *p)
{
    ctx_t *c = (ctx_t *)p;
    add_one_interleaved<<<grid_of(c), c->block>>>(c->a, c->n);
}

/* Fills n + OS_GUARD floats with rng_float, runs the kernel once, reads everything back: each of
 * the n elements must have grown by exactly 1, the guard past them must be unchanged (the same
 * check as lesson 03's offset kernel with o = 0). */
static size_t verify(void (*launch)(void *), ctx_t *c, uint64_t seed, mismatch_t *m)
{
    size_t total = c->n + OS_GUARD;
    float *got = (float *)host_alloc(total * sizeof(float), "the read-back buffer");
    gpu_fill_random_f32(c->a, total, seed);
    launch(c);
    CHECK_LAST();
    CHECK(cudaMemcpy(got, c->a, total * sizeof(float), cudaMemcpyDeviceToHost));
    os_mismatch_init(m);
    os_check_elems(OS_OFFSET, 0, c->n, 0, total, 1, 0, got, seed, m);
    free(got);
    return m->count;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1, 15, 16, 17, 1000, 4097, 65537, 100003, ((size_t)1 << 20) + 7};
    static const int blocks[] = {32, 256, 1024, 96};
    args_t a;
    gpu_info_t g;
    ctx_t c;
    mismatch_t m;
    char size[64];
    int fails = 0, checks = 0, bi, nb;
    size_t si;
    timing_t t_chunk, t_inter;
    double d2d, bytes;

    args_parse_or_exit(argc, argv, &a,
                       "Lesson 03 exercise: verifies your add_one_interleaved (exercise.cu) and times it against\n"
                       "the chunked version.",
                       "floats (default 64M = 256 MiB; 4M with --quick)", NULL, 0);
    if (a.ny) args_reject("bad --size '%ldx%ld': this program takes one number (floats)", a.nx, a.ny);
    if (a.by > 1) args_reject("bad --block '%dx%d': one-dimensional blocks only", a.bx, a.by);
    report_init("03_offset_stride_exercise", a.csv);
    gpu_init(&g);
    gpu_print_header(&g, "Lesson 03 exercise - several elements per thread, in the coalesced order", &a);

    /* Correct first: both kernels at odd sizes (partial tiles, partial warps) and four block sizes. */
    report_say("\nVerification (every element +1 exactly once, %d guard elements unchanged):\n", OS_GUARD);
    c.a = (float *)gpu_alloc((sizes[sizeof sizes / sizeof sizes[0] - 1] + OS_GUARD) * sizeof(float), "the array");
    nb = a.bx ? 1 : (int)(sizeof blocks / sizeof blocks[0]);
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (bi = 0; bi < nb; bi++) {
            c.n = sizes[si];
            c.block = a.bx ? a.bx : blocks[bi];
            snprintf(size, sizeof size, "n=%zu block=%d", c.n, c.block);
            verify(launch_chunked, &c, a.seed, &m);
            if (!a.csv) fails += verify_print(stdout, "chunked (given)", size, &m, c.n + OS_GUARD, 0);
            else fails += m.count != 0;
            verify(launch_interleaved, &c, a.seed, &m);
            if (!a.csv) fails += verify_print(stdout, "interleaved (yours)", size, &m, c.n + OS_GUARD, 0);
            else fails += m.count != 0;
            checks += 2;
        }
    }
    CHECK(cudaFree(c.a));
    if (fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix add_one_interleaved in exercise.cu (no timing until it "
                        "passes).\n", fails, checks);
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_say("OK: %d of %d checks passed\n", checks, checks);
    if (a.check) {
        gpu_finish();
        return EXIT_OK;
    }

    c.n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)4 << 20) : ((size_t)64 << 20));
    c.block = a.bx ? a.bx : 256;
    c.a = (float *)gpu_alloc((c.n + OS_GUARD) * sizeof(float), "the array");
    {
        /* the copy ceiling: the array into a second buffer of the same size, freed at once */
        float *other = (float *)gpu_alloc(c.n * sizeof(float), "the copy ceiling's destination");
        CHECK(cudaMemset(c.a, 0, c.n * sizeof(float)));
        d2d = gpu_d2d_gbs(other, c.a, c.n * sizeof(float), &a, gpu_flush_wanted(&g, &a, 2 * c.n * sizeof(float)), NULL);
        CHECK(cudaFree(other));
    }
    /* verified at this size too; the timed runs then keep adding 1, which no longer matters */
    if (verify(launch_interleaved, &c, a.seed, &m) || verify(launch_chunked, &c, a.seed, &m)) {
        fprintf(stderr, "FAILED verification at n=%zu: no timing reported.\n", c.n);
        CHECK(cudaFree(c.a));
        gpu_finish();
        return EXIT_VERIFY;
    }
    report_set_ceilings(d2d, g.peak_gbs);
    {
        int flush = gpu_flush_wanted(&g, &a, c.n * sizeof(float));
        t_chunk = bench_median_ms("chunked (given)", launch_chunked, &c, &a, flush);
        t_inter = bench_median_ms("interleaved (yours)", launch_interleaved, &c, &a, flush);
    }
    bytes = 2.0 * (double)c.n * sizeof(float);
    report_begin("exercise", "a[i] += 1, 16 elements per thread (GB/s = bytes read + written / time):", NULL);
    report_row("chunked (given)", &t_chunk, bytes, NAN);
    report_row("interleaved (yours)", &t_inter, bytes, NAN);
    {
        char take[260];
        snprintf(take, sizeof take, "interleaved runs at %.2fx the speed of chunked: at each step its warp touches 128 "
                 "consecutive bytes, the chunked warp 32 floats %d bytes apart.", t_chunk.median_ms / t_inter.median_ms,
                 (int)(ELEMS_PER_THREAD * sizeof(float)));
        report_end(take);
    }
    CHECK(cudaFree(c.a));
    gpu_finish();
    return EXIT_OK;
}
