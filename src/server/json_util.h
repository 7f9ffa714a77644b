#pragma once
// Validation of JSON request fields: every problem becomes a janus::Error (HTTP 400) naming the
// field and what was expected.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/types.h"
#include "util/error.h"

namespace janus::server {

/// Serialises `j` compactly. Strings that are not valid UTF-8 (a request path, a PGN tag or a
/// comment from a loaded file with Latin-1 bytes) get U+FFFD for each bad byte instead of the
/// exception nlohmann::json::dump() throws by default (found by server_fuzz: GET /api/\xff was
/// answered 500).
inline std::string dumpJson(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The field `key` of object `j` if present and not null.
inline const nlohmann::json* field(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) throw Error("request body must be a JSON object");
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

/// Integer field in [lo, hi]; `def` if absent. Throws janus::Error("field 'level': expected an
/// integer in 1..8").
inline i64 intField(const nlohmann::json& j, const char* key, i64 lo, i64 hi, std::optional<i64> def) {
  const nlohmann::json* v = field(j, key);
  auto bad = [&] {
    return Error(std::string("field '") + key + "': expected an integer in " + std::to_string(lo) + ".." +
                 std::to_string(hi));
  };
  if (!v) {
    if (!def) throw Error(std::string("missing field '") + key + "'");
    return *def;
  }
  if (!v->is_number_integer() && !(v->is_number_float() && v->get<double>() == double(i64(v->get<double>()))))
    throw bad();
  i64 x = v->is_number_integer() ? v->get<i64>() : i64(v->get<double>());
  if (v->is_number_unsigned() && v->get<u64>() > u64(hi)) throw bad();
  if (x < lo || x > hi) throw bad();
  return x;
}

/// Number field in [lo, hi]; `def` if absent.
inline double numberField(const nlohmann::json& j, const char* key, double lo, double hi, double def) {
  const nlohmann::json* v = field(j, key);
  if (!v) return def;
  if (!v->is_number() || v->get<double>() < lo || v->get<double>() > hi)
    throw Error(std::string("field '") + key + "': expected a number in " + std::to_string(lo) + ".." +
                std::to_string(hi));
  return v->get<double>();
}

/// String field of at most `maxLength` bytes; `def` if absent (std::nullopt: required).
inline std::string stringField(const nlohmann::json& j, const char* key, size_t maxLength,
                               std::optional<std::string> def) {
  const nlohmann::json* v = field(j, key);
  if (!v) {
    if (!def) throw Error(std::string("missing field '") + key + "'");
    return *def;
  }
  if (!v->is_string()) throw Error(std::string("field '") + key + "': expected a string");
  const std::string& s = v->get_ref<const std::string&>();
  if (s.size() > maxLength)
    throw Error(std::string("field '") + key + "': longer than " + std::to_string(maxLength) + " bytes");
  return s;
}

/// Boolean field; `def` if absent.
inline bool boolField(const nlohmann::json& j, const char* key, bool def) {
  const nlohmann::json* v = field(j, key);
  if (!v) return def;
  if (!v->is_boolean()) throw Error(std::string("field '") + key + "': expected true or false");
  return v->get<bool>();
}

}  // namespace janus::server
