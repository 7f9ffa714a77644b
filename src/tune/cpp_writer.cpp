#include "tune/cpp_writer.h"

#include <fmt/format.h>

namespace janus::tune {

namespace {

constexpr size_t kColumns = 120;

// The Builder and the tail of default_weights.cpp, verbatim, so that the generated file is a
// drop-in replacement.
constexpr const char* kPrologue = R"(#include "eval/weights.h"

#include <initializer_list>

namespace janus {

namespace {

constexpr TaperedScore S(int mg, int eg) { return TaperedScore(mg, eg); }

/// Fills the parameter vector block by block, in table order. Any misuse throws, which in the
/// constant evaluation below is a compile-time error.
class Builder {
 public:
  constexpr void add(int id, std::initializer_list<TaperedScore> values) {
    const WeightInfo& b = next(id);
    if (int(values.size()) != b.size) throw "wrong number of values for this weight block";
    int i = b.offset;
    for (TaperedScore v : values) m_w[i++] = v;
  }
  /// A piece-square table given as two boards in the usual diagram layout (rank 8 first).
  constexpr void addBoard(int id, std::initializer_list<int> mg, std::initializer_list<int> eg) {
    const WeightInfo& b = next(id);
    if (b.size != 64 || mg.size() != 64 || eg.size() != 64) throw "a board needs 64 mg and 64 eg values";
    for (int i = 0; i < 64; ++i) {
      int sq = (7 - i / 8) * 8 + i % 8;  // diagram index -> square (a1 = 0)
      m_w[b.offset + sq] = S(mg.begin()[i], eg.begin()[i]);
    }
  }
  constexpr EvalWeights done() const {
    if (m_block != kWeightBlockCount) throw "not every weight block was given a value";
    return m_w;
  }

 private:
  constexpr const WeightInfo& next(int id) {
    if (m_block >= kWeightBlockCount || kWeightTable[m_block].offset != id) throw "weight blocks out of order";
    return kWeightTable[m_block++];
  }
  EvalWeights m_w;
  int m_block = 0;
};

constexpr EvalWeights buildDefaults() {
  Builder b;
  using namespace weight;
)";

constexpr const char* kEpilogue = R"(
  return b.done();
}

constexpr EvalWeights kDefaultWeights = buildDefaults();

}  // namespace

const EvalWeights& EvalWeights::defaults() { return kDefaultWeights; }

}  // namespace janus
)";

/// One board (64 values, diagram order: rank 8 first), `indent` spaces before every line but the
/// first, which starts after "{".
std::string board(const EvalWeights& w, const WeightInfo& b, bool mg, size_t indent) {
  std::string s = "{";
  for (int row = 0; row < 8; ++row) {
    if (row) s += ",\n" + std::string(indent + 1, ' ');
    for (int file = 0; file < 8; ++file) {
      const TaperedScore v = w[b.offset + (7 - row) * 8 + file];
      s += fmt::format("{}{:4}", file ? "," : "", mg ? v.mg() : v.eg());
    }
  }
  return s + "}";
}

}  // namespace

const std::vector<std::string>& weightBlockIds() {
  static const std::vector<std::string> ids = {
#define JANUS_HCE_ID_NAME(id, name, size, label, kind, group, doc) #id,
      JANUS_HCE_WEIGHTS(JANUS_HCE_ID_NAME)
#undef JANUS_HCE_ID_NAME
  };
  return ids;
}

std::string weightsToCpp(const EvalWeights& w, const std::vector<std::string>& notes) {
  std::string out =
      "// Values of every HCE weight: the one file a tuner's output replaces.\n"
      "//\n"
      "// Units: centipawns, as (middlegame, endgame) pairs S(mg, eg). Blocks are listed in the order of\n"
      "// JANUS_HCE_WEIGHTS (weights.h); the builder checks order and sizes at compile time, so a missing,\n"
      "// extra or misplaced block is a compile error.\n"
      "//\n"
      "// Written by `janus tune` (Texel's tuning method; see docs/tuning.md). The starting values and\n"
      "// their sources (PeSTO material and piece-square tables, Kaufman, Fruit 2.1, Grant 2020, the\n"
      "// chessprogramming wiki) are described in the previous version of this file.\n";
  if (!notes.empty()) out += "//\n";
  for (const auto& n : notes) out += "// " + n + "\n";
  out += "\n";
  out += kPrologue;
  const auto& ids = weightBlockIds();
  for (int k = 0; k < kWeightBlockCount; ++k) {
    const WeightInfo& b = kWeightTable[k];
    out += fmt::format("\n  // {}: {}\n", b.name, b.description);
    if (b.label == IndexLabel::kSquare && b.size == 64) {
      const std::string head = fmt::format("  b.addBoard({},", ids[size_t(k)]);
      const size_t indent = std::string("  b.addBoard(").size();
      out += head + "\n" + std::string(indent, ' ') + board(w, b, true, indent) + ",\n" + std::string(indent, ' ') +
             board(w, b, false, indent) + ");\n";
      continue;
    }
    std::string line = fmt::format("  b.add({}, {{", ids[size_t(k)]);
    const size_t indent = line.size();
    for (int i = 0; i < b.size; ++i) {
      const TaperedScore v = w[b.offset + i];
      std::string item = fmt::format("S({}, {})", v.mg(), v.eg());
      item += i + 1 < b.size ? "," : "});";
      if (i > 0 && line.size() + 1 + item.size() > kColumns) {
        out += line + "\n";
        line = std::string(indent, ' ') + item;
      } else {
        line += (i > 0 ? " " : "") + item;
      }
    }
    out += line + "\n";
  }
  out += kEpilogue;
  return out;
}

}  // namespace janus::tune
