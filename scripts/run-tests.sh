#!/usr/bin/env bash
# Builds and runs every test with GCC 12 and Clang 16, then with GCC 12 under ASan and UBSan
# (preset sanitize); the CI entry point (.ci/run). Prints the wall time of each phase and
# ends with ctest's summary lines.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

timings=()
# phase LABEL COMMAND...: runs COMMAND, records its wall time, stops the script on failure.
phase() {
  local label=$1; shift
  echo "=== $label ==="
  local start status=0
  start=$(date +%s%N)
  "$@" || status=$?
  local ms=$((($(date +%s%N) - start) / 1000000))
  local line
  line=$(printf '%-18s %6d.%01d s' "$label" $((ms / 1000)) $((ms % 1000 / 100)))
  timings+=("$line")
  echo "[time] $line"
  if ((status != 0)); then
    echo "FAILED: $label (exit $status)" >&2
    exit "$status"
  fi
}

# Keeps ctest's output in a log so its summary line can be repeated at the very end.
run_ctest() {
  ctest --preset "$1" 2>&1 | tee "build/$1/ctest.log"
}

phase "install-deps" bash scripts/install-deps.sh tests
for preset in gcc clang sanitize; do
  # ON, not the default AUTO: a missing test dependency must fail the run, not skip the tests.
  phase "$preset configure" cmake --preset "$preset" -DCASSETTE_BUILD_TESTS=ON
  phase "$preset build" cmake --build --preset "$preset"   # the preset sets -j2
  phase "$preset test" run_ctest "$preset"
done

echo "=== wall time ==="
printf '%s\n' "${timings[@]}"
for preset in gcc clang sanitize; do
  echo "=== ctest ($preset) ==="
  grep -E '^[0-9]+% tests passed' "build/$preset/ctest.log"
done
