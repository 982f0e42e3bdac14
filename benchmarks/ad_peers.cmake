# The peers that benchmarks/ad.cpp and tests/ad_instructions/ compare Cassette's AD with:
# Eigen 3 (AutoDiffScalar) and Ceres' Jet (Boost.Math's autodiff comes with Boost). Creates
# the INTERFACE target cassette_ad_peers when both are found; callers test
# `if(TARGET cassette_ad_peers)`. Included from both directories: find_package runs in each,
# since an imported target is visible only in the directory that found it.
find_package(Eigen3 3.3 CONFIG QUIET)
# Jet is header-only (ceres/jet.h needs only Eigen): an include path is enough, where
# find_package(Ceres) would also look for glog, gflags, SuiteSparse and CXSparse.
find_path(CERES_JET_INCLUDE_DIR ceres/jet.h)

if(TARGET Eigen3::Eigen AND CERES_JET_INCLUDE_DIR AND NOT TARGET cassette_ad_peers)
  add_library(cassette_ad_peers INTERFACE)
  target_link_libraries(cassette_ad_peers INTERFACE Eigen3::Eigen)
  # SYSTEM: the peers' headers are not held to our warning flags.
  target_include_directories(cassette_ad_peers SYSTEM INTERFACE ${CERES_JET_INCLUDE_DIR})
elseif(NOT TARGET cassette_ad_peers)
  message(STATUS "Eigen 3 or ceres/jet.h not found (apt-get install libeigen3-dev libceres-dev): "
                 "the AD comparison benchmark and instruction counts are skipped")
endif()

# The reverse-mode peers of ad_reverse_driver and bench_ad_reverse: Sacado (Sacado_trad.hpp;
# Debian's configuration includes Kokkos' headers too) and ADOL-C. Target
# cassette_reverse_peers, defining AD_WORKLOADS_REVERSE_PEERS, when all are found.
find_path(SACADO_INCLUDE_DIR Sacado_trad.hpp PATH_SUFFIXES trilinos)
find_path(ADOLC_INCLUDE_DIR adolc/adolc.h)
find_library(ADOLC_LIBRARY adolc)
if(SACADO_INCLUDE_DIR AND ADOLC_INCLUDE_DIR AND ADOLC_LIBRARY AND EXISTS ${SACADO_INCLUDE_DIR}/Kokkos_Macros.hpp
   AND NOT TARGET cassette_reverse_peers)
  add_library(cassette_reverse_peers INTERFACE)
  target_include_directories(cassette_reverse_peers SYSTEM INTERFACE ${SACADO_INCLUDE_DIR} ${ADOLC_INCLUDE_DIR})
  target_link_libraries(cassette_reverse_peers INTERFACE ${ADOLC_LIBRARY})
  target_compile_definitions(cassette_reverse_peers INTERFACE AD_WORKLOADS_REVERSE_PEERS)
elseif(NOT TARGET cassette_reverse_peers)
  message(STATUS "Sacado or ADOL-C not found (apt-get install libtrilinos-sacado-dev libtrilinos-kokkos-dev "
                 "libadolc-dev): the reverse-mode benchmarks run without their peers")
endif()
