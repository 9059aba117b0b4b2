/* Host unit tests of lesson 03's logic (offset_stride.h).  Plain C99. */
#include "offset_stride.h"

#include <stdio.h>
#include <stdlib.h>

static int failures = 0, failed_here = 0;
#define EXPECT(c) do { if (!(c)) { printf("  line %d: %s\n", __LINE__, #c); failed_here = 1; } } while (0)

static void run_test(const char *name, void (*fn)(void))
{
    failed_here = 0;
    fn();
    printf("%s %s\n", failed_here ? "FAIL" : "PASS", name);
    failures += failed_here;
}

static void test_touched_span(void)
{
    EXPECT(os_span(OS_OFFSET, 0, 10) == 10 && os_span(OS_OFFSET, 32, 10) == 42);
    EXPECT(os_span(OS_STRIDE, 1, 10) == 10 && os_span(OS_STRIDE, 3, 10) == 28 && os_span(OS_STRIDE, 32, 1) == 1);
    EXPECT(!os_touched(OS_OFFSET, 3, 10, 2) && os_touched(OS_OFFSET, 3, 10, 3) && os_touched(OS_OFFSET, 3, 10, 12));
    EXPECT(!os_touched(OS_OFFSET, 3, 10, 13));
    EXPECT(os_touched(OS_STRIDE, 3, 10, 0) && os_touched(OS_STRIDE, 3, 10, 27) && !os_touched(OS_STRIDE, 3, 10, 26));
    EXPECT(!os_touched(OS_STRIDE, 3, 10, 30) && !os_touched(OS_STRIDE, 3, 10, 1));
}

static void test_bytes_model(void)
{
    /* float: 4, 8, 16 bytes per element until the stride reaches a sector, then a sector each */
    EXPECT(os_bytes_per_elem(4, 1, 32) == 4 && os_bytes_per_elem(4, 4, 32) == 16);
    EXPECT(os_bytes_per_elem(4, 8, 32) == 32 && os_bytes_per_elem(4, 32, 32) == 32);
    EXPECT(os_bytes_per_elem(4, 12, 64) == 48 && os_bytes_per_elem(4, 16, 64) == 64);
    EXPECT(os_bytes_per_elem(16, 3, 32) == 32 && os_bytes_per_elem(16, 3, 64) == 48);
    /* DRAM bytes per useful byte with a 64-byte fetch: float 1, 2, 4, 8, 12, 12 */
    EXPECT(os_dram_per_useful(4, 1, 64) == 1.0 && os_dram_per_useful(4, 2, 64) == 2.0);
    EXPECT(os_dram_per_useful(4, 8, 64) == 8.0 && os_dram_per_useful(4, 16, 64) == 12.0);
    EXPECT(os_dram_per_useful(4, 32, 64) == 12.0);
    /* with a 32-byte fetch the float floor is 8: one sector read, one written, 8 useful bytes */
    EXPECT(os_dram_per_useful(4, 32, 32) == 8.0);
    EXPECT(os_dram_per_useful(8, 8, 64) == 6.0 && os_dram_per_useful(16, 2, 64) == 2.0);
    EXPECT(os_dram_per_useful(16, 32, 64) == 3.0);
}

static void test_warp_sectors(void)
{
    EXPECT(os_warp_sectors(4, 0, 1) == 4 && os_warp_sectors(4, 1, 1) == 5 && os_warp_sectors(4, 8, 1) == 4);
    EXPECT(os_warp_sectors(4, 0, 2) == 8 && os_warp_sectors(4, 0, 8) == 32 && os_warp_sectors(4, 0, 32) == 32);
    EXPECT(os_warp_sectors(8, 0, 1) == 8 && os_warp_sectors(8, 1, 1) == 9 && os_warp_sectors(8, 4, 1) == 8);
    EXPECT(os_warp_sectors(16, 0, 1) == 16 && os_warp_sectors(16, 1, 1) == 17 && os_warp_sectors(16, 0, 2) == 32);
    EXPECT(os_warp_sectors(4, 0, 3) == 12);   /* 32 floats 12 bytes apart span 384 bytes */
}

static void test_parse_list(void)
{
    int v[OS_MAX_LIST];
    EXPECT(os_parse_list("1,2,4,8,16,32", 1, 32, v, OS_MAX_LIST) == 6 && v[0] == 1 && v[5] == 32);
    EXPECT(os_parse_list("0", 0, 32, v, OS_MAX_LIST) == 1 && v[0] == 0);
    EXPECT(os_parse_list("7", 1, 32, v, OS_MAX_LIST) == 1 && v[0] == 7);
    EXPECT(os_parse_list("", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("0", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("33", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("1,,2", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("1,2,", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list(",1", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("1;2", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("-1", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("99999999999999", 1, 32, v, OS_MAX_LIST) == -1);
    EXPECT(os_parse_list("1,2,3", 1, 32, v, 2) == -1);
}

/* The check on a CPU simulation of one launch: right passes, wrong elements are found. */
static void simulate(int kind, int param, size_t n, float *buf, size_t total, uint64_t seed, int comps)
{
    size_t j;
    int c;
    for (j = 0; j < total; j++)
        for (c = 0; c < comps; c++) buf[j * comps + c] = rng_float(seed, (uint64_t)j * comps + c);
    for (j = 0; j < n; j++) {
        size_t at = kind == OS_OFFSET ? j + (size_t)param : j * (size_t)param;
        for (c = 0; c < comps; c++) buf[at * comps + c] += 1.0f;
    }
}

static void test_check(void)
{
    enum { N = 1000 };
    size_t total = os_span(OS_STRIDE, 7, N) + OS_GUARD;
    float *buf = (float *)malloc(total * 4 * sizeof(float));
    double *dbl = (double *)malloc(total * sizeof(double));
    mismatch_t m;
    size_t j;
    if (!buf || !dbl) { EXPECT(0); return; }

    simulate(OS_STRIDE, 7, N, buf, total, 11, 1);
    os_mismatch_init(&m);
    os_check_elems(OS_STRIDE, 7, N, 0, total, 1, 0, buf, 11, &m);
    EXPECT(m.count == 0);
    os_mismatch_init(&m);   /* a window in the middle, checked on its own */
    os_check_elems(OS_STRIDE, 7, N, 500, 100, 1, 0, buf + 500, 11, &m);
    EXPECT(m.count == 0);
    os_mismatch_init(&m);   /* the wrong stride: most touched elements are wrong */
    os_check_elems(OS_STRIDE, 6, N, 0, total, 1, 0, buf, 11, &m);
    EXPECT(m.count > N);
    buf[total - 1] += 1.0f; /* a write into the guard */
    os_mismatch_init(&m);
    os_check_elems(OS_STRIDE, 7, N, 0, total, 1, 0, buf, 11, &m);
    EXPECT(m.count == 1 && m.first == total - 1);

    simulate(OS_STRIDE, 3, N, buf, os_span(OS_STRIDE, 3, N) + OS_GUARD, 5, 4);   /* float4 */
    os_mismatch_init(&m);
    os_check_elems(OS_STRIDE, 3, N, 0, os_span(OS_STRIDE, 3, N) + OS_GUARD, 4, 0, buf, 5, &m);
    EXPECT(m.count == 0);
    buf[3 * 4 + 2] -= 1.0f; /* element 3, component z: missed */
    os_mismatch_init(&m);
    os_check_elems(OS_STRIDE, 3, N, 0, os_span(OS_STRIDE, 3, N) + OS_GUARD, 4, 0, buf, 5, &m);
    EXPECT(m.count == 1 && m.first == 3 && m.expected == m.got + 1.0);

    for (j = 0; j < N + 5 + OS_GUARD; j++)   /* double, offset 5 */
        dbl[j] = (double)rng_float(9, j) + (j >= 5 && j < N + 5 ? 1.0 : 0.0);
    os_mismatch_init(&m);
    os_check_elems(OS_OFFSET, 5, N, 0, N + 5 + OS_GUARD, 1, 1, dbl, 9, &m);
    EXPECT(m.count == 0);
    dbl[4] += 1.0;         /* one before the first touched element */
    os_mismatch_init(&m);
    os_check_elems(OS_OFFSET, 5, N, 0, N + 5 + OS_GUARD, 1, 1, dbl, 9, &m);
    EXPECT(m.count == 1 && m.first == 4);
    free(buf);
    free(dbl);
}

/* rng_float + 1 is exact in float: the premise of comparing after an increment with == */
static void test_increment_exact(void)
{
    uint64_t i;
    int ok = 1;
    for (i = 0; i < 100000; i++) {
        float v = rng_float(3, i);
        ok &= (double)(v + 1.0f) == (double)v + 1.0;
    }
    EXPECT(ok);
}

int main(void)
{
    run_test("03 os_touched / os_span: offsets and strides", test_touched_span);
    run_test("03 byte model: bytes per element, DRAM bytes per useful byte", test_bytes_model);
    run_test("03 os_warp_sectors: sectors per warp request", test_warp_sectors);
    run_test("03 os_parse_list: good lists and every kind of bad one", test_parse_list);
    run_test("03 os_check_elems: a correct launch passes, wrong elements are caught", test_check);
    run_test("03 rng_float + 1 is exact in float", test_increment_exact);
    return failures ? 1 : 0;
}
