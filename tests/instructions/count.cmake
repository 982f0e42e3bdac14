# Counts the instructions of every variant of one workload with callgrind, prints a table
# and checks the bounds:
#   plain, null_context  <= 1.01 x hand          (the DSL costs nothing)
#   counter              <= 1.10 x hand_counter  (hooks cost what a hand-written counter does)
# no_hooks is printed, not bounded. Variants in EXEMPT (comma-separated <workload>_<variant>)
# are printed with their ratio but not asserted; see tests/instructions/CMakeLists.txt.
# Usage: cmake -DVALGRIND=<valgrind> -DDRIVER=<instructions_driver> -DWORKLOAD=<name>
#        -DOUT_DIR=<dir> [-DEXEMPT=<list>] -P count.cmake
cmake_minimum_required(VERSION 3.25)   # IN_LIST
include(${CMAKE_CURRENT_LIST_DIR}/../callgrind.cmake)
string(REPLACE "," ";" exempt "${EXEMPT}")
set(variants hand plain null_context no_hooks counter hand_counter)
file(MAKE_DIRECTORY ${OUT_DIR})

foreach(variant IN LISTS variants)
  set(symbol ${WORKLOAD}_${variant})
  callgrind_count(${variant} ${symbol} ${OUT_DIR}/${symbol}.out ${DRIVER} ${WORKLOAD} ${variant})
endforeach()

# row(<variant> <reference> <percent>): appends the variant's line to the table; with a
# percent, the variant may use at most percent% of the reference's instructions.
set(failures "")
set(table "")
function(row variant reference percent)
  set(symbol ${WORKLOAD}_${variant})
  ratio(r ${${variant}} ${${reference}})
  pad(count 12 ${${variant}})
  set(verdict "")
  if(percent)
    math(EXPR limit "${${reference}} * ${percent}")
    math(EXPR scaled "${${variant}} * 100")
    ratio(bound ${percent} 100)
    if(scaled GREATER limit)
      if(symbol IN_LIST exempt)
        set(verdict "over the bound ${bound}: EXEMPT (see docs/benchmarks.md)")
      else()
        set(verdict "over the bound ${bound}: FAIL")
        set(failures "${failures} ${symbol}" PARENT_SCOPE)
      endif()
    elseif(symbol IN_LIST exempt)
      set(verdict "<= ${bound}: ok (exempt, but no longer needs to be)")
    else()
      set(verdict "<= ${bound}: ok")
    endif()
  endif()
  string(SUBSTRING "${variant}              " 0 14 name)
  string(SUBSTRING "${reference}              " 0 14 of)
  set(table "${table}  ${name}${count}   ${r} x ${of}${verdict}\n" PARENT_SCOPE)
endfunction()

row(hand hand "")
row(plain hand 101)
row(null_context hand 101)
row(no_hooks hand "")
row(counter hand_counter 110)
row(hand_counter hand "")

message("${WORKLOAD}: instructions executed in one run (callgrind)\n"
  "  variant       instructions   ratio            bound\n${table}")
if(failures)
  message(FATAL_ERROR "over the bound:${failures}")
endif()
