#!/usr/bin/env bash
# The Colab/Kaggle notebook (course.ipynb, RUNNING.md) and how the documented-commands test reads
# notebooks (common/doc_commands.py): the notebook is a clean nbformat-4 file; doc_commands.py finds
# its shell commands (`!make ...`, %%bash cells) and only those, with the line they sit on; every
# lesson's `make check` and `make run ARGS=--quick` is among them.  (make test's documented-commands
# step then runs each of them with --dry-run.)
# Prints one "PASS name" / "FAIL name" line per check (common/test.sh counts them); exit 1 if any failed.
set -u
COMMON=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(dirname "$COMMON")
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
command -v python3 >/dev/null || { echo "(notebook: no python3, not checked)"; exit 0; }
python3 - "$ROOT" <<'PY'
import json, os, re, subprocess, sys, tempfile
root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "common"))
import doc_commands as dc

failed = 0
def check(name, cond, why=""):
    global failed
    if cond:
        print("PASS notebook: " + name)
    else:
        print("FAIL notebook: " + name + (" (" + why + ")" if why else ""))
        failed += 1

# ---- course.ipynb itself ------------------------------------------------------------------------
path = os.path.join(root, "course.ipynb")
try:
    nb = json.load(open(path, encoding="utf-8"))
    err = ""
except (OSError, ValueError) as e:
    nb, err = {}, str(e)
cells = nb.get("cells", [])
clean = (nb.get("nbformat") == 4 and cells and
         all(c.get("cell_type") in ("code", "markdown") and isinstance(c.get("source"), list) and
             all(isinstance(l, str) for l in c["source"]) for c in cells) and
         all(c.get("outputs") == [] and c.get("execution_count") is None for c in cells if c["cell_type"] == "code"))
check("course.ipynb is an nbformat-4 notebook committed without outputs", bool(clean), err or "bad cells or outputs")

import lessons as course_list
lessons = course_list.lesson_names(root)
found = [t for _, t, _ in dc.snippets(path, set(lessons))] if clean else []
missing = [les for les in lessons
           if "make -s -C %s check" % les not in found or "make -s -C %s run ARGS=--quick" % les not in found]
check("its commands include every lesson's make check and make run ARGS=--quick (%d commands)" % len(found),
      bool(found) and not missing, "missing: %s" % " ".join(missing))
listed = subprocess.run([sys.executable, os.path.join(root, "common", "doc_commands.py"), "--list", root],
                        capture_output=True, text=True).stdout
check("doc_commands.py --list reads course.ipynb (the documented-commands test checks its commands)",
      listed.count("docs: course.ipynb:") >= 2 * len(lessons))

# ---- the reader, on a notebook of every kind of line --------------------------------------------
cells = [
    {"cell_type": "markdown", "metadata": {}, "source": ["`./transpose_naive --bogus` in prose is not a command\n"]},
    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": [
        "import os\n", "!make -C 05_transpose_naive run ARGS=--quick  # a comment\n", "%cd course\n",
        "!make plot RESULTS_GPU={gpu}\n", "!echo $HOME\n"]},
    {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": [
        "%%bash\n", "make -C 05_transpose_naive check ARGS=\"--size 64\"\n"]},
]
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, "t.ipynb")
    with open(p, "w") as f:
        json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}, f, indent=1)
    raw = open(p).read().split("\n")
    got = list(dc.snippets(p, set(lessons)))
texts = [t for _, t, _ in got]
want = ["make -C 05_transpose_naive run ARGS=--quick", 'make -C 05_transpose_naive check ARGS="--size 64"']
check("the reader takes !commands and %%bash lines; leaves out Python, %cd, prose and {var}/$var commands",
      texts == want, "got %r" % texts)
lines_ok = (len(got) == 2 and "run ARGS=--quick" in raw[got[0][0] - 1] and "--size 64" in raw[got[1][0] - 1])
check("the reader gives each command the line of the notebook file it sits on", lines_ok,
      "got %r" % [l for l, _, _ in got])
course = dc.Course(root, lessons)
try:
    runs = dc.command_runs(course, texts[0], ".")
except Exception as e:  # noqa: BLE001 (reported as the failure)
    runs = repr(e)
check("a notebook command runs at the course root: make -C 05_transpose_naive run ARGS=--quick -> ./transpose_naive --quick",
      runs == [("05_transpose_naive", "transpose_naive", ["--quick"])], "got %r" % (runs,))
try:
    dc.command_runs(course, "make profile-report PROG=transpose_naive ROW=NaiveCol", "05_transpose_naive")
    bad_row = "not refused"
    dc.command_runs(course, "make profile-report PROG=transpose_naive ROW=NoSuchRow", "05_transpose_naive")
except dc.Bad as e:
    bad_row = str(e)
check("documented profile-report commands: ROW must be a row of the committed run",
      "is not a row of transpose_naive's table" in bad_row, bad_row)
def sass_verdict(cmd, cwd):
    try:
        dc.command_runs(course, cmd, cwd)
        return "not refused"
    except dc.Skip:
        return "accepted"
    except dc.Bad as e:
        return str(e)
good = sass_verdict("make sass PROG=shared_tiled KERNELS='transpose_tile<32, 8, 33>;copy_tile<32, 8, 1, 8>'", "07_shared_tiled")
root = sass_verdict("make sass PROG=shared_tiled KERNELS=transpose_tile", ".")
typo = sass_verdict("make sass PROG=shared_tiled KERNELS='transpose_tiles<32, 8, 33>'", "07_shared_tiled")
prog = sass_verdict("make sass PROG=no_such_program", "07_shared_tiled")
check("documented make sass commands: PROG a program of the lesson, each KERNELS piece a __global__ function of its sources",
      good == "accepted" and root == "accepted" and "names no __global__ function" in typo and
      "is not a program of 07_shared_tiled" in prog, "got %r" % ([good, root, typo, prog],))
sys.exit(1 if failed else 0)
PY
