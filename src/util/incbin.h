#pragma once
// Embedding a file in the binary with the GNU assembler's .incbin directive (GNU as manual,
// "Incbin"): the bytes of a file named at build time become read-only data of the program, so
// that the binary needs no data file next to it. CMake's janus_embed_network()
// (cmake/JanusEmbed.cmake) chooses the file and defines the path macro for the one source file
// that uses JANUS_INCBIN.
//
//   #ifdef JANUS_DEFAULT_NET_PATH
//   JANUS_INCBIN(defaultNetBytes, JANUS_DEFAULT_NET_PATH)
//   #endif
//   ... defaultNetBytes() is a std::span<const unsigned char> over the file's bytes.

#include <cstddef>
#include <span>

/// Embeds the file at `path` (a string literal, an absolute path) in .rodata, 64-byte aligned,
/// and defines `static std::span<const unsigned char> name()` returning its bytes. Use at
/// namespace scope, once per `name` in the program (the assembler symbols <name>Begin and
/// <name>End are global). The dependency of the object file on the embedded file is CMake's
/// business (OBJECT_DEPENDS, set by janus_embed_network()).
#define JANUS_INCBIN(name, path)                                                                          \
  __asm__(".section .rodata\n"                                                                            \
          ".balign 64\n"                                                                                  \
          ".global " #name "Begin\n" #name "Begin:\n"                                                     \
          ".incbin \"" path "\"\n"                                                                        \
          ".global " #name "End\n" #name "End:\n"                                                         \
          ".previous\n");                                                                                 \
  extern "C" const unsigned char name##Begin[];                                                           \
  extern "C" const unsigned char name##End[];                                                             \
  [[maybe_unused]] static std::span<const unsigned char> name() {                                         \
    return std::span<const unsigned char>(name##Begin, static_cast<std::size_t>(name##End - name##Begin)); \
  }
