#pragma once
// Engine options, declared once (name, type, default, range, help) and shared by every client:
// UCI prints them as "option name ... type ...", the web GUI builds its settings form from
// them, and setOption validates input for all (one declaration per option, as lc0's OptionsParser; UCI protocol
// "option" command: types check, spin, combo, button, string).

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/types.h"

namespace janus {

/// Declaration of one option.
struct OptionSpec {
  enum class Type { kCheck, kSpin, kCombo, kButton, kString };
  std::string name;                  ///< UCI name, matched case-insensitively
  Type type = Type::kString;
  std::string defaultValue;          ///< "true"/"false" for checks, decimal for spins
  i64 min = 0, max = 0;              ///< spin range (inclusive)
  std::vector<std::string> choices;  ///< combo values
  std::string help;                  ///< one line for --help and the GUI
  /// A tuning setting (lc0's hidden options): settable like any other, but UCI's "uci" lists it
  /// only when asked to (`janus --show-hidden`) and the GUI's settings form leaves it out.
  bool hidden = false;
};

/// The option registry: declarations plus current values. Not thread-safe; the engine
/// serialises access.
class Options {
 public:
  using OnChange = std::function<void(const std::string& value)>;

  /// Declares an option. `onChange` runs on every set whose value passed validation (not for
  /// the default), before the value is stored: if it throws, the option keeps its old value.
  void add(OptionSpec spec, OnChange onChange = {});

  /// Validates and sets a value. Throws janus::Error naming the option and the problem:
  /// "unknown option 'Hsh'", "option Hash: 'abc' is not an integer",
  /// "option Hash: 0 is out of range 1..65536", "option Ponder: 'yes' is not true or false".
  /// For buttons the value is ignored. The option's onChange runs before the value is stored; if
  /// it throws, the old value is kept and the exception propagates.
  void set(const std::string& name, const std::string& value);

  [[nodiscard]] bool contains(const std::string& name) const;
  [[nodiscard]] const std::string& value(const std::string& name) const;
  [[nodiscard]] i64 integer(const std::string& name) const;
  [[nodiscard]] bool boolean(const std::string& name) const;
  [[nodiscard]] const OptionSpec& spec(const std::string& name) const;
  /// Declarations in the order they were added.
  [[nodiscard]] std::vector<const OptionSpec*> specs() const;

  /// A Markdown table (header and one row per option, in declaration order) of the options
  /// whose name starts with one of `prefixes` (all options when empty): name, type and range,
  /// default, shown (no: hidden, a tuning setting), help. docs/mcts.md holds the MCTS face's
  /// (`janus options --markdown --prefix Search --prefix "MCTS "`); a test compares them.
  [[nodiscard]] std::string markdownTable(const std::vector<std::string>& prefixes) const;

 private:
  struct Entry {
    OptionSpec spec;
    std::string value;
    OnChange onChange;
  };
  [[nodiscard]] static std::string lower(std::string s);
  const Entry& find(const std::string& name) const;
  Entry& find(const std::string& name);
  std::map<std::string, Entry> m_entries;  // keyed by lower-case name
  std::vector<std::string> m_order;
};

}  // namespace janus
