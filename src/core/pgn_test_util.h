#pragma once
// Helpers shared by the PGN tests (pgn_test.cpp: reading; pgn_write_test.cpp: writing and
// comment commands).

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/pgn.h"

namespace janus::pgn_test {

/// The PGN files of tests/data.
inline const std::string kPgnDir = std::string(JANUS_TEST_DATA) + "/pgn/";

/// The bytes of the file at `path` (a test failure if it cannot be opened).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Reads every game of `text`; errors go to `errors` if given.
inline std::vector<PgnGame> readAll(const std::string& text, std::vector<PgnError>* errors = nullptr,
                                    const std::string& source = "<test>") {
  std::istringstream in(text);
  PgnReader reader(in, source);
  std::vector<PgnGame> games;
  PgnGame game;
  while (reader.next(game)) games.push_back(game);
  EXPECT_EQ(reader.gamesRead(), games.size());
  EXPECT_EQ(reader.gamesSkipped(), reader.errors().size());
  if (errors) *errors = reader.errors();
  return games;
}

/// Reads every game of the file `name` of kPgnDir; its errors go to `errors` if given, else there
/// must be none.
inline std::vector<PgnGame> readFileGames(const std::string& name, std::vector<PgnError>* errors = nullptr) {
  auto reader = PgnReader::open(kPgnDir + name);
  std::vector<PgnGame> games;
  PgnGame game;
  while (reader->next(game)) games.push_back(game);
  if (errors) *errors = reader->errors();
  else EXPECT_TRUE(reader->errors().empty()) << name << ": " << reader->errors()[0].message;
  return games;
}

}  // namespace janus::pgn_test
