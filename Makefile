# The course: `make` builds every lesson, `make run` runs them in order, `make test` tests them.
# ARCH=... and ARGS=... are passed on to every lesson (e.g. make run ARGS=--quick).
# A lesson folder takes part once it has a Makefile; folders that only hold a README are skipped.
LESSONS := $(sort $(patsubst %/Makefile,%,$(wildcard 0*/Makefile)))

.PHONY: all run test check sanitize profile results clean help $(LESSONS)

all:
	@for d in $(LESSONS); do $(MAKE) --no-print-directory -C $$d all || exit 1; done

# Every lesson appends its table rows to one file (LESSON_SUMMARY_FILE); the summary reads it.
SUMMARY := $(CURDIR)/common/build/run-summary.csv
run: all
	@mkdir -p common/build; rm -f $(SUMMARY)
	@for d in $(LESSONS); do echo; echo "===== $$d ====="; \
	    LESSON_SUMMARY_FILE=$(SUMMARY) $(MAKE) --no-print-directory -s -C $$d run || exit 1; done
	@if command -v python3 >/dev/null; then python3 common/summary.py $(SUMMARY); \
	 else echo "(install python3 for the one-page summary)"; fi

check: all
	@for d in $(LESSONS); do $(MAKE) --no-print-directory -s -C $$d check || exit 1; done

sanitize: all
	@for d in $(LESSONS); do echo "== $$d"; $(MAKE) --no-print-directory -s -C $$d sanitize || exit 1; done

profile: all
	@for d in $(LESSONS); do echo "== $$d"; $(MAKE) --no-print-directory -s -C $$d profile || exit 1; done

test:
	@bash common/test.sh $(LESSONS)

results: all
	@bash common/results.sh $(LESSONS)

clean:
	@for d in $(LESSONS); do $(MAKE) --no-print-directory -C $$d clean; done
	rm -rf common/build

help:
	@echo "make           build every lesson ($(LESSONS))"
	@echo "make run       run every lesson in order (ARGS=--quick for short runs)"
	@echo "make test      build with warnings as errors, host unit tests, argument tests, and"
	@echo "               with a GPU: every lesson's verification at odd sizes"
	@echo "make check     every lesson's --check (verification only)"
	@echo "make sanitize  compute-sanitizer memcheck/racecheck/initcheck/synccheck on every lesson"
	@echo "make profile   Nsight Compute counters for every lesson"
	@echo "make results   (GPU) rerun every lesson, store CSV under results/<GPU>/ and refresh the"
	@echo "               measured output in the lesson READMEs"
	@echo "make clean     remove build outputs"
	@echo "Variables: ARCH=auto|native|sm_XX (default auto), ARGS='...' for the lesson programs."
	@echo "In a lesson folder, 'make help' lists that lesson's targets."
