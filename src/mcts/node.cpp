#include "mcts/node.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

namespace janus::mcts {

static_assert(sizeof(Node::Edge) == 16, "the implicit minimax value fits in the edge's padding");

double Node::q() const {
  if (isTerminal()) return terminalValue();
  return m_visits ? m_wl / m_visits : 0.0;
}

double Node::d() const {
  if (isTerminal()) return m_terminal == Terminal::kDraw ? 1.0 : 0.0;
  return m_visits ? m_d / m_visits : 0.0;
}

double Node::qVariance() const {
  if (isTerminal() || m_visits < 2) return 0.0;
  const double mean = m_wl / m_visits;
  return std::clamp(m_wl2 / m_visits - mean * mean, 0.0, 1.0);
}

double Node::selectionQ() const {
  if (isTerminal()) return terminalValue();
  const double n = selectionVisits();
  return n > 0.0 ? (m_wl + double(m_pkWl)) / n : 0.0;
}

double Node::selectionQVariance() const {
  const double n = selectionVisits();
  if (isTerminal() || n < 2.0) return 0.0;
  const double mean = (m_wl + double(m_pkWl)) / n;
  return std::clamp((m_wl2 + double(m_pkWl2)) / n - mean * mean, 0.0, 1.0);
}

Wdl Node::wdl() const {
  const double q = this->q(), d = std::clamp(this->d(), 0.0, 1.0);
  Wdl w;
  w.win = float(std::clamp((1.0 + q - d) / 2, 0.0, 1.0));
  w.loss = float(std::clamp((1.0 - q - d) / 2, 0.0, 1.0));
  w.draw = std::max(0.0f, 1.0f - w.win - w.loss);
  return w;
}

double Node::terminalValue() const {
  switch (m_terminal) {
    case Terminal::kWin: return 1.0;
    case Terminal::kLoss: return -1.0;
    default: return 0.0;
  }
}

void Node::makeTerminal(Terminal t, TerminalKind kind, int plies) {
  m_terminal = t;
  m_kind = kind;
  m_plies = u16(std::clamp(plies, 0, 65535));
}

void Node::makeNonTerminal() {
  m_terminal = Terminal::kNone;
  m_kind = TerminalKind::kNone;
  m_plies = 0;
}

Node& Node::getOrCreateChild(int i, bool* created) {
  auto& slot = m_edges[size_t(i)].node;
  if (created) *created = !slot;
  if (!slot) slot = std::make_unique<Node>();
  return *slot;
}

size_t Node::collapse(size_t& nodesFreed) {
  size_t bytes = size_t(m_numEdges) * sizeof(Edge);
  std::vector<Node*> stack;
  for (Edge& e : edges())
    if (e.node) stack.push_back(e.node.get());
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    ++nodesFreed;
    bytes += n->ownBytes();
    for (Edge& e : n->edges())
      if (e.node) stack.push_back(e.node.get());
  }
  // Destroying the edges frees the subtree; a deep subtree is released bottom-up by the
  // unique_ptrs, which is fine for MCTS depths (tens of plies).
  m_edges.reset();
  m_numEdges = 0;
  return bytes;
}

void Node::copyEdges(std::vector<Move>& moves, std::vector<float>& priors) const {
  moves.clear();
  priors.clear();
  for (const Edge& e : edges()) {
    moves.push_back(e.move);
    priors.push_back(e.prior);
  }
}

int Node::findEdge(Move m) const {
  for (int i = 0; i < m_numEdges; ++i)
    if (m_edges[size_t(i)].move == m) return i;
  return -1;
}

bool Node::Edge::setMinimax(double q) {
  const i16 v = i16(std::lround(std::clamp(q, -1.0, 1.0) * kValueScale));
  if (v == value) return false;
  value = v;
  return true;
}

std::optional<double> Node::bestEdgeValue() const {
  int best = Edge::kNoValue;
  for (const Edge& e : edges()) best = std::max(best, int(e.value));
  if (best == Edge::kNoValue) return std::nullopt;
  return best / Edge::kValueScale;
}

void Node::expand(std::span<const Move> moves, std::span<const float> priors, std::span<const float> values) {
  assert(moves.size() == priors.size() && !moves.empty() && moves.size() <= size_t(kMaxMoves));
  assert(values.empty() || values.size() == moves.size());
  std::vector<int> order(moves.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return priors[size_t(a)] > priors[size_t(b)]; });
  m_edges = std::make_unique<Edge[]>(moves.size());
  m_numEdges = u16(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    m_edges[i].move = moves[size_t(order[i])];
    m_edges[i].prior = priors[size_t(order[i])];
    if (!values.empty()) m_edges[i].setMinimax(values[size_t(order[i])]);
  }
}

void Node::setPriors(std::span<const float> priors) {
  assert(priors.size() == size_t(m_numEdges));
  for (size_t i = 0; i < priors.size(); ++i) m_edges[i].prior = priors[i];
}

double cpuct(const PuctParams& p, double parentVisits) {
  return p.cpuctInit + p.cpuctFactor * std::log((parentVisits + p.cpuctBase) / p.cpuctBase);
}

double cpuct(const PuctParams& p, const Node& node) {
  const double c = cpuct(p, node.selectionStartedVisits());
  if (p.cpuctVarWeight == 0.0 || node.selectionVisits() < 2.0) return c;
  double f = std::sqrt(node.selectionQVariance()) / p.cpuctVarScale;
  f += (1.0 - f) / (1.0 + p.cpuctVarWarmup * node.selectionVisits());
  return c * std::max(0.0, 1.0 + p.cpuctVarWeight * (f - 1.0));
}

double fpuValue(const Node& node, double reduction) {
  double visitedPolicy = 0.0;
  for (const Node::Edge& e : node.edges())
    if (e.node && e.node->visits() > 0) visitedPolicy += e.prior;
  return node.selectionQ() - reduction * std::sqrt(visitedPolicy);
}

double edgeQ(const Node& node, int i, double fpu, double virtualLoss) {
  const Node* c = node.child(i);
  if (!c) return fpu;
  if (c->isTerminal()) return -c->terminalValue();
  const double n = c->selectionVisits(), f = c->inFlight();
  if (n + f == 0.0) return fpu;
  return (-c->selectionQ() * n - virtualLoss * f) / (n + f);
}

double edgeU(const Node& node, int i, double c) {
  const Node* child = node.child(i);
  const double childVisits = child ? child->selectionStartedVisits() : 0.0;
  return c * node.edge(i).prior * std::sqrt(node.selectionStartedVisits()) / (1.0 + childVisits);
}

int selectEdge(const Node& node, const PuctParams& p, bool isRoot, const std::vector<bool>* allowed) {
  // One pass over the edges. Every edge whose child has no started visit scores
  // fpu + c * P * sqrt(N) (edgeQ gives it the FPU value and 1 + 0 is its U's denominator), so
  // among those the highest prior wins; the FPU value needs the priors of the visited children
  // (fpuValue), known at the end of the pass. The choice is the one of scoring every edge in
  // order with edgeQ + edgeU, ties (the lowest index) included: in expand()'s prior order the
  // first fresh edge has the highest prior; only after root noise is a second look needed.
  const double c = cpuct(p, node);
  const double sqrtN = std::sqrt(node.selectionStartedVisits());
  int best = -1, bestFresh = -1, firstFresh = -1;
  double bestScore = -1e300, visitedPolicy = 0.0;
  auto fresh = [](const Node* child) { return !child || (child->startedVisits() == 0 && !child->isTerminal()); };
  for (int i = 0; i < node.numEdges(); ++i) {
    const Node::Edge& e = node.edge(i);
    const Node* child = e.node.get();
    if (child && child->visits() > 0) visitedPolicy += e.prior;
    if (allowed && !(*allowed)[size_t(i)]) continue;
    if (fresh(child)) {
      if (firstFresh < 0) firstFresh = i;
      if (bestFresh < 0 || e.prior > node.edge(bestFresh).prior) bestFresh = i;
      continue;
    }
    const double n = child->selectionVisits(), f = child->inFlight();
    double q = child->isTerminal() ? -child->terminalValue() : (-child->selectionQ() * n - p.virtualLoss * f) / (n + f);
    if (p.minimaxWeight > 0.0 && e.hasValue() && !child->isTerminal())
      q = (1.0 - p.minimaxWeight) * q + p.minimaxWeight * e.minimax();
    const double score = q + c * e.prior * sqrtN / (1.0 + n + f);
    if (score > bestScore) bestScore = score, best = i;
  }
  if (bestFresh < 0) return best;
  const double fpu = node.selectionQ() - (isRoot ? p.fpuReductionRoot : p.fpuReduction) * std::sqrt(visitedPolicy);
  if (p.fpuValueWeight > 0.0) {
    // Fresh edges differ by their move values too: score each of them (the lowest index wins ties).
    for (int i = firstFresh; i < node.numEdges(); ++i) {
      const Node::Edge& e = node.edge(i);
      if ((allowed && !(*allowed)[size_t(i)]) || !fresh(e.node.get())) continue;
      const double q = e.hasValue() ? (1.0 - p.fpuValueWeight) * fpu + p.fpuValueWeight * e.minimax() : fpu;
      const double score = q + c * e.prior * sqrtN;
      if (score > bestScore || (score == bestScore && i < best)) bestScore = score, best = i;
    }
    return best;
  }
  auto freshScore = [&](int i) { return fpu + c * node.edge(i).prior * sqrtN / 1.0; };
  const double top = freshScore(bestFresh);
  if (firstFresh != bestFresh)  // an earlier fresh edge with the same score (equal after rounding) wins the tie
    for (int i = firstFresh; i < bestFresh; ++i)
      if ((!allowed || (*allowed)[size_t(i)]) && fresh(node.child(i)) && freshScore(i) == top) {
        bestFresh = i;
        break;
      }
  if (top > bestScore || (top == bestScore && bestFresh < best)) best = bestFresh;
  return best;
}

void applyDirichletNoise(Node& node, double alpha, double epsilon, std::mt19937_64& rng) {
  if (!node.expanded() || epsilon <= 0.0) return;
  std::gamma_distribution<double> gamma(alpha, 1.0);
  std::vector<double> eta(size_t(node.numEdges()));
  double sum = 0.0;
  for (double& x : eta) sum += (x = gamma(rng));
  if (!(sum > 0.0)) return;  // every sample underflowed (tiny alpha): leave the priors alone
  double priorSum = 0.0;
  for (const Node::Edge& e : node.edges()) priorSum += e.prior;
  for (int i = 0; i < node.numEdges(); ++i) {
    Node::Edge& e = node.edge(i);
    e.prior = float((1.0 - epsilon) * e.prior + epsilon * priorSum * eta[size_t(i)] / sum);
  }
}

bool backupMinimax(Node& parent, int i) {
  Node::Edge& e = parent.edge(i);
  const Node* c = e.node.get();
  if (!c) return false;
  if (c->isTerminal()) return e.setMinimax(-c->terminalValue());
  if (const std::optional<double> hint = c->hintValue()) return e.setMinimax(-*hint);
  if (!c->expanded()) return false;
  const std::optional<double> best = c->bestEdgeValue();
  return best && e.setMinimax(-*best);
}

bool updateProof(Node& node) {
  if (node.isTerminal() || !node.expanded()) return false;
  // A move to a lost child wins: the fastest known mate, preferring a mate to a tablebase win.
  const Node* win = nullptr;
  for (const Node::Edge& e : node.edges()) {
    const Node* c = e.node.get();
    if (!c || c->terminal() != Terminal::kLoss) continue;
    const bool tb = c->terminalKind() == TerminalKind::kTablebase;
    if (!win || std::pair(tb, c->terminalPlies()) <
                    std::pair(win->terminalKind() == TerminalKind::kTablebase, win->terminalPlies()))
      win = c;
  }
  if (win) {
    const bool tb = win->terminalKind() == TerminalKind::kTablebase;
    node.makeTerminal(Terminal::kWin, tb ? TerminalKind::kTablebase : TerminalKind::kProven, win->terminalPlies() + 1);
    return true;
  }
  // Every move leads to a won child: lost, in as many plies as the longest resistance.
  int longest = 0;
  bool tb = false;
  for (const Node::Edge& e : node.edges()) {
    const Node* c = e.node.get();
    if (!c || c->terminal() != Terminal::kWin) return false;
    longest = std::max(longest, c->terminalPlies());
    tb = tb || c->terminalKind() == TerminalKind::kTablebase;
  }
  node.makeTerminal(Terminal::kLoss, tb ? TerminalKind::kTablebase : TerminalKind::kProven, longest + 1);
  return true;
}

namespace {

/// 2: the move wins by force, 0: it loses by force, 1: anything else (parent's view).
int outcomeClass(const Node* child) {
  if (!child) return 1;
  if (child->terminal() == Terminal::kLoss) return 2;
  if (child->terminal() == Terminal::kWin) return 0;
  return 1;
}

}  // namespace

bool betterEdge(const Node& node, int a, int b) {
  const Node* ca = node.child(a);
  const Node* cb = node.child(b);
  const int ka = outcomeClass(ca), kb = outcomeClass(cb);
  if (ka != kb) return ka > kb;
  if (ka == 2) {  // both win: a mate before a tablebase win, then the shortest
    const bool ta = ca->terminalKind() == TerminalKind::kTablebase, tb = cb->terminalKind() == TerminalKind::kTablebase;
    if (ta != tb) return !ta;
    if (ca->terminalPlies() != cb->terminalPlies()) return ca->terminalPlies() < cb->terminalPlies();
  } else if (ka == 0) {  // both lose: the longest resistance (a tablebase loss has no distance: last resort first)
    const bool ta = ca->terminalKind() == TerminalKind::kTablebase, tb = cb->terminalKind() == TerminalKind::kTablebase;
    if (ta != tb) return ta;
    if (ca->terminalPlies() != cb->terminalPlies()) return ca->terminalPlies() > cb->terminalPlies();
  }
  const double na = ca ? ca->selectionVisits() : 0.0, nb = cb ? cb->selectionVisits() : 0.0;
  if (na != nb) return na > nb;
  const double qa = ca && (ca->visits() || ca->isTerminal()) ? -ca->selectionQ() : -2.0;
  const double qb = cb && (cb->visits() || cb->isTerminal()) ? -cb->selectionQ() : -2.0;
  if (qa != qb) return qa > qb;
  return node.edge(a).prior > node.edge(b).prior;
}

}  // namespace janus::mcts
