# PipeKSP: thin wrapper around CMake. `make run` and `make test` install missing Debian packages first.
BUILD    ?= build
JOBS     ?= 2
# install prefix of `make install`; passed to every `cmake --install` (the configure-time prefix is only
# CMake's default). `make clean` never deletes it: PREFIX often comes from the environment (conda, Termux).
PREFIX   ?= $(CURDIR)/install
CMAKE_FLAGS ?=
SHELL    := /bin/bash
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1
export OMPI_MCA_rmaps_base_oversubscribe := 1

# the newest PETSc that CI tests too: built from its source on the Python package index into a cache
# outside the tree (config/petsc-latest.sh; PIPEKSP_CACHE overrides ~/.cache/pipeksp)
PETSC_LATEST ?= 3.26.1
LATEST_BUILD ?= build-petsc-$(PETSC_LATEST)
export PETSC_LATEST

.PHONY: all deps configure build run test test-petsc-latest petsc-latest petsc-smpi test-smpi bench bench-long bench-smpi bench-smpi-solve fuzz install clean

all: build

deps:
	@bash config/install-deps.sh

# a failed configure leaves a CMakeCache.txt (with its bad settings) and no build file: configure again from
# scratch, and on failure name the command that starts over
configure:
	@[ -f $(BUILD)/Makefile ] || [ -f $(BUILD)/build.ninja ] || { rm -f $(BUILD)/CMakeCache.txt; \
	  cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) || \
	  { echo "make: configuring $(BUILD) failed (the reason is above); fix it and run make BUILD=$(BUILD) again, or start over with: make clean BUILD=$(BUILD) && make BUILD=$(BUILD)"; exit 1; }; }

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: deps
	@$(MAKE) --no-print-directory build
	@bash bench/run-default.sh $(BUILD)

# search='glob' runs only the tests whose names match, as PETSc's `make test search=...` does
# (e.g. search='tests-ex3_*', search='*asddic*'); a bare name (search=ex3, search=install) runs that
# program's or area's tests; a search that matches nothing fails with a hint (config/test-search.sh)
test: deps
	@$(MAKE) --no-print-directory build
	@$(if $(search),bash config/test-search.sh $(BUILD) '$(search)' >/dev/null || exit 1;) \
	cd $(BUILD) && { ctest --output-on-failure -j$(JOBS) --timeout 600 $(if $(search),-R "$$(bash $(CURDIR)/config/test-search.sh . '$(search)')") 2>&1 | tee ctest.log; \
	  rc=$${PIPESTATUS[0]}; cat pipeksp-skipped.txt; $(CTEST_SKIPPED_AT_RUN) ctest.log; $(CTEST_SUMMARY) ctest.log; exit $$rc; }

# tests that skipped themselves at run time (a tool missing: SimGrid, clang-format, the other PETSc; or a timing
# test beside other jobs on the cores, which left its measurement unjudged: rerun it alone)
CTEST_SKIPPED_AT_RUN = awk '/ - .*\(Skipped\)$$/ { t = t " " $$3; n++ } \
  END { if (n) printf "skipped at run time (the output of each says why): %d tests:%s\n", n, t }'

# the closing line: ctest's counts with the tests a missing feature disabled, as "N passed, N failed, N skipped"
CTEST_SUMMARY = awk '/tests passed, .* tests failed out of/ { f = $$4; n = $$9 } /\((Disabled|Skipped)\)$$/ { s++ } \
  END { if (n) printf "ctest: %d passed, %d failed, %d skipped\n", n - f, f, s }'

# PETSc $(PETSC_LATEST) and its petsc4py (about 10 minutes the first time, then reused)
petsc-latest: deps
	@bash config/petsc-latest.sh >/dev/null

# the whole suite against PETSc $(PETSC_LATEST), in its own build folder; with the same PETSc built for
# SimGrid's SMPI (petsc-smpi), so that its test labelled smpi, a whole solve under SMPI, runs too
test-petsc-latest: petsc-latest petsc-smpi
	@prefix=$$(bash config/petsc-latest.sh --print-prefix) && \
	$(MAKE) --no-print-directory test BUILD=$(LATEST_BUILD) \
	  CMAKE_FLAGS="-DPETSC_DIR=$$prefix -DPIPEKSP_PYTHON=$$prefix/py/bin/python $(CMAKE_FLAGS)"


# the differential fuzzer with cg as the oracle (tests/fuzz): N cases of seed SEED on 1-4 ranks, a table of
# cases and failures by family, each failure with a one-line reproducer (make test runs seed 1, 150 cases);
# FEW=1 adds diag spectra of few distinct eigenvalues (family diagfew: open, not in make test)
# BELOW=1 gives half the plain cases an rtol below cg's floor (1e-20 to 1e-15)
SEED ?= 1
N    ?= 500
FEW  ?= 0
BELOW ?= 0
fuzz: deps
	@$(MAKE) --no-print-directory build
	@/usr/bin/python3 tests/fuzz/fuzz.py --exe $(BUILD)/tests/fuzz/pipefuzz --seed $(SEED) --cases $(N) $(if $(filter 1,$(FEW)),--few-distinct) $(if $(filter 1,$(BELOW)),--below-floor)

bench: deps
	@$(MAKE) --no-print-directory build
	@bash bench/bench.sh $(BUILD)

bench-long: deps
	@$(MAKE) --no-print-directory build
	@PIPEKSP_BENCH_LONG=1 bash bench/bench.sh $(BUILD)

# optional: the emulator against SimGrid/SMPI (skipped with a message when SimGrid is not installed)
bench-smpi: deps
	@$(MAKE) --no-print-directory build
	@bash bench/smpi/run.sh $(BUILD)

# PETSc $(PETSC_LATEST) built for SimGrid's SMPI and PipeKSP's SMPI driver, in the cache (config/petsc-smpi.sh;
# about 10 minutes the first time, then reused; libsimgrid-dev comes with make deps)
petsc-smpi: deps
	@bash config/petsc-smpi.sh >/dev/null

# the ctest tests labelled smpi (a whole solve under SMPI), after building what they need
test-smpi: petsc-smpi
	@$(MAKE) --no-print-directory build
	@cd $(BUILD) && ctest --output-on-failure -L smpi --timeout 600

# optional: whole solves under SMPI (SIMULATED) side by side with the emulator (EMULATED); skipped with a
# message when SimGrid is not installed. The emulated side's flop clock needs PETSc 3.20 or newer: the native
# build against PETSc $(PETSC_LATEST), the SMPI side's PETSc too
bench-smpi-solve: deps
	@$(MAKE) --no-print-directory build
	@if command -v smpirun >/dev/null && [ "$${PIPEKSP_SMPI_EMU_CLOCK:-flops}" = flops ]; then \
	  $(MAKE) --no-print-directory petsc-latest && prefix=$$(bash config/petsc-latest.sh --print-prefix) && \
	  $(MAKE) --no-print-directory build BUILD=$(LATEST_BUILD) CMAKE_FLAGS="-DPETSC_DIR=$$prefix -DPIPEKSP_PYTHON=$$prefix/py/bin/python $(CMAKE_FLAGS)"; fi
	@bash bench/smpi/solve.sh $(BUILD)

# a short summary, the logs in $(BUILD) (the sub-makes' "Entering/Leaving directory" filled screens)
install: configure
	@cmake --build $(BUILD) -j$(JOBS) > $(BUILD)/build.log 2>&1 || { tail -30 $(BUILD)/build.log; echo "make install: the build failed (whole log: $(BUILD)/build.log)"; exit 1; }
	@cmake --install $(BUILD) --prefix "$(PREFIX)" > $(BUILD)/install.log 2>&1 || { cat $(BUILD)/install.log; echo "make install: cmake --install failed"; exit 1; }
	@echo "make install: PipeKSP into $(PREFIX), $$(grep -c -e '-- Installing' -e '-- Up-to-date' $(BUILD)/install.log) files (list: $(BUILD)/install.log); use it with pkg-config (PKG_CONFIG_PATH=$$(dirname "$$(find "$(PREFIX)" -name pipeksp.pc | head -1)")) or CMake (CMAKE_PREFIX_PATH=$(PREFIX))"

# only the build tree: an install tree is the user's to remove
clean:
	rm -rf $(BUILD)
