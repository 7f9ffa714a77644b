#include "tune/trace_set.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "util/error.h"

namespace janus::tune {

namespace {

constexpr double kKaMgCap = 1000;    // kingAttackScore: mg units capped at 1000
constexpr double kKaMgDivisor = 720;
constexpr double kKaEgDivisor = 20;

bool isKingAttack(int index) { return weightBlockOf(index).kind == WeightKind::kKingAttack; }

/// Kind of every flat weight, computed once.
const std::vector<char>& kingAttackMask() {
  static const std::vector<char> mask = [] {
    std::vector<char> m(weight::kCount);
    for (int i = 0; i < weight::kCount; ++i) m[i] = isKingAttack(i);
    return m;
  }();
  return mask;
}

}  // namespace

double sigmoid(double eval, double k) { return 1.0 / (1.0 + std::exp(-k * eval * (std::numbers::ln10 / 400.0))); }

Params toParams(const EvalWeights& w) {
  Params p(kParamCount);
  for (int i = 0; i < weight::kCount; ++i) {
    p[2 * i] = w[i].mg();
    p[2 * i + 1] = w[i].eg();
  }
  return p;
}

EvalWeights toWeights(const Params& p) {
  EvalWeights w;
  auto round = [](double v) { return int(std::lround(std::clamp(v, -30000.0, 30000.0))); };
  for (int i = 0; i < weight::kCount; ++i) w[i] = TaperedScore(round(p[2 * i]), round(p[2 * i + 1]));
  return w;
}

void TraceSet::add(const EvalTrace& trace, double result, double score) {
  const auto& ka = kingAttackMask();
  if (m_linear.size() + weight::kCount > std::numeric_limits<u32>::max() ||
      m_king.size() + weight::kCount > std::numeric_limits<u32>::max())
    throw Error("tune: too many positions for one trace set (more than 2^32 sparse terms)");
  Sample s{};
  s.linearBegin = u32(m_linear.size());
  s.kingBegin = u32(m_king.size());
  for (int i = 0; i < weight::kCount; ++i) {
    const auto& c = trace.coeff[i];
    if (ka[i]) {
      if (c[kWhite] || c[kBlack]) m_king.push_back({u16(i), c[kWhite], c[kBlack]});
    } else if (int net = trace.net(i)) {
      m_linear.push_back({u16(i), i16(net)});
    }
  }
  s.linearCount = u16(m_linear.size() - s.linearBegin);
  s.kingCount = u8(m_king.size() - s.kingBegin);
  s.phase = u8(trace.phase);
  s.scale[kWhite] = u8(trace.scale[kWhite]);
  s.scale[kBlack] = u8(trace.scale[kBlack]);
  s.result = float(result);
  s.score = float(score);
  s.target = float(result);
  m_samples.push_back(s);
}

void TraceSet::append(const TraceSet& other) {
  const u32 linearOffset = u32(m_linear.size()), kingOffset = u32(m_king.size());
  if (u64(m_linear.size()) + other.m_linear.size() > std::numeric_limits<u32>::max())
    throw Error("tune: too many positions for one trace set (more than 2^32 sparse terms)");
  m_linear.insert(m_linear.end(), other.m_linear.begin(), other.m_linear.end());
  m_king.insert(m_king.end(), other.m_king.begin(), other.m_king.end());
  for (Sample s : other.m_samples) {
    s.linearBegin += linearOffset;
    s.kingBegin += kingOffset;
    m_samples.push_back(s);
  }
}

void TraceSet::setTargets(double lambda, double k) {
  for (Sample& s : m_samples) {
    double t = s.result;
    if (lambda > 0 && !std::isnan(s.score)) t = (1 - lambda) * s.result + lambda * sigmoid(s.score, k);
    s.target = float(t);
  }
}

EvalParts TraceSet::evaluate(size_t i, const Params& p) const {
  const Sample& s = m_samples[i];
  double mg = 0, eg = 0;
  for (u32 j = s.linearBegin, end = s.linearBegin + s.linearCount; j < end; ++j) {
    const LinearTerm t = m_linear[j];
    mg += p[2 * t.index] * t.net;
    eg += p[2 * t.index + 1] * t.net;
  }
  EvalParts parts;
  if (s.kingCount) {
    double uMg[2] = {0, 0}, uEg[2] = {0, 0};
    for (u32 j = s.kingBegin, end = s.kingBegin + s.kingCount; j < end; ++j) {
      const KingTerm t = m_king[j];
      uMg[0] += p[2 * t.index] * t.white;
      uMg[1] += p[2 * t.index] * t.black;
      uEg[0] += p[2 * t.index + 1] * t.white;
      uEg[1] += p[2 * t.index + 1] * t.black;
    }
    for (int c = 0; c < 2; ++c) {
      const double sign = c == 0 ? 1.0 : -1.0;
      const double x = std::clamp(uMg[c], 0.0, kKaMgCap);
      mg += sign * x * x / kKaMgDivisor;
      parts.kaMg[c] = (uMg[c] > 0 && uMg[c] < kKaMgCap) ? 2 * uMg[c] / kKaMgDivisor : 0.0;
      eg += sign * std::max(uEg[c], 0.0) / kKaEgDivisor;
      parts.kaEg[c] = uEg[c] > 0 ? 1.0 / kKaEgDivisor : 0.0;
    }
  }
  const int scale = s.scale[eg > 0 ? kWhite : kBlack];
  if (scale == 0) return parts;  // E = 0 whatever the weights
  const double phase = s.phase;
  const double e = (mg * phase + eg * (kPhaseMax - phase) * scale / kScaleNormal) / kPhaseMax;
  if (e > kEvalMax || e < -kEvalMax) {
    parts.eval = std::clamp(e, double(-kEvalMax), double(kEvalMax));
    return parts;  // clamped: flat
  }
  parts.eval = e;
  parts.dMg = phase / kPhaseMax;
  parts.dEg = (kPhaseMax - phase) * scale / double(kScaleNormal * kPhaseMax);
  return parts;
}

void TraceSet::addGradient(size_t i, const EvalParts& parts, double factor, std::span<double> grad) const {
  const Sample& s = m_samples[i];
  const double gMg = factor * parts.dMg, gEg = factor * parts.dEg;
  if (gMg == 0 && gEg == 0) return;
  for (u32 j = s.linearBegin, end = s.linearBegin + s.linearCount; j < end; ++j) {
    const LinearTerm t = m_linear[j];
    grad[2 * t.index] += gMg * t.net;
    grad[2 * t.index + 1] += gEg * t.net;
  }
  for (u32 j = s.kingBegin, end = s.kingBegin + s.kingCount; j < end; ++j) {
    const KingTerm t = m_king[j];
    grad[2 * t.index] += gMg * (parts.kaMg[0] * t.white - parts.kaMg[1] * t.black);
    grad[2 * t.index + 1] += gEg * (parts.kaEg[0] * t.white - parts.kaEg[1] * t.black);
  }
}

int TraceSet::evaluateExact(size_t i, const EvalWeights& w) const {
  const Sample& s = m_samples[i];
  TaperedScore total, units[2];
  for (u32 j = s.linearBegin, end = s.linearBegin + s.linearCount; j < end; ++j)
    total += w[m_linear[j].index] * m_linear[j].net;
  for (u32 j = s.kingBegin, end = s.kingBegin + s.kingCount; j < end; ++j) {
    units[kWhite] += w[m_king[j].index] * m_king[j].white;
    units[kBlack] += w[m_king[j].index] * m_king[j].black;
  }
  total += kingAttackScore(units[kWhite]) - kingAttackScore(units[kBlack]);
  return finalEvaluation(total, s.phase, s.scale[strongerSide(total)]);
}

size_t TraceSet::memoryBytes() const {
  return m_samples.capacity() * sizeof(Sample) + m_linear.capacity() * sizeof(LinearTerm) +
         m_king.capacity() * sizeof(KingTerm);
}

}  // namespace janus::tune
