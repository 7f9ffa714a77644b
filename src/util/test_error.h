#pragma once
// Test support: the message of the janus::Error a call throws, so that a test can compare the
// whole message (bad input must get a clear error naming what is wrong).
//
//   EXPECT_EQ(janus::test::errorOf([&] { (void)parse("x"); }), "line 1: ...");
//
// Only for tests (GoogleTest binaries); not part of the engine.

#include <functional>
#include <string>

#include "util/error.h"

namespace janus::test {

/// The what() of the janus::Error that `f` throws, or "" when it returns normally. Other
/// exceptions pass through (the test then fails with them).
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace janus::test
