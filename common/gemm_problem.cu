/* The CUDA half of gemm_problem.h: a product's matrices, its reference and check, the half inputs of
 * 08 part 3, a row verified and timed, the --check of an SGEMM program and its memory ceilings.  The
 * kernels here are infrastructure (reference, comparison, rounding), none a lesson's subject. */
#include "bench.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "gemm_problem.h"
#include "grid.cuh"
#include "tests/internal.h"
#include "report.h"

#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the matrices --------------------------------------------------------------------------- */

void gemm_problem_init(gemm_problem_t *p, int M, int N, int K, int offset, uint64_t seed)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    memset(p, 0, sizeof *p);
    p->M = M;
    p->N = N;
    p->K = K;
    p->seed = seed;
    p->sample = gemm_sample(M, N, K);
    p->offset = offset;
    p->baseA = (float *)gpu_alloc((na + offset) * sizeof(float), "A");
    p->baseB = (float *)gpu_alloc((nb + offset) * sizeof(float), "B");
    p->baseC = (float *)gpu_alloc((nc + offset) * sizeof(float), "C");
    p->dA = p->baseA + offset;
    p->dB = p->baseB + offset;
    p->dC = p->baseC + offset;
    p->dRef = (double *)gpu_alloc(nc * sizeof(double), "the reference product");
    p->dAbs = (double *)gpu_alloc(nc * sizeof(double), "the reference's sums of |a_ik b_kj|");
    p->dRes = (unsigned long long *)gpu_alloc(2 * sizeof(unsigned long long), "the comparison's result");
    p->hA = (float *)host_alloc(na * sizeof(float), "the host copy of A");
    p->hB = (float *)host_alloc(nb * sizeof(float), "the host copy of B");
    p->hC = (float *)host_alloc(nc * sizeof(float), "the host copy of C");
    gpu_fill_random_f32(p->dA, na, seed);
    gpu_fill_random_f32(p->dB, nb, seed + 1);
    CHECK(cudaMemcpy(p->hA, p->dA, na * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(p->hB, p->dB, nb * sizeof(float), cudaMemcpyDeviceToHost));
}

void gemm_problem_free(gemm_problem_t *p)
{
    CHECK(cudaFree(p->baseA));
    CHECK(cudaFree(p->baseB));
    CHECK(cudaFree(p->baseC));
    CHECK(cudaFree(p->dRef));
    CHECK(cudaFree(p->dAbs));
    CHECK(cudaFree(p->dRes));
    if (p->baseA16) CHECK(cudaFree(p->baseA16));
    if (p->baseB16) CHECK(cudaFree(p->baseB16));
    free(p->hA);
    free(p->hB);
    free(p->hC);
}

/* x[i] -> the nearest half, kept twice: in h as half, what the Tensor Core kernels read, and back
 * in x as float (the same value exactly), for cuBLAS, the FP32 path and the references. */
__global__ void round_to_half(float *x, __half *h, size_t n)
{
    size_t i;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        __half v = __float2half_rn(x[i]);
        h[i] = v;
        x[i] = __half2float(v);
    }
}

/* Blocks of 256 threads for a grid-stride loop over n elements: one element per thread, at most
 * 4096 blocks (the rest by the loop). */
static unsigned stride_blocks(size_t n)
{
    unsigned b = div_up(n < (size_t)4096 * 256 ? n : (size_t)4096 * 256, 256);
    return b ? b : 1;
}

/* Rounds A and B to the nearest half on the GPU: in place (so the float kernels, cuBLAS's FP32 path
 * and both references see the same values) and into p->dA16, p->dB16 (as far past their
 * allocations as the floats), then refreshes the host copies; the reference is recomputed at the
 * next check. */
static void round_inputs_to_half(gemm_problem_t *p)
{
    size_t na = (size_t)p->M * p->K, nb = (size_t)p->K * p->N;
    p->baseA16 = (struct __half *)gpu_alloc((na + p->offset) * sizeof(__half), "A as half");
    p->baseB16 = (struct __half *)gpu_alloc((nb + p->offset) * sizeof(__half), "B as half");
    p->dA16 = p->baseA16 + p->offset;
    p->dB16 = p->baseB16 + p->offset;
    round_to_half<<<stride_blocks(na), 256, 0, gpu_stream()>>>(p->dA, p->dA16, na);
    CHECK_LAST();
    round_to_half<<<stride_blocks(nb), 256, 0, gpu_stream()>>>(p->dB, p->dB16, nb);
    CHECK_LAST();
    CHECK(cudaMemcpy(p->hA, p->dA, na * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(p->hB, p->dB, nb * sizeof(float), cudaMemcpyDeviceToHost));
    p->ref_ready = 0;
}

/* ---- the reference and the comparison -------------------------------------------------------- */

/* The reference, made to be obviously right rather than fast: thread (row, col) adds the K products
 * a_ik b_kj in double, k = 0, 1, ..., and their magnitudes.  A product of two floats (24 significant
 * bits each) is exact in double (53), so this is, operation for operation, the sum cpu_gemm_element
 * takes: the two agree bit for bit (a fused multiply-add here rounds the same exact product once). */
__global__ void gemm_reference(const float *A, const float *B, double *ref, double *abs_sum, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    double v = 0.0, a = 0.0;
    int k;
    if (row >= M || col >= N) return;
    for (k = 0; k < K; k++) {
        double prod = (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
        v += prod;
        a += fabs(prod);
    }
    ref[(size_t)row * N + col] = v;
    abs_sum[(size_t)row * N + col] = a;
}

/* Every element of C against the reference, as verify_gemm_f32 does it on the CPU: outside
 * |got - ref| <= tol x sum |a_ik b_kj| (+ 1e-30), or NaN, or Inf, is a mismatch (the rounded
 * intrinsics keep the bound from being fused into one differently rounded operation).  res[0] +=
 * the mismatches, res[1] = min(res[1], the first one's index). */
__global__ void gemm_compare(const float *C, const double *ref, const double *abs_sum, size_t n, double tol,
                             unsigned long long *res)
{
    unsigned long long bad = 0, first = 0;
    size_t i;
    for (i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        double err = fabs((double)C[i] - ref[i]);
        if (!(err <= __dadd_rn(__dmul_rn(tol, abs_sum[i]), 1e-30))) {
            if (bad == 0) first = i;
            bad++;
        }
    }
    if (bad) {
        atomicAdd(&res[0], bad);
        atomicMin(&res[1], first);
    }
}

/* The reference of the sample's elements, (value, sum |ab|) pairs, for its check against the CPU. */
__global__ void gemm_gather(const double *ref, const double *abs_sum, const size_t *idx, int n, double *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = ref[idx[i]];
        out[2 * i + 1] = abs_sum[idx[i]];
    }
}

/* The GPU reference checked against the CPU's on the corners and GEMM_SAMPLE elements, bit for bit:
 * a difference means the checker itself is broken, and nothing it passed could be trusted. */
static void reference_self_check(const gemm_problem_t *p)
{
    const int n = GEMM_SAMPLE + 4;
    size_t *idx = (size_t *)host_alloc(n * sizeof(size_t), "the reference's sample");
    double *got = (double *)host_alloc(2 * n * sizeof(double), "the reference's sample");
    size_t *d_idx = (size_t *)gpu_alloc(n * sizeof(size_t), "the reference's sample");
    double *d_got = (double *)gpu_alloc(2 * n * sizeof(double), "the reference's sample");
    int i, r, c;
    for (i = 0; i < n; i++) {
        cpu_gemm_sample_at(p->M, p->N, p->seed, (size_t)i, &r, &c);
        idx[i] = (size_t)r * p->N + c;
    }
    CHECK(cudaMemcpy(d_idx, idx, n * sizeof(size_t), cudaMemcpyHostToDevice));
    gemm_gather<<<div_up(n, 256), 256, 0, gpu_stream()>>>(p->dRef, p->dAbs, d_idx, n, d_got);
    CHECK_LAST();
    CHECK(cudaMemcpy(got, d_got, 2 * n * sizeof(double), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++) {
        double v, a;
        r = (int)(idx[i] / p->N);
        c = (int)(idx[i] % p->N);
        cpu_gemm_element(p->hA, p->hB, p->N, p->K, r, c, &v, &a);
        if (v != got[2 * i] || a != got[2 * i + 1]) {
            fprintf(stderr, "The GPU reference of the %d x %d x %d product differs from the CPU's at [row %d, col %d]: "
                            "%.17g (sum |ab| %.17g) against %.17g (%.17g). The check cannot be trusted: stopping.\n",
                    p->M, p->N, p->K, r, c, got[2 * i], got[2 * i + 1], v, a);
            exit(EXIT_VERIFY);
        }
    }
    CHECK(cudaFree(d_idx));
    CHECK(cudaFree(d_got));
    free(idx);
    free(got);
}

/* The reference of the current A and B, computed (and checked) once. */
static void reference_ready(gemm_problem_t *p)
{
    dim3 block(32, 8);
    if (p->ref_ready) return;
    gemm_reference<<<dim3(div_up(p->N, block.x), div_up(p->M, block.y)), block, 0, gpu_stream()>>>(
        p->dA, p->dB, p->dRef, p->dAbs, p->M, p->N, p->K);
    CHECK_LAST();
    reference_self_check(p);
    p->ref_ready = 1;
}

/* Launches row r once on p's inputs. */
static void gemm_launch(const gemm_problem_t *p, const gemm_row_t *r, cudaStream_t s)
{
    if (r->launch_half) r->launch_half(p->dC, p->dA16, p->dB16, p->M, p->N, p->K, r->block, s);
    else r->launch(p->dC, p->dA, p->dB, p->M, p->N, p->K, r->block, s);
}

/* Poisons C, launches r once, compares all of C with the GPU reference and, on the CPU, every
 * element or a sample (gemm_problem.h says how).  Fills *m; returns the elements outside the bound. */
static size_t gemm_verify(gemm_problem_t *p, const gemm_row_t *r, mismatch_t *m)
{
    size_t nc = (size_t)p->M * p->N;
    unsigned long long res[2] = {0, ~0ull};
    mismatch_t mc;

    if (r->launch_half && !p->dA16) round_inputs_to_half(p);   /* the first row that reads half */
    reference_ready(p);
    gpu_poison(p->dC, nc * sizeof(float));
    gemm_launch(p, r, gpu_stream());
    CHECK_LAST();
    CHECK(cudaMemcpy(p->dRes, res, sizeof res, cudaMemcpyHostToDevice));
    gemm_compare<<<stride_blocks(nc), 256, 0, gpu_stream()>>>(p->dC, p->dRef, p->dAbs, nc, cpu_gemm_tolerance(p->K),
                                                             p->dRes);
    CHECK_LAST();
    CHECK(cudaMemcpy(res, p->dRes, sizeof res, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(p->hC, p->dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    memset(m, 0, sizeof *m);
    if (res[0]) {
        m->count = (size_t)res[0];
        m->first = (size_t)res[1];
        CHECK(cudaMemcpy(&m->expected, p->dRef + m->first, sizeof(double), cudaMemcpyDeviceToHost));
        m->got = p->hC[m->first];
    }
    /* The CPU's comparison: it cannot find what the GPU's missed while the two references agree
     * (reference_self_check), but it does not lean on the GPU to say so. */
    if (verify_gemm_f32(p->hA, p->hB, p->hC, p->M, p->N, p->K, p->sample, p->seed, &mc) &&
        m->count == 0)
        *m = mc;
    return m->count;
}

int gemm_check(gemm_problem_t *p, const gemm_row_t *r, const char *size, check_tally_t *t)
{
    mismatch_t m;
    gemm_verify(p, r, &m);
    return check_report(t, r->label, size, &m, (size_t)p->M * p->N, (size_t)p->N, NULL, 0);
}

int gemm_time(gemm_problem_t *p, const gemm_row_t *r, const args_t *a, int flush, timing_t *t)
{
    mismatch_t m;
    bench_t b;
    cudaStream_t s = gpu_stream();
    if (gemm_verify(p, r, &m)) {
        report_failed(r->label, &m, (size_t)p->M * p->N, (size_t)p->N);
        return 0;
    }
    for (bench_start(&b, r->label, a, flush); bench_next(&b);) gemm_launch(p, r, s);
    *t = b.t;
    return 1;
}

void gemm_say_verification(int M, int N, int K)
{
    report_say("  Verified first: all of C against a double-precision reference computed on the GPU, and\n"
               "  %s against the CPU's;\n"
               "  bound |error| <= min(K, 4 sqrt K) x 2^-23 x sum |a_ik b_kj| (NaN never passes).\n",
               gemm_sample(M, N, K) ? "4096 elements and the corners" : "every element");
}

/* ---- the FP32 peak and the memory ceilings ------------------------------------------------------ */

double gemm_fp32_peak_say(const gpu_info_t *g)
{
    int clock_khz, lanes = gemm_fp32_lanes_per_sm(g->cc_major, g->cc_minor);
    double peak;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, g->device));
    peak = (double)g->sms * lanes * 2.0 * clock_khz / 1e6;
    report_say("  FP32 peak: %d SMs x %d FP32 lanes x 2 flops per FMA x %.0f MHz = %.0f GFLOP/s.\n", g->sms, lanes,
               clock_khz / 1000.0, peak);
    report_say("  (The clock is the boost clock cudaDevAttrClockRate reports; a GPU under a long load may run\n"
               "  lower, which lowers every %% of peak below alike.  Lanes per SM: 64 on 7.x and 8.0, 128 on\n"
               "  8.6, 8.9, 9.0, 10.x, 12.x.)\n");
    return peak;
}

/* The size of each of the ceilings' two buffers. */
static size_t ceiling_ws(const gpu_info_t *g, const args_t *a)
{
    return a->quick ? ((size_t)64 << 20) : stats_default_ws(g->l2_bytes, (size_t)256 << 20);
}

void gemm_ceilings(const gpu_info_t *g, const args_t *a)
{
    size_t ws = ceiling_ws(g, a);
    void *src, *dst;
    timing_t t;

    gpu_require_bytes(2 * ws, "the copy ceiling's two buffers");
    src = gpu_alloc(ws, "the copy source");
    dst = gpu_alloc(ws, "the copy destination");
    CHECK(cudaMemset(src, 0, ws));
    gpu_d2d_gbs(dst, src, ws, a, gpu_flush_wanted(g, a, 2 * ws), &t);   /* also the report's ceiling */
    report_say("\nExperiment 1: the memory ceilings (context only: a matrix product of this size is limited by\n"
               "  arithmetic and on-chip traffic, not by DRAM).\n");
    report_begin("sgemm_ceiling", "  cudaMemcpy device-to-device (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &t, 2.0 * ws, NAN);
    report_end("every other row's GB/s is compared with this copy and with the theoretical peak.");
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
}

/* ---- an SGEMM program's --check ------------------------------------------------------------------ */

int gemm_check_cases(const gemm_case_t *cases, int ncases, const gemm_row_t *rows, int nrows, const args_t *a)
{
    check_tally_t t = {0, 0, stdout};
    size_t most = 0, b;
    char size[96];
    int ci, k, half = 0;

    for (k = 0; k < nrows; k++) half |= rows[k].launch_half != NULL;
    for (ci = 0; ci < ncases; ci++) {
        const gemm_case_t *c = &cases[ci];
        if (c->big && a->quick) continue;
        b = gemm_problem_bytes(c->M, c->N, c->K, c->offset, half);
        if (b > most) most = b;
    }
    gpu_require_bytes(most, "the largest product --check makes (A, B, C, its reference)");
    for (ci = 0; ci < ncases; ci++) {
        const gemm_case_t *c = &cases[ci];
        gemm_problem_t p;
        if (c->big && a->quick) continue;
        gemm_problem_init(&p, c->M, c->N, c->K, c->offset, a->seed + 2 * (uint64_t)ci);
        if (half) round_inputs_to_half(&p);   /* every row on the same (rounded) inputs */
        snprintf(size, sizeof size, "M=%d N=%d K=%d%s%s", c->M, c->N, c->K, c->offset ? ", unaligned rows" : "",
                 p.sample ? ", CPU on a sample" : "");
        for (k = 0; k < nrows; k++) gemm_check(&p, &rows[k], size, &t);
        gemm_problem_free(&p);
    }
    return check_summary(&t);
}
