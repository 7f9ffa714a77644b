// libFuzzer target: the JANUSDAT reader (DataReader, plain or zstd-compressed) and the record
// decoder (unpackRecord), see janusdat_format.h.
//
// Input: the bytes of a data file (seeds: small files written by DataWriter, plain and .zst, and
// corrupted variants). Properties: a bad file or record ends in janus::Error naming the file; a
// record that decodes re-encodes (packRecord) to a record that decodes to the same FEN, score,
// result and moves (played, best). At most 4096 records per input are read, so a zstd bomb only costs time.

#include <cstddef>
#include <cstdint>
#include <string>

#include "records/janusdat.h"
#include "util/error.h"
#include "util/fuzz_support.h"

using namespace janus;
using namespace janus::records;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fuzz::InputFile file;
  const std::string& path = file.write(data, size);
  try {
    DataReader reader(path);
    PackedRecord record;
    while (reader.index() < 4096 && reader.next(record)) {
      u64 index = reader.index() - 1;
      try {
        TrainingPosition tp = reader.decode(record, index);
        TrainingPosition again = unpackRecord(packRecord(tp.pos, tp.score, tp.result, tp.played, tp.best));
        fuzz::check(again.pos.fen() == tp.pos.fen(), "pack(unpack(record)) keeps the position",
                    tp.pos.fen() + " vs " + again.pos.fen());
        fuzz::check(again.score == tp.score && again.result == tp.result, "pack(unpack(record)) keeps score and result",
                    std::to_string(tp.score) + " vs " + std::to_string(again.score));
        fuzz::check(again.played == tp.played && again.best == tp.best, "pack(unpack(record)) keeps the moves",
                    tp.pos.fen());
      } catch (const Error& e) {
        fuzz::check(std::string(e.what()).find(path) != std::string::npos, "record errors name the file", e.what());
      }
    }
  } catch (const Error& e) {
    fuzz::check(std::string(e.what()).find(path) != std::string::npos, "file errors name the file", e.what());
  }
  return 0;
}
