/* The CUDA half of gemm_problem.h: a product's matrices, its verification, the --check sweep and
 * the memory ceilings of an SGEMM program. */
#include "checked_bench.h"
#include "cpu_gemm.h"
#include "cuda_check.h"
#include "exitcodes.h"
#include "gemm_problem.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void gemm_problem_init(gemm_problem_t *p, int M, int N, int K, int offset, uint64_t seed)
{
    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    p->M = M;
    p->N = N;
    p->K = K;
    p->seed = seed;
    p->baseA = (float *)gpu_alloc((na + offset) * sizeof(float), "A");
    p->baseB = (float *)gpu_alloc((nb + offset) * sizeof(float), "B");
    p->baseC = (float *)gpu_alloc((nc + offset) * sizeof(float), "C");
    p->dA = p->baseA + offset;
    p->dB = p->baseB + offset;
    p->dC = p->baseC + offset;
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
    free(p->hA);
    free(p->hB);
    free(p->hC);
}

size_t gemm_problem_verify(gemm_problem_t *p, launch_fn_t launch, void *ctx, mismatch_t *m)
{
    size_t nc = (size_t)p->M * p->N;
    gpu_poison(p->dC, nc * sizeof(float));
    launch(ctx);
    CHECK_LAST();
    CHECK(cudaMemcpy(p->hC, p->dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
    return verify_gemm_f32(p->hA, p->hB, p->hC, p->M, p->N, p->K, gemm_sample(p->M, p->N, p->K), p->seed, m);
}

int gemm_problem_verified(gemm_problem_t *p, const char *what, launch_fn_t launch, void *ctx)
{
    mismatch_t m;
    char d[200];
    if (gemm_problem_verify(p, launch, ctx, &m) == 0) return 1;
    verify_describe(&m, gemm_checked_elems(p->M, p->N, p->K), (size_t)p->N, d, sizeof d);
    fprintf(stderr, "%s: FAILED verification: %s\n", what, d);
    return 0;
}

int gemm_verify_then_time(gemm_problem_t *p, const char *label, const char *what, launch_fn_t launch, void *ctx,
                          const args_t *a, int flush, timing_t *t)
{
    if (!gemm_problem_verified(p, what, launch, ctx)) return 0;
    *t = bench_median_ms(label, launch, ctx, a, flush);
    return 1;
}

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

void gemm_say_verification(int M, int N, int K)
{
    report_say("  Verified first against a double-precision CPU reference (%s),\n"
               "  bound |error| <= K x 2^-23 x sum |a_ik b_kj|.\n",
               gemm_sample(M, N, K) ? "a sample of 4096 elements and the corners" : "every element");
}

void gemm_report_ceilings(const gpu_info_t *g, const args_t *a)
{
    size_t ws = a->quick ? ((size_t)64 << 20) : stats_default_ws(g->l2_bytes, (size_t)256 << 20);
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

void gemm_check_launch(gemm_problem_t *p, const char *what, const char *size, launch_fn_t launch, void *ctx,
                       gemm_tally_t *t)
{
    mismatch_t m;
    gemm_problem_verify(p, launch, ctx, &m);
    t->fails += verify_print(stdout, what, size, &m, gemm_checked_elems(p->M, p->N, p->K), (size_t)p->N);
    t->checks++;
}

int gemm_run_checks(const gemm_case_t *cases, int ncases, const args_t *a, gemm_check_fn_t check, void *user)
{
    gemm_tally_t t = {0, 0};
    char size[96];
    int ci;

    for (ci = 0; ci < ncases; ci++) {
        gemm_problem_t p;
        int M = cases[ci].M, N = cases[ci].N, K = cases[ci].K;
        if (cases[ci].big && a->quick) continue;
        gemm_problem_init(&p, M, N, K, cases[ci].offset, a->seed + 2 * (uint64_t)ci);
        snprintf(size, sizeof size, "M=%d N=%d K=%d%s%s", M, N, K, cases[ci].offset ? ", unaligned rows" : "",
                 gemm_sample(M, N, K) ? ", sampled" : "");
        check(&p, size, user, &t);
        gemm_problem_free(&p);
    }
    return verify_summary(stdout, t.fails, t.checks);
}
