# Compile-fail harness: SOURCE must fail to compile with diagnostics matching every
# `// expect: <regex>` line in it, and must compile with -DCASSETTE_PASSING_TWIN.
# Regexes are CMake regexes (no ';'), matched against gcc/clang output in the C locale.
# Usage: cmake -DCXX=<compiler> -DSOURCE=<file.cpp> -DINCLUDES_FILE=<file setting
#        INCLUDE_DIRS> [-DEXTRA_EXPECT=<regex>] -P check.cmake
include(${INCLUDES_FILE})
set(flags -std=c++20 -fsyntax-only -fdiagnostics-color=never)
# -I, not -isystem: an -isystem /usr/include (Boost's dir) would break libstdc++'s
# #include_next, while a duplicate -I of a system dir is simply ignored.
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND flags -I${dir})
endforeach()
# message(FATAL_ERROR) re-wraps its text; print compiler output verbatim, then fail.
function(fail summary details)
  message("${details}")
  message(FATAL_ERROR "${summary}")
endfunction()
# Plain ASCII quotes in GCC's messages, so expectations do not depend on the locale.
set(ENV{LC_ALL} C)

file(STRINGS ${SOURCE} expect_lines REGEX "^[ \t]*//[ \t]*expect:")
set(expects)
foreach(line IN LISTS expect_lines)
  string(REGEX REPLACE "^[ \t]*//[ \t]*expect:[ \t]*" "" regex "${line}")
  string(STRIP "${regex}" regex)
  list(APPEND expects "${regex}")
endforeach()
if(DEFINED EXTRA_EXPECT)
  list(APPEND expects "${EXTRA_EXPECT}")
endif()
if(NOT expects)
  message(FATAL_ERROR "${SOURCE}: no `// expect: <regex>` line")
endif()

# 1. The failing case must fail, for the expected reasons.
execute_process(COMMAND ${CXX} ${flags} ${SOURCE}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(exit_code EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but it must not")
endif()
foreach(regex IN LISTS expects)
  if(NOT output MATCHES "${regex}")
    fail("compiler output does not match expect: ${regex}" "--- compiler output ---\n${output}")
  endif()
endforeach()

# 2. Its passing twin must compile, so the failure above is not an unrelated one.
execute_process(COMMAND ${CXX} ${flags} -DCASSETTE_PASSING_TWIN ${SOURCE}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT exit_code EQUAL 0)
  fail("passing twin (-DCASSETTE_PASSING_TWIN) of ${SOURCE} does not compile" "${output}")
endif()
list(LENGTH expects count)
message(STATUS "${SOURCE}: fails with all ${count} expected message(s); passing twin compiles")
