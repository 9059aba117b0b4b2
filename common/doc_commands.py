#!/usr/bin/env python3
"""Keeps the commands the Markdown files show a student running (part of `make test`).

usage: doc_commands.py ROOT [LESSON_DIR ...]     check (default: every lesson with a Makefile)
       doc_commands.py --list ROOT [LESSON_DIR ...]   only print what would be run

Every `./program args` and `make <target> ... ARGS="..."` shown in a code span or a fenced block of
README.md, TEACHING.md, REFERENCES.md, RUNNING.md, common/*.md, teaching/*.md and every lesson's **/*.md, and every
shell command of a code cell of a notebook at the root (course.ipynb: a `!command` line, or each line of
a `%%bash` cell; the notebook's commands run at the course root, after its `%cd`), is turned into the
programs it would run and their arguments, and each program is run with those arguments plus --dry-run: it must
exit 0 at its first GPU call ("dry run: arguments accepted"), so no GPU is needed and a typo in the
docs, or a program that stopped taking a documented option, fails `make test`.

Where a command runs: a lesson's own Markdown (and teaching/<lesson>.md) runs in that lesson's
folder; a root file (and
common/*.md) at the root, except under a heading that starts with a lesson folder's name
(TEACHING.md's "## 03_offset_stride ..."): there, in that folder.  `make -C DIR` and `cd DIR &&`
move it.

What a make target runs (common/lesson.mk; at the root, every lesson's):
  run       each program of PROGS (or PROG=name) with ARGS
  check     the same with --check, plus ./solution when the lesson has an exercise and no PROG
  exercise  ./student with ARGS (named in a root file: in every lesson that has an exercise)
  profile, profile-exercise, sanitize: only when ARGS is given (the programs run as profile.sh and
            sanitize.sh run them: --reps 1 --warmup 0 --no-flush --csv, or --check --quick, first)
  profile-report  PROG with ARGS, as profile.sh runs it; PROG=name must be a program of the lesson
            and ROW="row" a row of that program's table in the committed run (results/<GPU>/<prog>.csv)
Not checked: builds (make, make -j, make ARCH=.., make clean all ..), make test/help/plot/results,
ncu, nvcc, compute-sanitizer lines, and commands with placeholders (<program>, ..., N, NXxNY).

One line per distinct command (its first place in the docs): "PASS docs: FILE:LINE: COMMAND" or
"FAIL docs: FILE:LINE: COMMAND: why"; exit 1 if any failed.  A command that touches a lesson not
being tested (test.sh run on some lessons only) is left out.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

DRY_RUN_LINE = "dry run: arguments accepted"
PROFILE_FIRST = ["--reps", "1", "--warmup", "0", "--no-flush", "--csv"]  # profile.sh
SANITIZE_FIRST = ["--check", "--quick"]                                  # sanitize.sh
RUN_TARGETS = {"run", "check", "exercise", "profile", "profile-exercise", "profile-report", "sanitize"}
RESULTS_GPU = "NVIDIA_H100_80GB_HBM3"   # the run the notes quote (lesson.mk's RESULTS_GPU)
NEED_ARGS = {"profile", "profile-exercise", "sanitize"}  # without ARGS: nothing to check
ROOT_TARGETS = {"run", "check", "profile", "sanitize",   # the root Makefile's, passed to every lesson
                "profile-report"}                        # (to the lesson that has PROG)
CODE_LANGS = {"c", "cpp", "c++", "cu", "cuda", "python", "py", "make", "makefile", "diff"}
# A metavariable of the usage text standing for a value: N, NXxNY, WxH, LIST, M, K ...
METAVAR = re.compile(r"^[A-Z][A-Za-z|]*$")
SEPARATORS = {"&&", "||", ";", "|", "&"}

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lessons import lesson_names  # noqa: E402  (common/lessons.py)


class Skip(Exception):
    """Not a course command, or one with placeholders: not checked."""


class Bad(Exception):
    """A command that cannot run as documented (no such program, target or lesson)."""


# ---- the Markdown: code spans and fenced blocks, with their line numbers -----------------------

def strip_comment(line):
    """The line without a shell comment (a '#' starting a word, outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def notebook_commands(path):
    """Yields (line, text, None) for each shell command of a Jupyter notebook's code cells: a line
    `!command` (IPython's shell escape), or every line of a cell that starts with `%%bash`.  Python
    lines and other magics (`%cd`) are left out, and so is a command that IPython would fill in
    ({var} or $var): it has placeholders.  The line is where the command's string sits in the file
    (the notebook is JSON with one source line per line), else the cell's number."""
    import json
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    nb = json.loads(raw)
    file_lines = raw.split("\n")
    pos = 0  # the file line the search for the next source string starts at

    def where(src, cell_no):
        nonlocal pos
        enc = json.dumps(src)
        for i in range(pos, len(file_lines)):
            if enc in file_lines[i]:
                pos = i + 1
                return i + 1
        return cell_no

    for cell_no, cell in enumerate(nb.get("cells", []), 1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", [])
        if isinstance(source, str):
            source = source.splitlines(True)
        bash_cell = bool(source) and source[0].strip().startswith("%%bash")
        for i, src in enumerate(source):
            line = where(src, cell_no)
            text = src.strip()
            if bash_cell:
                if i == 0:
                    continue
            elif text.startswith("!"):
                text = text[1:].strip()
            else:
                continue
            text = strip_comment(text).strip()
            if not text or re.search(r"\{[^}]*\}|\$[A-Za-z_{]", text):
                continue
            yield line, text, None


def snippets(path, lessons):
    """Yields (line, text, lesson context) for each code span and each line of a fenced block.
    The context is the lesson folder a root file's heading names, or None."""
    if path.endswith(".ipynb"):
        yield from notebook_commands(path)
        return
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fence, para, context, context_level = None, [], None, 0
    held = None  # a fenced line ending in a backslash: (its number, its text so far)

    def spans(para):
        text = "\n".join(t for _, t in para)
        for m in re.finditer(r"(`+)(.+?)(?<!`)\1(?!`)", text, re.S):
            line = para[0][0] + text.count("\n", 0, m.start())
            yield line, m.group(2).replace("\n", " ").strip()

    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence[0]) and stripped.strip("`~") == "":
                fence, held = None, None
            elif not fence[1]:
                text = strip_comment(re.sub(r"^\$\s+", "", stripped)).strip()
                if held:
                    text = held[1] + " " + text
                if text.endswith("\\"):
                    held = (held[0] if held else n, text[:-1].strip())
                else:
                    yield (held[0] if held else n), text, context
                    held = None
            continue
        m = re.match(r"^(`{3,}|~{3,})\s*([\w+-]*)", stripped)
        if m:
            for item in spans(para):
                yield item + (context,)
            para = []
            fence = (m.group(1), m.group(2).lower() in CODE_LANGS)
            continue
        h = re.match(r"^(#+)\s+(\S+)", stripped)
        if h or stripped == "":
            for item in spans(para):
                yield item + (context,)
            para = []
        if h:  # a heading is a paragraph of its own, and may name the lesson what follows is about
            level, word = len(h.group(1)), h.group(2)
            if word in lessons:
                context, context_level = word, level
            elif context and level <= context_level:
                context = None
            for item in spans([(n, line)]):
                yield item + (context,)
        elif stripped != "":
            para.append((n, line))
    for item in spans(para):
        yield item + (context,)


# ---- a command line: its segments, and what each would run ------------------------------------

def split_segments(text):
    """Shell words of the command, split at && || ; | &; redirections dropped."""
    # make sass's quoted KERNELS (`'copy_tile<32, 8, 1, 8>;copy_tile<...>'`) kept whole: its < and ;
    # are neither a redirection nor a separator
    kept = []

    def keep(m):
        kept.append(m.group(2)[1:-1])
        return "%sKERNELS=@kept%d@" % (m.group(1), len(kept) - 1)
    text = re.sub(r"(^|\s)KERNELS=('[^']*'|\"[^\"]*\")", keep, strip_comment(text))
    text = re.sub(r"(^|\s)\d*(>>?|<)&?\s*\S+", " ", text)
    lex = shlex.shlex(text, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    lex.commenters = ""
    try:
        words = list(lex)
    except ValueError as e:  # an unbalanced quote: prose, not a command
        raise Skip(str(e))
    words = [re.sub(r"@kept(\d+)@", lambda m: kept[int(m.group(1))], w) for w in words]
    segments, cur = [], []
    for w in words:
        if w in SEPARATORS:
            segments.append(cur)
            cur = []
        else:
            cur.append(w)
    segments.append(cur)
    return [s for s in segments if s]


def check_placeholders(args):
    for a in args:
        value = a.split("=", 1)[1] if a.startswith("--") and "=" in a else a
        if METAVAR.match(value) or "<" in a or "..." in a or "\u2026" in a:
            raise Skip("placeholder %r" % a)


class Course:
    """The lessons, their programs (make print-PROGS) and whether they have an exercise."""

    def __init__(self, root, tested):
        self.root = root
        self.lessons = [les for les in lesson_names(root) if os.path.isfile(os.path.join(root, les, "Makefile"))]
        self.tested = set(tested)
        self._progs = {}

    def progs(self, lesson):
        if lesson not in self._progs:
            out = subprocess.run(["make", "-s", "--no-print-directory", "-C", os.path.join(self.root, lesson),
                                  "print-PROGS"], capture_output=True, text=True)
            self._progs[lesson] = out.stdout.split() if out.returncode == 0 else []
        return self._progs[lesson]

    def rows(self, lesson, prog):
        """The row names of prog's tables in the committed run the notes quote (column 3 of
        results/<GPU>/<prog>.csv): what profile-report's ROW may name."""
        import csv
        path = os.path.join(self.root, "results", RESULTS_GPU, prog + ".csv")
        try:
            with open(path, encoding="utf-8") as f:
                return {r["kernel"] for r in csv.DictReader(f)}
        except OSError:
            return set()

    def has_exercise(self, lesson):
        return os.path.isfile(os.path.join(self.root, lesson, "exercise.cu"))

    def has_target(self, lesson, target):
        """profile-exercise is a target of some lessons' own Makefiles (07, 08), not of lesson.mk."""
        if target != "profile-exercise":
            return True
        with open(os.path.join(self.root, lesson, "Makefile"), encoding="utf-8") as f:
            return re.search(r"^%s\s*:" % re.escape(target), f.read(), re.M) is not None

    def lesson_of(self, cwd):
        """The lesson folder cwd (relative to the root) is, '' for the root; Bad otherwise."""
        cwd = os.path.normpath(cwd)
        if cwd == ".":
            return ""
        if cwd in self.lessons:
            return cwd
        raise Bad("'%s' is not a lesson folder of the course" % cwd)


def check_sass(course, cwd, variables):
    """make sass runs no program, so nothing is dry-run; its PROG must be a program of the lesson and
    each piece of KERNELS must begin with the name of a __global__ function of the lesson's sources
    (what cuobjdump will find: make sass itself matches the whole piece against the C++ names)."""
    lesson = course.lesson_of(cwd)
    if lesson == "" and "PROG" not in variables:
        raise Skip("make sass at the root without PROG only says what to type")
    if lesson == "":   # the root's make sass runs in the lesson that has PROG
        lesson = next((les for les in course.lessons if variables.get("PROG") in course.progs(les)), "")
        if not lesson:
            raise Bad("make sass at the root needs PROG=<a program of a lesson>")
    if "PROG" in variables and variables["PROG"] not in course.progs(lesson):
        raise Bad("PROG=%s is not a program of %s (%s)" % (variables["PROG"], lesson, " ".join(course.progs(lesson))))
    names = set()
    for path in glob.glob(os.path.join(course.root, lesson, "*.cu*")) + glob.glob(os.path.join(course.root, "common", "*.cu*")):
        with open(path, encoding="utf-8", errors="replace") as f:
            for head in re.findall(r"__global__([^;{]*)", f.read()):  # up to the body or the ;
                names |= {n for n in re.findall(r"\b(\w+)\s*\(", head) if not n.startswith("__")}
    for piece in [k for k in variables.get("KERNELS", "").split(";") if k.strip()]:
        name = re.match(r"\s*(\w*)", piece).group(1)
        if name not in names:
            raise Bad("KERNELS piece %r names no __global__ function of %s" % (piece, lesson))


def make_runs(course, words, cwd):
    """The (lesson, program, args) a `make ...` command runs; Skip when it runs none."""
    targets, variables, i = [], {}, 1
    while i < len(words):
        w = words[i]
        if w == "-C" and i + 1 < len(words):
            cwd = os.path.join(cwd, words[i + 1])
            i += 1
        elif w.startswith("-C"):
            cwd = os.path.join(cwd, w[2:])
        elif w.startswith("-"):
            pass  # -s, -j4, -k, --no-print-directory ...
        elif "=" in w:
            name, value = w.split("=", 1)
            variables[name] = value
        else:
            targets.append(w)
        i += 1
    if "sass" in targets:
        check_sass(course, cwd, variables)
    run = [t for t in targets if t in RUN_TARGETS and (t not in NEED_ARGS or "ARGS" in variables)]
    if "profile-report" in run and ("PROG" not in variables or "ROW" not in variables):
        run.remove("profile-report")  # without PROG and ROW it only says what to type
    if not run:
        raise Skip("not a command that runs a program")
    args = shlex.split(variables.get("ARGS", ""))
    check_placeholders(args)
    lesson = course.lesson_of(cwd)
    if lesson == "":
        # the root passes its targets to every lesson; one it lacks (`make exercise` in the root
        # README's prose) means "in a lesson folder": every lesson that has an exercise, then
        lessons = course.lessons
        if any(t not in ROOT_TARGETS for t in run):
            lessons = [les for les in lessons
                       if course.has_exercise(les) and all(course.has_target(les, t) for t in run)]
    else:
        lessons = [lesson]
    out = []
    for les in lessons:
        progs = course.progs(les)
        if not progs:
            raise Bad("make -C %s print-PROGS lists no programs" % les)
        if "PROG" in variables:
            if variables["PROG"] not in progs:
                if lesson == "":   # from the root, a lesson without that program does nothing
                    continue
                raise Bad("PROG=%s is not a program of %s (%s)" % (variables["PROG"], les, " ".join(progs)))
            progs = [variables["PROG"]]
        solution = ["solution"] if course.has_exercise(les) and "PROG" not in variables else []
        for t in run:
            if t == "run":
                out += [(les, p, args) for p in progs]
            elif t == "check":
                out += [(les, p, ["--check"] + args) for p in progs + solution]
            elif t == "profile":
                out += [(les, p, PROFILE_FIRST + args) for p in progs]
            elif t == "profile-report":
                row = variables["ROW"]
                if "<" in row or "..." in row:
                    raise Skip("placeholder %r" % row)
                if row not in course.rows(les, variables["PROG"]):
                    raise Bad("ROW=%s is not a row of %s's table in results/%s/%s.csv" %
                              (row, variables["PROG"], RESULTS_GPU, variables["PROG"]))
                out += [(les, p, PROFILE_FIRST + args) for p in progs]
            elif t == "sanitize":
                out += [(les, p, SANITIZE_FIRST + args) for p in progs + solution]
            elif not course.has_exercise(les) or not course.has_target(les, t):
                raise Bad("%s has no target %s" % (les, t))
            elif t == "exercise":
                out.append((les, "student", args))
            else:  # profile-exercise
                out.append((les, "student", PROFILE_FIRST + args))
    if not out and "PROG" in variables:
        raise Bad("PROG=%s is not a program of any lesson" % variables["PROG"])
    return out


def program_runs(course, words, cwd):
    """The (lesson, program, args) of `./program args`: in cwd, or, from the root, in every lesson
    that has that program (TEACHING.md's `./solution`)."""
    prog = words[0][2:]
    check_placeholders(words[1:])
    if "/" in prog or not prog:
        raise Skip("not a lesson program")
    lesson = course.lesson_of(cwd)
    if lesson:
        return [(lesson, prog, words[1:])]
    where = [les for les in course.lessons
             if prog in course.progs(les) or (prog in ("student", "solution") and course.has_exercise(les))]
    if not where:
        raise Bad("no lesson has a program ./%s" % prog)
    return [(les, prog, words[1:]) for les in where]


def command_runs(course, text, cwd):
    """Every (lesson, program, args) the command line would run; Skip if it is no course command."""
    # (make sass's KERNELS names template kernels, `copy_tile<32, 8, 1, 8>`: no placeholder)
    probe = re.sub(r"KERNELS=('[^']*'|\"[^\"]*\"|\S+)", "KERNELS=k", text)
    if "<" in probe or "..." in probe or "\u2026" in probe:
        raise Skip("placeholder")
    runs, ran = [], False
    for seg in split_segments(text):
        while seg and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", seg[0]):
            seg = seg[1:]  # CUDA_VISIBLE_DEVICES=1 make run
        if not seg:
            continue
        if seg[0] == "cd" and len(seg) == 2:
            cwd = os.path.join(cwd, seg[1])
        elif seg[0] == "make":
            try:
                runs += make_runs(course, seg, cwd)
                ran = True
            except Skip:
                pass
        elif seg[0].startswith("./"):
            runs += program_runs(course, seg, cwd)
            ran = True
    if not ran:
        raise Skip("no course program")
    return runs


# ---- running them -----------------------------------------------------------------------------

def dry_run(course, lesson, prog, args):
    """None when lesson/prog accepts args (with --dry-run), else why not."""
    path = os.path.join(course.root, lesson, prog)
    if not os.access(path, os.X_OK):
        return "%s/%s does not exist (not built?)" % (lesson, prog)
    try:
        r = subprocess.run([path] + args + ["--dry-run"], cwd=os.path.join(course.root, lesson),
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "%s/%s did not finish in 60 s" % (lesson, prog)
    if r.returncode == 0 and DRY_RUN_LINE in r.stdout:
        return None
    said = (r.stderr.strip() or r.stdout.strip() or "(nothing)").split("\n")[0]
    if r.returncode == 0:
        said = "exited 0 without '%s': %s" % (DRY_RUN_LINE, said)
    return "%s/%s %s exited %d: %s" % (lesson, prog, " ".join(shlex.quote(a) for a in args), r.returncode, said)


def markdown_files(root, lessons):
    files = [os.path.join(root, f) for f in ("README.md", "TEACHING.md", "REFERENCES.md", "RUNNING.md")]
    files += sorted(glob.glob(os.path.join(root, "*.ipynb")))
    files += sorted(glob.glob(os.path.join(root, "common", "*.md")))
    files += sorted(glob.glob(os.path.join(root, "teaching", "*.md")))
    for les in lessons:
        files += sorted(glob.glob(os.path.join(root, les, "**", "*.md"), recursive=True))
    return [f for f in files if os.path.isfile(f)]


def main(argv):
    listing = "--list" in argv
    argv = [a for a in argv if a != "--list"]
    if not argv:
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    root = os.path.abspath(argv[0])
    course = Course(root, [])
    tested = [os.path.basename(os.path.abspath(d)) for d in argv[1:]] or course.lessons
    course.tested = set(tested)
    seen, failed, checked = set(), 0, 0
    for path in markdown_files(root, course.lessons):
        rel = os.path.relpath(path, root)
        top = rel.split(os.sep)[0]
        if top == "teaching":  # teaching/<lesson>.md: the instructor's page of that lesson
            top = os.path.splitext(os.path.basename(rel))[0]
        for line, text, context in snippets(path, set(course.lessons)):
            cwd = top if top in course.lessons else (context or ".")
            try:
                runs = command_runs(course, text, cwd)
            except Skip:
                continue
            except Bad as e:
                runs, why = None, str(e)
            if runs is not None and any(les not in course.tested for les, _, _ in runs):
                continue  # another lesson's: checked when that lesson is tested
            text = " ".join(text.split())
            key = (cwd, text)
            if key in seen:
                continue
            seen.add(key)
            where = "docs: %s:%d: %s" % (rel, line, text)
            if listing:
                print(where)
                for les, prog, args in runs or []:
                    print("    " + " ".join([les + "/" + prog] + [shlex.quote(a) for a in args] + ["--dry-run"]))
                if runs is None:
                    print("    cannot run: " + why)
                continue
            checked += 1
            if runs is not None:
                whys = [w for w in (dry_run(course, *r) for r in runs) if w]
                why = "; ".join(whys) if whys else None
            if why:
                failed += 1
                print("FAIL %s: %s" % (where, why))
            else:
                print("PASS %s" % where)
    if not listing:
        print("docs: %d commands checked with --dry-run, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
