# The course: `make` builds every lesson, `make run` runs them in order, `make test` tests them.
# ARCH=..., ARGS=... and the other variables of `make help` are passed on to every lesson
# (e.g. make run ARGS=--quick).  `make -j4` builds the lessons in parallel (common/'s library first).
# The lessons are those lessons.txt lists, in its order (common/ADDING_A_LESSON.md adds one).
LESSONS := $(shell . common/lessons.sh && course_lessons .)
BUILD_LESSONS := $(addprefix build-,$(LESSONS))

.PHONY: all lib run test check sanitize profile profile-report sass results answers grade handout plot clean help $(BUILD_LESSONS)

all: $(BUILD_LESSONS)

# The shared library once, before any lesson, so parallel lesson builds never race to build it.
lib:
	@$(MAKE) --no-print-directory -C common lib

$(BUILD_LESSONS): build-%: lib
	@$(MAKE) --no-print-directory -C $* all

# Every lesson appends its table rows to one file (LESSON_SUMMARY_FILE); the summary reads it.
# In a tree we may not write (a shared build), the file goes to the temporary folder.
SUMMARY := $(if $(shell test -w common && echo yes),$(CURDIR)/common/build/run-summary.csv,$(or $(TMPDIR),/tmp)/course-run-summary-$(shell id -u).csv)
WRITABLE := $(shell test -w . && echo yes)
run: $(if $(WRITABLE),all)
	@mkdir -p $(dir $(SUMMARY)); rm -f $(SUMMARY)
	@for d in $(LESSONS); do echo; echo "===== $$d ====="; \
	    LESSON_SUMMARY_FILE=$(SUMMARY) $(MAKE) --no-print-directory -s -C $$d run || exit 1; done
	@if command -v python3 >/dev/null; then python3 common/summary.py $(SUMMARY); \
	 else echo "(install python3 for the one-page summary)"; fi

check sanitize profile: $(if $(WRITABLE),all)
	@for d in $(LESSONS); do echo "== $$d"; $(MAKE) --no-print-directory -s -C $$d $@ || exit 1; done

test:
	@bash common/test.sh

# The lesson whose programs include $(PROG) (empty if none), found in the shell of a recipe: where the
# root's profile-report and sass run.
PROG_LESSON = $$(for l in $(LESSONS); do MAKEFLAGS= $(MAKE) -s --no-print-directory -C $$l print-PROGS | tr ' ' '\n' | grep -qxF -- '$(PROG)' && echo $$l; done | head -1)

# make profile-report PROG=name ROW="row" (common/PROFILING.md) is a lesson's target: from the root,
# it runs in the lesson that has the program PROG (ROW, REPORT and ARGS go along).
profile-report:
	@d=$(PROG_LESSON); \
	if [ -z '$(PROG)' ] || [ -z "$$d" ]; then \
	    echo "make profile-report needs PROG=<a program of a lesson> and ROW=\"<row of its table>\", e.g. make profile-report PROG=transpose_naive ROW=\"NaiveCol\"$(if $(PROG), (no lesson has a program $(PROG)))" >&2; exit 2; fi; \
	$(MAKE) --no-print-directory -C $$d profile-report

# make sass PROG=name [KERNELS='...'] (common/PROFILING.md) likewise runs in the lesson that has PROG.
sass:
	@d=$(PROG_LESSON); \
	if [ -z '$(PROG)' ] || [ -z "$$d" ]; then \
	    echo "make sass needs PROG=<a program of a lesson> (KERNELS='piece of a kernel name;another' to compare them), e.g. make sass PROG=shared_tiled$(if $(PROG), (no lesson has a program $(PROG)))" >&2; exit 2; fi; \
	$(MAKE) --no-print-directory -C $$d sass

results: all
	@bash common/results.sh $(LESSONS)

# The runs that answer every prediction and exercise (ANSWER_RUNS in each lesson's Makefile), into
# results/<GPU>/answers/ for the instructors' pages in teaching/.
answers: all
	@bash common/answers.sh $(LESSONS)

# Every lesson's exercise checked in one go (a student's copy of the course, for its instructor): a
# table of verdicts and a JUnit XML file (GRADE_XML=path; default grade.xml) for autograders.
GRADE_XML ?= grade.xml
grade: lib
	@bash common/grade.sh $(GRADE_XML)

# The students' copy of the course: the committed tree without the reference solutions, the
# instructors' pages and the answer runs (HANDOUT=path.tar.gz to choose where).
HANDOUT ?= course-handout.tar.gz
handout:
	@bash common/handout.sh $(HANDOUT)

# Every lesson's figures and the course in one chart (course.svg), from results/$(RESULTS_GPU)/, and
# the two memory systems side by side (gpus.svg) from every GPU under results/.
RESULTS_GPU ?= NVIDIA_H100_80GB_HBM3
plot:
	@for d in $(LESSONS); do $(MAKE) --no-print-directory -s -C $$d plot RESULTS_GPU=$(RESULTS_GPU) || exit 1; done
	@bash common/plot.sh . $(RESULTS_GPU)
	@python3 common/compare_gpus.py . --svg gpus.svg >/dev/null && echo "wrote gpus.svg" || echo "gpus.svg: not drawn (needs two GPUs' runs under results/ and gnuplot)"

clean:
	@for d in $(LESSONS); do $(MAKE) --no-print-directory -C $$d clean; done
	rm -rf common/build

help:
	@echo "make           build every lesson ($(LESSONS)); make -j4 builds them in parallel"
	@echo "make run       run every lesson in order (ARGS=--quick for short runs), then a one-page summary"
	@echo "make test      build with warnings as errors, host unit tests, argument tests, and"
	@echo "               with a GPU: every lesson's verification at odd sizes"
	@echo "make check     every lesson's --check (verification only)"
	@echo "make sanitize  compute-sanitizer memcheck/racecheck/initcheck/synccheck on every lesson"
	@echo "make profile   Nsight Compute counters for every lesson"
	@echo "make profile-report PROG=name ROW=\"row\"  one row of a program's table in Nsight Compute's GUI (.ncu-rep)"
	@echo "make sass PROG=name [KERNELS='a;b']  a program's kernels' machine code counted by opcode (cuobjdump)"
	@echo "make results   (GPU) rerun every lesson, store CSV under results/<GPU>/ and refresh the"
	@echo "               measured output in the lesson READMEs"
	@echo "make answers   (GPU) the runs that answer each lesson's predictions and exercises, into"
	@echo "               results/<GPU>/answers/ (quoted by the instructors' pages in teaching/)"
	@echo "make grade     (GPU) every lesson's exercise checked: a table of verdicts and grade.xml (JUnit)"
	@echo "make handout   the students' copy: a tarball without solutions, TEACHING.md and teaching/"
	@echo "make plot      redraw every figure from results/$(RESULTS_GPU)/ (needs gnuplot)"
	@echo "make clean     remove build outputs"
	@echo "Variables: ARCH=auto|native|sm_XY|compute_XY or a list (default auto: the GPU present), ARGS='...'"
	@echo "for the lesson programs"
	@echo "(options every program takes, e.g. --quick, --csv, --reps N), NVCC=, HOSTCXX=, CUDART=shared,"
	@echo "NVCCFLAGS=, LDFLAGS=, WERROR=0, VERBOSE=1 (see 'make help' in a lesson)."
	@echo "In a lesson folder, 'make help' lists that lesson's targets; PROG=name picks one program."

print-%:
	@echo '$($*)'
