#!/usr/bin/env bash
# Installs the Debian 12 packages that a group of commands needs (as root), touching apt
# only when something is missing:
#   install-deps.sh examples   the library and its examples (scripts/run-examples.sh)
#   install-deps.sh [tests]    everything the tests and benchmarks use (scripts/run-tests.sh)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# libboost1.81-dev, not libboost-dev: the latter is Boost 1.74 and conflicts with it.
examples=(g++ cmake ninja-build libboost1.81-dev)
# Catch2 v2 and Google Benchmark; clang-16, the second compiler; valgrind for the
# instruction counts; libeigen3-dev and libceres-dev, the peers of the AD benchmark and
# instruction counts; Sacado (with the Kokkos headers Debian's Sacado includes) and ADOL-C,
# the peers of reverse mode; git and pkg-config for the consumer tests; python3 for the
# single-header amalgamation and the fuzzer's generator; graphviz, whose dot checks the
# graphs' Graphviz output.
tests=("${examples[@]}" catch2 libbenchmark-dev clang-16 valgrind libeigen3-dev libceres-dev
       libtrilinos-sacado-dev libtrilinos-kokkos-dev libadolc-dev graphviz git pkg-config python3)

case ${1:-tests} in
  examples) packages=("${examples[@]}") ;;
  tests) packages=("${tests[@]}") ;;
  *) echo "usage: $0 [examples|tests]" >&2; exit 2 ;;
esac

missing=()
for package in "${packages[@]}"; do
  # Capture rather than pipe into grep -q, which can SIGPIPE dpkg and trip pipefail.
  status=$(dpkg -s "$package" 2>/dev/null || true)
  if [[ $status != *"Status: install ok installed"* ]]; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

if ((EUID != 0)); then
  echo "install-deps: missing ${missing[*]}; run this script as root to install them" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update
# Recommends stay on: valgrind's libc6-dbg is one of them.
apt-get install -y "${missing[@]}"
