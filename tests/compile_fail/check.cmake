# Compile-fail harness: SOURCE must fail to compile with diagnostics matching every
# `// expect: <regex>` line in it, the first of them in the first error, and must compile
# with -DCASSETTE_PASSING_TWIN.
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

# 1b. The first `expect` must be the first error, and come early: within the first 10 lines
# that are not instantiation context ("In instantiation of", "required from", "note:" ...),
# which the compilers print before an error in a template, as deep as the user's call.
string(REPLACE ";" "," flat "${output}")
string(REPLACE "\n" ";" lines "${flat}")
set(position 0)
set(first_error "")
foreach(text IN LISTS lines)
  if(text MATCHES "(In file included from|^ +from |In instantiation of|required from|required by substitution|in 'constexpr' expansion|In function|In member function|In lambda function|: note: |^ +[0-9]* \\||^ +\\|)")
    continue()
  endif()
  math(EXPR position "${position} + 1")
  if(text MATCHES "error: ")
    set(first_error "${text}")
    break()
  endif()
endforeach()
list(GET expects 0 first_expect)
if(NOT first_error MATCHES "${first_expect}")
  fail("the first error does not match the first expect: ${first_expect}" "--- first error ---\n${first_error}\n--- compiler output ---\n${output}")
endif()
if(position GREATER 10)
  fail("the first error is on line ${position} of the messages, after the first 10" "${output}")
endif()

# 2. Its passing twin must compile, so the failure above is not an unrelated one.
execute_process(COMMAND ${CXX} ${flags} -DCASSETTE_PASSING_TWIN ${SOURCE}
  RESULT_VARIABLE exit_code OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT exit_code EQUAL 0)
  fail("passing twin (-DCASSETTE_PASSING_TWIN) of ${SOURCE} does not compile" "${output}")
endif()
list(LENGTH expects count)
message(STATUS "${SOURCE}: fails with all ${count} expected message(s); passing twin compiles")
