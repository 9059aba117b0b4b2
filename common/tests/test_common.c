/* Host-side unit tests of common/: verification, timing summaries, bandwidth and peak
 * arithmetic, the CPU references (the argument parser's are in test_args.c).  Plain C99; one
 * PASS/FAIL line per test. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, setenv for the summary-file test */
#include "args.h"
#include "report.h"
#include "rng.h"
#include "stats.h"
#include "verify.h"
#include "tests/internal.h"
#include "tests/unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* The argument parser (args.h) has its own tests: tests/test_args.c. */

static void test_verify(void)
{
    float e[6] = {1, 2, 3, 4, 5, 6}, g[6] = {1, 2, 3, 4, 5, 6};
    mismatch_t m;
    char d[200];
    EXPECT(verify_f32(e, g, 6, 0, 0, &m) == 0 && m.count == 0);
    g[4] = 5.5f;
    EXPECT(verify_f32(e, g, 6, 0, 0, &m) == 1 && m.first == 4 && m.expected == 5.0 && m.got == 5.5);
    verify_describe(&m, 6, 3, d, sizeof d);
    EXPECT(strstr(d, "1 of 6 differ") && strstr(d, "row 1, col 1") && strstr(d, "expected 5") && strstr(d, "got 5.5"));
    verify_describe(&m, 6, 0, d, sizeof d);
    EXPECT(strstr(d, "first at [4]"));
    EXPECT(verify_f32(e, g, 6, 0.6, 0, &m) == 0);         /* within an absolute tolerance   */
    EXPECT(verify_f32(e, g, 6, 0, 0.11, &m) == 0);        /* within a relative tolerance    */
    EXPECT(verify_f32(e, g, 6, 0, 0.09, &m) == 1);
    g[4] = 5.0f;
    g[1] = NAN;
    g[5] = NAN;
    EXPECT(verify_f32(e, g, 6, 1e9, 1e9, &m) == 2 && m.first == 1);  /* NaN never matches */
    {
        unsigned int poisoned = 0xFFFFFFFFu;  /* what POISON_BYTE leaves in a float */
        float p;
        memcpy(&p, &poisoned, sizeof p);
        EXPECT(POISON_BYTE == 0xFF && isnan(p));
    }
}

static void test_verify_print(void)
{
    mismatch_t m = {0, 0, 0, 0};
    FILE *f = tmpfile();
    char line[300] = "";
    EXPECT(f != NULL);
    if (!f) return;
    EXPECT(verify_print(f, "kernel", "1x1", &m, 1, 0) == 0);
    m.count = 3; m.first = 7; m.expected = 1; m.got = 2;
    EXPECT(verify_print(f, "kernel", "33x31", &m, 1023, 33) == 1);
    rewind(f);
    EXPECT(fgets(line, sizeof line, f) && strstr(line, "PASS"));
    EXPECT(fgets(line, sizeof line, f) && strstr(line, "FAIL") && strstr(line, "3 of 1023") && strstr(line, "row 0, col 7"));
    fclose(f);
}

static void test_verify_summary(void)
{
    FILE *f = tmpfile();
    char line[100] = "";
    EXPECT(f != NULL);
    if (!f) return;
    EXPECT(verify_summary(f, 0, 12) == EXIT_OK);
    EXPECT(verify_summary(f, 2, 12) == EXIT_VERIFY);
    rewind(f);
    EXPECT(fgets(line, sizeof line, f) && !strcmp(line, "OK: 12 of 12 checks passed\n"));
    EXPECT(fgets(line, sizeof line, f) && !strcmp(line, "FAILED: 10 of 12 checks passed\n"));
    fclose(f);
}

static void test_summary(void)
{
    float odd[5] = {5, 1, 4, 2, 3}, even[4] = {4, 1, 3, 2}, one[1] = {7};
    timing_t t = stats_summary(odd, 5);
    EXPECT(t.median_ms == 3 && t.min_ms == 1 && t.max_ms == 5 && t.n == 5);
    EXPECT(odd[0] == 5 && odd[1] == 1);  /* input left alone */
    t = stats_summary(even, 4);
    EXPECT(t.median_ms == 2.5 && t.min_ms == 1 && t.max_ms == 4);
    t = stats_summary(one, 1);
    EXPECT(t.median_ms == 7 && t.min_ms == 7 && t.max_ms == 7);
}

static void test_ranges_apart(void)
{
    timing_t a = {2.0, 1.0, 3.0, 5, 1}, b = {4.0, 3.5, 5.0, 5, 1}, c = {3.3, 2.9, 3.6, 5, 1},
             d = {3.0, 3.0, 3.0, 5, 1};
    EXPECT(stats_ranges_apart(&a, &b) == 1 && stats_ranges_apart(&b, &a) == 1);   /* 1-3 against 3.5-5 */
    EXPECT(stats_ranges_apart(&a, &c) == 0 && stats_ranges_apart(&c, &b) == 0);   /* overlapping */
    EXPECT(stats_ranges_apart(&a, &d) == 0);        /* touching at 3.0: not apart */
    EXPECT(stats_ranges_apart(&a, &a) == 0);
}

static void test_tied_labels(void)
{
    /* best = 0 (1-3); 1 overlaps, 2 is apart, 3 overlaps but failed, 4 overlaps */
    timing_t t[5] = {{2.0, 1.0, 3.0, 5, 1}, {3.2, 2.9, 3.6, 5, 1}, {4.0, 3.5, 5.0, 5, 1},
                     {2.0, 1.5, 2.5, 5, 1}, {1.1, 0.9, 1.2, 5, 1}};
    const int ok[5] = {1, 1, 1, 0, 1};
    const char *const labels[5] = {"best", "close", "far", "failed", "faster"};
    char buf[64], small[8];
    EXPECT(stats_tied_labels(buf, sizeof buf, t, ok, labels, 5, 0) == 2 && !strcmp(buf, "close, faster"));
    EXPECT(stats_tied_labels(buf, sizeof buf, t, ok, labels, 3, 2) == 1 && !strcmp(buf, "close"));
    EXPECT(stats_tied_labels(buf, sizeof buf, t + 2, ok + 2, labels + 2, 1, 0) == 0 && buf[0] == '\0');
    /* a buffer too small is cut, still terminated, and the count still counts every tie */
    EXPECT(stats_tied_labels(small, sizeof small, t, ok, labels, 5, 0) == 2 && strlen(small) == sizeof small - 1);
}

static void test_bandwidth(void)
{
    EXPECT(fabs(stats_gbs(2e9, 1000.0) - 2.0) < 1e-12);          /* 2e9 B in 1 s = 2 GB/s */
    EXPECT(fabs(stats_gbs(1e6, 0.001) - 1000.0) < 1e-9);         /* 1 MB in 1 us = 1000 GB/s */
    EXPECT(stats_gbs(1e6, 0.0) == 0.0);
    /* the source's GDDR6 card: 7 GHz x 2 = 14 Gb/s per pin, 384-bit bus -> 672 GB/s */
    EXPECT(fabs(stats_peak_gbs(7000000, 384) - 672.0) < 1e-9);
    /* one 32-bit GDDR6 channel at 14 Gb/s per pin: 56 GB/s */
    EXPECT(fabs(stats_peak_gbs(7000000, 32) - 56.0) < 1e-9);
    /* H100 SXM as its attributes report it: 2619 MHz, 5120 bits */
    EXPECT(fabs(stats_peak_gbs(2619000, 5120) - 3352.32) < 1e-6);
}

static void test_flush_and_ws(void)
{
    size_t l2 = 50u << 20;
    EXPECT(stats_should_flush(FLUSH_AUTO, 64u << 20, l2) == 1);
    EXPECT(stats_should_flush(FLUSH_AUTO, (size_t)1 << 30, l2) == 0);
    EXPECT(stats_should_flush(FLUSH_ON, (size_t)1 << 30, l2) == 1);
    EXPECT(stats_should_flush(FLUSH_OFF, 1024, l2) == 0);
    EXPECT(stats_default_ws(l2, 0) == (size_t)512 << 20);         /* 8 x 50 MiB -> 512 MiB */
    EXPECT(stats_default_ws(1u << 20, 256u << 20) == (size_t)256 << 20);
    EXPECT(stats_default_ws(0, 1) == 1);
}

static void test_bar(void)
{
    char b[40];
    report_bar(100.0, b, sizeof b);
    EXPECT(strlen(b) == 25 && b[0] == '#');
    report_bar(0.0, b, sizeof b);
    EXPECT(strlen(b) == 0);
    report_bar(12.0, b, sizeof b);
    EXPECT(!strcmp(b, "###"));
    report_bar(500.0, b, sizeof b);
    EXPECT(strlen(b) == 31 && b[30] == '>');
    report_bar(-3.0, b, sizeof b);
    EXPECT(strlen(b) == 0);
}

/* The root `make run` summary reads LESSON_SUMMARY_FILE: every row must arrive there exactly as
 * --csv prints it, with its extra column, or GFLOP/s rows pass for bandwidth rows. */
static void test_summary_file(void)
{
    char path[] = "/tmp/test_summary_XXXXXX", line[6][512];
    timing_t t = {2.0, 1.5, 2.5, 5, 1};
    FILE *f;
    int fd = mkstemp(path), n = 0;
    EXPECT(fd >= 0);
    if (fd < 0) return;
    close(fd);
    setenv("LESSON_SUMMARY_FILE", path, 1);
    report_init("99_test", 1);  /* --csv: the rows go to stdout too, not a table */
    report_set_ceilings(2000.0, 3000.0);
    report_begin("product", "  a table", "GFLOP/s");
    report_row("a product", &t, 2e9, 1234.5);
    report_begin("copies", "  another table", NULL);
    report_row("a copy", &t, 2e9, NAN);
    report_failed("a broken kernel", NULL, 0, 0);
    fflush(NULL);
    f = fopen(path, "r");
    EXPECT(f != NULL);
    if (!f) return;
    while (n < 6 && fgets(line[n], sizeof line[n], f)) n++;
    fclose(f);
    remove(path);
    unsetenv("LESSON_SUMMARY_FILE");
    EXPECT(n == 6);
    EXPECT(!strncmp(line[0], "lesson,experiment,kernel,status,", 32));  /* the header, once */
    EXPECT(!strcmp(line[1], "99_test,ceiling,theoretical peak,ok,,,,,3000.0,150.0,100.0,,\n"));
    EXPECT(!strcmp(line[2], "99_test,ceiling,cudaMemcpy D2D,ok,,,,,2000.0,100.0,66.7,,\n"));
    EXPECT(!strcmp(line[3], "99_test,product,\"a product\",ok,2.00000,1.50000,2.50000,2000000000,1000.0,50.0,33.3,"
                            "\"GFLOP/s\",1234.50\n"));
    EXPECT(!strcmp(line[4], "99_test,copies,\"a copy\",ok,2.00000,1.50000,2.50000,2000000000,1000.0,50.0,33.3,,\n"));
    EXPECT(!strcmp(line[5], "99_test,copies,\"a broken kernel\",FAILED,,,,,,,,,\n"));
}

static void test_transpose(void)
{
    /* 2 rows x 3 columns -> 3 rows x 2 columns */
    float in[6] = {1, 2, 3, 4, 5, 6}, out[6], want[6] = {1, 4, 2, 5, 3, 6};
    float row[5] = {1, 2, 3, 4, 5}, col[5];
    int i;
    cpu_transpose_f32(in, out, 3, 2);
    for (i = 0; i < 6; i++) EXPECT(out[i] == want[i]);
    cpu_transpose_f32(row, col, 5, 1);  /* 1 x N and N x 1 are the same memory */
    for (i = 0; i < 5; i++) EXPECT(col[i] == row[i]);
    {   /* transposing twice gives the input back, for an odd non-square shape */
        static float a[37 * 11], b[37 * 11], c[37 * 11];
        for (i = 0; i < 37 * 11; i++) a[i] = (float)i;
        cpu_transpose_f32(a, b, 37, 11);
        cpu_transpose_f32(b, c, 11, 37);
        for (i = 0; i < 37 * 11; i++) EXPECT(c[i] == a[i]);
        EXPECT(b[1] == 37.0f);  /* out[0][1] = in[1][0] */
    }
}

static void test_rng(void)
{
    uint64_t i;
    int in_range = 1, distinct = 0, negative = 0;
    for (i = 0; i < 10000; i++) {
        float x = rng_float(42, i);
        if (!(x >= -1.0f && x < 1.0f)) in_range = 0;
        if (x != rng_float(43, i)) distinct++;
        if (x < 0) negative++;
    }
    EXPECT(in_range);
    EXPECT(distinct > 9900);                  /* another seed, another stream     */
    EXPECT(negative > 4500 && negative < 5500);
    EXPECT(rng_float(42, 7) == rng_float(42, 7));
    EXPECT(rng_float(42, 7) * 8388608.0f == (float)(int)(rng_float(42, 7) * 8388608.0f));  /* on the 2^-23 grid */
}

int main(void)
{
    run_test("verify: exact/tolerance compare, NaN, first mismatch", test_verify);
    run_test("verify: PASS/FAIL lines of a --check sweep", test_verify_print);
    run_test("verify: the last line of a sweep and its exit code", test_verify_summary);
    run_test("stats: median/min/max for odd, even and single counts", test_summary);
    run_test("stats: min-max ranges apart or overlapping (a tie)", test_ranges_apart);
    run_test("stats: the labels tied with the fastest (failed rows and the fastest left out)", test_tied_labels);
    run_test("stats: GB/s and theoretical peak arithmetic", test_bandwidth);
    run_test("stats: L2 flush decision and default working set", test_flush_and_ws);
    run_test("report: text bar", test_bar);
    run_test("report: LESSON_SUMMARY_FILE rows are the --csv rows", test_summary_file);
    run_test("cpu_transpose_f32: non-square, 1xN, round trip", test_transpose);
    run_test("rng_float: range, determinism, seeds", test_rng);
    return unit_status();
}
