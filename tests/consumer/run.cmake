# Gets Cassette in one of the ways a user can (MODE), then builds and runs the consumer
# program with it, in WORK_DIR, with the compiler and generator of the build that registered
# the test (tests/CMakeLists.txt):
#   install                  configures Cassette as a user would, without the tests'
#                            packages (Catch2, Google Benchmark), then installs it into PREFIX
#   find_package             the consumer project finds that installation
#   pkg_config               main.cpp compiled with pkg-config's flags for that installation
#   add_subdirectory, fetchcontent_path, fetchcontent_git
#                            the consumer project with a copy of Cassette in third_party/
#                            (for git: a repository made of the copy, which git fetches
#                            from in place of the URL the project names)
#   amalgamation             main.cpp compiled with the single header and Boost, nothing else
#   tests_on_without_catch2  configuring with CASSETTE_BUILD_TESTS=ON and no Catch2 fails,
#                            saying why
# Usage: cmake -DMODE= -DSOURCE_DIR= -DCONSUMER_DIR= -DWORK_DIR= -DPREFIX= -DCXX= -DGENERATOR=
#        [-DMAKE_PROGRAM=] [-DGIT=] [-DPKG_CONFIG=] [-DPYTHON=] [-DBOOST_INCLUDE_DIRS=a|b]
#        -P run.cmake

# The consumer project's flags (CMakeLists.txt), for the modes that call the compiler directly.
set(strict_flags -std=c++20 -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror -fno-rtti -fno-exceptions)

function(run)
  list(JOIN ARGN " " command_line)
  message(STATUS "+ ${command_line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE exit_code)
  if(NOT exit_code STREQUAL "0")
    message(FATAL_ERROR "failed (${exit_code}): ${command_line}")
  endif()
endfunction()

# configure(SOURCE BUILD ARGS...): a fresh configuration, so nothing stale can hide a failure.
function(configure source build)
  file(REMOVE_RECURSE ${build})
  set(command ${CMAKE_COMMAND} -S ${source} -B ${build} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
    # Only what the test provides may satisfy find_package.
    -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON ${ARGN})
  if(MAKE_PROGRAM)
    list(APPEND command -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
  endif()
  run(${command})
endfunction()

# The consumer project, with Cassette copied to third_party/cassette for the modes that
# take its sources: the files a user would vendor.
function(consumer_sources)
  set(src ${WORK_DIR}/src)
  file(REMOVE_RECURSE ${src})
  file(COPY ${CONSUMER_DIR}/CMakeLists.txt ${CONSUMER_DIR}/main.cpp ${CONSUMER_DIR}/unchanged.cmake
    DESTINATION ${src})
  file(COPY ${SOURCE_DIR}/CMakeLists.txt ${SOURCE_DIR}/LICENSE ${SOURCE_DIR}/cmake ${SOURCE_DIR}/include
    DESTINATION ${src}/third_party/cassette)
endfunction()

function(build_and_run_consumer)
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  run(${WORK_DIR}/build/app)
endfunction()

if(MODE STREQUAL "install")
  string(TIMESTAMP start "%s%f")
  configure(${SOURCE_DIR} ${WORK_DIR}/build
    -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)
  file(REMOVE_RECURSE ${PREFIX})
  run(${CMAKE_COMMAND} --install ${WORK_DIR}/build --prefix ${PREFIX})
  string(TIMESTAMP stop "%s%f")
  math(EXPR ms "(${stop} - ${start}) / 1000")
  message(STATUS "cold configure and install without the tests' packages: ${ms} ms")

elseif(MODE STREQUAL "find_package")
  consumer_sources()
  configure(${WORK_DIR}/src ${WORK_DIR}/build -DVIA=find_package -DCMAKE_PREFIX_PATH=${PREFIX})
  # The package must come from the installation, not from the source or build tree.
  file(STRINGS ${WORK_DIR}/build/CMakeCache.txt cassette_dir REGEX "^cassette_DIR:")
  string(FIND "${cassette_dir}" "=${PREFIX}/" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "cassette was not found under ${PREFIX}: ${cassette_dir}")
  endif()
  build_and_run_consumer()

elseif(MODE STREQUAL "pkg_config")
  set(ENV{PKG_CONFIG_PATH} ${PREFIX}/share/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --cflags cassette
    OUTPUT_VARIABLE cflags OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  file(MAKE_DIRECTORY ${WORK_DIR})
  run(${CXX} ${strict_flags} ${cflags} ${CONSUMER_DIR}/main.cpp -o ${WORK_DIR}/app)
  run(${WORK_DIR}/app)

elseif(MODE MATCHES "^(add_subdirectory|fetchcontent_path)$")
  consumer_sources()
  configure(${WORK_DIR}/src ${WORK_DIR}/build -DVIA=${MODE})
  build_and_run_consumer()

elseif(MODE STREQUAL "fetchcontent_git")
  consumer_sources()
  set(repository ${WORK_DIR}/src/third_party/cassette)
  run(${GIT} -C ${repository} init --quiet --initial-branch=main)
  run(${GIT} -C ${repository} add --all)
  run(${GIT} -C ${repository} -c user.name=consumer -c user.email=consumer@localhost
    commit --quiet --message "Cassette, as the consumer test fetches it")
  # Offline: git reads the URL the project names as the local repository.
  file(STRINGS ${WORK_DIR}/src/CMakeLists.txt url REGEX "GIT_REPOSITORY")
  string(REGEX REPLACE ".*GIT_REPOSITORY +([^ ]+).*" "\\1" url "${url}")
  set(ENV{GIT_CONFIG_COUNT} 1)
  set(ENV{GIT_CONFIG_KEY_0} url.${repository}.insteadOf)
  set(ENV{GIT_CONFIG_VALUE_0} ${url})
  configure(${WORK_DIR}/src ${WORK_DIR}/build -DVIA=fetchcontent_git)
  build_and_run_consumer()

elseif(MODE STREQUAL "amalgamation")
  set(single ${WORK_DIR}/include/cassette/cassette.hpp)
  file(REMOVE_RECURSE ${WORK_DIR}/include)
  run(${PYTHON} ${SOURCE_DIR}/scripts/amalgamate.py ${single})
  # main.cpp includes <cassette/cassette.hpp>: with only this directory on the include path,
  # the single header is the one Cassette header there is.
  set(boost_flags)
  string(REPLACE "|" ";" boost_dirs "${BOOST_INCLUDE_DIRS}")
  foreach(dir IN LISTS boost_dirs)
    list(APPEND boost_flags -isystem ${dir})
  endforeach()
  run(${CXX} ${strict_flags} -I${WORK_DIR}/include ${boost_flags} ${CONSUMER_DIR}/main.cpp -o ${WORK_DIR}/app)
  run(${WORK_DIR}/app)

elseif(MODE STREQUAL "tests_on_without_catch2")
  file(REMOVE_RECURSE ${WORK_DIR}/build)
  set(command ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCASSETTE_BUILD_TESTS=ON -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON)
  if(MAKE_PROGRAM)
    list(APPEND command -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
  endif()
  execute_process(COMMAND ${command} RESULT_VARIABLE exit_code ERROR_VARIABLE errors)
  set(expected "CASSETTE_BUILD_TESTS is ON, but Catch2 2 was not found")
  string(REGEX REPLACE "[ \n]+" " " errors "${errors}")  # CMake wraps its messages
  if(exit_code STREQUAL "0" OR NOT errors MATCHES "${expected}")
    message(FATAL_ERROR "expected the configuration to fail with '${expected}'; "
                        "exit code ${exit_code}, errors: ${errors}")
  endif()

else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
