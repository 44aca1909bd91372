# SPDX-License-Identifier: GPL-2.0
# blk26 lab.  See README.md.
#
#   make run                 install what is missing, build, boot, run the
#                            default experiment and print its table
#   make test [T=...]        build, boot and run the tests; ends with
#                            "N passed, N failed, N skipped"
#   make kernel              build bzImage + modules (KERNEL=default|debug|bare)
#   make bench EXP=a,b       run experiments (EXP=list lists them)
#   make publish RUN=results/ID  the results page of a full-size run, its
#                            figures drawn and its data kept beside it
#   make republish OUT=dir   the page again from its committed data alone
#   make series              export the patch series to out/series/
#   make deb [KCONFIG=...]   linux-image and linux-headers packages of the
#                            patched kernel (KCONFIG=lab|debian|<file>)
#   make boot CMD='...'      boot the kernel and run one command in it
#   make soak [MINUTES=n]    fault-and-switch soak, 60 min by default (SEED=)
#   make deps                install (as root) or list the missing packages

SHELL := /bin/bash
LAB := scripts/lab

# KERNEL selects the variant for kernel/boot/bench.  "make test" boots the
# default kernel, then the debug kernel, then the default kernel again on
# the instruction-counted clock ("icount", for tests/icount-tests), unless
# KERNEL is given.
# "make bench KERNELS=a,b" names kernel configurations to compare
# (scripts/lab/experiments/kernels).
KERNEL ?= default
export KERNEL
ifeq ($(origin KERNEL),command line)
TEST_KERNELS := $(KERNEL)
else
TEST_KERNELS := default debug icount
endif

.PHONY: all help deps kernel test run bench bench-args run-args publish republish series deb deb-args boot soak soak-args clean distclean

all help:
	@sed -n '3,/^$$/{/^$$/!p}' Makefile | sed 's/^# \{0,1\}//'

deps:
	@if [ "$$(id -u)" = 0 ]; then $(LAB)/deps.sh --install; else $(LAB)/deps.sh; fi

kernel: deps
	$(LAB)/build.sh

test: deps
	@set -e; for k in $(sort $(patsubst icount,default,$(TEST_KERNELS))); do \
		KERNEL=$$k $(LAB)/build.sh; done
	KERNELS="$(TEST_KERNELS)" $(LAB)/test.sh $(T)

run: run-args deps
	KERNEL=$(KERNEL) $(LAB)/build.sh
	$(LAB)/bench.py $(if $(EXP),$(EXP),overview)

bench: bench-args deps
	KERNEL=$(KERNEL) $(LAB)/build.sh
	BENCH_KERNELS="$(KERNELS)" $(LAB)/bench.py $(if $(EXP),$(EXP),list)

# RUNS, SCALE, LAB_ACCEL, LAB_ICOUNT_SHIFT, BENCH_SEED, BENCH_ROOT and
# BENCH_TIMEOUT_SCALE are checked
# before anything is installed or built.
bench-args:
	@$(LAB)/bench.py --check $(if $(EXP),$(EXP),list)

run-args:
	@$(LAB)/bench.py --check $(if $(EXP),$(EXP),overview)

# "make publish RUN=results/<run-id> [DRAFT=1]": write
# Documentation/block/blk26-results.rst and its figures from a run
# (scripts/lab/publish.py), or from several (RUN='results/<a> results/<b>')
# of one series commit and one kernel source; a run below full size or
# without every experiment is refused unless DRAFT=1.
publish:
	@[ -n "$(RUN)" ] || { echo "usage: make publish RUN='results/<run-id> [results/<run-id>...]' [DRAFT=1]" >&2; exit 2; }
	$(LAB)/bench.py --publish $(RUN) $(if $(DRAFT),--draft)

# "make republish OUT=<dir>": the results page, its figures and its data
# written again into <dir> from the data committed beside the page
# (Documentation/block/blk26-results/data), no results/ needed;
# OUT=Documentation/block draws the committed page again in place.
republish:
	@[ -n "$(OUT)" ] || { echo "usage: make republish OUT=<dir>" >&2; exit 2; }
	$(LAB)/bench.py --republish $(OUT)

series:
	$(LAB)/series.sh

# "make deb [KCONFIG=lab|debian|<file>]": Debian packages of the patched
# kernel, built with the kernel's bindeb-pkg (scripts/lab/deb.sh): the lab
# configuration (default), Debian's whole configuration, or a given one,
# each plus the series' options.  The packages go to build/deb/<name>/.
KCONFIG ?= lab
deb: deb-args deps
	$(LAB)/deb.sh '$(KCONFIG)'

deb-args:
	@$(LAB)/deb.sh --check '$(KCONFIG)'

boot:
	$(LAB)/boot.sh -- bash -c '$(if $(CMD),$(CMD),uname -a)'

# "make soak MINUTES=n SEED=s": the arguments are checked before anything
# is installed or built.
MINUTES ?= 60
soak: soak-args deps
	KERNEL=$(KERNEL) $(LAB)/build.sh
	$(LAB)/soak.sh -m '$(MINUTES)' $(if $(SEED),-s '$(SEED)')

soak-args:
	@$(LAB)/soak.sh -n -m '$(MINUTES)' $(if $(SEED),-s '$(SEED)')

clean:
	rm -rf build/run build/test out

distclean:
	rm -rf build build-* out results
