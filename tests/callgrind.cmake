# What the instruction-count scripts (tests/*/count.cmake) share: counting one function with
# callgrind, and formatting ratios for their tables. Included by those scripts (cmake -P).

# callgrind_count(<var> <symbol> <out> <command>...): the instructions callgrind counts in the
# function `symbol` and its callees while `command` runs, its profile written to `out`.
function(callgrind_count var symbol out)
  file(REMOVE ${out})
  # --toggle-collect also turns collection off at start: only this function is counted.
  execute_process(
    COMMAND ${VALGRIND} --tool=callgrind --toggle-collect=${symbol} --callgrind-out-file=${out} ${ARGN}
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "valgrind ${command} (counting ${symbol}) failed (${status}):\n${output}${errors}")
  endif()
  # Older callgrind writes "summary:", newer "totals:"; both give the total for Ir.
  file(STRINGS ${out} total REGEX "^(summary|totals): [0-9]+")
  list(GET total 0 total)
  string(REGEX REPLACE "^[a-z]+: ([0-9]+).*" "\\1" total "${total}")
  if(total EQUAL 0)
    message(FATAL_ERROR "callgrind counted no instructions in ${symbol}: was it inlined or renamed?")
  endif()
  set(${var} ${total} PARENT_SCOPE)
endfunction()

# ratio(<var> a b): a / b with three decimals.
function(ratio var a b)
  math(EXPR milli "(${a} * 1000 + ${b} / 2) / ${b}")
  math(EXPR whole "${milli} / 1000")
  math(EXPR frac "${milli} % 1000 + 1000")   # zero-padded by the leading 1
  string(SUBSTRING ${frac} 1 3 frac)
  set(${var} "${whole}.${frac}" PARENT_SCOPE)
endfunction()

# pad(<var> width text): text right-aligned in width columns.
function(pad var width text)
  string(LENGTH "${text}" length)
  while(length LESS width)
    string(PREPEND text " ")
    math(EXPR length "${length} + 1")
  endwhile()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
