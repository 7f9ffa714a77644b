// SPSA of engine parameters from game pairs (spsa.h).

#include "tune/spsa.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/hash.h"
#include "util/zstd_stream.h"

namespace janus::tune {

namespace {

using nlohmann::json;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

double parseNumber(std::string_view field, const std::string& where, const char* what) {
  double v = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec != std::errc() || end != field.data() + field.size() || !std::isfinite(v))
    throw Error(fmt::format("{}: {} '{}' is not a number", where, what, field));
  return v;
}

double clampTo(const SpsaParam& p, double v) { return std::clamp(v, p.min, p.max); }

}  // namespace

std::vector<SpsaParam> parseSpsaParams(std::string_view text, std::string_view source) {
  std::vector<SpsaParam> params;
  int lineNumber = 0;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    const std::string_view line = trim(text.substr(0, eol));
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++lineNumber;
    if (line.empty() || line.front() == '#') continue;
    const std::string where = fmt::format("{}: line {}", source, lineNumber);
    std::vector<std::string_view> fields;
    for (std::string_view rest = line;;) {
      const size_t comma = rest.find(',');
      fields.push_back(trim(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    if (fields.size() != 7)
      throw Error(fmt::format("{}: {} fields, expected 7 (NAME, int|float, VALUE, MIN, MAX, C_END, R_END)", where,
                              fields.size()));
    SpsaParam p;
    p.name = std::string(fields[0]);
    if (p.name.empty()) throw Error(fmt::format("{}: the name is empty", where));
    if (fields[1] == "int") p.integer = true;
    else if (fields[1] == "float") p.integer = false;
    else throw Error(fmt::format("{}: type '{}' is neither int nor float", where, fields[1]));
    p.value = parseNumber(fields[2], where, "value");
    p.min = parseNumber(fields[3], where, "min");
    p.max = parseNumber(fields[4], where, "max");
    p.cEnd = parseNumber(fields[5], where, "C_END");
    p.rEnd = parseNumber(fields[6], where, "R_END");
    if (p.min > p.max) throw Error(fmt::format("{}: min {} is above max {}", where, p.min, p.max));
    if (p.value < p.min || p.value > p.max)
      throw Error(fmt::format("{}: value {} is outside [{}, {}]", where, p.value, p.min, p.max));
    if (p.cEnd <= 0) throw Error(fmt::format("{}: C_END {} must be above 0", where, p.cEnd));
    if (p.rEnd <= 0) throw Error(fmt::format("{}: R_END {} must be above 0", where, p.rEnd));
    for (const SpsaParam& q : params)
      if (q.name == p.name) throw Error(fmt::format("{}: parameter '{}' is given twice", where, p.name));
    params.push_back(std::move(p));
  }
  if (params.empty()) throw Error(fmt::format("{}: no parameter (one per line: NAME, int|float, VALUE, MIN, MAX, "
                                              "C_END, R_END)", source));
  return params;
}

SpsaGains spsaGains(const SpsaParam& p, const SpsaSchedule& s, int k) {
  const double n = s.iterations;
  const double bigA = s.aRatio * n;
  const double c0 = p.cEnd * std::pow(n, s.gamma);
  const double a0 = p.rEnd * p.cEnd * p.cEnd * std::pow(bigA + n, s.alpha);
  SpsaGains g;
  g.c = c0 / std::pow(double(k), s.gamma);
  const double a = a0 / std::pow(bigA + k, s.alpha);
  g.r = a / (g.c * g.c);
  return g;
}

SpsaTuner::SpsaTuner(std::vector<SpsaParam> params, SpsaSchedule schedule, u64 seed)
    : m_params(std::move(params)), m_schedule(schedule), m_seed(seed) {
  if (m_params.empty()) throw Error("spsa: no parameter to tune");
  if (m_schedule.iterations < 1) throw Error(fmt::format("spsa: iterations {} must be at least 1", m_schedule.iterations));
  if (!(m_schedule.alpha > 0) || !(m_schedule.gamma > 0) || !(m_schedule.aRatio >= 0))
    throw Error(fmt::format("spsa: alpha {} and gamma {} must be above 0, A ratio {} at least 0", m_schedule.alpha,
                            m_schedule.gamma, m_schedule.aRatio));
}

SpsaProbe SpsaTuner::probe() const {
  SpsaProbe probe;
  probe.iteration = nextIteration();
  u64 state = splitmix64(m_seed ^ splitmix64(u64(probe.iteration)));
  for (const SpsaParam& p : m_params) {
    state = splitmix64(state);
    const int flip = (state >> 63) ? 1 : -1;
    const double c = spsaGains(p, m_schedule, probe.iteration).c;
    probe.flip.push_back(flip);
    probe.plus.push_back(clampTo(p, p.value + c * flip));
    probe.minus.push_back(clampTo(p, p.value - c * flip));
  }
  return probe;
}

void SpsaTuner::update(const SpsaProbe& probe, const SpsaResult& result) {
  const SpsaProbe expected = this->probe();
  if (probe.iteration != expected.iteration || probe.flip != expected.flip)
    throw Error(fmt::format("spsa: the result is for iteration {}, the tuner is at iteration {}", probe.iteration,
                            expected.iteration));
  const int delta = result.wins - result.losses;
  SpsaIteration done;
  done.iteration = probe.iteration;
  done.result = result;
  for (size_t i = 0; i < m_params.size(); ++i) {
    SpsaParam& p = m_params[i];
    const SpsaGains g = spsaGains(p, m_schedule, probe.iteration);
    p.value = clampTo(p, p.value + g.r * g.c * delta * probe.flip[i]);
    done.theta.push_back(p.value);
  }
  m_history.push_back(std::move(done));
}

SpsaResult SpsaTuner::total() const {
  SpsaResult t;
  for (const SpsaIteration& it : m_history) {
    t.wins += it.result.wins;
    t.draws += it.result.draws;
    t.losses += it.result.losses;
  }
  return t;
}

void SpsaTuner::save(const std::filesystem::path& path) const {
  json params = json::array();
  for (const SpsaParam& p : m_params)
    params.push_back({{"name", p.name}, {"type", p.integer ? "int" : "float"}, {"value", p.value}, {"min", p.min},
                      {"max", p.max}, {"c_end", p.cEnd}, {"r_end", p.rEnd}});
  json history = json::array();
  for (const SpsaIteration& it : m_history)
    history.push_back({{"iteration", it.iteration},
                       {"wdl", {it.result.wins, it.result.draws, it.result.losses}},
                       {"theta", it.theta}});
  const json state = {{"format", "janus-spsa-state"},
                      {"version", 1},
                      {"iterations", m_schedule.iterations},
                      {"alpha", m_schedule.alpha},
                      {"gamma", m_schedule.gamma},
                      {"a_ratio", m_schedule.aRatio},
                      {"seed", m_seed},
                      {"params", params},
                      {"history", history}};
  OutputFile out(path.string(), /*compress=*/false);
  out << state.dump(1) << '\n';
  out.commit();
}

SpsaTuner SpsaTuner::load(const std::filesystem::path& path, const std::vector<SpsaParam>& params,
                          const SpsaSchedule& schedule, u64 seed) {
  const std::string where = fmt::format("spsa state '{}'", path.string());
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot be read", where));
  json state;
  try {
    state = json::parse(in);
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: not JSON ({})", where, e.what()));
  }
  try {
    if (state.at("format") != "janus-spsa-state" || state.at("version") != 1)
      throw Error(fmt::format("{}: not a version 1 janus-spsa-state file", where));
    if (state.at("iterations").get<int>() != schedule.iterations)
      throw Error(fmt::format("{}: it was started with {} iterations, not {}", where,
                              state.at("iterations").get<int>(), schedule.iterations));
    if (state.at("seed").get<u64>() != seed)
      throw Error(fmt::format("{}: it was started with seed {}, not {}", where, state.at("seed").get<u64>(), seed));
    if (state.at("alpha").get<double>() != schedule.alpha || state.at("gamma").get<double>() != schedule.gamma ||
        state.at("a_ratio").get<double>() != schedule.aRatio)
      throw Error(fmt::format("{}: it was started with another alpha, gamma or A ratio", where));
    const json& saved = state.at("params");
    if (saved.size() != params.size())
      throw Error(fmt::format("{}: it tunes {} parameters, the parameter file {}", where, saved.size(), params.size()));
    std::vector<SpsaParam> restored = params;
    for (size_t i = 0; i < params.size(); ++i) {
      const json& s = saved[i];
      const SpsaParam& p = params[i];
      if (s.at("name") != p.name || (s.at("type") == "int") != p.integer || s.at("min").get<double>() != p.min ||
          s.at("max").get<double>() != p.max || s.at("c_end").get<double>() != p.cEnd ||
          s.at("r_end").get<double>() != p.rEnd)
        throw Error(fmt::format("{}: parameter {} ('{}') differs from the parameter file's '{}' (name, type, bounds, "
                                "C_END and R_END must be the same)",
                                where, i + 1, s.at("name").get<std::string>(), p.name));
      restored[i].value = s.at("value").get<double>();
    }
    SpsaTuner tuner(std::move(restored), schedule, seed);
    for (const json& h : state.at("history")) {
      SpsaIteration it;
      it.iteration = h.at("iteration").get<int>();
      if (it.iteration != int(tuner.m_history.size()) + 1)
        throw Error(fmt::format("{}: history entry {} is iteration {}", where, tuner.m_history.size() + 1, it.iteration));
      const auto wdl = h.at("wdl").get<std::vector<int>>();
      if (wdl.size() != 3) throw Error(fmt::format("{}: iteration {}: wdl is not 3 numbers", where, it.iteration));
      it.result = {wdl[0], wdl[1], wdl[2]};
      it.theta = h.at("theta").get<std::vector<double>>();
      tuner.m_history.push_back(std::move(it));
    }
    return tuner;
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: malformed ({})", where, e.what()));
  }
}

std::string spsaOptionValue(const SpsaParam& p, double v) {
  if (p.integer) return fmt::format("{}", std::llround(v));
  return fmt::format("{}", v);
}

std::string SpsaTuner::valuesText() const {
  std::string text;
  for (const SpsaParam& p : m_params) text += fmt::format("{} = {}\n", p.name, spsaOptionValue(p, p.value));
  return text;
}

std::string SpsaTuner::paramsText() const {
  std::string text;
  for (const SpsaParam& p : m_params)
    text += fmt::format("{}, {}, {}, {}, {}, {}, {}\n", p.name, p.integer ? "int" : "float", spsaOptionValue(p, p.value),
                        p.min, p.max, p.cEnd, p.rEnd);
  return text;
}

void runSpsa(SpsaTuner& tuner, const std::filesystem::path& statePath,
             const std::function<SpsaResult(const SpsaProbe&)>& play,
             const std::function<void(const SpsaTuner&)>& progress, const std::function<bool()>& stop) {
  while (!tuner.finished() && !stop()) {
    const SpsaProbe probe = tuner.probe();
    const SpsaResult result = play(probe);
    tuner.update(probe, result);
    tuner.save(statePath);
    progress(tuner);
  }
}

}  // namespace janus::tune
