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
