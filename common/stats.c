/* Timing summaries and bandwidth arithmetic (see stats.h). */
#include "stats.h"
#include "tests/internal.h"
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

timing_t stats_summary(const float *ms, int n)
{
    timing_t t = {0.0, 0.0, 0.0, 0, 1};
    float *s;
    if (n <= 0) return t;
    s = (float *)malloc((size_t)n * sizeof *s);
    if (!s) return t;
    memcpy(s, ms, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_float);
    t.median_ms = (n % 2) ? s[n / 2] : 0.5 * ((double)s[n / 2 - 1] + (double)s[n / 2]);
    t.min_ms = s[0];
    t.max_ms = s[n - 1];
    t.n = n;
    free(s);
    return t;
}

double stats_gbs(double bytes, double ms)
{
    return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

int stats_ranges_apart(const timing_t *x, const timing_t *y)
{
    return x->max_ms < y->min_ms || y->max_ms < x->min_ms;
}

int stats_tied_labels(char *buf, size_t len, const timing_t *t, const int *ok, const char *const *labels, int n,
                      int best)
{
    size_t used = 0;
    int k, count = 0;
    if (len) buf[0] = '\0';
    for (k = 0; k < n; k++) {
        if (k == best || !ok[k] || stats_ranges_apart(&t[k], &t[best])) continue;
        count++;
        if (used < len) used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", labels[k]);
    }
    return count;
}

double stats_peak_gbs(int mem_clock_khz, int bus_bits)
{
    return 2.0 * (double)mem_clock_khz * 1e3 * ((double)bus_bits / 8.0) / 1e9;
}

int stats_should_flush(int flush_flag, size_t working_set_bytes, size_t l2_bytes)
{
    if (flush_flag == FLUSH_ON) return 1;
    if (flush_flag == FLUSH_OFF) return 0;
    return working_set_bytes < 4 * l2_bytes;
}

size_t stats_default_ws(size_t l2_bytes, size_t min_bytes)
{
    size_t want = 8 * l2_bytes > min_bytes ? 8 * l2_bytes : min_bytes;
    size_t p = 1;
    while (p < want) p <<= 1;
    return p;
}
