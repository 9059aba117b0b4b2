/* Checker for the lesson 03 exercise (the pattern of common/checker.h): verifies add_one_interleaved
 * (exercise.cu, or solution.cu for the reference) at odd sizes and block sizes -- every element +1
 * exactly once, the 64 elements past n unchanged, and a guard zone around the whole array -- runs it
 * once more under compute-sanitizer memcheck, then times it against the chunked version below and
 * gives the verdict. */
#include "args.h"
#include "bench.h"
#include "checker.h"
#include "cuda_check.h"
#include "exercise.h"
#include "gpu.h"
#include "grid.cuh"
#include "incr_check.cuh"
#include "offset_stride.h"
#include "report.h"
#include "stats.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The goal comes from the reference solution's run on the H100 (results/NVIDIA_H100_80GB_HBM3/
 * answers/03_offset_stride.txt): chunked 0.8566 ms, interleaved 0.2159 ms, 3.97x.  2.5x leaves the
 * reference a margin of 1.6x, while a kernel whose warp still touches 32 floats 64 bytes apart at
 * each step (the chunked order under another name) stays near 1x. */
static int one_row(int bx, int by) { (void)bx; return by == 1; }

static const checker_t CK = {
    "03_offset_stride_exercise", "Lesson 03 exercise - several elements per thread, in the coalesced order",
    "Lesson 03 exercise: verifies your add_one_interleaved (exercise.cu), then times it against the\n"
    "chunked version and gives the verdict (goal: 2.5 times its speed).",
    "floats (default 64M = 256 MiB; 4M with --quick)", "N", "one-dimensional blocks only", one_row,
    "add_one_interleaved", "the given chunked kernel", 2.5, "memcheck", 0};

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

enum { CHUNKED, INTERLEAVED };
static const char *const LABEL[2] = {"chunked (given)", "interleaved (yours)"};

/* The array: n floats, then OS_GUARD more that must stay as they are (compared with the rest), all
 * inside a guard zone (bench.h): a kernel that touches elements far past n changes the zone. */
typedef struct {
    size_t n;
    guarded_t g_a;
    float *a;
    incr_check_t ic;   /* offset 0: every element +1 exactly once (offset_stride.h) */
} array_t;

static void array_init(array_t *b, size_t n, uint64_t seed)
{
    b->n = n;
    b->a = (float *)guarded_alloc(&b->g_a, (n + OS_GUARD) * sizeof(float), "a");
    b->ic = os_check_of(b->a, OS_OFFSET, 0, n, 1, 0, seed);
}

static void array_free(array_t *b) { guarded_free(&b->g_a); }

/* GPU memory array_init takes, guards included (a guard is at most a quarter of its buffer plus
 * 2 MiB, and at most 64 MiB: bench.h). */
static size_t array_bytes(size_t n)
{
    size_t bytes = (n + OS_GUARD) * sizeof(float);
    size_t guard = bytes / 4 < ((size_t)64 << 20) ? bytes / 4 + ((size_t)2 << 20) : ((size_t)64 << 20);
    return bytes + 2 * guard;
}

/* A block owns a tile of blockDim.x * ELEMS_PER_THREAD elements. */
static void launch(const array_t *b, int which, dim3 block, cudaStream_t s)
{
    unsigned grid = div_up(b->n, block.x * ELEMS_PER_THREAD);
    if (which == CHUNKED) add_one_chunked<<<grid, block, 0, s>>>(b->a, b->n);
    else add_one_interleaved<<<grid, block, 0, s>>>(b->a, b->n);
}

/* The array filled with known values, one launch, every value (the n and the OS_GUARD after them)
 * compared on the GPU (incr_check.cuh). */
static size_t verify(const array_t *b, int which, dim3 block, mismatch_t *m)
{
    incr_fill(&b->ic);
    launch(b, which, block, gpu_stream());
    CHECK_LAST();
    return incr_compare(&b->ic, m);
}

/* A row of the timing table: verified (the values, then the guard zone), then timed (the timed
 * runs keep adding 1, which no longer matters) and printed.  Returns 1 and *t; 0, with
 * report_failed's line and row, when it fails. */
static int incr_measure(const array_t *b, int which, dim3 block, const args_t *a, int flush, double bytes,
                        timing_t *t)
{
    mismatch_t m;
    bench_t bt;
    verify(b, which, block, &m);
    if (row_failed(LABEL[which], &m, b->ic.elems, 0, &b->g_a, 1)) return 0;
    for (bench_start(&bt, LABEL[which], a, flush); bench_next(&bt);) launch(b, which, block, gpu_stream());
    *t = bt.t;
    report_row(LABEL[which], t, bytes, NAN);
    return 1;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {1, 15, 16, 17, 1000, 4097, 65537, 100003, ((size_t)1 << 20) + 7};
    static const int blocks[] = {32, 256, 1024, 96};
    args_t a;
    gpu_info_t g;
    array_t b;
    check_tally_t t = {0, 0, stdout};
    char size[64], take[320];
    int bi, nb, k, rc, ok;
    size_t si, n, need;
    timing_t t_chunk, t_inter;
    double x = NAN;

    checker_start(&CK, argc, argv, &a, &g);
    t.out = a.csv ? NULL : stdout;
    n = a.nx ? (size_t)a.nx : (a.quick ? ((size_t)4 << 20) : ((size_t)64 << 20));
    if (!a.check) {   /* the copy ceiling's two arrays of n floats, then the array with its guards */
        need = 2 * n * sizeof(float);
        if (array_bytes(n) > need) need = array_bytes(n);
        gpu_require_bytes(need, "the array");
    }

    /* Correct first: both kernels at odd sizes (partial tiles, partial warps) and four block sizes.
     * The check is lesson 03's for offset 0: every element +1 exactly once, the elements past n
     * unchanged; each size has an array of its own, so the guard zone starts right after them. */
    report_say("\nVerification (every element +1 exactly once, %d elements past n unchanged, a guard zone after them):\n",
               OS_GUARD);
    nb = a.bx ? 1 : (int)(sizeof blocks / sizeof blocks[0]);
    for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        array_init(&b, sizes[si], a.seed);
        for (bi = 0; bi < nb; bi++) {
            dim3 block(a.bx ? a.bx : blocks[bi]);
            snprintf(size, sizeof size, "n=%zu block=%u", b.n, block.x);
            for (k = CHUNKED; k <= INTERLEAVED; k++) {
                mismatch_t m;
                verify(&b, k, block, &m);
                check_report(&t, LABEL[k], size, &m, b.ic.elems, 0, &b.g_a, 1);
            }
        }
        array_free(&b);
    }
    if ((rc = checker_verified(&CK, &t, &a)) >= 0) return rc;

    /* The timing: the copy ceiling (the array copied into a second one, before it exists), then both
     * kernels at the timed size, each verified first. */
    checker_ceiling(&g, &a, n * sizeof(float));
    array_init(&b, n, a.seed);
    {
        dim3 block(a.bx ? a.bx : 256);
        int flush = gpu_flush_wanted(&g, &a, n * sizeof(float));
        double bytes = 2.0 * (double)n * sizeof(float);
        report_begin("exercise", "a[i] += 1, 16 elements per thread (GB/s = bytes read + written / time):", NULL);
        ok = incr_measure(&b, CHUNKED, block, &a, flush, bytes, &t_chunk);
        ok &= incr_measure(&b, INTERLEAVED, block, &a, flush, bytes, &t_inter);
    }
    if (ok) {
        x = t_chunk.median_ms / t_inter.median_ms;   /* the speed of yours over the chunked one's */
        /* the take-away follows the measured ratio; the sector counts are the hardware reason */
        snprintf(take, sizeof take, "interleaved runs at %.2fx the speed of chunked%s: at each step the chunked warp "
                 "reads 32 floats %d bytes apart (32 sectors), an interleaved one can read 128 consecutive bytes (4).",
                 x, x >= 1.5 ? "" : x >= 0.9 ? ", about the same: does lane i read element base + i at each step?"
                                          : ", slower: which addresses does one warp touch at each step?",
                 (int)(ELEMS_PER_THREAD * sizeof(float)));
        report_end(take);
    }
    array_free(&b);
    return checker_verdict(&CK, x);
}
