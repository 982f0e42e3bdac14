# Instruction counts (callgrind) of the pass variants of driver.cpp: an identity pass costs
# what null_context does (within 1%), CSE and strength reduction each cost fewer.
# Usage: cmake -DVALGRIND=<valgrind> -DDRIVER=<pass_driver> -DOUT_DIR=<dir> -P count.cmake
cmake_minimum_required(VERSION 3.25)
file(MAKE_DIRECTORY ${OUT_DIR})
set(variants null_context identity cse strength both)
foreach(variant IN LISTS variants)
  set(out ${OUT_DIR}/pass_${variant}.out)
  execute_process(
    COMMAND ${VALGRIND} --tool=callgrind --toggle-collect=pass_${variant} --callgrind-out-file=${out}
      ${DRIVER} ${variant}
    RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "valgrind pass_${variant} failed (${status}):\n${errors}")
  endif()
  file(STRINGS ${out} total REGEX "^(summary|totals): [0-9]+")
  list(GET total 0 total)
  string(REGEX REPLACE "^[a-z]+: ([0-9]+).*" "\\1" ${variant} "${total}")
endforeach()

set(failures "")
message("variant        instructions  per call  ratio to null_context")
foreach(variant IN LISTS variants)
  math(EXPR per_call "${${variant}} / 1000")
  math(EXPR milli "(${${variant}} * 1000 + ${null_context} / 2) / ${null_context}")
  message("${variant}\t${${variant}}\t${per_call}\t${milli}/1000")
endforeach()
# A pass that finds nothing to rewrite costs nothing: strength reduction has no pow(x, 2) here
# (and GCC and Clang turn a pow(x, 2.0) into x * x themselves).
math(EXPR identity_bound "${null_context} * 101 / 100")
foreach(variant IN ITEMS identity strength)
  if(${variant} GREATER identity_bound)
    string(APPEND failures "${variant}: ${${variant}} > 1.01 x null_context ${null_context}\n")
  endif()
endforeach()
foreach(variant IN ITEMS cse both)
  if(NOT ${variant} LESS null_context)
    string(APPEND failures "${variant}: ${${variant}} is not below null_context ${null_context}\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
