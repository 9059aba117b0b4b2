/* One command-line parser for every lesson.  Plain C99, no CUDA: it runs (and is unit-tested)
 * before any CUDA call, so a typo never costs a GPU context.
 *
 * Every number is scanned the same strict way: decimal digits only, no sign, no space, no leading
 * zero (except "0" itself), no overflow; the k/M/G suffix only in --size.  Every option that takes
 * a value also takes it as --opt=value.  An error prints two lines on stderr,
 *     <prog>: <reason, quoting the argument exactly as typed>
 *     run with --help for the options
 * and exits 2 (EXIT_USAGE); the usage text is printed only by --help (stdout, exit 0). */
#ifndef ARGS_H
#define ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARGS_LIST_MAX   64          /* numbers in one OPT_LIST value */

typedef struct {
    int help;
    int64_t nx, ny;       /* --size NX[xNY]; 0 = lesson default; ny = 0 when one number given
                           * (int64_t is `long` on Linux: "%ld" prints it there)             */
    int reps, warmup;     /* timed repetitions, untimed warm-up launches             */
    int bx, by;           /* --block WxH; 0 = lesson default; by = 1 for --block W    */
    int csv, check, quick;
    int flush;            /* --flush / --no-flush / neither: see gpu_flush_wanted     */
    unsigned long long seed;
    int dry_run;          /* --dry-run: see args_dry_run                              */
} args_t;

/* Lesson-specific options: a table of these is handed to args_parse. */
enum { OPT_FLAG, OPT_INT, OPT_LIST };   /* lesson_opt_t.kind */

/* The value of an OPT_LIST option, e.g. --strides 1,2,4: n numbers in v.  Not touched when the
 * option is not given, so a lesson can start from {0} and read n == 0 as "use the default". */
typedef struct {
    int n;
    int v[ARGS_LIST_MAX];
} args_list_t;

typedef struct {
    const char *name;     /* "--stride"                                                    */
    int kind;             /* OPT_FLAG, OPT_INT or OPT_LIST                                 */
    void *dst;            /* OPT_FLAG, OPT_INT: an int (1 for a flag, the value for an int);
                           * OPT_LIST: an args_list_t                                      */
    long min, max;        /* allowed range of the value (OPT_INT) or of every number (OPT_LIST);
                           * min >= 0: numbers are written without a sign                  */
    const char *meta;     /* "N" for the usage line (default N, LIST for a list)           */
    const char *help;
} lesson_opt_t;

/* Call before parsing, in a program whose parser differs from the shared one (every argument 0 or
 * NULL: the shared one).
 *   default_reps  --reps when none is given, also shown by --help (0: 20), for a lesson that times
 *                 many points; --quick's 5 and an explicit --reps still win.
 *   without       a shared option taken out of this program's parser and usage, so that it is an
 *                 "unknown option" there: "--block" in a program whose kernels fix their blocks.  One
 *                 of --size --reps --warmup --block --flush (also takes --no-flush) --seed --check
 *                 --quick --csv; another name is a bug in the program: it aborts.
 *   size_form     "N" or "NXxNY": the one form of --size this program takes.  The other is an error
 *                 naming the value, and the usage shows only this one ("--size N"); NULL: both. */
void args_configure(int default_reps, const char *without, const char *size_form);

/* args_parse plus the standard reaction: usage on stdout and exit 0 on --help; on an error the two
 * lines above on stderr and exit 2.  size_help NULL: the program has no --size. */
void args_parse_or_exit(int argc, char **argv, args_t *a, const char *summary,
                        const char *size_help, const lesson_opt_t *opts, int nopts);

/* The value of the last `opt` on the command line, exactly as typed ("--opt V" or "--opt=V"), or
 * "?" when opt is not there: for an error found after parsing (args_reject) to quote the value as
 * the user gave it.  argv NULL: the command line of the last args_parse_or_exit. */
const char *args_raw_value(int argc, char **argv, const char *opt);

/* For checks only the lesson can make after parsing (e.g. "--block must be a multiple of 32"):
 * prints "prog: reason" and "run with --help for the options" on stderr, exits 2. */
void args_reject(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* The value of a lesson's --l2-fetch option (cudaLimitMaxL2FetchGranularity, lessons 01, 03, 06):
 * 0 (not given), 32, 64 or 128 pass; anything else is refused with args_reject, quoting the
 * --l2-fetch given to the last args_parse_or_exit as typed (exit 2). */
void args_check_l2_fetch(int bytes);

/* ---- the matrix shape of the transpose lessons (02, 04-08) ------------------------------------ */

/* --size NXxNY is a matrix of NX columns and NY rows; one number N means N x N; no --size means
 * def_nx x def_ny.  A too-large N x N is refused with args_reject (exit 2, quoting the --size given
 * to the last args_parse_or_exit as typed). */
void matrix_size_or_exit(const args_t *a, int def_nx, int def_ny, int *nx, int *ny);

#ifdef __cplusplus
}
#endif
#endif
