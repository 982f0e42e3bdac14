#!/usr/bin/env bash
# Compile time and peak memory of chain.cpp, per compiler and variant, at -O2: the
# fastest of RUNS compilations (wall and user+sys CPU seconds) and its maximum resident
# set size, as a Markdown table for docs/compile-time.md. Run from anywhere:
#   bash benchmarks/compile_time/measure.sh [compiler...]    (default: g++ clang++-16)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
runs=${RUNS:-3}
compilers=("$@")
((${#compilers[@]})) || compilers=(g++ clang++-16)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "| compiler | variant | wall s | CPU s | max RSS MiB |"
echo "|---|---|---:|---:|---:|"
for cxx in "${compilers[@]}"; do
  # GCC's -dumpversion is the major version only; Clang has no -dumpfullversion.
  version="$cxx $("$cxx" -dumpfullversion 2>/dev/null || "$cxx" -dumpversion)"
  for variant in HAND PLAIN NULL_CONTEXT TRACER; do  # CHAIN_CSE needs -fconstexpr-depth: see the docs
    best=""
    for ((i = 0; i < runs; ++i)); do
      # The same flags as a Release build of the project (cassette_warnings included).
      /usr/bin/time -f '%e %U %S %M' -o "$out/time" \
        "$cxx" -std=c++20 -O2 -DNDEBUG -Wall -Wextra -Wpedantic -Werror \
        -I"$root/include" -DCHAIN_$variant -c "$root/benchmarks/compile_time/chain.cpp" -o "$out/chain.o"
      read -r wall user sys rss < "$out/time"
      if [[ -z $best ]] || awk "BEGIN { exit !($wall < ${best%% *}) }"; then
        best="$wall $(awk "BEGIN { print $user + $sys }") $((rss / 1024))"
      fi
    done
    read -r wall cpu rss <<< "$best"
    echo "| $version | ${variant,,} | $wall | $cpu | $rss |"
  done
done
