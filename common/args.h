/* One command-line parser for every lesson.  Plain C99, no CUDA: it runs (and is unit-tested)
 * before any CUDA call, so a typo never costs a GPU context. */
#ifndef ARGS_H
#define ARGS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARGS_MAX_DIM   2147483647L         /* one dimension fits an int            */
#define ARGS_MAX_ELEMS 2147483647L         /* nx*ny fits an int: kernels index with int */
#define ARGS_MAX_REPS  100000
#define ARGS_MAX_WARMUP 10000

enum { FLUSH_AUTO = -1, FLUSH_OFF = 0, FLUSH_ON = 1 };

typedef struct {
    int help;
    long nx, ny;          /* --size NX[xNY]; 0 = lesson default; ny = 0 when one number given */
    int reps, warmup;     /* timed repetitions, untimed warm-up launches             */
    int bx, by;           /* --block WxH; 0 = lesson default                         */
    int csv, check, quick;
    int flush;            /* FLUSH_AUTO / FLUSH_ON / FLUSH_OFF                        */
    unsigned long long seed;
} args_t;

/* Lesson-specific options: a table of these is handed to args_parse. */
typedef enum { OPT_FLAG, OPT_INT } opt_kind_t;
typedef struct {
    const char *name;     /* "--stride"                                          */
    opt_kind_t kind;
    int *dst;             /* set to 1 for a flag, to the value for an int        */
    long min, max;        /* allowed range for OPT_INT                           */
    const char *meta;     /* "N" for the usage line                              */
    const char *help;
} lesson_opt_t;

enum { ARGS_OK = 0, ARGS_HELP = 1, ARGS_ERROR = -1 };

void args_defaults(args_t *a);

/* Parses argv into *a and the lesson options.  Returns ARGS_OK, ARGS_HELP or ARGS_ERROR;
 * on error writes a one-line reason naming the bad token into err. */
int args_parse(int argc, char **argv, args_t *a,
               const lesson_opt_t *opts, int nopts, char *err, size_t errlen);

/* Parses "4096", "64M", "8191x4097", "2kx3" into nx, ny (ny = 0 for one number).
 * Suffixes k, M, G multiply by 2^10, 2^20, 2^30.  Returns 0 or -1. */
int args_parse_size(const char *s, long *nx, long *ny);

void args_usage(FILE *f, const char *prog, const char *summary, const char *size_help,
                const lesson_opt_t *opts, int nopts);

/* Call before parsing in a lesson that times many points: the --reps used when none is given
 * (20 otherwise), also shown by --help.  --quick's 5 and an explicit --reps still win. */
void args_default_reps(int reps);

/* args_parse plus the standard reaction: usage and exit 0 on --help,
 * "prog: reason" + usage on stderr and exit 2 on an error. */
void args_parse_or_exit(int argc, char **argv, args_t *a, const char *summary,
                        const char *size_help, const lesson_opt_t *opts, int nopts);

/* The text that follows the last `opt` on the command line, exactly as typed, or "?" when opt is
 * not there: for an error found after parsing (args_reject) to quote the value as the user gave it. */
const char *args_raw_value(int argc, char **argv, const char *opt);

/* For checks only the lesson can make after parsing (e.g. "--block must be a multiple of 32"):
 * prints "prog: reason" and the usage of the last args_parse_or_exit call, exits 2. */
void args_reject(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
