// Tests of the JANUSRN residual network file (resnet_format.h, resnet_file.h): layout, round trip and
// every rejection with its message. No libtorch: these run in every build.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include <unistd.h>

#include <fmt/format.h>

#include "mcts/resnet_file.h"
#include "util/error.h"

namespace janus::mcts::rn {
namespace {

namespace fs = std::filesystem;

ResNetArch tinyArch(int seChannels = 0) {
  ResNetArch a;
  a.blocks = 2;
  a.filters = 8;
  a.seChannels = seChannels;
  a.policyChannels = 4;
  a.valueChannels = 2;
  a.valueHidden = 16;
  return a;
}

ResNetWeights randomWeights(const ResNetArch& a, unsigned seed) {
  ResNetWeights w = ResNetWeights::zeros(a);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.1f, 0.1f);
  for (float& x : w.data) x = u(rng);
  return w;
}

/// Expects fromBytes to throw an Error whose message contains `part`.
void expectRejected(const std::vector<unsigned char>& bytes, const std::string& part) {
  try {
    (void)ResNetFile::fromBytes(bytes, "test.jrn");
    FAIL() << "accepted a file that should fail with '" << part << "'";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("residual network 'test.jrn'"), std::string::npos) << what;
    EXPECT_NE(what.find(part), std::string::npos) << what;
  }
}

/// `bytes` with header field at `offset` overwritten by `value`.
template <typename T>
std::vector<unsigned char> patched(std::vector<unsigned char> bytes, std::size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
  return bytes;
}

/// Recomputes the content hash after a payload change (so that only the change is wrong).
void rehash(std::vector<unsigned char>& bytes) {
  const std::uint64_t h = fnv1a64(std::span<const unsigned char>(bytes).subspan(sizeof(ResNetHeader)));
  std::memcpy(bytes.data() + offsetof(ResNetHeader, contentHash), &h, sizeof h);
}

TEST(ResNetFormat, LayoutCoversThePayloadInOrder) {
  for (const ResNetArch& a : {tinyArch(0), tinyArch(4)}) {
    const std::vector<ResNetTensor> layout = tensorLayout(a);
    std::uint64_t at = 0;
    for (const ResNetTensor& t : layout) {
      EXPECT_EQ(t.offset, at) << t.name;
      at += t.size();
    }
    EXPECT_EQ(at, payloadFloats(a));
    EXPECT_EQ(layout.front().name, "inputW");
    EXPECT_EQ(layout.back().name, "value2B");
    // 2 tensors in, 4 (+4 with SE) per block, 10 in the heads.
    EXPECT_EQ(layout.size(), 2u + 2u * (a.seChannels > 0 ? 8u : 4u) + 10u);
  }
  // 10x128 without SE, written out.
  ResNetArch big;
  big.blocks = 10;
  big.filters = 128;
  EXPECT_EQ(payloadFloats(big), 128ull * 119 * 9 + 128 + 10 * 2 * (128ull * 128 * 9 + 128) + 32 * 128 + 32 +
                                    1858ull * 2048 + 1858 + 32 * 128 + 32 + 128ull * 2048 + 128 + 3 * 128 + 3);
  EXPECT_NE(architectureId(tinyArch(0)), architectureId(tinyArch(4)));
}

TEST(ResNetFormat, InvalidArchitecturesAreRejectedWithTheRule) {
  ResNetArch a = tinyArch();
  a.filters = 12;
  const char* why = "";
  EXPECT_FALSE(validArch(a, &why));
  EXPECT_NE(std::string(why).find("multiple of 8"), std::string::npos);
  a = tinyArch();
  a.inputPlanes = 120;
  EXPECT_FALSE(validArch(a, &why));
  a.encoderFlags = 1;  // pins: 2 planes
  EXPECT_FALSE(validArch(a));
  a.inputPlanes = 121;
  EXPECT_TRUE(validArch(a));
  EXPECT_THROW((void)ResNetWeights::zeros(ResNetArch{119, 0, 8}), Error);
}

TEST(ResNetFile, RoundTripKeepsEveryWeightAndTheDescription) {
  const ResNetWeights w = randomWeights(tinyArch(4), 1);
  const std::vector<unsigned char> bytes = rnFileBytes(w, "tiny test network");
  EXPECT_EQ(bytes.size(), 64 + payloadBytes(w.arch));
  const ResNetFile f = ResNetFile::fromBytes(bytes, "mem");
  EXPECT_EQ(f.weights.arch, w.arch);
  EXPECT_EQ(f.weights.data, w.data);
  EXPECT_EQ(f.description, "tiny test networ");  // cut to the field's 16 characters
  EXPECT_EQ(f.contentHash, fnv1a64(std::span<const unsigned char>(bytes).subspan(64)));
  EXPECT_EQ(f.name(), fmt::format("rn-{:016x}", f.contentHash));
  EXPECT_NE(f.describe().find("2x8, SE 4"), std::string::npos) << f.describe();

  const fs::path dir = fs::temp_directory_path() / fmt::format("janus-rn-test-{}", ::getpid());
  fs::create_directories(dir);
  const std::string path = writeResNetFile(w, dir.string() + "/", "tiny");
  EXPECT_EQ(fs::path(path).filename().string(), netfile::fileName(kResNetFormat, f.contentHash));
  EXPECT_TRUE(netfile::hasMagic(kResNetFormat, path));
  const ResNetFile g = ResNetFile::fromFile(path);
  EXPECT_EQ(g.weights.data, w.data);
  EXPECT_EQ(g.contentHash, f.contentHash);  // the description is not part of the hash
  std::ofstream(dir / "other.bin") << "JANUSPV";
  EXPECT_FALSE(netfile::hasMagic(kResNetFormat, (dir / "other.bin").string()));
  EXPECT_FALSE(netfile::hasMagic(kResNetFormat, (dir / "missing.jrn").string()));
  EXPECT_THROW((void)ResNetFile::fromFile((dir / "missing.jrn").string()), Error);
  fs::remove_all(dir);
}

TEST(ResNetFile, RejectsBadFilesWithAClearMessage) {
  const ResNetWeights w = randomWeights(tinyArch(), 2);
  const std::vector<unsigned char> good = rnFileBytes(w, "");
  ASSERT_NO_THROW((void)ResNetFile::fromBytes(good, "test.jrn"));

  expectRejected(std::vector<unsigned char>(good.begin(), good.begin() + 40), "shorter than the 64-byte header");
  expectRejected(patched(good, 0, 'X'), "wrong magic");
  expectRejected(patched(good, offsetof(ResNetHeader, version), std::uint16_t(2)), "version 2");
  expectRejected(patched(good, offsetof(ResNetHeader, reserved0), std::uint16_t(5)), "reserved");
  expectRejected(patched(good, offsetof(ResNetHeader, filters), std::uint16_t(12)), "multiple of 8");
  expectRejected(patched(good, offsetof(ResNetHeader, blocks), std::uint16_t(0)), "blocks outside");
  expectRejected(patched(good, offsetof(ResNetHeader, seChannels), std::uint16_t(9)), "squeeze-excitation");
  expectRejected(patched(good, offsetof(ResNetHeader, inputPlanes), std::uint16_t(120)), "input planes");
  expectRejected(patched(good, offsetof(ResNetHeader, historySteps), std::uint8_t(9)), "history steps");
  // A consistent-looking architecture whose id was not updated.
  expectRejected(patched(good, offsetof(ResNetHeader, blocks), std::uint16_t(3)), "architecture id");
  expectRejected(patched(good, offsetof(ResNetHeader, archId), std::uint32_t(0x12345678)), "architecture id");
  expectRejected(patched(good, offsetof(ResNetHeader, payloadBytes), std::uint64_t(1000)), "header gives 1000 payload bytes");
  expectRejected(std::vector<unsigned char>(good.begin(), good.end() - 4), "truncated");
  std::vector<unsigned char> longer = good;
  longer.push_back(0);
  expectRejected(longer, "trailing bytes");
  std::vector<unsigned char> flipped = good;
  flipped[64 + 100] ^= 0x01;
  expectRejected(flipped, "corrupted");
  // A NaN in the value head's last bias, with a matching hash: named by its tensor.
  std::vector<unsigned char> nan = good;
  const float q = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan.data() + nan.size() - 4, &q, 4);
  rehash(nan);
  expectRejected(nan, "value2B holds a NaN");
  std::vector<unsigned char> inf = good;
  const float i = std::numeric_limits<float>::infinity();
  std::memcpy(inf.data() + 64, &i, 4);
  rehash(inf);
  expectRejected(inf, "inputW holds a NaN or an infinity");

  ResNetWeights bad = w;
  bad.data[7] = q;
  EXPECT_THROW((void)rnFileBytes(bad, ""), Error);
  bad.data.pop_back();
  EXPECT_THROW((void)rnFileBytes(bad, ""), Error);
}

}  // namespace
}  // namespace janus::mcts::rn
