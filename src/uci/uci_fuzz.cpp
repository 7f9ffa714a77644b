// libFuzzer target: the UCI command loop (UciProtocol::handle) with a real Engine.
//
// Input: UCI text, one command per line (any bytes). The protocol must answer every malformed
// line with "info string error: ..." and keep going; nothing may crash, hang or leak. So that the
// fuzzer explores the parser rather than the search, every input starts from the same state
// (options at their defaults but Hash 1 MiB, ucinewgame, start position) and lines are adjusted
// before they reach the protocol:
//   - "go": "depth 1 nodes 300" is put in front, and a later depth / nodes / perft value above
//     3 / 300 / 2 is lowered to that (malformed values are left alone, so the errors are tested);
//   - "setoption name Hash value N" with N > 4 becomes 4 MiB, Threads above 2 becomes 2.
// A finite go is waited for (as a GUI waits for bestmove); an infinite or ponder search runs on
// until stop / ponderhit / ucinewgame / quit or the end of the input, like with a real GUI.

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "uci/uci.h"
#include "util/fuzz_support.h"

using namespace janus;

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

/// `token` lowered to `cap` if it is an integer above it; otherwise unchanged.
std::string clampNumber(const std::string& token, long long cap) {
  long long v = 0;
  auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec == std::errc::result_out_of_range && !token.empty() && token[0] != '-') return std::to_string(cap);
  if (ec != std::errc() || p != token.data() + token.size() || v <= cap) return token;
  return std::to_string(cap);
}

struct Rewritten {
  std::string line;
  bool isGo = false;
  bool openEnded = false;  ///< go infinite / go ponder: no bestmove until stop or ponderhit
  bool infinite = false;
};

Rewritten rewrite(const std::string& raw) {
  Rewritten r{raw};
  std::string t = trim(raw);
  size_t sp = t.find_first_of(" \t");
  std::string cmd = t.substr(0, sp), args = sp == std::string::npos ? "" : trim(t.substr(sp));
  if (cmd == "go") {
    r.isGo = true;
    std::istringstream ss(args);
    std::vector<std::string> tokens;
    for (std::string tok; ss >> tok;) tokens.push_back(tok);
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i] == "infinite") r.openEnded = r.infinite = true;
      if (tokens[i] == "ponder") r.openEnded = true;
      if (i + 1 < tokens.size()) {
        if (tokens[i] == "depth") tokens[i + 1] = clampNumber(tokens[i + 1], 3);
        if (tokens[i] == "nodes") tokens[i + 1] = clampNumber(tokens[i + 1], 300);
        if (tokens[i] == "perft") tokens[i + 1] = clampNumber(tokens[i + 1], 2);
      }
    }
    r.line = "go depth 1 nodes 300";
    for (const auto& tok : tokens) r.line += " " + tok;
  } else if (cmd == "setoption") {
    size_t v = (" " + args + " ").find(" value ");
    if (v != std::string::npos && args.size() > 5) {
      std::string head = args.substr(0, std::min(v, args.size()));
      std::string value = trim(args.substr(std::min(args.size(), v + 6)));
      std::string name = lower(trim(head.size() > 4 ? head.substr(4) : ""));
      if (name == "hash") r.line = "setoption " + head + " value " + clampNumber(value, 4);
      if (name == "threads") r.line = "setoption " + head + " value " + clampNumber(value, 2);
    }
  }
  return r;
}

struct Harness {
  Engine engine;
  std::ostringstream out;
  UciProtocol uci{engine, out};

  Harness() { engine.setOption("Hash", "1"); }

  void reset() {
    engine.stop();
    engine.wait();
    for (const OptionSpec* s : engine.options().specs())
      if (s->type != OptionSpec::Type::kButton && s->name != "Hash") engine.setOption(s->name, s->defaultValue);
    engine.setOption("Hash", "1");
    engine.newGame();
    engine.setPosition("startpos", {});
    out.str("");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Harness* h = new Harness;  // lives for the whole run (one engine, like one GUI session)
  h->reset();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  bool pending = false, pendingInfinite = false;  // an open-ended search may be running
  int lines = 0;
  for (std::string raw; lines < 200 && std::getline(in, raw); ++lines) {
    Rewritten r = rewrite(raw);
    bool more = h->uci.handle(r.line);
    if (!more) break;
    std::string t = trim(raw);
    std::string cmd = t.substr(0, t.find_first_of(" \t"));
    if (r.isGo && !pending) {
      // An accepted open-ended search keeps searching() true until stop/ponderhit.
      if (r.openEnded && h->engine.searching()) {
        pending = true;
        pendingInfinite = r.infinite;
      } else {
        h->engine.wait();
      }
    } else if (cmd == "stop" || cmd == "ucinewgame" || (cmd == "ponderhit" && !pendingInfinite)) {
      if (cmd == "stop") h->engine.wait();
      if (cmd == "ponderhit" && pending) h->engine.wait();
      pending = pendingInfinite = false;
    }
  }
  h->engine.stop();
  h->engine.wait();
  fuzz::check(!h->engine.searching(), "no search left running after stop + wait");
  return 0;
}
