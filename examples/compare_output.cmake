# Runs EXECUTABLE and fails unless it exits 0 and its stdout equals EXPECTED byte for byte.
# Usage: cmake -DEXECUTABLE=... -DEXPECTED=... -DACTUAL=<where to keep stdout> -P compare_output.cmake
foreach(var EXECUTABLE EXPECTED ACTUAL)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compare_output.cmake: ${var} is not set")
  endif()
endforeach()

get_filename_component(actual_dir ${ACTUAL} DIRECTORY)
file(MAKE_DIRECTORY ${actual_dir})
# stdout goes to a file (not a CMake string) so the comparison really is byte for byte.
execute_process(COMMAND ${EXECUTABLE} OUTPUT_FILE ${ACTUAL} RESULT_VARIABLE exit_code)
if(NOT exit_code STREQUAL "0")
  message(FATAL_ERROR "${EXECUTABLE} exited with ${exit_code}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${EXPECTED} ${ACTUAL} RESULT_VARIABLE differs)
if(differs)
  # diff is part of Debian's essential set; fall back to printing both outputs.
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND ${DIFF} -u --label expected --label actual ${EXPECTED} ${ACTUAL}
      OUTPUT_VARIABLE report)
  else()
    file(READ ${EXPECTED} expected_text)
    file(READ ${ACTUAL} actual_text)
    set(report "--- expected ---\n${expected_text}\n--- actual ---\n${actual_text}")
  endif()
  # Printed verbatim: message(FATAL_ERROR) would re-wrap the diff.
  message("${report}")
  message(FATAL_ERROR "stdout of ${EXECUTABLE} differs from ${EXPECTED}")
endif()
