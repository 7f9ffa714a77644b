# The Python extension module `janus` (src/python, docs/python.md), built with pybind11 against
# Debian's python3 and numpy (pybind11-dev, python3-pybind11, python3-numpy).
#
# JANUS_PYTHON: AUTO (default: build it when pybind11, the python3 headers and numpy are found and
# no sanitizer or fuzzer build is configured), ON (required), OFF. Sets JANUS_PYTHON_ENABLED.
#
# A Python module is a shared object, so every Janus library it links must be position
# independent: with the module on, CMAKE_POSITION_INDEPENDENT_CODE is ON for the whole build (the
# janus program is a PIE on Debian anyway) and -fno-semantic-interposition keeps GCC inlining and
# calling a file's own exported functions directly as it does in a PIE (with -fPIC alone it must
# assume that another object may replace them). One copy of each library then serves the program
# and the module (the CI budget has no room for a second build of the engine); docs/python.md has
# the bench comparison.
#
# The interpreter: Debian's /usr/bin/python3 when it exists (the one whose dist-packages the
# module installs into and whose numpy it needs; a pyenv or venv python3 earlier on PATH usually
# has neither), else the first python3 found. -DPython_EXECUTABLE=... chooses another.
set(JANUS_PYTHON "AUTO" CACHE STRING "Build the Python module janus (pybind11): AUTO, ON or OFF")
set(JANUS_PYTHON_INSTALL_DIR "lib/python3/dist-packages" CACHE STRING
    "Where cmake --install puts the janus package, relative to the prefix (Debian's python3 reads /usr/lib/python3/dist-packages)")
set(JANUS_PYTHON_ENABLED OFF)
if(JANUS_PYTHON STREQUAL "ON" OR (JANUS_PYTHON STREQUAL "AUTO" AND NOT JANUS_SANITIZE AND NOT JANUS_FUZZ))
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module QUIET)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 CONFIG QUIET)
  set(_why "")
  if(NOT Python_FOUND)
    set(_why "no python3 with its headers (python3-dev)")
  elseif(NOT pybind11_FOUND)
    set(_why "no pybind11 (pybind11-dev)")
  else()
    execute_process(COMMAND "${Python_EXECUTABLE}" -c "import numpy" RESULT_VARIABLE _numpy OUTPUT_QUIET ERROR_QUIET)
    if(NOT _numpy EQUAL 0)
      set(_why "${Python_EXECUTABLE} cannot import numpy (python3-numpy)")
    endif()
  endif()
  if(_why)
    if(JANUS_PYTHON STREQUAL "ON")
      message(FATAL_ERROR "JANUS_PYTHON=ON: ${_why}")
    endif()
    message(STATUS "Janus Python module: not built (${_why})")
  else()
    set(JANUS_PYTHON_ENABLED ON)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    target_compile_options(janus_flags INTERFACE -fno-semantic-interposition)
    message(STATUS "Janus Python module: built for ${Python_EXECUTABLE} (${Python_VERSION}), pybind11 ${pybind11_VERSION}")
  endif()
endif()
