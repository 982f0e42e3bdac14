#!/usr/bin/env bash
# Installs the toolchain and libraries that the build needs (Debian 12, as root),
# touching apt only when something is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# libboost1.81-dev, not libboost-dev: the latter is Boost 1.74 and conflicts with it.
# libeigen3-dev and libceres-dev: the peers of the AD benchmark and instruction counts.
packages=(g++ cmake ninja-build libboost1.81-dev catch2 libbenchmark-dev valgrind clang-16 libeigen3-dev libceres-dev)

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
