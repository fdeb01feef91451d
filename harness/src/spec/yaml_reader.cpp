#include "spec/yaml_reader.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <unordered_map>

#include "spec/suggest.hpp"

namespace cugrade {
namespace {

std::string format_number(double value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

void report_type(const Field& field, Diagnostics& diags, std::string_view expected) {
  diags.error(field.at,
              field.name + " must be " + std::string(expected) + ", not " + describe(field.value));
}

// A scalar that the user wrote; a missing or null value has already been reported or is absent.
const std::string* scalar_text(const Field& field, Diagnostics& diags, std::string_view expected) {
  if (!field.present()) return nullptr;
  if (!field.value.IsScalar()) {
    report_type(field, diags, expected);
    return nullptr;
  }
  return &field.value.Scalar();
}

// A scalar the user quoted ("2", '1e-5') or tagged !!str: text, even when it reads like a number.
bool is_string_scalar(const YAML::Node& value) {
  return value.Tag() == "!" || value.Tag() == "tag:yaml.org,2002:str";
}

// The text of a number field: a plain scalar; a quoted one is reported as a string.
const std::string* number_text(const Field& field, Diagnostics& diags, std::string_view expected) {
  const std::string* text = scalar_text(field, diags, expected);
  if (text && is_string_scalar(field.value)) {
    diags.error(field.at, field.name + " must be " + std::string(expected) + ", not a string (\"" +
                              excerpt(*text) + "\"): write it without quotes");
    return nullptr;
  }
  return text;
}

// Past this many problems a message list stops: nobody reads further, and the output stays short.
constexpr std::size_t most_problems_shown = 100;
// A longer message is cut (every value in one is already excerpted; this is the backstop).
constexpr std::size_t longest_message = 1000;

}  // namespace

Diagnostics::Diagnostics(std::string file) : file_(std::move(file)) {}

SourceLocation Diagnostics::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  // yaml-cpp counts from 0 and uses -1 for "unknown"; messages count from 1 with 0 for unknown.
  if (mark.line < 0 || mark.column < 0) return SourceLocation{file_, 0, 0};
  return SourceLocation{file_, mark.line + 1, mark.column + 1};
}

void Diagnostics::error(const YAML::Node& node, std::string text) {
  error(where(node), std::move(text));
}

void Diagnostics::error(const SourceLocation& at, std::string text) {
  if (text.size() > longest_message) text = excerpt(text, longest_message);
  if (at.line > 0)
    problems_.push_back(
        {at.line, at.column,
         file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + text});
  else
    problems_.push_back({INT_MAX, 0, file_ + ": " + text});
}

std::vector<std::string> Diagnostics::lines() const {
  // Problems are found section by section (steps before cases, whatever the file order);
  // the user reads them best in the order of the file.
  std::vector<Problem> sorted = problems_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Problem& a, const Problem& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < sorted.size() && i < most_problems_shown; ++i)
    out.push_back(std::move(sorted[i].text));
  if (sorted.size() > most_problems_shown)
    out.push_back(file_ + ": … and " + std::to_string(sorted.size() - most_problems_shown) +
                  " more problems (fix these first)");
  return out;
}

Field item_of(const Field& list, std::size_t index, const YAML::Node& item) {
  const bool empty = item.IsNull();
  return Field{"item " + std::to_string(index + 1) + " of " + list.name, item,
               empty ? list.at : item};
}

MapReader::MapReader(const YAML::Node& map, std::string subject, std::vector<std::string> allowed,
                     Diagnostics& diags)
    : map_(map), subject_(std::move(subject)), diags_(diags) {
  // Keys seen so far, with their line: a hash map keeps a map of 20 000 keys linear.
  std::unordered_map<std::string, int> seen;
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) {
      diags_.error(key, "keys in " + subject_ + " must be plain names, not " + describe(key));
      continue;
    }
    const std::string& name = key.Scalar();
    const auto [first, added] = seen.emplace(name, diags_.where(key).line);
    if (!added) {
      diags_.error(key, "key " + quoted_excerpt(name) + " is given twice in " + subject_ +
                            " (first at line " + std::to_string(first->second) + ")");
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      diags_.error(key, "unknown key " + quoted_excerpt(name) + " in " + subject_ + did_you_mean(name, allowed));
  }
}

Field MapReader::optional(std::string_view key) const {
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
    // An empty value ("title:") has no reliable position in yaml-cpp: point at its key.
    const bool empty = it->second.IsNull();
    return Field{"'" + std::string(key) + "'", it->second, empty ? it->first : it->second};
  }
  return Field{"'" + std::string(key) + "'", YAML::Node(YAML::NodeType::Undefined), map_};
}

Field MapReader::required(std::string_view key) const {
  Field field = optional(key);
  if (!field.present()) diags_.error(map_, subject_ + " has no '" + std::string(key) + "'");
  return field;
}

std::string describe(const YAML::Node& value) {
  switch (value.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a sequence";
    case YAML::NodeType::Scalar:
      return quoted_excerpt(value.Scalar());
    default:
      return "empty";
  }
}

bool expect_map(const Field& field, Diagnostics& diags) {
  if (!field.present()) return false;
  if (field.value.IsMap()) return true;
  report_type(field, diags, "a map");
  return false;
}

bool expect_list(const Field& field, Diagnostics& diags) {
  if (!field.present()) return false;
  if (field.value.IsSequence()) return true;
  report_type(field, diags, "a list");
  return false;
}

std::optional<std::string> read_string(const Field& field, Diagnostics& diags) {
  const std::string* text = scalar_text(field, diags, "a string");
  if (!text) return std::nullopt;
  return *text;
}

std::optional<bool> read_bool(const Field& field, Diagnostics& diags) {
  static constexpr std::string_view expected = "true or false";
  const std::string* text = scalar_text(field, diags, expected);
  if (!text) return std::nullopt;
  // Only the YAML 1.2 spellings: yes/no/on/off are YAML 1.1 and read as strings elsewhere.
  if (*text == "true" || *text == "True" || *text == "TRUE") return true;
  if (*text == "false" || *text == "False" || *text == "FALSE") return false;
  report_type(field, diags, expected);
  return std::nullopt;
}

bool is_identifier(std::string_view text) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (text.empty() || !letter(text.front())) return false;
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

std::optional<std::string> read_identifier(const Field& field, Diagnostics& diags) {
  static constexpr std::string_view expected =
      "an identifier (letters, digits and '_', not starting with a digit)";
  const std::string* text = scalar_text(field, diags, expected);
  if (!text) return std::nullopt;
  if (!is_identifier(*text)) {
    report_type(field, diags, expected);
    return std::nullopt;
  }
  return *text;
}

std::optional<double> read_number(const Field& field, Diagnostics& diags,
                                  std::optional<double> minimum, bool strict,
                                  std::optional<double> maximum) {
  const std::string* text = number_text(field, diags, "a number");
  if (!text) return std::nullopt;
  std::string_view digits = *text;
  if (digits.starts_with('+')) digits.remove_prefix(1);  // from_chars takes no '+'
  double value = 0.0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty() ||
      !std::isfinite(value)) {
    report_type(field, diags, "a number");
    return std::nullopt;
  }
  if (minimum && (strict ? value <= *minimum : value < *minimum)) {
    diags.error(field.at, field.name + " must be " + (strict ? "> " : ">= ") +
                              format_number(*minimum) + ", not " + excerpt(*text));
    return std::nullopt;
  }
  if (maximum && value > *maximum) {
    diags.error(field.at, field.name + " must be at most " + format_number(*maximum) + ", not " +
                              excerpt(*text));
    return std::nullopt;
  }
  if (maximum && value > *maximum) {
    diags.error(field.at, field.name + " must be <= " + std::to_string(*maximum) + ", not " + excerpt(*text));
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> read_unsigned(const Field& field, Diagnostics& diags,
                                           std::uint64_t minimum, std::optional<std::uint64_t> maximum) {
  const std::string* text = number_text(field, diags, "an integer");
  if (!text) return std::nullopt;
  std::string_view digits = *text;
  const bool negative = digits.starts_with('-');
  if (negative || digits.starts_with('+')) digits.remove_prefix(1);
  const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  if (!all_digits) {
    report_type(field, diags, "an integer");
    return std::nullopt;
  }
  const bool zero = digits.find_first_not_of('0') == std::string_view::npos;
  std::uint64_t value = 0;
  if (!negative || !zero) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range && !negative) {
      diags.error(field.at, field.name + " is too large: " + excerpt(*text));
      return std::nullopt;
    }
  }
  if ((negative && !zero) || value < minimum) {
    diags.error(field.at, field.name + " must be >= " + std::to_string(minimum) + ", not " +
                              excerpt(*text));
    return std::nullopt;
  }
  if (maximum && value > *maximum) {
    diags.error(field.at, field.name + " must be <= " + std::to_string(*maximum) + ", not " + excerpt(*text));
    return std::nullopt;
  }
  return value;
}

}  // namespace cugrade
