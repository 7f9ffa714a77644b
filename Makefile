# Thin adapter over CMake for OpenBench (https://github.com/AndyGrant/OpenBench), which builds
# engines with `make EXE=<output path> [CXX=<compiler>]` from the repository root.
# Developers use ./dev.sh and CMake directly (see README.md). Only the program is built, without the
# Python module (JANUS_PYTHON=OFF), so its libraries are not compiled position independent.

EXE ?= janus
BUILD_DIR ?= build-openbench
CMAKE_ARGS ?=

ifdef CXX
CMAKE_ARGS += -DCMAKE_CXX_COMPILER=$(CXX)
endif

.PHONY: all clean
all:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DJANUS_BUILD_TESTS=OFF -DJANUS_PYTHON=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_DIR) --target janus -j
	cp $(BUILD_DIR)/janus $(EXE)

clean:
	rm -rf $(BUILD_DIR)
