# Compiler flags shared by every Janus target, collected on the interface target janus_flags.
add_library(janus_flags INTERFACE)
target_compile_options(janus_flags INTERFACE -Wall -Wextra -Wshadow -Wno-missing-field-initializers)
if(JANUS_ARCH)
  target_compile_options(janus_flags INTERFACE -march=${JANUS_ARCH})
endif()
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  target_compile_options(janus_flags INTERFACE -O3 -fno-plt)
endif()
if(JANUS_TUNE)
  target_compile_definitions(janus_flags INTERFACE JANUS_TUNE)
endif()
if(JANUS_GLIBCXX_ASSERTIONS)
  target_compile_definitions(janus_flags INTERFACE _GLIBCXX_ASSERTIONS)
endif()
if(JANUS_SANITIZE)
  # -O1 keeps sanitizer builds fast enough to run the perft and search tests in CI. -g1 (line
  # tables only, after the Debug build type's -g) keeps file:line in the sanitizers' stack traces
  # and compiles about a quarter faster with objects half the size (measured on mcts_test.cpp,
  # engine.cpp, alphabeta_search.cpp: 12.6/8.8/3.3 s -> 9.2/6.6/2.6 s).
  target_compile_options(janus_flags INTERFACE -fsanitize=${JANUS_SANITIZE} -fno-omit-frame-pointer
                                               -fno-sanitize-recover=all -O1 -g1)
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

# janus_unity_build(<target> <files per batch>): compile the target's files in batches (a CMake
# unity build: each batch is one translation unit). For modules whose files all parse the same
# large headers (CLI11, cpp-httplib, nlohmann/json, fmt) and are not on the engine's hot path:
# the headers are then parsed once per batch instead of once per file, which is most of a fresh
# `./dev.sh main` on 2 cores (docs/architecture.md, "Build time"). Each file's anonymous-namespace
# names must then be unique within the target.
function(janus_unity_build target batch)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
endfunction()

# janus_tests(<name> SOURCES ... DEPS ...): a GoogleTest binary registered with CTest.
function(janus_tests name)
  if(NOT JANUS_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(T "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE janus_flags ${T_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE JANUS_TEST_DATA="${JANUS_TEST_DATA}"
                                             JANUS_BINARY="$<TARGET_FILE:janus>")
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 600)
endfunction()

# ---- Fuzzing (libFuzzer) -----------------------------------------------------------------------
# -DJANUS_FUZZ=ON builds the *_fuzz.cpp targets (one executable each, named after the file:
# build-fuzz/fuzz/<name>). Clang only: every Janus target is then compiled with
# -fsanitize=fuzzer-no-link,address,undefined (coverage instrumentation plus ASan/UBSan) and the
# fuzz executables link libFuzzer's main with -fsanitize=fuzzer,address,undefined. Run them with
# tools/fuzz.sh (seeds from tests/data, fixed time per target). The normal build is unchanged.
option(JANUS_FUZZ "Build the libFuzzer targets (*_fuzz.cpp; needs clang)" OFF)
if(JANUS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "JANUS_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(JANUS_SANITIZE)
    message(FATAL_ERROR "JANUS_FUZZ=ON already builds with address,undefined; leave JANUS_SANITIZE empty")
  endif()
  target_compile_options(janus_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                                               -fno-sanitize-recover=all -g)
  target_link_options(janus_flags INTERFACE -fsanitize=address,undefined)
  # Lets code compiled for fuzzing skip what would only slow the fuzzer down (none does yet).
  target_compile_definitions(janus_flags INTERFACE JANUS_FUZZING=1)
endif()

# janus_fuzz_target(<name> SOURCES ... DEPS ...): a libFuzzer executable build-dir/fuzz/<name>.
# Does nothing unless JANUS_FUZZ is on.
function(janus_fuzz_target name)
  if(NOT JANUS_FUZZ)
    return()
  endif()
  cmake_parse_arguments(F "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${F_SOURCES})
  target_link_libraries(${name} PRIVATE janus_flags ${F_DEPS})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_compile_definitions(${name} PRIVATE JANUS_TEST_DATA="${JANUS_TEST_DATA}")
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
endfunction()
