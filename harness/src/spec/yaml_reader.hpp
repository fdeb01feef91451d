#pragma once
// Typed, located access to a parsed YAML document for the strict spec loader: every problem is
// recorded as "file:line:column: text" and reading goes on, so one pass reports them all.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/spec.hpp"

namespace cugrade {

/// The problems found in one YAML file, each one line for the user.
class Diagnostics {
 public:
  /// `file` is the path as the user gave it; it starts every message.
  explicit Diagnostics(std::string file);
  /// The file name used in messages.
  const std::string& file() const { return file_; }
  /// Where `node` starts (1-based line and column; 0 when yaml-cpp does not know).
  SourceLocation where(const YAML::Node& node) const;
  /// Records "file:line:column: text" at `node`.
  void error(const YAML::Node& node, std::string text);
  /// Records "file:line:column: text", or "file: text" when `at` has no line.
  void error(const SourceLocation& at, std::string text);
  /// True when nothing has been recorded.
  bool empty() const { return problems_.empty(); }
  /// Every problem, one line each, ordered by position (those without one last); past 100, one
  /// last line says how many more there are.
  std::vector<std::string> lines() const;

 private:
  struct Problem {
    int line;
    int column;
    std::string text;
  };
  std::string file_;
  std::vector<Problem> problems_;
};

/// One value to read: a `key: value` of a map, or an item of a list.
struct Field {
  std::string name;  ///< as messages name it: "'points'", "item 2 of 'seeds'"
  YAML::Node value;  ///< undefined when the key is absent
  YAML::Node at;     ///< where messages about it point (the key when the value is empty)
  /// True when the key was given (even with an empty value).
  bool present() const { return value.IsDefined(); }
};

/// Field for item `index` (0-based) of the list held by `list`.
Field item_of(const Field& list, std::size_t index, const YAML::Node& item);

/// The keys of one YAML map, checked against the keys it may have.
class MapReader {
 public:
  /// Reports each key of `map` not in `allowed` ("unknown key 'x' in <subject>; did you mean
  /// ...?") and each key given twice. `subject` names the map: "step 'naive'", "the spec".
  MapReader(const YAML::Node& map, std::string subject, std::vector<std::string> allowed,
            Diagnostics& diags);
  /// The field `key`; absent when not given.
  Field optional(std::string_view key) const;
  /// The field `key`; when absent, reports "<subject> has no '<key>'" at the map.
  Field required(std::string_view key) const;

 private:
  YAML::Node map_;
  std::string subject_;
  Diagnostics& diags_;
};

/// "a map", "a sequence", "empty" or the scalar quoted: how a wrong value is shown.
std::string describe(const YAML::Node& value);

/// True when `field` holds a map; else reports "<name> must be a map, not ...". Absent: false.
bool expect_map(const Field& field, Diagnostics& diags);
/// True when `field` holds a list; else reports "<name> must be a list, not ...". Absent: false.
bool expect_list(const Field& field, Diagnostics& diags);
/// The text of a scalar field.
std::optional<std::string> read_string(const Field& field, Diagnostics& diags);
/// A C identifier (letters, digits, '_', not starting with a digit).
std::optional<std::string> read_identifier(const Field& field, Diagnostics& diags);
/// A finite number, written plainly (a quoted "2" is a string); `minimum` (inclusive, or
/// exclusive when `strict`) and `maximum` (inclusive) are checked when given.
std::optional<double> read_number(const Field& field, Diagnostics& diags,
                                  std::optional<double> minimum = {}, bool strict = false,
                                  std::optional<double> maximum = {});
/// A whole number >= `minimum` (which must be >= 0), and <= `maximum` when given, that fits in 64
/// bits, written plainly.
std::optional<std::uint64_t> read_unsigned(const Field& field, Diagnostics& diags,
                                           std::uint64_t minimum = 0, std::optional<std::uint64_t> maximum = {});

/// A YAML boolean: true or false (also True/TRUE/False/FALSE, as YAML 1.2's core schema).
std::optional<bool> read_bool(const Field& field, Diagnostics& diags);

/// True for a C identifier.
bool is_identifier(std::string_view text);

}  // namespace cugrade
