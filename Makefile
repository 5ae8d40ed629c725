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

.PHONY: all deps configure build run test test-petsc-latest petsc-latest petsc-smpi test-smpi bench bench-long bench-smpi bench-smpi-solve install clean

all: build

deps:
	@bash config/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j$(JOBS)

run: deps
	@$(MAKE) --no-print-directory build
	@bash bench/run-default.sh $(BUILD)

# search='glob' runs only the tests whose names match, as PETSc's `make test search=...` does
# (e.g. search='tests-ex3_*', search='*asddic*'); `ctest -N` in $(BUILD) lists the names
test: deps
	@$(MAKE) --no-print-directory build
	@cd $(BUILD) && { ctest --output-on-failure -j$(JOBS) --timeout 600 $(if $(search),-R '$(SEARCH_RE)') 2>&1 | tee ctest.log; \
	  rc=$${PIPESTATUS[0]}; cat pipeksp-skipped.txt; $(CTEST_SUMMARY) ctest.log; exit $$rc; }

# the closing line: ctest's counts with the tests a missing feature disabled, as "N passed, N failed, N skipped"
CTEST_SUMMARY = awk '/tests passed, .* tests failed out of/ { f = $$4; n = $$9 } /\((Disabled|Skipped)\)$$/ { s++ } \
  END { if (n) printf "ctest: %d passed, %d failed, %d skipped\n", n - f, f, s }'

# PETSc $(PETSC_LATEST) and its petsc4py (about 10 minutes the first time, then reused)
petsc-latest: deps
	@bash config/petsc-latest.sh >/dev/null

# the whole suite against PETSc $(PETSC_LATEST), in its own build folder
test-petsc-latest: petsc-latest
	@prefix=$$(bash config/petsc-latest.sh --print-prefix) && \
	$(MAKE) --no-print-directory test BUILD=$(LATEST_BUILD) \
	  CMAKE_FLAGS="-DPETSC_DIR=$$prefix -DPIPEKSP_PYTHON=$$prefix/py/bin/python $(CMAKE_FLAGS)"

SEARCH_RE = ^$(subst ?,.,$(subst *,.*,$(subst .,\.,$(search))))$$

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
# about 12 minutes the first time, then reused; needs libsimgrid-dev, which `make deps` installs)
petsc-smpi: deps
	@bash config/petsc-smpi.sh >/dev/null

# the ctest tests labelled smpi (a whole solve under SMPI), after building what they need
test-smpi: petsc-smpi
	@$(MAKE) --no-print-directory build
	@cd $(BUILD) && ctest --output-on-failure -L smpi --timeout 600

# optional: whole solves under SMPI (SIMULATED) side by side with the emulator (EMULATED); skipped with a
# message when SimGrid is not installed
bench-smpi-solve: deps
	@$(MAKE) --no-print-directory build
	@bash bench/smpi/solve.sh $(BUILD)

install: build
	cmake --install $(BUILD) --prefix "$(PREFIX)"

# only the build tree: an install tree is the user's to remove
clean:
	rm -rf $(BUILD)
