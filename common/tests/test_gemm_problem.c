/* Unit tests of the plain-C half of gemm_problem.h: the --mnk/--m/--n/--k options, the size they
 * give, how much of C is checked, the memory a product takes, and the FP32 lanes.  Plain C99, one PASS/FAIL line each. */
#include "args.h"
#include "gemm_problem.h"

#include "tests/internal.h"
#include "tests/unit.h"

#include <stdio.h>
#include <string.h>

/* One PASS/FAIL line for the expectations since failed_here was last cleared. */
static void report(const char *name)
{
    printf("%s %s\n", failed_here ? "FAIL" : "PASS", name);
    failures += failed_here;
}

/* parses "prog <line>" (split on spaces) with the size options of s */
static int parse(const char *line, args_t *a, gemm_size_args_t *s, char *err)
{
    char buf[256], *argv[32];
    int argc = unit_argv(line, buf, sizeof buf, argv, 32);
    gemm_size_args_init(s);
    return args_parse(argc, argv, a, s->opts, GEMM_SIZE_NOPTS, err, 256);
}

int main(void)
{
    gemm_size_args_t s;
    args_t a;
    char err[256];
    int M = -1, N = -1, K = -1, i;
    static const char *names[GEMM_SIZE_NOPTS] = {"--mnk", "--m", "--n", "--k"};

    gemm_size_args_init(&s);
    for (i = 0; i < GEMM_SIZE_NOPTS; i++)
        EXPECT(!strcmp(s.opts[i].name, names[i]) && s.opts[i].kind == OPT_INT && s.opts[i].min == 1 &&
               s.opts[i].max == GEMM_DIM_MAX && s.opts[i].help != NULL);
    EXPECT(s.opts[0].dst == &s.mnk && s.opts[1].dst == &s.m && s.opts[2].dst == &s.n && s.opts[3].dst == &s.k);
    report("gemm size options: --mnk --m --n --k, 1 to GEMM_DIM_MAX, each writing its own field");

    failed_here = 0;
    {   /* the command line, then the M, N, K it gives */
        static const struct { const char *line; int M, N, K; } sizes[] = {
            {"", 4096, 4096, 4096},
            {"--quick", 1024, 1024, 1024},
            {"--mnk 300 --quick", 300, 300, 300},
            {"--k 7 --mnk 300 --m 1", 1, 300, 7},   /* --m/--n/--k win over --mnk */
            {"--n 16384 --quick", 1024, 16384, 1024},
            {"--m 5 --n 6 --k 7", 5, 6, 7},
        };
        for (i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) {
            M = N = K = -1;
            EXPECT(parse(sizes[i].line, &a, &s, err) == ARGS_OK);
            gemm_size_resolve(&s, a.quick, &M, &N, &K);
            if (M != sizes[i].M || N != sizes[i].N || K != sizes[i].K) {
                printf("  '%s': %d x %d x %d\n", sizes[i].line, M, N, K);
                failed_here = 1;
            }
        }
    }
    report("gemm size: defaults 4096 and 1024 (--quick), --mnk, --m/--n/--k override it");

    failed_here = 0;
    EXPECT(parse("--mnk 0", &a, &s, err) == ARGS_ERROR && strstr(err, "--mnk") && strstr(err, "16384"));
    EXPECT(parse("--m 16385", &a, &s, err) == ARGS_ERROR && strstr(err, "16385"));
    EXPECT(parse("--k", &a, &s, err) == ARGS_ERROR && strstr(err, "--k"));
    EXPECT(parse("--n -3", &a, &s, err) == ARGS_ERROR && strstr(err, "-3"));
    report("gemm size: out-of-range and missing values are rejected, naming the token");

    failed_here = 0;
    EXPECT(gemm_sample(1, 1, 1) == 0);
    EXPECT(gemm_sample(512, 512, 1024) == 0);                  /* exactly 2^28 multiply-adds: every element */
    EXPECT(gemm_sample(647, 647, 647) == GEMM_SAMPLE);         /* 647^3 > 2^28: a sample plus the corners */
    EXPECT(gemm_sample(16384, 16384, 16384) == GEMM_SAMPLE);   /* 2^42: no int overflow */
    EXPECT(gemm_sample(8191, 4097, 129) == GEMM_SAMPLE && gemm_sample(1000, 777, 333) == 0);
    /* the GPU compares every element at every size */
    report("gemm check size: the CPU on every element up to 2^28 multiply-adds, on GEMM_SAMPLE + 4 above; "
           "the GPU on all");

    failed_here = 0;  /* A, B, C in float, the reference (value, sum |ab|) in double, 16 bytes of result */
    EXPECT(gemm_problem_bytes(1, 1, 1, 0, 0) == 3 * 4 + 16 + 16);
    EXPECT(gemm_problem_bytes(4096, 4096, 4096, 0, 0) == ((size_t)3 << 26) + ((size_t)1 << 28) + 16);
    EXPECT(gemm_problem_bytes(4096, 4096, 4096, 0, 1) == ((size_t)3 << 26) + ((size_t)1 << 28) + 16 + ((size_t)1 << 26));
    EXPECT(gemm_problem_bytes(2, 3, 5, 1, 0) == (11 + 16 + 7) * 4 + 6 * 16 + 16);   /* offset 1 on each matrix */
    EXPECT(gemm_problem_bytes(16384, 16384, 16384, 0, 1) == ((size_t)3 << 30) + ((size_t)1 << 32) + 16 + ((size_t)1 << 30));
    report("gemm_problem_bytes: matrices, reference and half copies, in size_t");

    failed_here = 0;  /* V100 7.0, T4 7.5, A100 8.0: 64 lanes; A10 8.6, L4 8.9, H100 9.0, B200 10.0, 12.0: 128 */
    EXPECT(gemm_fp32_lanes_per_sm(7, 0) == 64 && gemm_fp32_lanes_per_sm(7, 5) == 64);
    EXPECT(gemm_fp32_lanes_per_sm(8, 0) == 64 && gemm_fp32_lanes_per_sm(8, 6) == 128);
    EXPECT(gemm_fp32_lanes_per_sm(8, 9) == 128 && gemm_fp32_lanes_per_sm(9, 0) == 128);
    EXPECT(gemm_fp32_lanes_per_sm(10, 0) == 128 && gemm_fp32_lanes_per_sm(12, 0) == 128);
    report("gemm_fp32_lanes_per_sm: 64 up to the A100, 128 from 8.6 on");
    return unit_status();
}
