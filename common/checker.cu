/* The exercise checkers' one pattern (see checker.h). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, readlink, fdopen */
#include "checker.h"
#include "cuda_check.h"
#include "report.h"
#include "transpose_matrix.h"
#include "tests/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What compute-sanitizer exits with when it found an error (--error-exitcode), unlike any exit
 * code of the checker itself. */
#define SANITIZER_ERROR 86

/* The checker's arguments (checker_start): the verdict's form follows --csv. */
static const args_t *the_args = NULL;

void checker_start(const checker_t *ck, int argc, char **argv, args_t *a, gpu_info_t *g)
{
    args_configure(0, ck->block_rule ? NULL : "--block", ck->size_form);
    args_parse_or_exit(argc, argv, a, ck->summary, ck->size_help, NULL, 0);
    if (ck->block_rule && a->bx && ck->check_block && !ck->check_block(a->bx, a->by))
        args_reject("bad --block '%s': %s", args_raw_value(argc, argv, "--block"), ck->block_rule);
    if (ck->tile_rows) {   /* the grid's limit on --size, before any GPU work */
        int nx, ny;
        tmatrix_size_or_exit(a, a->bx ? a->by : ck->tile_rows, &nx, &ny);
    }
    if (checker_child_run()) {   /* under compute-sanitizer: the small sizes of the sweep, nothing timed */
        a->check = 1;
        a->quick = 1;
    }
    the_args = a;
    gpu_faults_are_wrong(ck->kernel);
    report_init(ck->lesson, a->csv);
    gpu_init(g);
    gpu_print_header(g, ck->title, a);
}

/* ---- the sanitizer's run ----------------------------------------------------------------------- */

/* compute-sanitizer: COMPUTE_SANITIZER, else on PATH, else in $CUDA_HOME/bin or /usr/local/cuda/bin;
 * into buf, or 0 when there is none. */
static int find_sanitizer(char *buf, size_t len)
{
    const char *env = getenv("COMPUTE_SANITIZER"), *home = getenv("CUDA_HOME"), *path = getenv("PATH");
    char cand[1024];
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return access(buf, X_OK) == 0;
    }
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        snprintf(cand, sizeof cand, "%.*s/compute-sanitizer", (int)n, path);
        if (n && access(cand, X_OK) == 0) {
            snprintf(buf, len, "%s", cand);
            return 1;
        }
        path = end ? end + 1 : NULL;
    }
    if (home && *home) {
        snprintf(buf, len, "%s/bin/compute-sanitizer", home);
        if (access(buf, X_OK) == 0) return 1;
    }
    snprintf(buf, len, "/usr/local/cuda/bin/compute-sanitizer");
    return access(buf, X_OK) == 0;
}

/* Runs this checker once under `tool`, its output into a temporary file.  Returns 0 when the tool
 * found nothing; otherwise prints the tool's first report (or the run's last lines) and returns 1. */
static int sanitize_with(const char *sanitizer, const char *tool, const char *kernel)
{
    char self[1024], out[] = "/tmp/course-sanitizer-XXXXXX", cmd[4096], line[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int fd, status, shown = 0;
    FILE *f;

    if (n <= 0) return 0;   /* not Linux: nothing to re-run */
    self[n] = '\0';
    fd = mkstemp(out);
    if (fd < 0) return 0;
    close(fd);
    fflush(stdout);
    fflush(stderr);
    snprintf(cmd, sizeof cmd,
             "%s=1 '%s' --tool %s --error-exitcode %d --print-limit 1 '%s' --check --quick >'%s' 2>&1",
             CHECKER_CHILD_ENV, sanitizer, tool, SANITIZER_ERROR, self, out);
    status = system(cmd);
    status = status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    if (status == 0) {
        unlink(out);
        return 0;
    }
    f = fopen(out, "r");
    if (status == SANITIZER_ERROR)
        fprintf(stderr, "FAILED: compute-sanitizer --tool %s found an error in %s (its first report):\n", tool, kernel);
    else
        fprintf(stderr, "FAILED: your kernel under compute-sanitizer --tool %s: the run ended with exit %d:\n", tool,
                status);
    while (f && fgets(line, sizeof line, f) && shown < 24) {
        /* the sanitizer's own lines start with "========="; its summary line says nothing new */
        if (status == SANITIZER_ERROR && (strncmp(line, "=========", 9) != 0 || strstr(line, "ERROR SUMMARY"))) continue;
        fprintf(stderr, "  %s", line);
        shown++;
    }
    if (f) fclose(f);
    unlink(out);
    return 1;
}

/* 1 when a CUDA tool that injects itself (compute-sanitizer, ncu) runs this program: one tool cannot
 * run inside another, and the times it measures are the tool's, not the kernel's.  ncu hides its own
 * variables from the program, so profile.sh and sanitize.sh also say so with COURSE_UNDER_TOOL=1. */
static int under_cuda_tool(void)
{
    const char *said = getenv("COURSE_UNDER_TOOL");
    return (said && strcmp(said, "1") == 0) || getenv("CUDA_INJECTION64_PATH") ||
           getenv("NV_SANITIZER_INJECTION_PORT_RANGE_BEGIN");
}

/* 1 when `word` is one of the space-separated words of `list` */
static int names_word(const char *list, const char *word)
{
    const size_t n = strlen(word);
    const char *p;
    for (p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ')) return 1;
    return 0;
}

/* Every sanitizer ck asks for; 1 when one found an error. */
static int sanitize(const checker_t *ck)
{
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck"};
    const char *skip = getenv("COURSE_CHECKER_SANITIZE");
    char sanitizer[1024];
    int k;
    if (!ck->sanitizers || (skip && strcmp(skip, "0") == 0)) return 0;
    if (under_cuda_tool()) {
        report_say("(running under compute-sanitizer or another CUDA tool already: the checker's own sanitizer run is skipped)\n");
        return 0;
    }
    if (!find_sanitizer(sanitizer, sizeof sanitizer)) {
        report_say("(compute-sanitizer was not found, so your kernel was not run under it: install the CUDA\n"
                   " Toolkit's compute-sanitizer, or say where it is with COMPUTE_SANITIZER=/path/to/compute-sanitizer)\n");
        return 0;
    }
    for (k = 0; k < 3; k++) {
        if (!names_word(ck->sanitizers, tools[k])) continue;
        report_say("Running %s under compute-sanitizer --tool %s (small sizes) ...\n", ck->kernel, tools[k]);
        if (sanitize_with(sanitizer, tools[k], ck->kernel)) return 1;
    }
    report_say("compute-sanitizer: no errors.\n");
    return 0;
}

/* ---- the sweep's end, the ceiling, the verdict --------------------------------------------------- */

/* "VERDICT: wrong ..." (or its CSV row) and EXIT_VERIFY, after gpu_finish. */
static int wrong(const checker_t *ck, const args_t *a, const char *why)
{
    gpu_finish();
    if (a && a->csv) printf("%s,verdict,\"%s\",wrong,,%.2f\n", ck->lesson, ck->kernel, ck->goal_ratio);
    else printf("VERDICT: wrong: %s.\n", why);
    return EXIT_VERIFY;
}

int checker_verified(const checker_t *ck, const check_tally_t *t, const args_t *a)
{
    if (t->fails) {
        fprintf(stderr, "FAILED: %d of %d checks failed; fix %s in exercise.cu (no timing until it passes).\n",
                t->fails, t->checks, ck->kernel);
        return wrong(ck, a, "see the FAILED lines above");
    }
    report_say("OK: %d of %d checks passed\n", t->checks, t->checks);
    if (checker_child_run()) {
        gpu_finish();
        return EXIT_OK;
    }
    if (sanitize(ck)) return wrong(ck, a, "compute-sanitizer found an error (above)");
    if (!a->check) return -1;
    gpu_finish();
    report_say("VERDICT: correct (verified only: --check times nothing).\n");
    return EXIT_OK;
}

double checker_ceiling(const gpu_info_t *g, const args_t *a, size_t bytes)
{
    char *buf = (char *)gpu_alloc(2 * bytes, "the copy ceiling's buffer");
    double d2d;
    CHECK(cudaMemset(buf, 0, 2 * bytes));
    d2d = gpu_d2d_gbs(buf + bytes, buf, bytes, a, gpu_flush_wanted(g, a, 2 * bytes), NULL);
    CHECK(cudaFree(buf));
    return d2d;
}

int checker_verdict(const checker_t *ck, double ratio)
{
    int met = ratio >= ck->goal_ratio, csv = the_args && the_args->csv;
    if (!(ratio > 0))   /* NAN: a kernel of the timing failed verification */
        return wrong(ck, the_args, "a kernel failed verification at the timed size (above)");
    gpu_finish();
    if (under_cuda_tool()) {
        /* under ncu or compute-sanitizer every launch is replayed or instrumented: the ratio says
         * nothing about the goal, so the verdict is "correct" and the goal is not judged */
        if (csv) printf("%s,verdict,\"%s\",correct,%.3f,%.2f\n", ck->lesson, ck->kernel, ratio, ck->goal_ratio);
        else printf("VERDICT: correct; the goal is not judged under a CUDA tool (ncu, compute-sanitizer).\n");
        return EXIT_OK;
    }
    if (csv)
        printf("%s,verdict,\"%s\",%s,%.3f,%.2f\n", ck->lesson, ck->kernel, met ? "met" : "short", ratio,
               ck->goal_ratio);
    else
        printf("VERDICT: correct; %s runs at %.2fx %s (goal: %.2fx or more): %s.\n", ck->kernel, ratio, ck->goal,
               ck->goal_ratio, met ? "goal met" : "short of the goal");
    return met ? EXIT_OK : EXIT_SHORT;
}
