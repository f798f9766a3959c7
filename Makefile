# The README's two commands: `make run` and `make test`. Both install what is
# missing first (OpenBLAS headers and pkg-config via apt when run as root;
# otherwise they print the exact command to run).

SWIFT      ?= swift
RELEASE    := .build/release/gym-train
APT_PKGS   := libopenblas-dev pkg-config

.PHONY: run test setup build release bench clean

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

# The main job: with the defaults in Configs/.
run: release
	$(RELEASE) eval --config Configs/pong.json --agent tracker --opponent random

test: setup
	$(SWIFT) test

bench: release
	$(RELEASE) bench

clean:
	rm -rf .build
