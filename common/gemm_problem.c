/* The plain-C half of gemm_problem.h: the size options, how much of C the CPU checks, the FP32 lanes. */
#include "gemm_problem.h"
#include "tests/internal.h"

void gemm_size_args_init(gemm_size_args_t *s)
{
    const lesson_opt_t opts[GEMM_SIZE_NOPTS] = {
        {"--mnk", OPT_INT, &s->mnk, 1, GEMM_DIM_MAX, "N", "M = N = K = N (default 4096; 1024 with --quick)"},
        {"--m", OPT_INT, &s->m, 1, GEMM_DIM_MAX, "M", "rows of A and C (overrides --mnk)"},
        {"--n", OPT_INT, &s->n, 1, GEMM_DIM_MAX, "N", "columns of B and C (overrides --mnk)"},
        {"--k", OPT_INT, &s->k, 1, GEMM_DIM_MAX, "K", "columns of A, rows of B (overrides --mnk)"},
    };
    int i;
    s->mnk = s->m = s->n = s->k = 0;
    for (i = 0; i < GEMM_SIZE_NOPTS; i++) s->opts[i] = opts[i];
}

void gemm_size_resolve(const gemm_size_args_t *s, int quick, int *M, int *N, int *K)
{
    int def = s->mnk ? s->mnk : (quick ? 1024 : 4096);
    *M = s->m ? s->m : def;
    *N = s->n ? s->n : def;
    *K = s->k ? s->k : def;
}

void gemm_args_or_exit(int argc, char **argv, args_t *a, const char *summary, int *M, int *N, int *K)
{
    static gemm_size_args_t size;   /* the options point into it for as long as the program runs */
    gemm_size_args_init(&size);
    args_without("--block");
    args_parse_or_exit(argc, argv, a, summary, NULL, size.opts, GEMM_SIZE_NOPTS);
    gemm_size_resolve(&size, a->quick, M, N, K);
}

size_t gemm_sample(int M, int N, int K)
{
    return (double)M * N * K <= GEMM_FULL_CHECK_MACS ? 0 : GEMM_SAMPLE;
}

int gemm_fp32_lanes_per_sm(int major, int minor)
{
    return (major < 8 || (major == 8 && minor == 0)) ? 64 : 128;
}

size_t gemm_problem_bytes(int M, int N, int K, int offset, int half)
{
    size_t na = (size_t)M * K + offset, nb = (size_t)K * N + offset, nc = (size_t)M * N;
    size_t bytes = (na + nb + nc + offset) * sizeof(float) + nc * 2 * sizeof(double) + 2 * sizeof(unsigned long long);
    if (half) bytes += (na + nb) * 2;   /* sizeof(__half) */
    return bytes;
}
