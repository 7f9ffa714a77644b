# libtorch (Debian libtorch-dev) for the optional targets that use it: the trainers
# janus-train-torch and janus-train-az (src/training/), the MCTS face's torch backend and the
# janus-torch engine binary (src/mcts/torch/, src/apps/). The janus binary never links it.
# JANUS_TORCH: AUTO (default: use libtorch when find_package(Torch) succeeds and no sanitizer or
# fuzzer build is configured), ON (required), OFF. Sets Torch_FOUND and TORCH_LIBRARIES.
set(JANUS_TORCH "AUTO" CACHE STRING "Build the libtorch targets (trainers, torch MCTS backend, janus-torch): AUTO, ON or OFF")
if(JANUS_TORCH STREQUAL "ON" OR (JANUS_TORCH STREQUAL "AUTO" AND NOT JANUS_SANITIZE AND NOT JANUS_FUZZ))
  if(JANUS_TORCH STREQUAL "ON")
    find_package(Torch REQUIRED)
  else()
    find_package(Torch QUIET)
  endif()
endif()
