/* Result tables and CSV rows (see report.h). */
#include "report.h"
#include "tests/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSV_HEADER "lesson,experiment,kernel,status,ms_median,ms_min,ms_max,bytes,gbs,pct_d2d,pct_peak,extra_name,extra\n"

static struct {
    const char *lesson;
    int csv, csv_header_done;
    double d2d_gbs, peak_gbs;
    const char *experiment, *extra_name;
    FILE *summary;  /* LESSON_SUMMARY_FILE: every row is appended there too, as CSV */
} R = {"lesson", 0, 0, 0.0, 0.0, "", NULL, NULL};

static void summary_close(void)
{
    if (R.summary) fclose(R.summary);
    R.summary = NULL;
}

void report_init(const char *lesson, int csv)
{
    const char *path = getenv("LESSON_SUMMARY_FILE");
    R.lesson = lesson;
    R.csv = csv;
    /* the root `make run` collects every lesson's rows this way for its one-page summary */
    if (path && *path && !R.summary) {
        R.summary = fopen(path, "a");
        if (R.summary) {
            atexit(summary_close);
            /* the first program to write the file gives it the CSV header */
            if (fseek(R.summary, 0, SEEK_END) == 0 && ftell(R.summary) == 0) fputs(CSV_HEADER, R.summary);
        }
    }
}

static void csv_header(void)
{
    if (R.csv_header_done) return;
    fputs(CSV_HEADER, stdout);
    R.csv_header_done = 1;
}

/* The two ceiling rows of the CSV, to stdout under --csv and to the summary file. */
static void report_csv_ceilings(FILE *f)
{
    fprintf(f, "%s,ceiling,theoretical peak,ok,,,,,%.1f,%.1f,100.0,,\n", R.lesson, R.peak_gbs,
            R.d2d_gbs > 0 ? 100.0 * R.peak_gbs / R.d2d_gbs : 0.0);
    if (R.d2d_gbs > 0)
        fprintf(f, "%s,ceiling,cudaMemcpy D2D,ok,,,,,%.1f,100.0,%.1f,,\n", R.lesson, R.d2d_gbs,
                100.0 * R.d2d_gbs / R.peak_gbs);
}

void report_set_ceilings(double d2d_gbs, double peak_gbs)
{
    R.d2d_gbs = d2d_gbs;
    R.peak_gbs = peak_gbs;
    if (R.summary) report_csv_ceilings(R.summary);
    if (R.csv) {
        csv_header();
        report_csv_ceilings(stdout);
    }
}

void report_say(const char *fmt, ...)
{
    va_list ap;
    if (R.csv) return;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void report_bar(double pct, char *buf, size_t len)
{
    int n = (int)(pct / 4.0 + 0.5), i, cut = 0;
    if (n < 0) n = 0;
    if (n > 30) { n = 30; cut = 1; }
    if ((size_t)n + 2 > len) n = (int)len - 2;
    for (i = 0; i < n; i++) buf[i] = '#';
    if (cut) buf[n++] = '>';
    buf[n] = '\0';
}

void report_begin(const char *experiment, const char *title, const char *extra_name)
{
    R.experiment = experiment;
    R.extra_name = extra_name;
    if (R.csv) { csv_header(); return; }
    printf("\n%s\n", title);
    printf("  %-28s %9s  %-19s %8s %6s %6s", "kernel", "median ms", "(min - max)", "GB/s", "%D2D", "%peak");
    if (extra_name) printf(" %12s", extra_name);
    printf("  %s\n", "bar: 1 # = 4% of D2D");
}

static void report_csv_row(FILE *f, const char *label, const timing_t *t, double bytes, double gbs, double pd,
                           double pp, double extra)
{
    fprintf(f, "%s,%s,\"%s\",ok,%.5f,%.5f,%.5f,%.0f,%.1f,%.1f,%.1f,", R.lesson, R.experiment, label, t->median_ms,
            t->min_ms, t->max_ms, bytes, gbs, pd, pp);
    if (R.extra_name) fprintf(f, "\"%s\",%.2f\n", R.extra_name, extra);
    else fprintf(f, ",\n");
}

void report_row(const char *label, const timing_t *t, double bytes, double extra)
{
    double gbs = stats_gbs(bytes, t->median_ms);
    double pd = R.d2d_gbs > 0 ? 100.0 * gbs / R.d2d_gbs : 0.0;
    double pp = R.peak_gbs > 0 ? 100.0 * gbs / R.peak_gbs : 0.0;
    char bar[40], range[40];
    /* the summary file gets exactly the --csv row, so the summary can tell GFLOP/s rows apart */
    if (R.summary) report_csv_row(R.summary, label, t, bytes, gbs, pd, pp, extra);
    if (R.csv) {
        report_csv_row(stdout, label, t, bytes, gbs, pd, pp, extra);
        return;
    }
    report_bar(pd, bar, sizeof bar);
    snprintf(range, sizeof range, "(%.4f - %.4f)", t->min_ms, t->max_ms);
    printf("  %-28s %9.4f  %-19s %8.1f %6.1f %6.1f", label, t->median_ms, range, gbs, pd, pp);
    if (R.extra_name) printf(" %12.1f", extra);
    printf("  %s\n", bar);
}

static void report_row_failed(const char *label)
{
    if (R.summary) fprintf(R.summary, "%s,%s,\"%s\",FAILED,,,,,,,,,\n", R.lesson, R.experiment, label);
    if (R.csv) {
        printf("%s,%s,\"%s\",FAILED,,,,,,,,,\n", R.lesson, R.experiment, label);
        return;
    }
    printf("  %-28s FAILED verification: no figure is reported\n", label);
}

void report_end(const char *takeaway)
{
    if (R.csv || !takeaway) return;
    printf("  -> %s\n", takeaway);
}

void report_failed(const char *label, const mismatch_t *m, size_t n, size_t width)
{
    if (m) {
        char d[200];
        verify_describe(m, n, width, d, sizeof d);
        fprintf(stderr, "%s: FAILED verification: %s\n", label, d);
    }
    report_row_failed(label);
}
