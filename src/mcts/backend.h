#pragma once
// The seam between the MCTS search and whatever evaluates positions: a narrow, batched interface modelled on Leela Chess Zero's src/neural/backend.h
// (Backend / BackendComputation: AddInput -> ComputeBlocking -> q/d/m + policy span). The
// search only ever sees win/draw/loss probabilities and one prior per legal move; input
// planes, tensors, policy-map indices and softmax are the backend's business (a neural backend
// uses src/encoding/planes.h and policy_map.h's legalPolicy for that).
//
// Backends are created by name through BackendRegistry (after lc0's REGISTER_NETWORK in
// src/neural/register.h), so that optional backends (libtorch ResNet, a SIMD CPU net) add
// themselves without an `if` chain in the engine. A backend that reads network files says which
// files it reads (a claim, typically their magic: netfile::hasMagic), so that the registry, not
// the engine, picks the backend for a weights file (forWeightsFile).
//
// ---- Contract for backend writers --------------------------------------------------------------
//
// Threading.
//   * Backend::newComputation() and Backend::attributes() are called concurrently from every
//     search thread: they must be thread-safe. Backend::clear() is called only between searches.
//   * A BackendComputation is used by exactly one thread from creation to destruction (never
//     shared): addInput()* -> compute() -> wdl()/priors(); it needs no locking of its own. Several
//     computations of one backend run at the same time (one per search thread), so state shared
//     between them (a GPU queue, weights, a cache) must be synchronised by the backend.
//   * compute() blocks until every result is available. It may be called with zero inputs (it
//     must then return at once). After compute(), no more inputs are added.
//
// Inputs.
//   * addInput(pos, legalMoves): `pos` has its history (the undo stack of Position: earlier
//     positions are reached with lastMove()/unmakeMove() on a copy, as encoding::encodePlanes
//     does). `legalMoves` are all legal moves of `pos`, at least one (the search handles
//     checkmate and stalemate itself), in the order the search wants the priors back. Both are
//     only valid during the call: copy or encode what is needed before returning.
//   * Inputs are numbered 0, 1, 2, ... in the order of addInput (its return value).
//
// Outputs (for input i, valid until the computation is destroyed).
//   * wdl(i): probabilities of win, draw and loss for the side to move of input i; each in
//     [0, 1], summing to 1 (within float rounding). Q = win - loss in [-1, 1].
//   * priors(i): one probability per legal move of input i, in the order given to addInput,
//     each >= 0, summing to 1.
//   * Deterministic backends should stay deterministic: the search with one thread is then
//     reproducible (tests and `janus bench --search mcts` rely on it for the uniform backend).
//
// Alpha-beta hints are no business of a backend: the MCTS search runs them itself (mcts/hint.h,
// HintSearcher) and applies their TT hints to the priors and values a backend returns.
//
// Move values (optional). A backend that searches every move of a position anyway (the one-ply
// search of NnueValueBackend) can return what it found: moveValues(i) holds, for each legal move
// of input i in addInput order, the expected score Q in [-1, 1] of the position after the move,
// from input i's side to move's view (the mover's). The search keeps them on its edges for the
// implicit minimax backups of PuctParams::minimaxWeight. Scores of moves a search cut off may be
// upper bounds. Backends without them keep the default, an empty span.
//
// Evaluation caching (CachingBackend) hashes the Zobrist key of the position plus, per
// BackendAttributes, the halfmove clock and the keys of the last historyPlies positions. A
// backend whose output depends on more than that must say so with cacheable = false.
//
// Registration. In the backend's .cpp:
//     JANUS_REGISTER_BACKEND(myBackend, "torch", 100,
//         [](const BackendOptions& o) { return std::make_unique<TorchBackend>(o); },
//         [](const std::string& path) { return netfile::hasMagic(rn::kResNetFormat, path); });
// (without the last argument for a backend that reads no file). Every backend registers itself
// this way; the registry knows none of them. A registration in a static library is only linked
// in if something references its object file, so the registering sources must reach every
// executable as object files: src/mcts/CMakeLists.txt compiles the built-in backends (uniform,
// pvnet) as the OBJECT library janus_mcts_backends and adds its objects to every executable that
// links janus_mcts; the torch backend is the OBJECT library janus_mcts_torch, linked by janus-torch
// and its tests. (Alternatives: $<LINK_LIBRARY:WHOLE_ARCHIVE,lib>, CMake >= 3.24, or calling
// BackendRegistry::instance().add(...) from code that is linked anyway.)
// The engine's "MCTS Backend" option offers every registered name; the default is the one
// with the highest priority (uniform has priority 0: any real network should be above it).

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"

namespace janus::mcts {

/// Win, draw and loss probabilities for the side to move (each 0..1, summing to 1).
struct Wdl {
  float win = 0.0f;
  float draw = 1.0f;
  float loss = 0.0f;
  /// Expected score in [-1, 1]: win - loss.
  [[nodiscard]] float q() const { return win - loss; }
  bool operator==(const Wdl&) const = default;
};

/// What the search and the caching decorator need to know about a backend.
struct BackendAttributes {
  std::string description;  ///< one line for "info string", e.g. "uniform (material value)"
  /// Earlier positions (plies) the output depends on: 0 = only the current position (its
  /// Zobrist key, which includes castling rights, en passant and side to move); 7 for a network
  /// with 8 history steps (encoding::kHistory).
  int historyPlies = 0;
  /// True if the output depends on the halfmove clock (e.g. the rule50 input plane).
  bool usesHalfmoveClock = false;
  /// False if results must never be cached (output depends on more than the above).
  bool cacheable = true;
  /// Batch size the backend works best with: what MCTS gathers per call when "MCTS Batch" is 0
  /// (its default); 0 or 1: no batching.
  int preferredBatch = 0;
};

/// One batch of evaluations. Used by a single thread (see the contract above).
class BackendComputation {
 public:
  virtual ~BackendComputation() = default;
  /// Queues `pos` (with history) and its legal moves (non-empty). Reads both only during the
  /// call. Returns the input's index (0, 1, ...). Must not be called after compute().
  virtual int addInput(const Position& pos, std::span<const Move> legalMoves) = 0;
  /// Number of inputs added so far.
  [[nodiscard]] virtual int size() const = 0;
  /// Evaluates every input. Blocks. Called once (possibly with no input).
  virtual void compute() = 0;
  /// Win/draw/loss for input i's side to move. Only after compute().
  [[nodiscard]] virtual Wdl wdl(int i) const = 0;
  /// Priors of input i's legal moves, in addInput order, summing to 1. Only after compute();
  /// the span stays valid while the computation lives.
  [[nodiscard]] virtual std::span<const float> priors(int i) const = 0;
  /// Q in [-1, 1] of each legal move of input i, the mover's view, in addInput order (see "Move
  /// values" above); empty if the backend has none for this input (the default). Only after
  /// compute(); the span stays valid while the computation lives.
  [[nodiscard]] virtual std::span<const float> moveValues(int /*i*/) const { return {}; }
};

/// An evaluator of positions. Thread-safe (see the contract above).
class Backend {
 public:
  virtual ~Backend() = default;
  /// A new, empty computation for the calling thread. Thread-safe.
  [[nodiscard]] virtual std::unique_ptr<BackendComputation> newComputation() = 0;
  /// Constant over the backend's life. Thread-safe.
  [[nodiscard]] virtual BackendAttributes attributes() const = 0;
  /// Forgets cached state (a new game). Not during a search. Default: nothing to forget.
  virtual void clear() {}
};

/// Settings handed to a backend factory. Backends ignore what they do not use.
struct BackendOptions {
  std::string weightsFile;                   ///< network file ("" = the backend's default)
  std::map<std::string, std::string> params;  ///< backend-specific key=value settings
};

using BackendFactory = std::function<std::unique_ptr<Backend>(const BackendOptions&)>;
/// True if the backend reads the network file at `path` (typically: the file starts with its
/// format's magic, netfile::hasMagic). Must not throw; false for a file it cannot read.
using BackendClaim = std::function<bool(const std::string& path)>;

/// Backends by name, each registered by its own source file (JANUS_REGISTER_BACKEND; "uniform"
/// is in every binary that links janus_mcts). Thread-safe.
class BackendRegistry {
 public:
  static BackendRegistry& instance();

  /// Registers a factory and the claim on the network files the backend reads (empty: none).
  /// A second registration of a name replaces the first. Returns true (so that it can
  /// initialise a static variable).
  bool add(const std::string& name, int priority, BackendFactory factory, BackendClaim claims = {});
  /// Registered names, highest priority first (ties: alphabetical).
  [[nodiscard]] std::vector<std::string> names() const;
  /// The name with the highest priority ("uniform" when nothing else is registered). Throws
  /// janus::Error if no backend is registered (a binary built without janus_mcts_backends).
  [[nodiscard]] std::string defaultName() const;
  [[nodiscard]] bool contains(const std::string& name) const;
  /// Creates a backend. Throws janus::Error for an unknown name (listing the known ones) or
  /// whatever the factory throws (e.g. a missing weights file).
  [[nodiscard]] std::unique_ptr<Backend> create(const std::string& name, const BackendOptions& options = {}) const;
  /// The backend that reads the network file at `path`: `preferred` if it claims the file,
  /// else the claiming backend with the highest priority (ties: alphabetical). Throws
  /// janus::Error naming the file if it cannot be opened, or if no registered backend claims it
  /// (naming its first bytes and the registered backends).
  [[nodiscard]] std::string forWeightsFile(const std::string& path, const std::string& preferred = "") const;

 private:
  BackendRegistry() = default;
  struct Entry {
    int priority;
    BackendFactory factory;
    BackendClaim claims;
  };
  mutable std::mutex m_mutex;
  std::map<std::string, Entry> m_entries;  // guarded by m_mutex
};

}  // namespace janus::mcts

/// Registers a backend at static-initialisation time (see the contract above for the linking
/// caveat): JANUS_REGISTER_BACKEND(id, name, priority, factory[, claims]), the arguments of
/// BackendRegistry::add (without claims: the backend reads no network file). `id` is any
/// identifier unique in the translation unit.
#define JANUS_REGISTER_BACKEND(id, name, priority, ...)            \
  [[maybe_unused]] static const bool janusBackendRegistered_##id = \
      ::janus::mcts::BackendRegistry::instance().add(name, priority, __VA_ARGS__)
