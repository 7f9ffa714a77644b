#pragma once
// The one exception type Janus throws. It is used only at the edges (parsing FEN, SAN, PGN,
// UCI commands, data files, HTTP requests) and never on the search hot path. The message
// names what is wrong, e.g. "FEN field 4 (en passant): 'e9' is not a square".

#include <stdexcept>
#include <string>

namespace janus {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace janus
