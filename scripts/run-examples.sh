#!/usr/bin/env bash
# Builds and runs every example (GCC preset). Installs only what the examples need: the
# configuration says which tests and benchmarks it skips for want of their packages.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh examples
cmake --preset gcc
# run_examples depends on every example executable, so this builds only what it needs.
cmake --build --preset gcc --target run_examples
