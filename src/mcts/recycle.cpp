// Tree recycling (MctsSearch::recycleTree, declared in mcts.h): when the tree reaches its memory
// limit, the least-visited subtrees are collapsed (Node::collapse) and the search goes on.
// Called by gather() with the tree lock held.

#include <bit>
#include <vector>

#include "mcts/mcts.h"

namespace janus::mcts {

void MctsSearch::recycleTree() {
  // Bytes each node would free if collapsed (its edges and the child nodes it created), by
  // the bit width of its visits (bucket b holds visits in [2^(b-1), 2^b)). Nodes with a playout
  // in flight are skipped: their paths are in use (a playout in flight below a node also counts
  // in flight at the node, so a collapsed subtree never holds one).
  constexpr int kBuckets = 65;
  size_t byBucket[kBuckets] = {};
  std::vector<const Node*> stack{m_root.get()};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    size_t own = size_t(n->numEdges()) * sizeof(Node::Edge);
    for (int i = 0; i < n->numEdges(); ++i)
      if (const Node* c = n->child(i)) {
        own += sizeof(Node);
        stack.push_back(c);
      }
    if (n != m_root.get() && n->inFlight() == 0) byBucket[std::bit_width(u64(n->selectionVisits()))] += own;
  }
  const size_t need = m_treeBytes - std::min(m_treeBytes, m_treeLimitBytes / 2);
  int threshold = 0;
  for (size_t freed = byBucket[0]; threshold + 1 < kBuckets && freed < need;) freed += byBucket[++threshold];
  // Collapse the topmost nodes at or below the threshold.
  size_t freedBytes = 0, freedNodes = 0;
  std::vector<Node*> work{m_root.get()};
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    for (int i = 0; i < n->numEdges(); ++i) {
      Node* c = n->child(i);
      if (!c) continue;
      if (c->inFlight() == 0 && c->expanded() && int(std::bit_width(u64(c->selectionVisits()))) <= threshold)
        freedBytes += c->collapse(freedNodes);
      else
        work.push_back(c);
    }
  }
  m_treeBytes -= std::min(m_treeBytes, freedBytes);
  m_treeNodes -= std::min(m_treeNodes, freedNodes);
  ++m_stats.recycles;
  m_stats.recycledBytes += freedBytes;
}

}  // namespace janus::mcts
