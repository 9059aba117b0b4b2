/* Verify-then-time for kernels that write one float array (see checked_bench.h). */
#include "checked_bench.h"
#include "cuda_check.h"
#include "exitcodes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "Out of host memory allocating %s (%.1f MiB). Try a smaller --size.\n", what,
                bytes / 1048576.0);
        exit(EXIT_CUDA);
    }
    return p;
}

float *host_alloc_pinned_f32(size_t n, const char *what)
{
    void *p = NULL;
    cudaError_t e = cudaMallocHost(&p, (n ? n : 1) * sizeof(float));
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        fprintf(stderr, "Out of pinned host memory allocating %s (%.1f MiB). Try a smaller --size.\n", what,
                n * sizeof(float) / 1048576.0);
        exit(EXIT_CUDA);
    }
    CHECK(e);
    return (float *)p;
}

/* Bit-for-bit equal and free of NaN implies what verify_f32 accepts (it would also accept -0 for +0,
 * which the slow path below then does).  memcmp runs at memory speed; verify_f32 looks at every
 * element in double and costs several times more on the large matrices of the lessons. */
static int same_bits_no_nan(const float *want, const float *got, size_t n)
{
    size_t i;
    int nan = 0;
    if (memcmp(want, got, n * sizeof(float)) != 0) return 0;
    for (i = 0; i < n; i++) nan |= (got[i] != got[i]);
    return !nan;
}

size_t verify_launch_f32(launch_fn_t launch, void *ctx, float *d_out, const float *want, float *got,
                         size_t n, mismatch_t *m)
{
    gpu_poison(d_out, n * sizeof(float));
    launch(ctx);
    CHECK_LAST();
    CHECK(cudaMemcpy(got, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    if (same_bits_no_nan(want, got, n)) {
        m->count = 0;
        m->first = 0;
        m->expected = m->got = 0.0;
        return 0;
    }
    return verify_f32(want, got, n, 0.0, 0.0, m);
}

int verify_then_time(const char *label, launch_fn_t launch, void *ctx, float *d_out, const float *want,
                     float *got, size_t n, size_t width, const args_t *a, int flush, timing_t *t)
{
    mismatch_t m;
    if (verify_launch_f32(launch, ctx, d_out, want, got, n, &m)) {
        char d[200];
        verify_describe(&m, n, width, d, sizeof d);
        fprintf(stderr, "%s: FAILED verification: %s\n", label, d);
        return 0;
    }
    *t = bench_median_ms(label, launch, ctx, a, flush);
    return 1;
}
