# Installation and the Debian package (CPack), as other engines install:
#
#   <prefix>/bin/janus                   the engine (UCI without arguments; `janus gui` for the web GUI)
#   <prefix>/share/janus/web/            the built web page (web/dist), found by `janus gui` relative
#                                        to the binary (../share/janus/web; src/server/server.h locateWebDir)
#   <prefix>/share/janus/nets/           the committed networks (nets/*.jnn, *.jpv), when there are any
#   <prefix>/share/man/man6/janus.6      the man page, written from the binary's own help at install
#                                        time (tools/make-manpage.py)
#   <prefix>/share/doc/janus/            README.md, docs/gui.md and docs/python.md
#   <prefix>/lib/python3/dist-packages/janus/
#                                        the Python module (when built: cmake/JanusPython.cmake;
#                                        JANUS_PYTHON_INSTALL_DIR), where Debian's python3 finds it
#                                        under /usr (the .deb); for another prefix see docs/python.md
#   <prefix>/bin/janus-torch, janus-train-az, janus-train-torch
#                                        the libtorch programs (built when CMake finds libtorch:
#                                        cmake/JanusTorch.cmake): the engine with the "torch" MCTS
#                                        backend and the trainers `janus train-az` / `janus
#                                        train-nnue --backend torch` run from next to janus
#
# Two install components, two Debian packages: "engine" (janus_<version>_<arch>.deb: the engine,
# page, networks, man page, docs; no libtorch) and "torch" (janus-torch_<version>_<arch>.deb: the
# three libtorch programs; depends on the same version of janus and, through dpkg-shlibdeps, on
# Debian's libtorch), so installing the engine never pulls in libtorch.
#
#   cmake --build build --target janus && (cd web && npm ci && npm run build)
#   cmake --install build --prefix /usr/local          # or: cd build && cpack -G DEB
#
# The web page is built by npm, not by CMake: an install without web/dist/index.html warns and
# installs the engine alone (the page then says how to build it). tools/install-test.sh checks an
# install in a temporary prefix with the browser test.

include(GNUInstallDirs)

set(JANUS_WEB_DIST "${CMAKE_SOURCE_DIR}/web/dist")
set(JANUS_INSTALL_DATA "${CMAKE_INSTALL_DATADIR}/janus")

install(TARGETS janus RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT engine)
set(JANUS_TORCH_PROGRAMS "")
foreach(_program janus-torch janus-train-az janus-train-torch)
  if(TARGET ${_program})
    list(APPEND JANUS_TORCH_PROGRAMS ${_program})
  endif()
endforeach()
if(JANUS_TORCH_PROGRAMS)
  install(TARGETS ${JANUS_TORCH_PROGRAMS} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT torch)
endif()

# The page: copied at install time (it may be built after configuring). Source maps stay behind.
install(CODE "
  if(EXISTS \"${JANUS_WEB_DIST}/index.html\")
    file(INSTALL \"${JANUS_WEB_DIST}/\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${JANUS_INSTALL_DATA}/web\"
         PATTERN \"*.map\" EXCLUDE)
  else()
    message(WARNING \"janus: the web page is not built (${JANUS_WEB_DIST}/index.html is missing); \"
                    \"installing without it. Build it with: cd web && npm ci && npm run build\")
  endif()
" COMPONENT engine)

# Networks: NNUE (*.jnn) and MCTS policy/value (*.jpv), with the files naming the defaults.
file(GLOB JANUS_NETS CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/nets/*.jnn" "${CMAKE_SOURCE_DIR}/nets/*.jpv")
file(GLOB JANUS_NET_NAMES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/nets/*.txt")
if(JANUS_NETS)
  install(FILES ${JANUS_NETS} ${JANUS_NET_NAMES} DESTINATION "${JANUS_INSTALL_DATA}/nets" COMPONENT engine)
endif()

# The man page from `janus --help` and every `janus <subcommand> --help` of the binary just built.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
install(CODE "
  set(_man \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man6\")
  file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${_man}\")
  execute_process(
    COMMAND \"${Python3_EXECUTABLE}\" \"${CMAKE_SOURCE_DIR}/tools/make-manpage.py\" \"$<TARGET_FILE:janus>\"
            \"${CMAKE_BINARY_DIR}/janus.6\" --version \"${PROJECT_VERSION}\"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR \"janus: writing the man page failed (tools/make-manpage.py: \${_rc})\")
  endif()
  file(INSTALL \"${CMAKE_BINARY_DIR}/janus.6\" DESTINATION \"\${_man}\")
" COMPONENT engine)

install(FILES "${CMAKE_SOURCE_DIR}/README.md" "${CMAKE_SOURCE_DIR}/docs/gui.md" "${CMAKE_SOURCE_DIR}/docs/python.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}"
        COMPONENT engine)

# Debian packages: cd build && cpack -G DEB  ->  janus_<version>_<arch>.deb (and, with libtorch,
# janus-torch_<version>_<arch>.deb) installing under /usr.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "janus")
set(CPACK_PACKAGE_VENDOR "Janus developers")
set(CPACK_PACKAGE_CONTACT "Janus developers <janus@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Chess engine (UCI) with a web GUI")
set(CPACK_PACKAGE_DESCRIPTION
    "Janus is a chess engine with an alpha-beta search (hand-crafted evaluation or NNUE) and an MCTS search. Without arguments it speaks UCI, so any chess GUI can use it; `janus gui` serves its own web GUI on localhost.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "games")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # library dependencies from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "chromium | firefox-esr")
# Syzygy tablebases: libfathom is loaded with dlopen on the first SyzygyPath (src/tb/syzygy.h), so
# dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libfathom1")
# The Python module (src/python) needs python3 and numpy; the engine does not, so they are not Depends.
if(JANUS_PYTHON_ENABLED)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libfathom1, python3-numpy")
endif()
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL engine)
set(CPACK_DEBIAN_ENGINE_PACKAGE_NAME "janus")
if(JANUS_TORCH_PROGRAMS)
  list(APPEND CPACK_COMPONENTS_ALL torch)
  set(CPACK_DEBIAN_TORCH_PACKAGE_NAME "janus-torch")
  set(CPACK_DEBIAN_TORCH_PACKAGE_DEPENDS "janus (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_TORCH_PACKAGE_SECTION "games")
  set(CPACK_DEBIAN_TORCH_DESCRIPTION
      "Janus with libtorch: janus-torch (the engine with the residual-network MCTS backend) and the trainers janus-train-az and janus-train-torch.")
  set(CPACK_DEBIAN_TORCH_PACKAGE_RECOMMENDS "")
endif()
include(CPack)
