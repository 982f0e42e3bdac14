#!/usr/bin/env bash
# Compile time and peak memory of gen.py's translation units, one line per (compiler, size,
# mode): tab-separated compiler, shape (and the flags, unless -O2), N, mode, CPU seconds (user + sys), max RSS MiB, or
# "fail" and the first error. One compilation at a time, so the numbers do not compete; with
# -r R, each translation unit is compiled R times and the fastest kept (with its memory).
#   bash benchmarks/compile_time/sweep.sh [-I include-dir] [-c "g++ clang++-16"] [-n "100 200"]
#        [-m "hand jet plain ..."] [-s random|chain] [-f "-O2"] [-t timeout-seconds] [-r 1]
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
include=$here/../../include compilers="g++ clang++-16" sizes="200 400 800 1600"
modes="hand jet plain null hooked fold_constants cse derivative gradient"
shape=random flags="-O2" limit=300 repeats=1
while getopts I:c:n:m:s:f:t:r: o; do
  case $o in
    I) include=$OPTARG ;; c) compilers=$OPTARG ;; n) sizes=$OPTARG ;; m) modes=$OPTARG ;;
    s) shape=$OPTARG ;; f) flags=$OPTARG ;; t) limit=$OPTARG ;; r) repeats=$OPTARG ;; *) exit 2 ;;
  esac
done
label=$shape
[[ $flags == -O2 ]] || label="$shape $flags"  # e.g. "random -O0 -g"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each pass compiles every translation unit once; with -r R, R passes, each cell's fastest kept:
# passes rather than R compilations in a row, so that a slow spell of the machine spreads over
# all sizes rather than falling on the largest.
declare -A best why
for ((pass = 0; pass < repeats; pass++)); do
  for cxx in $compilers; do for n in $sizes; do for m in $modes; do
    key="$cxx|$n|$m"
    [[ -n ${why[$key]:-} ]] && continue  # failed in an earlier pass
    python3 "$here/gen.py" --n "$n" --mode "$m" --shape "$shape" > "$tmp/t.cpp"
    # shellcheck disable=SC2086 # flags is a list
    if /usr/bin/time -f '%U %S %M' -o "$tmp/time" timeout "$limit" "$cxx" -std=c++20 $flags -DNDEBUG \
         -I"$include" -I/usr/include/eigen3 -c "$tmp/t.cpp" -o "$tmp/t.o" 2> "$tmp/err"; then
      read -r user sys rss < "$tmp/time"
      cpu=$(awk "BEGIN { print $user + $sys }")
      old=${best[$key]:-}
      if [[ -z $old ]] || awk "BEGIN { exit !($cpu < ${old% *}) }"; then best[$key]="$cpu $((rss / 1024))"; fi
    else
      failure=$(grep -m1 -E 'error|fatal|Killed|exhausted|failed' "$tmp/err" | cut -c1-160)
      why[$key]=${failure:-timeout after ${limit} s}
    fi
  done; done; done
done
for cxx in $compilers; do for n in $sizes; do for m in $modes; do
  key="$cxx|$n|$m"
  if [[ -n ${why[$key]:-} ]]; then
    printf '%s\t%s\t%s\t%s\tfail\t%s\n' "$cxx" "$label" "$n" "$m" "${why[$key]}"
  else
    printf '%s\t%s\t%s\t%s\t%s\t%d\n' "$cxx" "$label" "$n" "$m" "${best[$key]% *}" "${best[$key]#* }"
  fi
done; done; done
