#include "mcts/mcts.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "core/movegen.h"
#include "search/score.h"
#include "search/tb_root.h"
#include "search/wdl.h"

namespace janus::mcts {

// ------------------------------------------------------------------------------------------------
// Step map of one search (run):
//   1. Root moves (searchmoves), root tablebase probe, time budget.
//   2. Tree: reuse the subtree of the moves played since the last search (prepareTree), or a
//      new root; evaluate and expand the root if needed; Dirichlet noise on its priors.
//   3. Every thread loops (workerLoop):
//        a. gather (lock):   up to batchSize playouts, each a path root -> leaf chosen by PUCT,
//                            with a virtual loss on every node of the path;
//        b. evaluate (no lock): replay each new leaf's moves, decide terminal positions (mate,
//                            stalemate, 50 moves, material, repetition, tablebase), send the rest
//                            to one backend computation and apply the hints' TT hints to its
//                            answers; run the batch's alpha-beta hints (HintSearcher);
//        c. backup (lock):   expand the evaluated leaves, add the values along the paths,
//                            remove the virtual loss, propagate proven wins and losses and
//                            the implicit minimax values (backupMinimax). A hint is no
//                            playout: its value goes up the path as prior knowledge.
//      The main thread then checks the limits and reports.
//   4. Join the helpers; best move by visits (proven wins first); final report.
// ------------------------------------------------------------------------------------------------

namespace {

/// Win/draw/loss per mille for UCI (summing to 1000).
WdlPermille toPermille(const Wdl& wdl) {
  WdlPermille w;
  w.win = std::clamp(int(std::lround(1000.0 * wdl.win)), 0, 1000);
  w.loss = std::clamp(int(std::lround(1000.0 * wdl.loss)), 0, 1000 - w.win);
  w.draw = 1000 - w.win - w.loss;
  return w;
}

/// The same for a child node's Wdl, seen from its parent (the player who moved).
WdlPermille permilleForParent(const Wdl& child) { return toPermille(Wdl{child.loss, child.draw, child.win}); }

/// UCI score of a root move whose child node is `c`, from the root's view: exact for proven
/// and tablebase results, else Q through the score model of search/wdl.h at `material` (the
/// root's; wdlMaterial), so that a position the NNUE scores +100 cp reads about +100 cp.
int scoreForParent(const Node& c, int material) {
  const bool tb = c.terminalKind() == TerminalKind::kTablebase;
  if (c.terminal() == Terminal::kLoss) return tb ? tbWinIn(c.terminalPlies() + 1) : mateIn(c.terminalPlies() + 1);
  if (c.terminal() == Terminal::kWin) return tb ? -tbWinIn(c.terminalPlies() + 1) : matedIn(c.terminalPlies() + 1);
  return qToCentipawns(-c.q(), material);
}

/// Most visited continuation below `node` (proven wins first), at most `maxLength` moves.
void appendPv(const Node* node, std::vector<Move>& pv, int maxLength) {
  while (node && node->expanded() && !node->isTerminal() && int(pv.size()) < maxLength) {
    int best = -1;
    for (int i = 0; i < node->numEdges(); ++i) {
      const Node* c = node->child(i);
      if (!c || (c->visits() == 0 && !c->isTerminal())) continue;
      if (best < 0 || betterEdge(*node, i, best)) best = i;
    }
    if (best < 0) return;
    pv.push_back(node->edge(best).move);
    node = node->child(best);
  }
}

/// Walks a subtree: counts its nodes and bytes and forgets repetition draws (they depend on the
/// path from the root, which just changed; the next visit decides them again).
void refreshSubtree(Node& root, size_t& nodes, size_t& bytes) {
  std::vector<Node*> stack{&root};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    ++nodes;
    bytes += n->ownBytes();
    if (n->terminalKind() == TerminalKind::kRepetition) n->makeNonTerminal();
    for (Node::Edge& e : n->edges())
      if (e.node) stack.push_back(e.node.get());
  }
}

}  // namespace

LeafStatus classifyLeaf(const Position& pos, int ply, const MoveList& legal, const Tablebases* tb) {
  if (legal.empty()) return {pos.inCheck() ? Terminal::kLoss : Terminal::kDraw, TerminalKind::kRule};
  if (pos.isFiftyMoveDraw() || pos.isInsufficientMaterial()) return {Terminal::kDraw, TerminalKind::kRule};
  // Two-fold inside the tree (lc0's rule), three-fold counting the game before the root.
  if (pos.isSearchRepetition(ply)) return {Terminal::kDraw, TerminalKind::kRepetition};
  // Tablebases after captures and pawn moves, as alpha-beta probes them.
  if (tb && pos.halfmoveClock() == 0 && tb->covers(pos))
    if (auto wdl = tb->searchWdl(pos, kMaxPly)) {
      const Terminal t = *wdl == TbWdl::kWin ? Terminal::kWin : *wdl == TbWdl::kLoss ? Terminal::kLoss : Terminal::kDraw;
      return {t, TerminalKind::kTablebase};
    }
  return {};
}

/// One playout of a batch. The vectors are reused from batch to batch.
struct MctsSearch::Playout {
  std::vector<Node*> path;  ///< root ... leaf
  std::vector<Move> moves;  ///< the moves between them (path.size() - 1)
  std::vector<int> edges;   ///< the edge index of each move in its node
  bool newLeaf = false;     ///< the leaf is to be classified and evaluated (else: terminal)
  bool hint = false;        ///< the leaf asks for an alpha-beta hint: `legal` and `priors` are its edges'
  int hintRound = 0;        ///< with `hint`: 0 for the node's first hint, k for its (k+1)-th
  u64 hintReserved = 0;     ///< with `hint` under a node limit: the nodes it may search (m_hintReserved)
  // Filled by evaluate():
  Terminal terminal = Terminal::kNone;
  TerminalKind kind = TerminalKind::kNone;
  std::vector<Move> legal;
  int input = -1;
  Wdl wdl;
  std::vector<float> priors;
  std::vector<float> values;  ///< BackendComputation::moveValues (empty: none)
  std::optional<TTHint> ttHint;  ///< a new leaf's TT hint, applied to its evaluation
  HintResult hintResult;         ///< with `hint`: what the hint found
};

MctsSearch::MctsSearch(std::shared_ptr<Backend> backend, MctsParams params)
    : m_backend(std::move(backend)),
      m_backendBatch(m_backend ? std::max(1, m_backend->attributes().preferredBatch) : 1),
      m_params(params),
      m_hints(params.hints),
      m_rng(params.seed ? params.seed : std::random_device{}()) {}

MctsSearch::~MctsSearch() {
  m_freer.wait();  // before any other member goes
}

void MctsSearch::freeInBackground(std::vector<std::unique_ptr<Node>> trees) {
  if (trees.empty()) return;
  m_freer.wait();  // the previous move's garbage: long gone
  // std::function needs a copyable task: the trees travel in a shared_ptr.
  auto garbage = std::make_shared<std::vector<std::unique_ptr<Node>>>(std::move(trees));
  m_freer.start([garbage] { garbage->clear(); });
}

void MctsSearch::newGame() {
  m_havePreviousQ = false;
  m_root.reset();
  m_rootPos.reset();
  m_cleanRootPriors.clear();
  m_backend->clear();
  m_hints.newGame();
}

void MctsSearch::setBackend(std::shared_ptr<Backend> backend) {
  m_backend = std::move(backend);
  m_backendBatch = m_backend ? std::max(1, m_backend->attributes().preferredBatch) : 1;
  m_root.reset();
  m_rootPos.reset();
  m_cleanRootPriors.clear();
}

void MctsSearch::setParams(const MctsParams& params) {
  m_hints.setParams(params.hints);  // throws for bad settings before anything changes
  if (params.seed && params.seed != m_params.seed) m_rng.seed(params.seed);
  m_params = params;
}

// ---- Step 2: the tree ---------------------------------------------------------------------------

void MctsSearch::prepareTree(const Position& root) {
  std::unique_ptr<Node> reused;
  std::vector<std::unique_ptr<Node>> garbage;
  if (m_root && m_rootPos && m_params.treeReuse) {
    // Moves from the old root to the new one, read back from the new position's history.
    const int k = root.gamePly() - m_rootPos->gamePly();
    if (k >= 0 && k <= root.movesMade()) {
      Position p = root;
      std::vector<Move> moves(size_t(k), Move::none());
      bool ok = true;
      for (int i = k - 1; i >= 0 && ok; --i) {
        moves[size_t(i)] = p.lastMove();
        ok = moves[size_t(i)] && moves[size_t(i)] != Move::null();
        if (ok) p.unmakeMove(moves[size_t(i)]);
      }
      ok = ok && p.key() == m_rootPos->key() && p.halfmoveClock() == m_rootPos->halfmoveClock();
      const Node* n = m_root.get();
      for (size_t i = 0; i < moves.size() && ok; ++i) {
        const int e = n->findEdge(moves[i]);
        ok = e >= 0 && n->child(e);
        if (ok) n = n->child(e);
      }
      if (ok) {
        reused = std::move(m_root);
        for (Move m : moves) {
          std::unique_ptr<Node> child = reused->releaseChild(reused->findEdge(m));
          garbage.push_back(std::move(reused));  // the rest of the old tree
          reused = std::move(child);
        }
        // Same root again (k = 0): take the noise out of its priors before new noise goes in.
        if (k == 0 && !m_cleanRootPriors.empty() && size_t(reused->numEdges()) == m_cleanRootPriors.size())
          for (int i = 0; i < reused->numEdges(); ++i) reused->edge(i).prior = m_cleanRootPriors[size_t(i)];
      }
    }
  }
  m_cleanRootPriors.clear();
  if (!reused && m_root) garbage.push_back(std::move(m_root));
  freeInBackground(std::move(garbage));
  m_root = reused ? std::move(reused) : std::make_unique<Node>();
  m_rootPos = root;
  m_treeNodes = 0;
  m_treeBytes = 0;
  refreshSubtree(*m_root, m_treeNodes, m_treeBytes);
  if (m_root->isTerminal()) m_root->makeNonTerminal();  // the root is searched whatever it was
}

void MctsSearch::expandRoot(const Position& root) {
  const MoveList list = legalMoves(root);
  std::vector<Move> moves(list.begin(), list.end());
  auto computation = m_backend->newComputation();
  computation->addInput(root, moves);
  computation->compute();
  const auto backendPriors = computation->priors(0);
  std::vector<float> priors(backendPriors.begin(), backendPriors.end());
  Wdl wdl = computation->wdl(0);
  if (const std::optional<TTHint> tt = m_hints.ttHint(0, root)) m_hints.applyTTHint(*tt, moves, priors, wdl);
  m_root->expand(moves, priors, computation->moveValues(0));
  // The reports' priors are the backend's, in edge order (expand sorts the edges by prior).
  m_rootBackendPriors.clear();
  for (const Node::Edge& e : m_root->edges())
    m_rootBackendPriors.push_back(backendPriors[size_t(std::find(moves.begin(), moves.end(), e.move) - moves.begin())]);
  m_treeBytes += size_t(m_root->numEdges()) * sizeof(Node::Edge);
  ++m_stats.evaluations;
  m_root->addVirtualLoss();
  m_root->finishVisit(wdl.q(), wdl.draw);
  ++m_started;
  ++m_stats.playouts;
  ++m_stats.batches;
}

std::optional<SearchResult> MctsSearch::probeRootTablebases(const Position& root, std::vector<Move>& rootMoves,
                                                            const InfoCallback& onInfo) {
  TbRootDecision d = janus::probeRootTablebases(m_tb, root, rootMoves);
  m_tbHits += d.tbHits;
  if (!d.result) return std::nullopt;
  d.info.wdl = d.result->score > 0 ? WdlPermille{1000, 0, 0} : WdlPermille{0, 0, 1000};
  d.info.tbHits = m_tbHits;
  d.info.timeMs = m_time.elapsedMs();
  if (onInfo) onInfo(d.info);
  return d.result;
}

// ---- Step 3a: gather ------------------------------------------------------------------------------

int MctsSearch::gather(std::vector<Playout>& batch) {
  int budget = m_params.batchSize > 0 ? m_params.batchSize : m_backendBatch;
  budget = int(std::min<u64>(u64(budget), playoutRoom()));
  if (m_treeBytes >= m_treeLimitBytes) recycleTree();
  if (m_treeBytes >= m_treeLimitBytes) budget = 0;  // nothing left to free: every node is in flight
  if (int(batch.size()) < budget) batch.resize(size_t(budget));
  int count = 0;
  // A hint in the batch takes a place too; a hint's reservation can leave no room for more.
  while (count < budget && playoutRoom() > 0) {
    Playout& p = batch[size_t(count)];
    p.path.clear();
    p.moves.clear();
    p.edges.clear();
    Node* node = m_root.get();
    bool collision = false;
    for (;;) {
      node->addVirtualLoss();
      p.path.push_back(node);
      p.newLeaf = p.hint = false;
      if (node->isTerminal() && node != m_root.get()) break;
      if (!node->expanded()) {
        // Someone (this batch or another thread) is already evaluating this leaf.
        collision = node->inFlight() > 1;
        p.newLeaf = true;
        break;
      }
      if (m_hints.due(*node)) {
        p.hintRound = node->hints();
        node->markHinted();  // asked: later playouts (of this batch too) pass on to the next round
        p.hint = true;
        node->copyEdges(p.legal, p.priors);
        // Under a node limit the hint gets at most what is left (reserved until its backup).
        p.hintReserved = m_limits.nodes ? std::min(nodeRoom(), m_hints.roundNodes(p.hintRound)) : 0;
        m_hintReserved += p.hintReserved;
        break;
      }
      const bool atRoot = node == m_root.get();
      const int e = selectEdge(*node, m_params.puct, atRoot, atRoot ? &m_allowed : nullptr);
      bool created = false;
      Node& child = node->getOrCreateChild(e, &created);
      if (created) {
        ++m_treeNodes;
        m_treeBytes += sizeof(Node);
      }
      p.moves.push_back(node->edge(e).move);
      p.edges.push_back(e);
      node = &child;
    }
    if (collision) {
      for (Node* n : p.path) n->revertVirtualLoss();
      ++m_stats.collisions;
      break;  // the paths that follow would mostly run into it again: evaluate what we have
    }
    if (!p.hint) ++m_started;  // a hint is no playout (backup)
    ++count;
  }
  return count;
}

// ---- Step 3b: evaluate ----------------------------------------------------------------------------

void MctsSearch::evaluate(std::vector<Playout>& batch, int count, Position& pos, int thread) {
  std::unique_ptr<BackendComputation> computation;
  for (int b = 0; b < count; ++b) {
    Playout& p = batch[size_t(b)];
    p.input = -1;
    p.terminal = Terminal::kNone;
    p.kind = TerminalKind::kNone;
    p.ttHint.reset();
    if (p.hint) {
      // In batch order, before the later leaves' TT probes: they see what the hint stored.
      for (Move m : p.moves) pos.makeMove(m);
      p.hintResult = m_hints.search(thread, pos, p.hintRound, p.hintReserved, hintTimeMs(), m_signals);
      for (auto it = p.moves.rbegin(); it != p.moves.rend(); ++it) pos.unmakeMove(*it);
      if (p.hintResult.best) {  // its move's prior raised (the priors are the node's, in edge order)
        std::vector<float> hinted;
        appendHinted(p.priors, p.legal, p.hintResult.best, m_params.hints.sharePercent / 100.0, hinted);
        p.priors = std::move(hinted);
      }
      continue;
    }
    if (!p.newLeaf) continue;
    for (Move m : p.moves) pos.makeMove(m);
    const MoveList list = legalMoves(pos);
    const LeafStatus status = classifyLeaf(pos, int(p.moves.size()), list, m_tb);
    p.terminal = status.terminal;
    p.kind = status.kind;
    if (status.kind == TerminalKind::kTablebase) m_tbHits.fetch_add(1, std::memory_order_relaxed);
    if (p.terminal == Terminal::kNone) {
      p.legal.assign(list.begin(), list.end());
      if (!computation) computation = m_backend->newComputation();
      p.input = computation->addInput(pos, p.legal);
      p.ttHint = m_hints.ttHint(thread, pos);
    }
    for (auto it = p.moves.rbegin(); it != p.moves.rend(); ++it) pos.unmakeMove(*it);
  }
  if (!computation) return;
  computation->compute();
  for (int b = 0; b < count; ++b) {
    Playout& p = batch[size_t(b)];
    if (p.input < 0) continue;
    p.wdl = computation->wdl(p.input);
    const auto priors = computation->priors(p.input);
    p.priors.assign(priors.begin(), priors.end());
    const auto values = computation->moveValues(p.input);
    p.values.assign(values.begin(), values.end());
    if (p.ttHint) m_hints.applyTTHint(*p.ttHint, p.legal, p.priors, p.wdl);
  }
}

// ---- Step 3c: backup ------------------------------------------------------------------------------

void MctsSearch::backup(std::vector<Playout>& batch, int count) {
  bool evaluated = false;
  for (int b = 0; b < count; ++b) {
    Playout& p = batch[size_t(b)];
    Node* leaf = p.path.back();
    bool newlyDecided = false;
    if (p.newLeaf && p.terminal != Terminal::kNone) {
      leaf->makeTerminal(p.terminal, p.kind, 0);
      newlyDecided = true;
    } else if (p.newLeaf) {
      leaf->expand(p.legal, p.priors, p.values);
      m_treeBytes += size_t(leaf->numEdges()) * sizeof(Node::Edge);
      ++m_stats.evaluations;
      evaluated = true;
    } else if (p.hint) {
      // An alpha-beta hint is prior knowledge, not a playout: the path's virtual losses go, and
      // the hint's value goes up the path as HintResult::weight virtual visits (Node::
      // addPriorKnowledge: the round's weight, less for a hint cut short, none for a hint without
      // a completed iteration), which PUCT selection reads and nothing else counts as visits.
      const HintResult& h = p.hintResult;
      m_hintReserved -= p.hintReserved;
      m_stats.hintNodes += h.nodes;
      ++m_stats.hints;
      m_stats.hintsCutShort += h.cutShort;
      evaluated = true;
      if (h.best) {
        leaf->setPriors(p.priors);  // in edge order (copyEdges); children and values stay
        if (m_params.hints.minimax) leaf->setHintValue(h.wdl.q());
      }
      double wl = h.wdl.q();
      for (auto it = p.path.rbegin(); it != p.path.rend(); ++it) {
        (*it)->revertVirtualLoss();
        if (h.weight > 0) (*it)->addPriorKnowledge(h.weight, wl);
        wl = -wl;
      }
      for (size_t i = p.path.size() - 1; i >= 1; --i)
        if (!backupMinimax(*p.path[i - 1], p.edges[i - 1])) break;
      continue;
    }
    double wl, d;
    if (leaf->isTerminal()) {
      wl = leaf->terminalValue();
      d = leaf->terminal() == Terminal::kDraw ? 1.0 : 0.0;
      ++m_stats.terminals;
    } else {
      wl = p.wdl.q();
      d = p.wdl.draw;
    }
    for (auto it = p.path.rbegin(); it != p.path.rend(); ++it) {
      (*it)->finishVisit(wl, d);
      wl = -wl;
    }
    // Mate propagation: a decided leaf may decide its parent, and so on up (never the root).
    if (newlyDecided && leaf->terminal() != Terminal::kDraw)
      for (size_t i = p.path.size() - 1; i-- > 1;)
        if (!updateProof(*p.path[i])) break;
    // Implicit minimax backups (PuctParams::minimaxWeight), up to the first unchanged edge.
    for (size_t i = p.path.size() - 1; i >= 1; --i)
      if (!backupMinimax(*p.path[i - 1], p.edges[i - 1])) break;
    const int depth = int(p.moves.size());
    ++m_stats.playouts;
    m_cumDepth += u64(depth);
    m_stats.maxDepth = std::max(m_stats.maxDepth, depth);
  }
  if (evaluated) ++m_stats.batches;
}

// ---- Step 3d: the best move and reports (limits: limits.cpp) -----------------------------------------------------------------

int MctsSearch::bestRootEdge() const {
  int best = -1;
  for (int i = 0; i < m_root->numEdges(); ++i)
    if (m_allowed[size_t(i)] && (best < 0 || betterEdge(*m_root, i, best))) best = i;
  return best;
}

std::vector<SearchInfo> MctsSearch::makeReport() const {
  std::vector<SearchInfo> lines;
  std::vector<int> order;
  for (int i = 0; i < m_root->numEdges(); ++i)
    if (m_allowed[size_t(i)]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return betterEdge(*m_root, a, b); });
  const i64 elapsed = m_time.elapsedMs();
  const u64 nodes = m_stats.playouts + m_stats.hintNodes;  // UCI nodes: playouts and the hints' alpha-beta nodes
  const double averageDepth = m_stats.playouts ? double(m_cumDepth) / double(m_stats.playouts) : 0.0;
  const int multiPv = std::max(1, m_config.multiPv);
  for (int i : order) {
    const Node* c = m_root->child(i);
    if (!c || (c->visits() == 0 && !c->isTerminal())) break;  // sorted: the rest is unvisited too
    if (int(lines.size()) >= multiPv) break;
    SearchInfo info;
    info.depth = std::max(1, int(std::lround(averageDepth)));
    info.selDepth = std::max(info.depth, m_stats.maxDepth);
    info.multiPv = int(lines.size()) + 1;
    info.score = scoreForParent(*c, m_rootMaterial);
    info.wdl = permilleForParent(c->wdl());
    info.nodes = nodes;
    info.timeMs = elapsed;
    info.nps = elapsed > 0 ? nodes * 1000 / u64(elapsed) : nodes * 1000;
    info.hashfull = int(std::min<size_t>(1000, m_treeBytes * 1000 / std::max<size_t>(1, m_treeLimitBytes)));
    info.tbHits = m_tbHits.load(std::memory_order_relaxed);
    info.pv = {m_root->edge(i).move};
    appendPv(c, info.pv, kMaxPly);
    lines.push_back(std::move(info));
  }
  if (lines.empty() && !order.empty()) {  // stopped before any root move was visited
    SearchInfo info;
    info.depth = info.selDepth = 1;
    info.score = qToCentipawns(m_root->q(), m_rootMaterial);
    info.wdl = toPermille(m_root->wdl());
    info.nodes = nodes;
    info.timeMs = elapsed;
    info.pv = {m_root->edge(order.front()).move};
    lines.push_back(std::move(info));
  }
  if (!lines.empty()) {
    lines.front().moveStats = rootMoveStats(m_params.moveStats);
    lines.front().playouts = m_stats.playouts;
  }
  return lines;
}

std::vector<MoveStat> MctsSearch::rootMoveStats(int count) const {
  std::vector<int> order;
  for (int i = 0; i < m_root->numEdges(); ++i)
    if (m_allowed[size_t(i)]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return betterEdge(*m_root, a, b); });
  if (count >= 0 && size_t(count) < order.size()) order.resize(size_t(count));
  std::vector<MoveStat> stats;
  for (int i : order) {
    const Node* c = m_root->child(i);
    MoveStat s;
    s.move = m_root->edge(i).move;
    s.visits = c ? c->visits() : 0;
    s.searchPrior = m_root->edge(i).prior;
    s.prior = size_t(i) < m_rootBackendPriors.size() ? m_rootBackendPriors[size_t(i)] : s.searchPrior;
    s.q = c && (c->visits() || c->isTerminal()) ? float(-c->q()) : 0.0f;
    if (c && (c->selectionVisits() > 0 || c->isTerminal())) s.searchQ = float(-c->selectionQ());
    stats.push_back(s);
  }
  return stats;
}

void MctsSearch::captureRootPriors(const Position& root) {
  std::vector<Move> moves;
  std::vector<float> priors;
  m_root->copyEdges(moves, priors);
  auto computation = m_backend->newComputation();
  computation->addInput(root, moves);
  computation->compute();
  const auto backendPriors = computation->priors(0);
  m_rootBackendPriors.assign(backendPriors.begin(), backendPriors.end());
}

// ---- Step 3: the thread loop ----------------------------------------------------------------------

void MctsSearch::workerLoop(int thread) {
  const bool isMain = thread == 0;
  Position pos = *m_rootPos;  // each thread replays its leaves' moves on its own copy
  std::vector<Playout> batch;
  int lastBest = -1, lastDepth = 0, lastSelDepth = 0;
  i64 lastReport = 0;
  while (!stopRequested()) {
    int count;
    bool exhausted;
    {
      std::lock_guard lock(m_mutex);
      count = gather(batch);
      // No room left (and no hint in flight that may give some back), or a full tree.
      exhausted = count == 0 && ((playoutRoom() == 0 && m_hintReserved == 0) || m_treeBytes >= m_treeLimitBytes);
    }
    if (exhausted) break;
    if (count == 0) {
      std::this_thread::yield();  // every path leads to a leaf another thread is evaluating
      if (!isMain) continue;
    }
    evaluate(batch, count, pos, thread);
    std::vector<SearchInfo> report;
    {
      std::lock_guard lock(m_mutex);
      backup(batch, count);
      if (!isMain) continue;
      if (shouldStop()) {
        m_stop = true;
        break;
      }
      // Report when the best move, the depth or the selective depth changed (at most every
      // 50 ms), and at least once a second.
      const i64 now = m_time.elapsedMs();
      const int best = bestRootEdge();
      const int depth = int(std::lround(double(m_cumDepth) / double(std::max<u64>(1, m_stats.playouts))));
      const bool changed = best != lastBest || depth > lastDepth || m_stats.maxDepth > lastSelDepth;
      if ((changed && now - lastReport >= 50) || now - lastReport >= 1000) {
        lastBest = best;
        lastDepth = depth;
        lastSelDepth = m_stats.maxDepth;
        lastReport = now;
        report = makeReport();
      }
    }
    if (m_onInfo && *m_onInfo)
      for (const SearchInfo& info : report) (*m_onInfo)(info);
  }
  if (isMain) m_stop = true;
}

// ---- run -------------------------------------------------------------------------------------------

SearchResult MctsSearch::run(const Position& root, const SearchLimits& limits, const SearchConfig& config,
                             const InfoCallback& onInfo, const SearchSignals& signals) {
  // Step 1: root moves, tablebases, time.
  const auto start = TimeManager::Clock::now();
  m_limits = limits;
  m_config = config;
  m_config.threads = std::max(1, config.threads);
  m_signals = &signals;
  m_onInfo = &onInfo;
  m_stop = false;
  m_tbHits = 0;
  m_time.init(limits, root.sideToMove(), config.moveOverheadMs, start);
  m_stats = MctsStats{};
  m_started = 0;
  m_hintReserved = 0;
  m_cumDepth = 0;
  m_treeLimitBytes = std::max<size_t>(1, m_params.treeMemoryMiB) << 20;
  m_rootMaterial = wdlMaterial(root);
  m_lastBest = -1;
  m_lastBestChangeMs = 0;

  std::vector<Move> rootMoves;
  for (Move m : legalMoves(root))
    if (limits.searchMoves.empty() ||
        std::find(limits.searchMoves.begin(), limits.searchMoves.end(), m) != limits.searchMoves.end())
      rootMoves.push_back(m);
  SearchResult result;
  if (rootMoves.empty()) {  // mate or stalemate at the root (or no searchmove is legal)
    SearchInfo info;
    info.score = root.inCheck() ? matedIn(0) : kDrawScore;
    info.wdl = root.inCheck() ? WdlPermille{0, 0, 1000} : WdlPermille{0, 1000, 0};
    if (onInfo) onInfo(info);
    result.score = info.score;
    m_onInfo = nullptr;
    return result;
  }
  if (limits.searchMoves.empty() || rootMoves.size() > 1)
    if (auto tbResult = probeRootTablebases(root, rootMoves, onInfo)) {
      m_onInfo = nullptr;
      return *tbResult;
    }

  // Step 2: the tree.
  prepareTree(root);
  m_stats.reusedVisits = m_root->visits();
  m_hints.prepare(m_config.threads);
  if (m_root->expanded())
    captureRootPriors(root);
  else
    expandRoot(root);
  m_rootChildVisitsAtStart = rootChildSelectionVisits();
  m_allowed.assign(size_t(m_root->numEdges()), false);
  m_allowedCount = 0;
  for (int i = 0; i < m_root->numEdges(); ++i)
    if (std::find(rootMoves.begin(), rootMoves.end(), m_root->edge(i).move) != rootMoves.end()) {
      m_allowed[size_t(i)] = true;
      ++m_allowedCount;
    }
  if (m_params.noise) {
    for (const Node::Edge& e : m_root->edges()) m_cleanRootPriors.push_back(e.prior);
    applyDirichletNoise(*m_root, m_params.noiseAlpha, m_params.noiseEpsilon, m_rng);
  }

  // Step 3: the threads: the main worker on this thread, the helpers on the pool's (kept between
  // searches, util/worker_pool.h).
  ensurePool(m_threads, m_config.threads).run([this](int t) { workerLoop(t); });

  // Step 4: the answer.
  std::vector<SearchInfo> report;
  {
    std::lock_guard lock(m_mutex);
    m_stats.averageDepth = m_stats.playouts ? double(m_cumDepth) / double(m_stats.playouts) : 0.0;
    m_stats.treeBytes = m_treeBytes;
    m_stats.treeNodes = m_treeNodes;
    m_stats.tbHits = m_tbHits;
    report = makeReport();
    const int best = bestRootEdge();
    result.best = m_root->edge(best).move;
    result.rootStats = rootMoveStats(-1);
    const Node* c = m_root->child(best);
    result.score = c ? scoreForParent(*c, m_rootMaterial) : qToCentipawns(m_root->q(), m_rootMaterial);
    m_havePreviousQ = c && c->visits() > 0 && !c->isTerminal();
    if (m_havePreviousQ) m_previousQ = -c->selectionQ();  // the time manager's falling-value check reads it
    if (c) {
      std::vector<Move> pv;
      appendPv(c, pv, 1);
      if (!pv.empty()) result.ponder = pv.front();
    }
  }
  result.depth = std::max(1, int(std::lround(m_stats.averageDepth)));
  result.nodes = m_stats.playouts + m_stats.hintNodes;
  result.playouts = m_stats.playouts;
  result.timeMs = m_time.elapsedMs();
  if (onInfo)
    for (const SearchInfo& info : report) onInfo(info);
  m_onInfo = nullptr;
  return result;
}

}  // namespace janus::mcts
