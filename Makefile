# Fresh-machine entry points (README): `make verify KERNEL=...` and `make test`.
# Both create the virtual environment .venv on first use and install the project into it.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
KERNEL ?= corpus/opencl/reduce.cl
BUILD ?= build
JOBS ?= 2

.PHONY: setup verify test test-all unit lit lint corpus bench bench-scaling mutants fuzz conformance conformance-mutants clean
.SECONDARY:

# The editable install leaves the sources uncompiled: byte-compile them so that each run
# does not (0.15-0.2 s of every verification when PYTHONDONTWRITEBYTECODE is set).
setup: $(VENV)/.installed
	@$(PY) -m compileall -q bugle vcgen > /dev/null

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,solvers]'
	touch $@

# Verify one kernel with the flags in its test header (line 2), plus FLAGS.
verify: setup
	$(BIN)/gpuverify $$($(PY) tests/header_flags.py all $(KERNEL)) $(FLAGS) $(KERNEL)

# The suite: the type check, unit, stage (lit), corpus, differential and mutant-subset tests.
# Tests marked `slow` (the full mutant check, minutes) run with `make mutants` / `make test-all`.
test: setup lint
	$(PY) -m pytest -q -n 2 -m "not slow" tests
	$(BIN)/lit -q tests/lit

test-all: setup lint
	$(PY) -m pytest -q -n 2 tests
	$(BIN)/lit -q tests/lit

# mypy over bugle/ and vcgen/ (settings in pyproject.toml).
lint: setup
	$(BIN)/mypy

unit: setup
	$(PY) -m pytest -q tests --ignore=tests/test_corpus.py --ignore=tests/test_mutants.py

lit: setup
	$(BIN)/lit -q tests/lit

corpus: setup
	$(BIN)/gpuverify-test -j $(JOBS) corpus

# Per-phase times per kernel, medians and totals; KERNELS='a.cl dir/ ...' runs a subset.
bench: setup
	$(PY) tests/bench.py $(or $(KERNELS),corpus) $(BENCH_FLAGS)

# Wall time and phases by size (1..50) of five synthetic families (accesses, barriers,
# conditionals, nested loops with and without barriers) and the growth from 10 to 50.
bench-scaling: setup
	$(PY) tests/bench_scaling.py $(SCALING_FLAGS)

mutants: setup
	$(PY) tests/mutants.py check

# Soundness oracle (issue 9): N random kernels from seed SEED, a concrete all-threads reference
# against gpuverify; prints generated / reference-racy / verified / misses / false alarms / errors.
# FEATURES=no-dead-reads,... switches generator features off (see tests/oracle/generate.py).
N ?= 1000
SEED ?= 0
FEATURES ?=
fuzz: setup
	PYTHONPATH=tests $(PY) -m oracle.check -n $(N) --seed $(SEED) -j $(JOBS) $(if $(FEATURES),--features=$(FEATURES))

# GPUVerify's test suite and the benchmarks of its evaluation (test data, not part of `make
# test`): one summary row per suite (passed / missed / false alarms / errors / timeouts,
# median and p95 seconds); FAILURES=1 lists the failing kernels not in
# tests/conformance/disagreements.txt.  CONFORMANCE=DIR overrides where the suites are.
CONFORMANCE ?= ../shared/conformance
TIMEOUT ?= 60
conformance: setup
	$(PY) tests/conformance.py -j $(JOBS) --timeout $(TIMEOUT) $(if $(FAILURES),--failures) \
	  $(CONFORMANCE)/gpuverify-testsuite $(CONFORMANCE)/gpuverify-benchmarks-dev

# Barrier-deletion mutants of the correct kernels of the external suites (test data, not part
# of `make test`): no Verified mutant may race in the IL reference.  CONFORMANCE=DIR overrides.
conformance-mutants: setup
	$(PY) tests/conformance_mutants.py -j $(JOBS) $(MUTANT_FLAGS) \
	  $(CONFORMANCE)/gpuverify-testsuite $(CONFORMANCE)/gpuverify-benchmarks-dev

# Per candidate rule over the corpus: generality, hit rate, refuted by engines (paper 003 section 4.3).
# RULES_FLAGS=--worth adds essentiality (one more run per kernel and proving rule; slow).
.PHONY: rules-report
rules-report: setup
	$(PY) tests/rules_report.py -j $(JOBS) $(RULES_FLAGS) corpus

clean:
	rm -rf $(BUILD)

# ---- stage-by-stage chaining: `make build/corpus/opencl/reduce.inv.bpl`, each stage alone.
# The pattern rules are generated from the list of stages (vcgen/stages.py); flags come from
# the kernel's test header (tests/header_flags.py STAGE).
define src_of
$(firstword $(wildcard $(1).cl $(1).cu))
endef

ifneq ($(filter $(BUILD)/%,$(MAKECMDGOALS)),)
include $(BUILD)/stages.mk
endif

$(BUILD)/stages.mk: vcgen/stages.py bugle/stages.py | setup
	@mkdir -p $(dir $@)
	@$(PY) -m vcgen.stages makefile > $@
