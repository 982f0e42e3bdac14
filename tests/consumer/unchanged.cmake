# A dependency must leave its parent's build as it was. consumer_snapshot() records the
# parent's variables (cache entries with their types) and the directory's build properties;
# consumer_check_unchanged() fails if any of them changed, or if a name appeared that is
# neither the dependency's own nor one of what it finds. It also fails if cassette::cassette
# imposes compiler or linker options on its users.

# New names a dependency may add: its own (CASSETTE_*, cassette_*), Boost's, those of
# FetchContent and its git, GNUInstallDirs' defaults (the values the parent would get from it
# too), and PACKAGE_PREFIX_DIR, which every package config made by CMake's helpers sets.
set(consumer_allowed_new "(CASSETTE_|cassette_|Boost_|boost_|FETCHCONTENT_|_*FetchContent|__cmake_|GIT_EXECUTABLE|CMAKE_INSTALL_|_GNUInstallDirs_|PACKAGE_PREFIX_DIR)")
# Names that differ between any two calls of a function, this file's own included.
set(consumer_volatile "^(ARG[CVN][0-9]*|CMAKE_CURRENT_|CMAKE_ARGV?[0-9C]|_consumer_)")
set(consumer_directory_properties COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES
  LINK_OPTIONS LINK_DIRECTORIES)

# Writes each recorded item as NAME=VALUE into the global property `property`.
function(consumer_record _consumer_property)
  set(_consumer_record)
  get_cmake_property(_consumer_names VARIABLES)
  foreach(_consumer_name IN LISTS _consumer_names)
    if(NOT _consumer_name MATCHES "${consumer_volatile}")
      get_property(_consumer_type CACHE ${_consumer_name} PROPERTY TYPE)
      # One record per name: a list value keeps its items apart with "|", not ";".
      string(REPLACE ";" "|" _consumer_value "${${_consumer_name}}")
      list(APPEND _consumer_record "variable ${_consumer_name} (${_consumer_type})=${_consumer_value}")
    endif()
  endforeach()
  foreach(_consumer_name IN LISTS consumer_directory_properties)
    get_directory_property(_consumer_value ${_consumer_name})
    string(REPLACE ";" "|" _consumer_value "${_consumer_value}")
    list(APPEND _consumer_record "directory property ${_consumer_name}=${_consumer_value}")
  endforeach()
  set_property(GLOBAL PROPERTY ${_consumer_property} "${_consumer_record}")
endfunction()

function(consumer_snapshot)
  consumer_record(consumer_before)
endfunction()

function(consumer_check_unchanged)
  consumer_record(consumer_after)
  get_property(before GLOBAL PROPERTY consumer_before)
  get_property(after GLOBAL PROPERTY consumer_after)
  set(changed)
  foreach(item IN LISTS before)
    if(NOT item IN_LIST after)
      list(APPEND changed "  was: ${item}")
    endif()
  endforeach()
  foreach(item IN LISTS after)
    if(NOT item IN_LIST before AND NOT item MATCHES "^variable ${consumer_allowed_new}")
      list(APPEND changed "  now: ${item}")
    endif()
  endforeach()
  foreach(property IN ITEMS INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_DEFINITIONS INTERFACE_LINK_OPTIONS)
    get_target_property(value cassette::cassette ${property})
    if(value)
      list(APPEND changed "  cassette::cassette imposes ${property} on its users: ${value}")
    endif()
  endforeach()
  if(changed)
    list(JOIN changed "\n" changed)
    message(FATAL_ERROR "Getting Cassette changed the parent's build:\n${changed}")
  endif()
  message(STATUS "The parent's variables, cache and directory properties are unchanged")
endfunction()
