/* Checker for the lesson 03 exercise: verifies add_one_interleaved (exercise.cu, or solution.cu for
 * the reference) at odd sizes and block sizes, then times it against the chunked version below. */
#include "args.h"
#include "bench.h"
#include "cuda_check.h"
#include "exercise.h"
#include "gpu.h"
#include "grid.cuh"
#include "offset_stride.h"
#include "report.h"
#include "stream_run.h"
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

static void launch_chunked(void *p, cudaStream_t s)
{
    ctx_t *c = (ctx_t *)p;
    add_one_chunked<<<div_up(c->n, (unsigned)c->block * ELEMS_PER_THREAD), c->block, 0, s>>>(c->a, c->n);
}

static void launch_interleaved(void *p, cudaStream_t s)
{
    ctx_t *c = (ctx_t *)p;
    add_one_interleaved<<<div_up(c->n, (unsigned)c->block * ELEMS_PER_THREAD), c->block, 0, s>>>(c->a, c->n);
}

int main(int argc, char **argv)
{
    static const exercise_t ex = {
        "03_offset_stride_exercise", "Lesson 03 exercise - several elements per thread, in the coalesced order",
        "Lesson 03 exercise: verifies your add_one_interleaved (exercise.cu) and times it against\n"
        "the chunked version.",
        "floats (default 64M = 256 MiB; 4M with --quick)", ARGS_SIZE_N, 0, "one-dimensional blocks only"};
    static const size_t sizes[] = {1, 15, 16, 17, 1000, 4097, 65537, 100003, ((size_t)1 << 20) + 7};
    static const int blocks[] = {32, 256, 1024, 96};
    args_t a;
    gpu_info_t g;
    ctx_t c;
    incr_check_t ic;
    check_t chk;
    check_tally_t tally = {0, 0};
    char size[64];
    int bi, nb, rc, ok;
    size_t si, n;
    timing_t t_chunk, t_inter;
    double bytes;

    exercise_start(&ex, argc, argv, &a, &g);
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)4 << 20) : ((size_t)64 << 20));
    if (!a.check)   /* the copy ceiling's two arrays of n floats, then the array and its guard */
        gpu_require_bytes((n + (n > OS_GUARD ? n : OS_GUARD)) * sizeof(float), "the array");

    /* Correct first: both kernels at odd sizes (partial tiles, partial warps) and four block sizes.
     * The check is lesson 03's for offset 0: every element +1 exactly once, the guard unchanged. */
    report_say("\nVerification (every element +1 exactly once, %d guard elements unchanged):\n", OS_GUARD);
    c.a = (float *)gpu_alloc((sizes[sizeof sizes / sizeof sizes[0] - 1] + OS_GUARD) * sizeof(float), "the array");
    nb = a.bx ? 1 : (int)(sizeof blocks / sizeof blocks[0]);
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (bi = 0; bi < nb; bi++) {
            c.n = sizes[si];
            c.block = a.bx ? a.bx : blocks[bi];
            ic = os_check_of(c.a, OS_OFFSET, 0, c.n, 1, 0, a.seed);
            chk = check_increment(&ic);
            snprintf(size, sizeof size, "n=%zu block=%d", c.n, c.block);
            check_line(&chk, "chunked (given)", size, launch_chunked, &c, a.csv ? NULL : stdout, &tally);
            check_line(&chk, "interleaved (yours)", size, launch_interleaved, &c, a.csv ? NULL : stdout, &tally);
        }
    }
    CHECK(cudaFree(c.a));
    if ((rc = exercise_verdict(&tally, "add_one_interleaved", a.check)) >= 0) return rc;

    exercise_ceiling(&g, &a, n * sizeof(float));   /* the array copied into a second one */
    c.n = n;
    c.block = a.bx ? a.bx : 256;
    c.a = (float *)gpu_alloc((c.n + OS_GUARD) * sizeof(float), "the array");
    /* verified at this size too; the timed runs then keep adding 1, which no longer matters */
    ic = os_check_of(c.a, OS_OFFSET, 0, c.n, 1, 0, a.seed);
    chk = check_increment(&ic);
    {
        int flush = gpu_flush_wanted(&g, &a, c.n * sizeof(float));
        ok = verify_then_time("chunked (given)", launch_chunked, &c, &chk, &a, flush, &t_chunk) &&
             verify_then_time("interleaved (yours)", launch_interleaved, &c, &chk, &a, flush, &t_inter);
    }
    if (ok) {
        char take[320];
        const double x = t_chunk.median_ms / t_inter.median_ms;
        bytes = 2.0 * (double)c.n * sizeof(float);
        report_begin("exercise", "a[i] += 1, 16 elements per thread (GB/s = bytes read + written / time):", NULL);
        report_row("chunked (given)", &t_chunk, bytes, NAN);
        report_row("interleaved (yours)", &t_inter, bytes, NAN);
        /* the verdict follows the measured ratio; the sector counts are the hardware reason */
        snprintf(take, sizeof take, "interleaved runs at %.2fx the speed of chunked%s: at each step the chunked warp "
                 "reads 32 floats %d bytes apart (32 sectors), an interleaved one can read 128 consecutive bytes (4).",
                 x, x >= 1.5 ? "" : x >= 0.9 ? ", about the same: does lane i read element base + i at each step?"
                                          : ", slower: which addresses does one warp touch at each step?",
                 (int)(ELEMS_PER_THREAD * sizeof(float)));
        report_end(take);
    }
    CHECK(cudaFree(c.a));
    return gpu_finish_status(!ok);
}
