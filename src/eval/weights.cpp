// Naming, lookup and text I/O of the HCE parameter vector (the values are in default_weights.cpp).

#include "eval/weights.h"

#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "core/notation.h"
#include "util/error.h"

namespace janus {

namespace {

constexpr std::string_view kPieceNames[] = {"pawn", "knight", "bishop", "rook", "queen"};
constexpr std::string_view kAttackerNames[] = {"knight", "bishop", "rook", "queen"};

std::string indexLabel(IndexLabel label, int i) {
  switch (label) {
    case IndexLabel::kNone: return "";
    case IndexLabel::kPiece: return std::string(kPieceNames[i]);
    case IndexLabel::kAttacker: return std::string(kAttackerNames[i]);
    case IndexLabel::kSquare: return squareToString(Square(i));
    case IndexLabel::kRank: return fmt::format("rank{}", i + 1);
    case IndexLabel::kShelter: return i == 0 ? std::string("none") : fmt::format("rank{}", i + 1);
    case IndexLabel::kCount: return std::to_string(i);
  }
  return std::to_string(i);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool parseInt(std::string_view s, int& out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string_view termGroupName(TermGroup g) {
  switch (g) {
    case TermGroup::kMaterial: return "Material";
    case TermGroup::kPieceSquare: return "Piece-square tables";
    case TermGroup::kBishopPair: return "Bishop pair";
    case TermGroup::kPawnStructure: return "Pawn structure";
    case TermGroup::kPassedPawns: return "Passed pawns";
    case TermGroup::kRooks: return "Rooks (files, 7th)";
    case TermGroup::kMobility: return "Mobility";
    case TermGroup::kKingShelter: return "King shelter";
    case TermGroup::kKingAttack: return "King attack";
    case TermGroup::kThreats: return "Threats";
    case TermGroup::kMopUp: return "Mop-up";
    case TermGroup::kTempo: return "Tempo";
  }
  return "?";
}

const WeightInfo& weightBlockOf(int index) {
  for (const auto& b : kWeightTable)
    if (index >= b.offset && index < b.offset + b.size) return b;
  throw Error(fmt::format("weight index {} out of range [0, {})", index, int(weight::kCount)));
}

std::string weightEntryName(int index) {
  const WeightInfo& b = weightBlockOf(index);
  if (b.size == 1 && b.label == IndexLabel::kNone) return std::string(b.name);
  return fmt::format("{}[{}]", b.name, indexLabel(b.label, index - b.offset));
}

int findWeightEntry(std::string_view entryName) {
  std::string_view name = trim(entryName), sub;
  bool hasIndex = false;
  if (auto open = name.find('['); open != std::string_view::npos) {
    if (name.back() != ']') throw Error(fmt::format("weight '{}': missing ']'", entryName));
    sub = name.substr(open + 1, name.size() - open - 2);
    name = name.substr(0, open);
    hasIndex = true;
  }
  for (const auto& b : kWeightTable) {
    if (b.name != name) continue;
    if (!hasIndex) {
      if (b.size != 1) throw Error(fmt::format("weight '{}' is an array of {}: give an index", name, b.size));
      return b.offset;
    }
    for (int i = 0; i < b.size; ++i)
      if (indexLabel(b.label, i) == sub) return b.offset + i;
    int i = 0;
    if (parseInt(sub, i) && i >= 0 && i < b.size) return b.offset + i;
    throw Error(fmt::format("weight '{}': index '{}' is not one of its {} entries", name, sub, b.size));
  }
  throw Error(fmt::format("unknown weight '{}'", name));
}

std::string EvalWeights::toText() const {
  std::string out;
  for (const auto& b : kWeightTable) {
    out += fmt::format("# {} ({} x mg eg): {}\n", b.name, b.size, b.description);
    for (int i = b.offset; i < b.offset + b.size; ++i)
      out += fmt::format("{} {} {}\n", weightEntryName(i), m_values[i].mg(), m_values[i].eg());
  }
  return out;
}

void EvalWeights::loadText(std::string_view text) {
  EvalWeights updated = *this;
  int lineNo = 0;
  while (!text.empty()) {
    ++lineNo;
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    // Fields: name, mg, eg (separated by spaces or tabs).
    std::string_view fields[4];
    int n = 0;
    while (!line.empty() && n < 4) {
      auto end = line.find_first_of(" \t");
      fields[n++] = line.substr(0, end);
      line = end == std::string_view::npos ? std::string_view() : trim(line.substr(end));
    }
    if (n != 3)
      throw Error(fmt::format("weights line {}: expected '<name> <mg> <eg>', got {} fields", lineNo, n));
    int index = 0;
    try {
      index = findWeightEntry(fields[0]);
    } catch (const Error& e) {
      throw Error(fmt::format("weights line {}: {}", lineNo, e.what()));
    }
    int mg = 0, eg = 0;
    if (!parseInt(fields[1], mg) || !parseInt(fields[2], eg))
      throw Error(fmt::format("weights line {}: '{}' / '{}' are not integers", lineNo, fields[1], fields[2]));
    if (std::abs(mg) > 30000 || std::abs(eg) > 30000)
      throw Error(fmt::format("weights line {}: value outside [-30000, 30000]", lineNo));
    updated[index] = TaperedScore(mg, eg);
  }
  *this = updated;
}

}  // namespace janus
