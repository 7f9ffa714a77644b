#include "engine/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include "util/error.h"

namespace janus {

std::string Options::lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void Options::add(OptionSpec spec, OnChange onChange) {
  std::string key = lower(spec.name);
  m_order.push_back(key);
  std::string value = spec.defaultValue;
  m_entries[key] = Entry{std::move(spec), std::move(value), std::move(onChange)};
}

const Options::Entry& Options::find(const std::string& name) const {
  auto it = m_entries.find(lower(name));
  if (it == m_entries.end()) throw Error("unknown option '" + name + "'");
  return it->second;
}

Options::Entry& Options::find(const std::string& name) {
  return const_cast<Entry&>(std::as_const(*this).find(name));
}

bool Options::contains(const std::string& name) const { return m_entries.count(lower(name)) > 0; }
const std::string& Options::value(const std::string& name) const { return find(name).value; }
const OptionSpec& Options::spec(const std::string& name) const { return find(name).spec; }

i64 Options::integer(const std::string& name) const {
  const std::string& v = value(name);
  i64 x = 0;
  std::from_chars(v.data(), v.data() + v.size(), x);
  return x;
}

bool Options::boolean(const std::string& name) const { return value(name) == "true"; }

std::vector<const OptionSpec*> Options::specs() const {
  std::vector<const OptionSpec*> out;
  for (const auto& k : m_order) out.push_back(&m_entries.at(k).spec);
  return out;
}

std::string Options::markdownTable(const std::vector<std::string>& prefixes) const {
  std::string out = "| option | type | default | shown | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const OptionSpec* s : specs()) {
    if (!prefixes.empty() &&
        std::none_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return s->name.rfind(p, 0) == 0; }))
      continue;
    std::string type;
    switch (s->type) {
      case OptionSpec::Type::kCheck: type = "check"; break;
      case OptionSpec::Type::kSpin: type = "spin " + std::to_string(s->min) + ".." + std::to_string(s->max); break;
      case OptionSpec::Type::kCombo: {
        type = "combo";
        for (size_t i = 0; i < s->choices.size(); ++i) type += (i ? ", " : " ") + s->choices[i];
        break;
      }
      case OptionSpec::Type::kButton: type = "button"; break;
      case OptionSpec::Type::kString: type = "string"; break;
    }
    std::string help = s->help;
    for (size_t at = 0; (at = help.find('|', at)) != std::string::npos; at += 2) help.replace(at, 1, "\\|");
    out += "| `" + s->name + "` | " + type + " | " + (s->defaultValue.empty() ? "(empty)" : s->defaultValue) + " | " +
           (s->hidden ? "no" : "yes") + " | " + help + " |\n";
  }
  return out;
}

void Options::set(const std::string& name, const std::string& rawValue) {
  Entry& entry = find(name);
  const OptionSpec& s = entry.spec;
  std::string value = rawValue;
  switch (s.type) {
    case OptionSpec::Type::kCheck: {
      std::string v = lower(value);
      if (v != "true" && v != "false") throw Error("option " + s.name + ": '" + value + "' is not true or false");
      value = v;
      break;
    }
    case OptionSpec::Type::kSpin: {
      i64 x = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
      if (value.empty() || ec != std::errc() || ptr != value.data() + value.size())
        throw Error("option " + s.name + ": '" + value + "' is not an integer");
      if (x < s.min || x > s.max)
        throw Error("option " + s.name + ": " + value + " is out of range " + std::to_string(s.min) + ".." +
                    std::to_string(s.max));
      break;
    }
    case OptionSpec::Type::kCombo: {
      auto it = std::find_if(s.choices.begin(), s.choices.end(),
                             [&](const std::string& c) { return lower(c) == lower(value); });
      if (it == s.choices.end()) {
        std::string all;
        for (const auto& c : s.choices) all += (all.empty() ? "" : ", ") + c;
        throw Error("option " + s.name + ": '" + value + "' is not one of " + all);
      }
      value = *it;
      break;
    }
    case OptionSpec::Type::kButton:
      value.clear();
      break;
    case OptionSpec::Type::kString:
      break;
  }
  // onChange first: if it throws (e.g. the hash memory cannot be allocated) the old value stays.
  if (entry.onChange) entry.onChange(value);
  if (s.type != OptionSpec::Type::kButton) entry.value = value;
}

}  // namespace janus
