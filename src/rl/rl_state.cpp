// The loop's state file (RUN/rl-state.json) and its report table (rl_loop.h).

#include <cmath>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rl/rl_loop.h"
#include "training/az/az_config.h"
#include "util/error.h"
#include "util/zstd_stream.h"

namespace janus::rl {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kStateFile = "rl-state.json";

/// A number that may be infinite (an Elo of a match won or lost game for game) or NaN (a loss
/// without validation data): JSON has neither, so they are written as "inf", "-inf" and "nan".
json eloJson(double v) {
  if (std::isnan(v)) return "nan";
  return std::isfinite(v) ? json(v) : json(v > 0 ? "inf" : "-inf");
}

json toJson(const Generation& g) {
  json j = {{"number", g.number},
            {"net", g.net},
            {"candidate", g.candidate},
            {"parent", g.parent},
            {"value_net", g.valueNet},
            {"value_candidate", g.valueCandidate},
            {"candidate_speed", g.candidateSpeed},
            {"selfplay_games", g.selfplayGames},
            {"selfplay_positions", g.selfplayPositions},
            {"selfplay_targets", g.selfplayTargets},
            {"selfplay_timed_positions", g.selfplayTimedPositions},
            {"selfplay_seconds", g.selfplaySeconds},
            {"train_seconds", g.trainSeconds},
            {"gate_seconds", g.gateSeconds},
            {"gate_wins", g.gateWins},
            {"gate_draws", g.gateDraws},
            {"gate_losses", g.gateLosses},
            {"gate_elo", eloJson(g.gateElo)},
            {"gate_error", eloJson(g.gateError)},
            {"promoted", g.promoted},
            {"anchor_wins", g.anchorWins},
            {"anchor_draws", g.anchorDraws},
            {"anchor_losses", g.anchorLosses},
            {"gen0_wins", g.gen0Wins},
            {"gen0_draws", g.gen0Draws},
            {"gen0_losses", g.gen0Losses}};
  if (g.anchorElo) j["anchor_elo"] = eloJson(*g.anchorElo);
  if (g.anchorError) j["anchor_error"] = eloJson(*g.anchorError);
  if (g.gen0Elo) j["gen0_elo"] = eloJson(*g.gen0Elo);
  if (g.gen0Error) j["gen0_error"] = eloJson(*g.gen0Error);
  if (g.trainLoss) j["train_loss"] = eloJson(*g.trainLoss);
  if (g.valLoss) j["val_loss"] = eloJson(*g.valLoss);
  if (g.firstValLoss) j["first_val_loss"] = eloJson(*g.firstValLoss);
  if (g.heldout)
    j["heldout"] = {{"policy_ce", g.heldout->policyCe},
                    {"top1", g.heldout->top1},
                    {"value_ce", g.heldout->valueCe},
                    {"positions", g.heldout->positions}};
  return j;
}

double number(const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    if (s == "nan") return NAN;
    throw Error("'" + s + "' is not a number");
  }
  return v.get<double>();
}

Generation fromJson(const json& j) {
  Generation g;
  g.number = j.at("number").get<int>();
  g.net = j.at("net").get<std::string>();
  g.candidate = j.at("candidate").get<std::string>();
  g.parent = j.at("parent").get<std::string>();
  // States before the MCTS face's value networks have none.
  g.valueNet = j.value("value_net", std::string());
  g.valueCandidate = j.value("value_candidate", std::string());
  g.candidateSpeed = j.value("candidate_speed", 1.0);  // states before the field: networks of one shape
  g.selfplayGames = j.at("selfplay_games").get<u64>();
  g.selfplayPositions = j.at("selfplay_positions").get<u64>();
  g.selfplayTargets = j.at("selfplay_targets").get<u64>();
  // States written before the field existed timed all their positions.
  g.selfplayTimedPositions = j.value("selfplay_timed_positions", g.selfplayPositions);
  g.selfplaySeconds = j.at("selfplay_seconds").get<double>();
  g.trainSeconds = j.at("train_seconds").get<double>();
  g.gateSeconds = j.at("gate_seconds").get<double>();
  g.gateWins = j.at("gate_wins").get<int>();
  g.gateDraws = j.at("gate_draws").get<int>();
  g.gateLosses = j.at("gate_losses").get<int>();
  g.gateElo = number(j.at("gate_elo"));
  g.gateError = number(j.at("gate_error"));
  g.promoted = j.at("promoted").get<bool>();
  g.anchorWins = j.at("anchor_wins").get<int>();
  g.anchorDraws = j.at("anchor_draws").get<int>();
  g.anchorLosses = j.at("anchor_losses").get<int>();
  if (j.contains("anchor_elo")) g.anchorElo = number(j.at("anchor_elo"));
  if (j.contains("anchor_error")) g.anchorError = number(j.at("anchor_error"));
  // Runs written before the direct match against generation 0 have no gen0 fields.
  g.gen0Wins = j.value("gen0_wins", 0);
  g.gen0Draws = j.value("gen0_draws", 0);
  g.gen0Losses = j.value("gen0_losses", 0);
  if (j.contains("gen0_elo")) g.gen0Elo = number(j.at("gen0_elo"));
  if (j.contains("gen0_error")) g.gen0Error = number(j.at("gen0_error"));
  if (j.contains("train_loss")) g.trainLoss = number(j.at("train_loss"));
  if (j.contains("val_loss")) g.valLoss = number(j.at("val_loss"));
  if (j.contains("first_val_loss")) g.firstValLoss = number(j.at("first_val_loss"));
  if (j.contains("heldout")) {
    const json& h = j.at("heldout");
    g.heldout = HeldoutFigures{h.at("policy_ce").get<double>(), h.at("top1").get<double>(), h.at("value_ce").get<double>(),
                               h.at("positions").get<u64>()};
  }
  return g;
}

}  // namespace

std::string eloText(double elo, double error) {
  if (!std::isfinite(elo)) return elo > 0 ? "+inf" : "-inf";
  return std::isfinite(error) ? fmt::format("{:+.1f} ± {:.1f}", elo, error) : fmt::format("{:+.1f}", elo);
}

std::string shortNet(const std::string& net) { return net.empty() ? "uniform" : fs::path(net).stem().string(); }


std::optional<RlState> loadState(const std::string& dir) {
  const std::string path = (fs::path(dir) / kStateFile).string();
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const json j = json::parse(in);
    RlState s;
    s.generation = j.at("generation").get<int>();
    s.step = j.at("step").get<std::string>();
    s.best = j.at("best").get<std::string>();
    s.bestValue = j.value("best_value", std::string());
    for (const json& g : j.at("history")) s.history.push_back(fromJson(g));
    s.current = fromJson(j.at("current"));
    if (s.step == "anchor") s.step = "measure";  // the step's name before it also measured against generation 0
    if (s.step != "selfplay" && s.step != "train" && s.step != "train-value" && s.step != "gate" && s.step != "measure")
      throw Error("unknown step '" + s.step + "'");
    return s;
  } catch (const std::exception& e) {
    throw Error(fmt::format("'{}': {}", path, e.what()));
  }
}

void saveState(const std::string& dir, const RlState& s) {
  json history = json::array();
  for (const Generation& g : s.history) history.push_back(toJson(g));
  const json j = {{"generation", s.generation}, {"step", s.step},    {"best", s.best},
                  {"best_value", s.bestValue},  {"history", history}, {"current", toJson(s.current)}};
  writeAtomically((fs::path(dir) / kStateFile).string(), j.dump(2) + "\n");
}

std::string reportMarkdown(const std::vector<Generation>& history) {
  std::string t =
      "| gen | best network | candidate | self-play games / positions / targets | self-play s (positions/s) | train s (NNUE losses) | gate W/D/L | "
      "gate Elo | promoted | vs gen 0 W/D/L | Elo vs gen 0 | vs anchor W/D/L | anchor Elo | held-out policy CE / top-1 / "
      "value CE |\n"
      "| ---: | --- | --- | --- | ---: | ---: | --- | ---: | --- | --- | ---: | --- | ---: | --- |\n";
  for (const Generation& g : history) {
    const bool zero = g.number == 0;
    // The MCTS face's value network (if any) after its policy network: "pv-... + nn-...".
    const auto withValue = [](const std::string& net, const std::string& value) {
      return value.empty() ? shortNet(net) : shortNet(net) + " + " + shortNet(value);
    };
    t += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", g.number,
                     withValue(g.net, g.valueNet),
                     zero               ? "-"
                     : g.candidateSpeed != 1 ? fmt::format("{} ({:.0f}% speed)", shortNet(g.candidate), 100 * g.candidateSpeed)
                                             : withValue(g.candidate, g.valueCandidate),
                     zero ? "-" : fmt::format("{} / {} / {}", g.selfplayGames, g.selfplayPositions, g.selfplayTargets),
                     zero ? "-"
                          : fmt::format("{:.0f} ({:.1f})", g.selfplaySeconds,
                                        g.selfplaySeconds > 0 ? double(g.selfplayTimedPositions) / g.selfplaySeconds : 0.0),
                     zero        ? "-"
                     : g.valLoss ? fmt::format("{:.0f} (loss {:.6f} / val {:.6f} -> {:.6f})", g.trainSeconds,
                                               g.trainLoss.value_or(NAN), g.firstValLoss.value_or(NAN), *g.valLoss)
                                 : fmt::format("{:.0f}", g.trainSeconds),
                     zero ? "-" : fmt::format("{}/{}/{}", g.gateWins, g.gateDraws, g.gateLosses),
                     zero ? "-" : eloText(g.gateElo, g.gateError), zero ? "-" : (g.promoted ? "yes" : "no"),
                     g.gen0Elo ? fmt::format("{}/{}/{}", g.gen0Wins, g.gen0Draws, g.gen0Losses) : "-",
                     zero ? "0 (itself)" : g.gen0Elo ? eloText(*g.gen0Elo, g.gen0Error.value_or(INFINITY)) : "-",
                     g.anchorElo ? fmt::format("{}/{}/{}", g.anchorWins, g.anchorDraws, g.anchorLosses) : "-",
                     g.anchorElo ? eloText(*g.anchorElo, g.anchorError.value_or(INFINITY)) : "-",
                     g.heldout ? fmt::format("{:.4f} / {:.1f}% / {:.4f}", g.heldout->policyCe, 100 * g.heldout->top1,
                                             g.heldout->valueCe)
                               : "-");
  }
  return t;
}

HeldoutFigures readHeldoutCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("rl: cannot read the evaluation '{}'", path));
  std::string header, row;
  std::getline(in, header);
  if (header != training::az::kEvaluationCsvHeader || !std::getline(in, row))
    throw Error(fmt::format("rl: '{}' is not an evaluation of janus-train-az --evaluate-csv", path));
  // The last five fields: the network's path comes first and may hold commas.
  std::vector<std::string> f;
  std::size_t end = row.size();
  for (int k = 0; k < 5; ++k) {
    const std::size_t comma = row.rfind(',', end - 1);
    if (comma == std::string::npos || end == 0) throw Error(fmt::format("rl: '{}': malformed row '{}'", path, row));
    f.insert(f.begin(), row.substr(comma + 1, end - comma - 1));
    end = comma;
  }
  try {
    std::size_t used = 0;
    auto real = [&](const std::string& s) {
      const double v = std::stod(s, &used);
      if (used != s.size()) throw std::invalid_argument(s);
      return v;
    };
    HeldoutFigures h;
    h.positions = std::stoull(f[0], &used);
    if (used != f[0].size()) throw std::invalid_argument(f[0]);
    h.policyCe = real(f[1]);
    h.top1 = real(f[2]);
    h.valueCe = real(f[3]);
    return h;
  } catch (const std::exception&) {
    throw Error(fmt::format("rl: '{}': malformed row '{}'", path, row));
  }
}

void writeAtomically(const std::string& path, const std::string& text) {
  OutputFile out(path, false);
  out << text;
  out.commit();
}

}  // namespace janus::rl
