# Compiler flags shared by every Janus target, collected on the interface target janus_flags.
add_library(janus_flags INTERFACE)
target_compile_options(janus_flags INTERFACE -Wall -Wextra -Wshadow -Wno-missing-field-initializers)
if(JANUS_ARCH)
  target_compile_options(janus_flags INTERFACE -march=${JANUS_ARCH})
endif()
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  target_compile_options(janus_flags INTERFACE -O3 -fno-plt)
endif()
if(JANUS_GLIBCXX_ASSERTIONS)
  target_compile_definitions(janus_flags INTERFACE _GLIBCXX_ASSERTIONS)
endif()
if(JANUS_SANITIZE)
  # -O1 keeps sanitizer builds fast enough to run the perft and search tests in CI.
  target_compile_options(janus_flags INTERFACE -fsanitize=${JANUS_SANITIZE} -fno-omit-frame-pointer
                                               -fno-sanitize-recover=all -O1)
  target_link_options(janus_flags INTERFACE -fsanitize=${JANUS_SANITIZE})
endif()
target_include_directories(janus_flags INTERFACE ${CMAKE_SOURCE_DIR}/src)
target_compile_definitions(janus_flags INTERFACE JANUS_VERSION="${PROJECT_VERSION}")

# janus_module(<name> SOURCES ... DEPS ...): one static library per source folder.
function(janus_module name)
  cmake_parse_arguments(M "" "" "SOURCES;DEPS" ${ARGN})
  add_library(janus_${name} STATIC ${M_SOURCES})
  target_link_libraries(janus_${name} PUBLIC janus_flags ${M_DEPS})
endfunction()

# janus_tests(<name> SOURCES ... DEPS ...): a GoogleTest binary registered with CTest.
function(janus_tests name)
  if(NOT JANUS_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE janus_flags ${T_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE JANUS_SHARED_DATA="${JANUS_SHARED_DATA}"
                                             JANUS_BINARY="$<TARGET_FILE:janus>")
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endfunction()
