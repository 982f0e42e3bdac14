# Counts the instructions per call of every row (implementation) of one AD workload with
# callgrind, prints them with their ratios to the hand-written row and to the best peer
# (the fewest of Boost, Jet and Eigen), and guards against regressions: each Cassette row
# may use at most 1.10 x its baseline below. The baselines are what Cassette measured when
# they were recorded. The issue's targets (fewer than the best peer; within 1.3 x
# hand-written for g', g'' and the energy gradient) are printed for every row and asserted
# for the rows listed in targets_asserted_<compiler>.
# Usage: cmake -DVALGRIND=<valgrind> -DDRIVER=<ad_instructions_driver> -DWORKLOAD=<name>
#        -DCOMPILER=<id>-<major> -DOUT_DIR=<dir> -P count.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../callgrind.cmake)

# --- baselines: instructions per call, Debian 12 (glibc 2.36), -O2, as of the commit that recorded them ---
# To re-record, copy the "baseline" lines this script prints.
set(baseline_GNU-12_rosenbrock_2_cassette_vector 808)
set(baseline_GNU-12_rosenbrock_2_cassette_array 33)
set(baseline_GNU-12_rosenbrock_10_cassette_vector 2924)
set(baseline_GNU-12_rosenbrock_10_cassette_array 964)
set(baseline_GNU-12_rosenbrock_100_cassette_vector 129589)
set(baseline_GNU-12_rosenbrock_100_cassette_array 104347)
set(baseline_GNU-12_g_first_cassette 411)
set(baseline_GNU-12_g_second_cassette 452)
set(baseline_GNU-12_energy_gradient_cassette 153)
set(baseline_Clang-16_rosenbrock_2_cassette_vector 888)
set(baseline_Clang-16_rosenbrock_2_cassette_array 27)
set(baseline_Clang-16_rosenbrock_10_cassette_vector 3373)
set(baseline_Clang-16_rosenbrock_10_cassette_array 1304)
set(baseline_Clang-16_rosenbrock_100_cassette_vector 153049)
set(baseline_Clang-16_rosenbrock_100_cassette_array 280083)
set(baseline_Clang-16_g_first_cassette 470)
set(baseline_Clang-16_g_second_cassette 901)
set(baseline_Clang-16_energy_gradient_cassette 141)
# Reverse mode and values with derivatives: ad_reverse_driver. Its cassette_forward rows are
# not guarded: they are forward mode in a larger translation unit, where how much of it GCC 12
# inlines changes with whatever else the unit holds (2 to 5 x the counts of
# ad_instructions_driver's cassette_array rows, which are guarded).
set(baseline_GNU-12_rosenbrock_reverse_2_cassette_reverse 21)
set(baseline_GNU-12_rosenbrock_reverse_2_cassette_reverse_tape 218)
set(baseline_GNU-12_rosenbrock_reverse_2_cassette_reverse_vector 296)
set(baseline_GNU-12_rosenbrock_reverse_5_cassette_reverse 149)
set(baseline_GNU-12_rosenbrock_reverse_5_cassette_reverse_tape 582)
set(baseline_GNU-12_rosenbrock_reverse_5_cassette_reverse_vector 394)
set(baseline_GNU-12_rosenbrock_reverse_10_cassette_reverse 284)
set(baseline_GNU-12_rosenbrock_reverse_10_cassette_reverse_tape 1093)
set(baseline_GNU-12_rosenbrock_reverse_10_cassette_reverse_vector 571)
set(baseline_GNU-12_rosenbrock_reverse_100_cassette_reverse 2999)
set(baseline_GNU-12_rosenbrock_reverse_100_cassette_reverse_tape 10789)
set(baseline_GNU-12_rosenbrock_reverse_100_cassette_reverse_vector 3581)
set(baseline_GNU-12_rosenbrock_reverse_1000_cassette_reverse 29999)
set(baseline_GNU-12_rosenbrock_reverse_1000_cassette_reverse_tape 122325)
set(baseline_GNU-12_rosenbrock_reverse_1000_cassette_reverse_vector 41155)
set(baseline_GNU-12_energy_reverse_cassette_reverse 148)
set(baseline_GNU-12_energy_reverse_cassette_reverse_tape 568)
set(baseline_GNU-12_gaussian_gradient_cassette_reverse 19037)
set(baseline_GNU-12_gaussian_gradient_cassette_reverse_tape 252184)
set(baseline_GNU-12_g_value_first_cassette 424)
set(baseline_GNU-12_g_value_first_cassette_two_calls 702)
set(baseline_Clang-16_rosenbrock_reverse_2_cassette_reverse 20)
set(baseline_Clang-16_rosenbrock_reverse_2_cassette_reverse_tape 236)
set(baseline_Clang-16_rosenbrock_reverse_2_cassette_reverse_vector 285)
set(baseline_Clang-16_rosenbrock_reverse_5_cassette_reverse 64)
set(baseline_Clang-16_rosenbrock_reverse_5_cassette_reverse_tape 642)
set(baseline_Clang-16_rosenbrock_reverse_5_cassette_reverse_vector 366)
set(baseline_Clang-16_rosenbrock_reverse_10_cassette_reverse 126)
set(baseline_Clang-16_rosenbrock_reverse_10_cassette_reverse_tape 1366)
set(baseline_Clang-16_rosenbrock_reverse_10_cassette_reverse_vector 508)
set(baseline_Clang-16_rosenbrock_reverse_100_cassette_reverse 2561)
set(baseline_Clang-16_rosenbrock_reverse_100_cassette_reverse_tape 14290)
set(baseline_Clang-16_rosenbrock_reverse_100_cassette_reverse_vector 2811)
set(baseline_Clang-16_rosenbrock_reverse_1000_cassette_reverse 32681)
set(baseline_Clang-16_rosenbrock_reverse_1000_cassette_reverse_tape 154934)
set(baseline_Clang-16_rosenbrock_reverse_1000_cassette_reverse_vector 33410)
set(baseline_Clang-16_energy_reverse_cassette_reverse 145)
set(baseline_Clang-16_energy_reverse_cassette_reverse_tape 504)
set(baseline_Clang-16_gaussian_gradient_cassette_reverse 18040)
set(baseline_Clang-16_gaussian_gradient_cassette_reverse_tape 182420)
set(baseline_Clang-16_g_value_first_cassette 470)
set(baseline_Clang-16_g_value_first_cassette_two_calls 739)

# The workloads whose Cassette row the issue wants within 1.3 x hand-written.
set(near_hand_workloads g_first g_second energy_gradient)

# The rows that meet the targets with GCC 12, the compiler the issue measures with. The
# std::vector rows do not: a vector's size is known only at run time, so they seed 8 lanes
# per pass and allocate (docs/ad-benchmarks.md).
set(targets_asserted_GNU-12 rosenbrock_2.cassette_array rosenbrock_10.cassette_array
  rosenbrock_100.cassette_array g_first.cassette g_second.cassette energy_gradient.cassette)
# Reverse mode against Sacado and ADOL-C (when they are installed): the static adjoint with
# both compilers, and the tape.
set(reverse_rows_asserted
  rosenbrock_reverse_10.cassette_reverse rosenbrock_reverse_100.cassette_reverse
  rosenbrock_reverse_1000.cassette_reverse rosenbrock_reverse_10.cassette_reverse_vector
  rosenbrock_reverse_100.cassette_reverse_vector rosenbrock_reverse_1000.cassette_reverse_vector
  energy_reverse.cassette_reverse rosenbrock_reverse_10.cassette_reverse_tape
  rosenbrock_reverse_100.cassette_reverse_tape rosenbrock_reverse_1000.cassette_reverse_tape)
list(APPEND reverse_rows_asserted energy_reverse.cassette_reverse_tape gaussian_gradient.cassette_reverse
  gaussian_gradient.cassette_reverse_tape)
list(APPEND targets_asserted_GNU-12 ${reverse_rows_asserted})
set(targets_asserted_Clang-16 ${reverse_rows_asserted})

# Reverse mode's targets, asserted with both compilers: workload.row:limit:reference row, each
# row at most limit (in thousandths) times its reference row.
set(ratio_targets
  rosenbrock_reverse_10.cassette_reverse:1500:hand rosenbrock_reverse_100.cassette_reverse:1500:hand
  rosenbrock_reverse_1000.cassette_reverse:1500:hand energy_reverse.cassette_reverse:1500:hand
  gaussian_gradient.cassette_reverse:1500:hand
  rosenbrock_reverse_10.cassette_reverse_vector:2000:hand_vector
  rosenbrock_reverse_100.cassette_reverse_vector:2000:hand_vector
  rosenbrock_reverse_1000.cassette_reverse_vector:2000:hand_vector)
# The tape within 6 x hand-written at n = 100 with GCC 12 (Clang 16: 6.3 x).
set(ratio_targets_GNU-12 rosenbrock_reverse_100.cassette_reverse_tape:6000:hand)

# The first calls also pay for lazy symbol binding and the allocator's first growths (the
# second call still differs from the later ones): the count per call is the difference
# between FEW + 10 calls and FEW calls, divided by 10.
set(FEW 2)
math(EXPR MANY "${FEW} + 10")

execute_process(COMMAND ${DRIVER} rows ${WORKLOAD} RESULT_VARIABLE status OUTPUT_VARIABLE rows)
string(STRIP "${rows}" rows)
string(REPLACE "\n" ";" rows "${rows}")
if(NOT status EQUAL 0 OR NOT rows)
  message(FATAL_ERROR "${DRIVER} rows ${WORKLOAD} failed (${status}) or printed no rows")
endif()
file(MAKE_DIRECTORY ${OUT_DIR})

set(best_peer "")
foreach(implementation IN LISTS rows)
  set(symbol ${WORKLOAD}_${implementation})
  callgrind_count(few ${symbol} ${OUT_DIR}/${symbol}.${FEW}.out ${DRIVER} ${WORKLOAD} ${implementation} ${FEW})
  callgrind_count(many ${symbol} ${OUT_DIR}/${symbol}.${MANY}.out ${DRIVER} ${WORKLOAD} ${implementation} ${MANY})
  math(EXPR count_${implementation} "(${many} - ${few} + 5) / 10")
  if(NOT implementation MATCHES "^hand" AND NOT implementation MATCHES "^cassette")
    if(best_peer STREQUAL "" OR count_${implementation} LESS count_${best_peer})
      set(best_peer ${implementation})
    endif()
  endif()
endforeach()

set(table "  implementation             instr/call    x hand  x best peer\n")
set(failures "")
set(targets "")
set(record "")
foreach(implementation IN LISTS rows)
  set(count ${count_${implementation}})
  ratio(to_hand ${count} ${count_hand})
  set(to_peer "-")  # a workload without peers (reverse mode's, until its peers are packaged)
  if(best_peer)
    ratio(to_peer ${count} ${count_${best_peer}})
  endif()
  pad(count_text 12 ${count})
  pad(to_hand 10 ${to_hand})
  pad(to_peer 13 ${to_peer})
  string(SUBSTRING "${implementation}                        " 0 24 name)
  set(verdict "")
  if(implementation STREQUAL best_peer)
    set(verdict "   (best peer)")
  elseif(implementation MATCHES "^cassette")
    string(APPEND record "set(baseline_${COMPILER}_${WORKLOAD}_${implementation} ${count})\n")
    set(baseline "${baseline_${COMPILER}_${WORKLOAD}_${implementation}}")
    if(NOT baseline)
      set(verdict "   no baseline for ${COMPILER}: not guarded")
    else()
      math(EXPR limit "${baseline} * 110")
      math(EXPR scaled "${count} * 100")
      if(scaled GREATER limit)
        set(verdict "   over 1.10 x baseline ${baseline}: FAIL")
        string(APPEND failures " ${implementation}")
      else()
        set(verdict "   <= 1.10 x baseline ${baseline}: ok")
        math(EXPR low "${baseline} * 90")
        if(scaled LESS low)
          set(verdict "${verdict} (well under: re-record the baseline)")
        endif()
      endif()
    endif()
    # The issue's targets.
    set(met "no")
    if(best_peer AND count LESS count_${best_peer})
      set(met "yes")
    endif()
    set(row_targets "  ${implementation}: fewer instructions than the best peer (${best_peer}): ${met}")
    if(NOT best_peer)
      set(row_targets "  ${implementation}: no peer row")
    endif()
    if(WORKLOAD IN_LIST near_hand_workloads)
      math(EXPR scaled "${count} * 10")
      math(EXPR limit "${count_hand} * 13")
      set(met "no")
      if(NOT scaled GREATER limit)
        set(met "yes")
      endif()
      string(APPEND row_targets "; within 1.3 x hand-written: ${met}")
    endif()
    if("${WORKLOAD}.${implementation}" IN_LIST targets_asserted_${COMPILER})
      string(APPEND row_targets " (asserted)")
      if(row_targets MATCHES ": no")
        string(APPEND failures " ${implementation} (issue target)")
      endif()
    endif()
    foreach(target IN LISTS ratio_targets ratio_targets_${COMPILER})
      if(target MATCHES "^${WORKLOAD}\\.${implementation}:([0-9]+):(.*)$")
        set(limit_milli ${CMAKE_MATCH_1})
        set(reference ${CMAKE_MATCH_2})
        math(EXPR scaled "${count} * 1000")
        math(EXPR limit "${count_${reference}} * ${limit_milli}")
        ratio(to_reference ${count} ${count_${reference}})
        if(scaled GREATER limit)
          string(APPEND row_targets "; ${to_reference} x ${reference}, over the ${limit_milli}/1000 target (asserted): no")
          string(APPEND failures " ${implementation} (ratio target)")
        else()
          string(APPEND row_targets "; ${to_reference} x ${reference}, within ${limit_milli}/1000 (asserted): yes")
        endif()
      endif()
    endforeach()
    string(APPEND targets "${row_targets}")
    string(APPEND targets "\n")
  endif()
  string(APPEND table "  ${name}${count_text}${to_hand}${to_peer}${verdict}\n")
endforeach()

message("${WORKLOAD} (${COMPILER}): instructions per call (callgrind: ${MANY} calls minus ${FEW}, / 10)\n"
        "${table}issue targets:\n${targets}baseline lines for this compiler:\n${record}")
if(failures)
  message(FATAL_ERROR "${WORKLOAD}: over 1.10 x the baseline or missing an asserted target:${failures}")
endif()
