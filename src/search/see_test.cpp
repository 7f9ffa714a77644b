#include "search/see.h"

#include <gtest/gtest.h>

#include "core/notation.h"

namespace janus {
namespace {

bool see(const char* fen, const char* uci, int threshold) {
  Position pos = Position::fromFen(fen);
  return seeGe(pos, parseUci(pos, uci, false), threshold);
}

TEST(See, WinningAndLosingCaptures) {
  // Rook takes an undefended pawn: +100.
  EXPECT_TRUE(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100));
  EXPECT_FALSE(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 101));
  // Knight takes a pawn defended by a pawn: 100 - 320.
  EXPECT_TRUE(see("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5", -220));
  EXPECT_FALSE(see("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5", -219));
  // Queen takes a rook defended by a bishop: 500 - 950.
  EXPECT_FALSE(see("4k3/8/2b5/3r4/8/8/8/3QK3 w - - 0 1", "d1d5", 0));
  EXPECT_TRUE(see("4k3/8/2b5/3r4/8/8/8/3QK3 w - - 0 1", "d1d5", -450));
}

TEST(See, XRaysAreCounted) {
  // White rooks doubled on the d-file against one black rook defended once: Rxd5 Rxd5 Rxd5.
  // d5 pawn(100) captured by rook, recaptured by rook, then second white rook recaptures:
  // 100 - 500 + 500 = +100.
  EXPECT_TRUE(see("3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100));
  EXPECT_FALSE(see("3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 101));
}

TEST(See, KingCannotRecaptureIntoDefence) {
  // Pawn defended by the king only, and the white queen is backed by a rook: Qxf7 wins a pawn.
  EXPECT_TRUE(see("6k1/5p2/8/8/8/8/5Q2/5RK1 w - - 0 1", "f2f7", 100));
}

TEST(See, SpecialMoves) {
  EXPECT_TRUE(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100));
  EXPECT_TRUE(see("r3k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0));
  EXPECT_FALSE(see("r3k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 1));
}

}  // namespace
}  // namespace janus
