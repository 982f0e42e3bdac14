# Instruction counts (callgrind) of the pass variants of driver.cpp: an identity pass costs
# what null_context does (within 1%), CSE and strength reduction each cost fewer.
# Usage: cmake -DVALGRIND=<valgrind> -DDRIVER=<pass_driver> -DOUT_DIR=<dir> -P count.cmake
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/../callgrind.cmake)
file(MAKE_DIRECTORY ${OUT_DIR})
set(variants null_context identity cse strength both)
foreach(variant IN LISTS variants)
  callgrind_count(${variant} pass_${variant} ${OUT_DIR}/pass_${variant}.out ${DRIVER} ${variant})
endforeach()

set(failures "")
message("variant        instructions  per call  ratio to null_context")
foreach(variant IN LISTS variants)
  math(EXPR per_call "${${variant}} / 1000")
  ratio(r ${${variant}} ${null_context})
  message("${variant}\t${${variant}}\t${per_call}\t${r}")
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
