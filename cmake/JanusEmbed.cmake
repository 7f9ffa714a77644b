# janus_embed_network(TARGET <t> SOURCE <file.cpp> MACRO <PREFIX> CACHE <VAR> LIST <nets/x.txt> WHAT <text>)
#
# Embeds a default network file of nets/ in <t> with util/incbin.h (JANUS_INCBIN in <file.cpp>).
# The network is the file under nets/ named by the cache variable <VAR> or, when that is empty,
# by the one line of <LIST> (editing it re-runs CMake, so the next build embeds the network it
# names). When that file exists, <file.cpp> is compiled with <PREFIX>_PATH (absolute path) and
# <PREFIX>_NAME (file name) defined and is rebuilt when the network changes; otherwise neither
# is defined and the build has no default network of this kind. <WHAT> names it in the
# configure log.
function(janus_embed_network)
  cmake_parse_arguments(E "" "TARGET;SOURCE;MACRO;CACHE;LIST;WHAT" "" ${ARGN})
  set(${E_CACHE} "" CACHE STRING "File name under nets/ of the ${E_WHAT} embedded in the binary (empty: ${E_LIST})")
  set(name "${${E_CACHE}}")
  if(NOT name AND EXISTS "${E_LIST}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${E_LIST}")
    file(READ "${E_LIST}" name)
    string(STRIP "${name}" name)
  endif()
  set(path "${CMAKE_SOURCE_DIR}/nets/${name}")
  if(name AND EXISTS "${path}")
    set_property(SOURCE ${E_SOURCE} TARGET_DIRECTORY ${E_TARGET} APPEND PROPERTY
                 COMPILE_DEFINITIONS "${E_MACRO}_PATH=\"${path}\"" "${E_MACRO}_NAME=\"${name}\"")
    set_property(SOURCE ${E_SOURCE} TARGET_DIRECTORY ${E_TARGET} APPEND PROPERTY OBJECT_DEPENDS "${path}")
    message(STATUS "Janus default ${E_WHAT}: ${name}")
  else()
    message(STATUS "Janus default ${E_WHAT}: none (${E_LIST} names '${name}')")
  endif()
endfunction()
