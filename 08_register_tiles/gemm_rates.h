/* The short table the SGEMM programs of this lesson (parts 2 and 3) print after their measured one:
 * per kernel its label, GFLOP/s and two ratio columns (% of the FP32 peak and of cuBLAS in part 2,
 * % of cublasGemmEx and x cublasSgemm in part 3), or "FAILED verification".  Plain C99 (unit-tested
 * in tests/test_gemm_rates.c); on the terminal only (report_say: silent under --csv). */
#ifndef LESSON08_GEMM_RATES_H
#define LESSON08_GEMM_RATES_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "report.h"

/* One ratio column: its title and width, the decimals, and what it shows of a kernel's GFLOP/s gf:
 * scale x gf / base, or "-" where base <= 0 (its reference failed verification). */
typedef struct {
    const char *title;
    int width, decimals;
    double base, scale;
} gemm_rate_col_t;

/* The table's header line into buf (len bytes, at least 128). */
static inline void gemm_rate_header(char *buf, size_t len, const gemm_rate_col_t cols[2])
{
    snprintf(buf, len, "  %-26s %10s %*s %*s\n", "kernel", "GFLOP/s", cols[0].width, cols[0].title, cols[1].width,
             cols[1].title);
}

/* One kernel's line into buf (len bytes, at least 128): ok = 0 for a kernel that failed verification. */
static inline void gemm_rate_line(char *buf, size_t len, const char *label, int ok, double gf,
                                  const gemm_rate_col_t cols[2])
{
    size_t used;
    int j;
    if (!ok) {
        snprintf(buf, len, "  %-26s FAILED verification\n", label);
        return;
    }
    snprintf(buf, len, "  %-26s %10.0f", label, gf);
    for (j = 0; j < 2; j++) {
        used = strlen(buf);
        if (cols[j].base > 0)
            snprintf(buf + used, len - used, " %*.*f", cols[j].width, cols[j].decimals,
                     cols[j].scale * gf / cols[j].base);
        else
            snprintf(buf + used, len - used, " %*s", cols[j].width, "-");
    }
    used = strlen(buf);
    snprintf(buf + used, len - used, "\n");
}

/* The whole table: a blank line, the header, then labels[i], ok[i], gf[i] for i < n. */
static inline void gemm_say_rates(const char *const labels[], const int ok[], const double gf[], int n,
                                  const gemm_rate_col_t cols[2])
{
    char line[256];
    int i;
    gemm_rate_header(line, sizeof line, cols);
    report_say("\n%s", line);
    for (i = 0; i < n; i++) {
        gemm_rate_line(line, sizeof line, labels[i], ok[i], gf[i], cols);
        report_say("%s", line);
    }
}

#endif
