#!/usr/bin/env bash
# The differential fuzzer (docs/testing.md): generates random DSL programs with their twins,
# compiles them in batches and runs their checks. Prints one line per mismatch or compile
# error, a command that reproduces it, then a summary; exits nonzero if there was any.
#
#   scripts/fuzz.sh --seed S [--count N | --only K] [--compiler g++|clang++-16] [--opt -O2]
#                   [--batch B] [--jobs J] [--build-dir DIR] [--define NAME=VALUE]
# $PYTHON, if set, is the Python 3 that runs the generator.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

seed=1 count=100 only='' compiler=g++ opt=-O2 batch=10 jobs=2 build_dir='' define=''
usage() { sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
  case $1 in
    --seed) seed=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --compiler) compiler=$2; shift 2 ;;
    --opt) opt=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --define) define=$2; shift 2 ;;
    *) usage ;;
  esac
done
build_dir=${build_dir:-$root/build/fuzz-$(basename "$compiler")$opt/seed-$seed}
mkdir -p "$build_dir"

# The same flags as the project's own code: warnings are errors. Values are compared bit for
# bit, so the math functions are calls to libm, never evaluated by the compiler: GCC computes
# a call whose arguments are constants with MPFR, correctly rounded, and libm's cbrt, sinh,
# ... are not always; the twin and the DSL's evaluator are shaped differently, so an argument
# may be constant after optimisation in one and not in the other. pow stays a builtin, as
# compilers make std::pow(x, 2) x * x, which is what cassette::pow(x, 2) computes.
no_folding=()
for f in sin cos tan asin acos atan atan2 sinh cosh tanh exp expm1 log log1p cbrt hypot; do
  no_folding+=("-fno-builtin-$f")
done
cxxflags=(-std=c++20 "$opt" -Wall -Wextra -Wpedantic -Werror "${no_folding[@]}" -I"$root/include" -I"$root/tests/fuzz")
reproduce="scripts/fuzz.sh --seed $seed --compiler $compiler --opt $opt"
if [[ -n $define ]]; then
  cxxflags+=("-D$define")
  reproduce+=" --define $define"
fi

# unit FIRST COUNT: generates, compiles and runs programs [FIRST, FIRST + COUNT); leaves the
# compiler's messages and the run's output next to the source.
unit() {
  local name=$build_dir/programs-$1-$2
  rm -f "$name" "$name.out" "$name.errors"
  "${PYTHON:-python3}" "$root/tests/fuzz/generate.py" --seed "$seed" --first "$1" --count "$2" --out "$name.cpp"
  "$compiler" "${cxxflags[@]}" "$name.cpp" -o "$name" 2>"$name.errors" || return 0
  timeout 600 "$name" >"$name.out" 2>&1 || true
}
# The batches (or the one program), JOBS at a time.
if [[ -n $only ]]; then
  ranges=("$only 1")
else
  ranges=()
  for ((first = 0; first < count; first += batch)); do
    ranges+=("$first $((count - first < batch ? count - first : batch))")
  done
fi
run_all() {
  local range first n
  for range in "$@"; do
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
    read -r first n <<<"$range"
    unit "$first" "$n" &
  done
  wait
}
run_all "${ranges[@]}"

# finished FIRST N: whether the batch compiled and its run came to its summary line.
finished() { grep -qs '^summary:' "$build_dir/programs-$1-$2.out"; }

# A batch that did not compile, or crashed, runs again program by program, to name the culprits.
retry=()
for range in "${ranges[@]}"; do
  read -r first n <<<"$range"
  if ((n > 1)) && ! finished "$first" "$n"; then
    for ((k = first; k < first + n; ++k)); do retry+=("$k 1"); done
  fi
done
if ((${#retry[@]})); then
  echo "fuzz: a batch failed to compile or crashed: ${#retry[@]} programs run one by one" >&2
  run_all "${retry[@]}"
  ranges+=("${retry[@]}")
fi

programs=0 checks=0 mismatches=0 errors=0
for range in "${ranges[@]}"; do
  read -r first n <<<"$range"
  name=$build_dir/programs-$first-$n
  if finished "$first" "$n"; then
    while IFS= read -r line; do
      if [[ $line =~ ^mismatch:\ seed\ [0-9]+\ program\ ([0-9]+)\ (.*)$ ]]; then
        echo "$reproduce --only ${BASH_REMATCH[1]}  # ${BASH_REMATCH[2]}"
      elif [[ $line =~ ^summary:\ ([0-9]+)\ programs,\ ([0-9]+)\ checks,\ ([0-9]+)\ mismatches ]]; then
        ((programs += BASH_REMATCH[1], checks += BASH_REMATCH[2], mismatches += BASH_REMATCH[3])) || true
      fi
    done <"$name.out"
  elif ((n == 1)) && [[ -e $name.out ]]; then
    echo "$reproduce --only $first  # crashed: $(tail -n 1 "$name.out")"
    ((++errors))
  elif ((n == 1)); then
    echo "$reproduce --only $first  # compile error: $(grep -m1 'error' "$name.errors" || head -c 300 "$name.errors")"
    ((++errors))
  fi
done
echo "fuzz: seed $seed, $compiler $opt: $programs programs, $checks checks, $mismatches mismatches, $errors compile errors or crashes"
((mismatches == 0 && errors == 0))
