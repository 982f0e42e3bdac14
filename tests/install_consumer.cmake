# Installs the build tree into a scratch prefix, then configures, builds and runs
# tests/consumer against it with find_package(cassette CONFIG REQUIRED).
# Usage: cmake -DBUILD_DIR= -DCONSUMER_SOURCE_DIR= -DWORK_DIR= -DCXX= -DGENERATOR=
#        [-DMAKE_PROGRAM=] -P install_consumer.cmake
set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)
# Start clean so a stale install or cache cannot hide a broken one.
file(REMOVE_RECURSE ${prefix} ${consumer_build})

function(run)
  list(JOIN ARGN " " command_line)
  message(STATUS "+ ${command_line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE exit_code)
  if(NOT exit_code STREQUAL "0")
    message(FATAL_ERROR "failed (${exit_code}): ${command_line}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

set(configure ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${consumer_build} -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
  # Only the fresh install may satisfy find_package(cassette).
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
if(MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
run(${configure})

# Prove the package came from the scratch prefix, not from the source or build tree.
file(STRINGS ${consumer_build}/CMakeCache.txt cassette_dir REGEX "^cassette_DIR:")
string(FIND "${cassette_dir}" "=${prefix}/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "cassette was not found under ${prefix}: ${cassette_dir}")
endif()

run(${CMAKE_COMMAND} --build ${consumer_build})
run(${consumer_build}/consumer)
