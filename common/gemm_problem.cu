/* The CUDA half of gemm_problem.h: a product's matrices, its reference and check, the half inputs of
 * 08 part 3, the start, --check sweep (with its planted faults) and end of an SGEMM program, and
 * its memory ceilings.  The kernels here are infrastructure (reference, comparison, rounding, the
 * planted faults), none a lesson's subject. */
#include "bench.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gemm_problem.h"
#include "grid.cuh"
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

void gemm_problem_round_to_half(gemm_problem_t *p)
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

/* check_t.run for a product (gemm_problem.h says what it does). */
static size_t run_gemm(const check_t *c, launch_fn_t launch, void *ctx, mismatch_t *m, size_t *n, size_t *width)
{
    gemm_problem_t *p = (gemm_problem_t *)c->user;
    size_t nc = (size_t)p->M * p->N;
    unsigned long long res[2] = {0, ~0ull};
    mismatch_t mc;

    reference_ready(p);
    gpu_poison(p->dC, nc * sizeof(float));
    launch(ctx, gpu_stream());
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
    if (verify_gemm_f32(p->hA, p->hB, p->hC, p->M, p->N, p->K, gemm_sample(p->M, p->N, p->K), p->seed, &mc) &&
        m->count == 0)
        *m = mc;
    *n = nc;
    *width = (size_t)p->N;
    return m->count;
}

check_t gemm_check_of(gemm_problem_t *p)
{
    check_t c;
    memset(&c, 0, sizeof c);
    c.run = run_gemm;
    c.d_out = p->dC;
    c.got = p->hC;
    c.n = (size_t)p->M * p->N;
    c.width = (size_t)p->N;
    c.user = p;
    return c;
}

size_t gemm_problem_verify(gemm_problem_t *p, launch_fn_t launch, void *ctx, mismatch_t *m)
{
    check_t c = gemm_check_of(p);
    size_t n, width;
    return c.run(&c, launch, ctx, m, &n, &width);
}

void gemm_say_verification(int M, int N, int K)
{
    report_say("  Verified first: all of C against a double-precision reference computed on the GPU, and\n"
               "  %s against the CPU's;\n"
               "  bound |error| <= min(K, 4 sqrt K) x 2^-23 x sum |a_ik b_kj| (NaN never passes).\n",
               gemm_sample(M, N, K) ? "4096 elements and the corners" : "every element");
}

void gemm_say_rates(const char *const labels[], const int ok[], const double gf[], int n,
                    const gemm_rate_col_t cols[2])
{
    int ki, j;
    report_say("\n  %-26s %10s %*s %*s\n", "kernel", "GFLOP/s", cols[0].width, cols[0].title, cols[1].width,
               cols[1].title);
    for (ki = 0; ki < n; ki++) {
        if (!ok[ki]) {
            report_say("  %-26s FAILED verification\n", labels[ki]);
            continue;
        }
        report_say("  %-26s %10.0f", labels[ki], gf[ki]);
        for (j = 0; j < 2; j++) {
            if (cols[j].base > 0)
                report_say(" %*.*f", cols[j].width, cols[j].decimals, cols[j].scale * gf[ki] / cols[j].base);
            else
                report_say(" %*s", cols[j].width, "-");
        }
        report_say("\n");
    }
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

/* The memory ceilings of an SGEMM program (gemm_program_main, 2). */
static void gemm_report_ceilings(const gpu_info_t *g, const args_t *a)
{
    size_t ws = ceiling_ws(g, a);
    void *src = gpu_alloc(ws, "the copy source"), *dst = gpu_alloc(ws, "the copy destination");
    timing_t t;
    double d2d;

    CHECK(cudaMemset(src, 0, ws));
    d2d = gpu_d2d_gbs(dst, src, ws, a, gpu_flush_wanted(g, a, 2 * ws), &t);
    report_set_ceilings(d2d, g->peak_gbs);
    report_say("\nExperiment 1: the memory ceilings (context only: a matrix product of this size is limited by\n"
               "  arithmetic and on-chip traffic, not by DRAM).\n");
    report_begin("sgemm_ceiling", "  cudaMemcpy device-to-device (GB/s = (bytes read + bytes written) / time):", NULL);
    report_row("cudaMemcpy D2D", &t, 2.0 * ws, NAN);
    report_end("every other row's GB/s is compared with this copy and with the theoretical peak.");
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
}

/* ---- --check's planted faults -------------------------------------------------------------------- */

/* A fault planted on a correct kernel's output, for --check to show that the check catches it.
 * Neither is a kernel with the bug: each runs the correct kernel, then leaves C as the faulty kernel
 * would have left it. */
enum { PLANT_TILE, PLANT_DROP_K };

typedef struct {
    launch_fn_t launch;   /* the correct kernel */
    gemm_ctx_t ctx;
    int fault;
} planted_t;

/* PLANT_DROP_K: C[r][c] -= a_r,kd b_kd,c in float, i.e. the sum without its term kd (to one
 * rounding), in every element. */
__global__ void gemm_planted_drop_k(const float *A, const float *B, float *C, int M, int N, int K, int kd)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) C[(size_t)row * N + col] -= A[(size_t)row * K + kd] * B[(size_t)kd * N + col];
}

/* The 64 x 64 tile PLANT_TILE leaves unwritten: the one that holds row M / 2 and column N / 3 (an
 * inner tile, away from the corners every sample checks), cut at C's edges. */
static void planted_tile(const gemm_problem_t *p, int *r0, int *c0, int *h, int *w)
{
    *r0 = p->M / 2 / 64 * 64;
    *c0 = p->N / 3 / 64 * 64;
    *h = p->M - *r0 < 64 ? p->M - *r0 : 64;
    *w = p->N - *c0 < 64 ? p->N - *c0 : 64;
}

static void launch_planted(void *v, cudaStream_t s)
{
    const planted_t *f = (const planted_t *)v;
    const gemm_problem_t *p = f->ctx.p;
    f->launch((void *)&f->ctx, s);
    if (f->fault == PLANT_TILE) {
        int r0, c0, h, w;
        planted_tile(p, &r0, &c0, &h, &w);
        /* poisoned again: as if the kernel had never written it */
        CHECK(cudaMemset2DAsync(p->dC + (size_t)r0 * p->N + c0, (size_t)p->N * sizeof(float), POISON_BYTE,
                                (size_t)w * sizeof(float), (size_t)h, s));
    } else {
        dim3 block(32, 8);
        gemm_planted_drop_k<<<dim3(div_up(p->N, block.x), div_up(p->M, block.y)), block, 0, s>>>(
            p->dA, p->dB, p->dC, p->M, p->N, p->K, p->K - 1);
    }
}

/* One planted line: PASS when the check caught the fault (the output differs), FAIL when it passed
 * the faulty output. */
static void check_planted(gemm_problem_t *p, const char *on, int fault, const char *size, check_tally_t *t,
                          launch_fn_t launch)
{
    check_t c = gemm_check_of(p);
    planted_t f;
    mismatch_t m;
    size_t n, width;
    char what[160], d[200];
    int caught;

    memset(&f, 0, sizeof f);
    f.launch = launch;
    f.ctx.p = p;
    f.fault = fault;
    snprintf(what, sizeof what, "planted fault: %s %s", on,
             fault == PLANT_TILE ? "with a 64x64 tile of C unwritten" : "without its last k-term");
    caught = c.run(&c, launch_planted, &f, &m, &n, &width) != 0;
    if (caught) {
        verify_describe(&m, n, width, d, sizeof d);
        printf("  PASS  %s %s: caught, %s\n", what, size, d);
    } else {
        printf("  FAIL  %s %s: NOT caught, the check passed this faulty output\n", what, size);
    }
    t->fails += !caught;
    t->checks++;
}

/* ---- an SGEMM program ------------------------------------------------------------------------- */

/* The planted faults' shapes: small odd ones, and the timed size (big). */
static const gemm_case_t PLANTED_CASES[] = {
    {1, 1, 1, 0, 0}, {33, 31, 17, 0, 0}, {127, 129, 131, 0, 0}, {1, 257, 513, 0, 0}, {4096, 4096, 4096, 0, 1},
};
#define NPLANTED ((int)(sizeof PLANTED_CASES / sizeof PLANTED_CASES[0]))

static void case_size(const gemm_case_t *k, char *size, size_t len)
{
    snprintf(size, len, "M=%d N=%d K=%d%s%s", k->M, k->N, k->K, k->offset ? ", unaligned rows" : "",
             gemm_sample(k->M, k->N, k->K) ? ", CPU on a sample" : "");
}

/* --check (gemm_program_main, 2). */
static int gemm_run_checks(const gemm_program_t *prog, const args_t *a, void *user)
{
    check_tally_t t = {0, 0};
    char size[96];
    int ci, fault;

    for (ci = 0; ci < prog->ncases; ci++) {
        const gemm_case_t *k = &prog->cases[ci];
        gemm_problem_t p;
        if (k->big && a->quick) continue;
        gemm_problem_init(&p, k->M, k->N, k->K, k->offset, a->seed + 2 * (uint64_t)ci);
        case_size(k, size, sizeof size);
        prog->check(&p, size, user, &t);
        gemm_problem_free(&p);
    }
    if (prog->planted_on) {
        printf("Planted faults (each line PASSes when the check catches the fault):\n");
        for (ci = 0; ci < NPLANTED; ci++) {
            const gemm_case_t *k = &PLANTED_CASES[ci];
            gemm_problem_t p;
            if (k->big && a->quick) continue;
            gemm_problem_init(&p, k->M, k->N, k->K, k->offset, a->seed + 2 * (uint64_t)(prog->ncases + ci));
            case_size(k, size, sizeof size);
            for (fault = PLANT_TILE; fault <= PLANT_DROP_K; fault++)
                check_planted(&p, prog->planted_on, fault, size, &t, prog->planted_launch);
            gemm_problem_free(&p);
        }
    }
    return verify_summary(stdout, t.fails, t.checks);
}

/* The most GPU memory --check holds at once: its largest shape (planted ones included). */
static size_t checks_bytes(const gemm_program_t *prog, const args_t *a)
{
    size_t most = 0, b;
    int ci;
    for (ci = 0; ci < prog->ncases + (prog->planted_on ? NPLANTED : 0); ci++) {
        const gemm_case_t *k = ci < prog->ncases ? &prog->cases[ci] : &PLANTED_CASES[ci - prog->ncases];
        if (k->big && a->quick) continue;
        b = gemm_problem_bytes(k->M, k->N, k->K, k->offset, prog->half);
        if (b > most) most = b;
    }
    return most;
}

/* gemm_program_main, 1. */
static void gemm_program_start(const gemm_program_t *prog, int argc, char **argv, args_t *a, gpu_info_t *g,
                               int *M, int *N, int *K)
{
    static gemm_size_args_t size;   /* the options point into it, for as long as the program runs */
    size_t need;

    gemm_size_args_init(&size);
    args_without("--block");
    args_parse_or_exit(argc, argv, a, prog->summary, NULL, size.opts, GEMM_SIZE_NOPTS);
    gemm_size_resolve(&size, a->quick, M, N, K);
    report_init(prog->lesson, a->csv);

    gpu_init(g);
    gpu_print_header(g, prog->title, a);
    if (a->check) {
        gpu_require_bytes(checks_bytes(prog, a), "the largest product --check makes (A, B, C, its reference)");
    } else {
        need = gemm_problem_bytes(*M, *N, *K, 0, prog->half);
        if (2 * ceiling_ws(g, a) > need) need = 2 * ceiling_ws(g, a);
        gpu_require_bytes(need, "the product (A, B, C and its reference in double)");
    }
}

int gemm_program_main(const gemm_program_t *prog, int argc, char **argv)
{
    args_t a;
    gpu_info_t g;
    int M, N, K, status;
    void *user;

    gemm_program_start(prog, argc, argv, &a, &g, &M, &N, &K);
    user = prog->open ? prog->open() : NULL;
    if (a.check) {
        status = gemm_run_checks(prog, &a, user);
    } else {
        gemm_report_ceilings(&g, &a);
        status = prog->experiments(&g, &a, M, N, K, user);
    }
    if (prog->close) prog->close(user);
    if (a.check) {
        gpu_finish();
        return status;
    }
    return gpu_finish_status(status);
}
