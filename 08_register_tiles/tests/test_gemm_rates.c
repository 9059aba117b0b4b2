/* Unit tests of gemm_rates.h (plain C99, no GPU): the lines of the SGEMM programs' short table. */
#include "gemm_rates.h"
#include "tests/unit.h"

static const gemm_rate_col_t COLS[2] = {{"% FP32 peak", 12, 1, 2000.0, 100.0}, {"% cuBLAS", 10, 1, 1600.0, 100.0}};

static void test_header(void)
{
    char buf[256];
    gemm_rate_header(buf, sizeof buf, COLS);
    EXPECT(strcmp(buf, "  kernel                        GFLOP/s  % FP32 peak   % cuBLAS\n") == 0);
}

static void test_line(void)
{
    char buf[256];
    gemm_rate_line(buf, sizeof buf, "sgemm_rt64 4x4 scalar", 1, 1000.0, COLS);
    EXPECT(strcmp(buf, "  sgemm_rt64 4x4 scalar            1000         50.0       62.5\n") == 0);
}

static void test_failed_reference(void)
{
    /* a column whose reference failed verification (base 0) shows "-"; decimals and scale as given */
    const gemm_rate_col_t cols[2] = {{"% cublasGemmEx", 16, 1, 0.0, 100.0}, {"x cublasSgemm", 14, 2, 500.0, 1.0}};
    char buf[256];
    gemm_rate_line(buf, sizeof buf, "wmma_tiled 128x128 smem", 1, 1234.4, cols);
    EXPECT(strcmp(buf, "  wmma_tiled 128x128 smem          1234                -           2.47\n") == 0);
}

static void test_failed_kernel(void)
{
    char buf[256];
    gemm_rate_line(buf, sizeof buf, "sgemm_rt128 8x8 float4", 0, 0.0, COLS);
    EXPECT(strcmp(buf, "  sgemm_rt128 8x8 float4     FAILED verification\n") == 0);
}

int main(void)
{
    run_test("gemm_rates: the header names the columns at their widths", test_header);
    run_test("gemm_rates: a kernel's GFLOP/s and its two ratios", test_line);
    run_test("gemm_rates: '-' where the reference failed; decimals per column", test_failed_reference);
    run_test("gemm_rates: a failed kernel's line says so, without figures", test_failed_kernel);
    return unit_status();
}
