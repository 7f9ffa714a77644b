#pragma once
// Training checkpoints of `janus train-nnue` (checkpoint.bin in the output directory): the whole
// TrainState (float weights, Adam moments, step counters, the configuration and the metrics so
// far), so that --resume continues exactly where the run stopped.
//
// File layout (little-endian), version 1:
//   offset size  field
//        0    8  magic         "JANUSCKP"
//        8    4  version       u32, kCheckpointVersion (1)
//       12    4  reserved      u32, 0
//       16    8  payloadBytes  u64, bytes after this 32-byte header
//       24    8  checksum      u64, FNV-1a 64 of the payload (util/hash.h)
//       32       payload:
//                u32 configBytes, config text ("key=value\n" lines, TrainConfig keys)
//                u32 superbatch, u32 shapeFlags (bit 0: the factoriser; 0 in files from
//                before it), u64 adamStep, u64 streamPos, f64 seconds,
//                u64 dataHash, u64 trainCount
//                u32 hidden, u32 buckets, u32 activation, u32 kingBuckets (0 = 1: files from
//                before king buckets), u64 paramCount
//                f32 params[paramCount], f32 adamM[paramCount], f32 adamV[paramCount]
//                u32 metricsRows, u32 reserved, rows of {u32 superbatch, u32 reserved,
//                u64 positions, f64 trainLoss, f64 valLoss, f64 lr, f64 seconds}
// A reader rejects a file with another magic or version, a payload shorter or longer than the
// header says ("truncated"), a checksum mismatch, or a shape that disagrees with the config.

#include <cstdint>
#include <string>
#include <vector>

#include "training/train_state.h"

namespace janus::training {

inline constexpr char kCheckpointMagic[8] = {'J', 'A', 'N', 'U', 'S', 'C', 'K', 'P'};
inline constexpr std::uint32_t kCheckpointVersion = 1;

/// The bytes of a checkpoint of `state`.
[[nodiscard]] std::vector<unsigned char> checkpointBytes(const TrainState& state);
/// Parses checkpoint bytes; throws janus::Error("'<source>': ...") naming the problem.
[[nodiscard]] TrainState parseCheckpoint(const std::vector<unsigned char>& bytes, const std::string& source);
/// Writes a checkpoint atomically (tmp file, fsync, rename: util/zstd_stream.h OutputFile).
void writeCheckpoint(const TrainState& state, const std::string& path);
/// Reads a checkpoint file (errors as parseCheckpoint, plus "cannot open").
[[nodiscard]] TrainState readCheckpoint(const std::string& path);

}  // namespace janus::training
