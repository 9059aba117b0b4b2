/* Tables for a student at a terminal, or CSV rows for a script (--csv).  Plain C99. */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include "stats.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gpu_start (gpu.h) sets the lesson's name and --csv (report_init), gpu_d2d_gbs the two ceilings
 * every row is compared with (report_set_ceilings; both in tests/internal.h). */

/* Prose for the terminal (printf-style); silent under --csv so stdout stays machine-readable. */
void report_say(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* One table: a title, then rows, then a one-line takeaway.  extra_name names an optional last
 * numeric column (e.g. "% of S=512"); NULL for none. */
void report_begin(const char *experiment, const char *title, const char *extra_name);
void report_row(const char *label, const timing_t *t, double bytes, double extra);
/* A kernel that failed verification: "<label>: FAILED verification: <what differs>" on stderr (m, n,
 * width as verify_describe takes them; m NULL: no such line), and its row without any figure. */
void report_failed(const char *label, const mismatch_t *m, size_t n, size_t width);
void report_end(const char *takeaway);

#ifdef __cplusplus
}
#endif
#endif
