// The `bench:` section of assignment.yaml: the lecture tables `cugrade bench` reproduces, each a
// size and a list of steps whose references are timed, beside the lecture's figures.
#include <algorithm>
#include <unordered_map>
#include <utility>

#include "spec/spec_parser.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

const std::vector<std::string> table_keys = {"table", "lecture", "params", "rate", "ceiling", "rows"};
const std::vector<std::string> row_keys = {"step", "label", "lecture"};
const std::vector<std::pair<std::string, BenchCeiling>> ceiling_names = {
    {"copy", BenchCeiling::copy},   {"read", BenchCeiling::read}, {"sgemm", BenchCeiling::sgemm},
    {"dgemm", BenchCeiling::dgemm}, {"none", BenchCeiling::none}};

/// A string that must say something: reports "'<key>' must not be empty in <subject>".
std::optional<std::string> read_text(const Field& field, const std::string& subject,
                                     Diagnostics& diags) {
  auto text = read_string(field, diags);
  if (text && text->empty()) {
    diags.error(field.at, field.name + " must not be empty in " + subject);
    return std::nullopt;
  }
  return text;
}

BenchCeiling parse_ceiling(const Field& field, Diagnostics& diags) {
  const auto text = read_string(field, diags);
  if (!text) return BenchCeiling::by_unit;
  std::vector<std::string> names;
  for (const auto& [name, ceiling] : ceiling_names) {
    if (*text == name) return ceiling;
    names.push_back(name);
  }
  diags.error(field.at, "'ceiling' must be one of " + join_names(names) + ", not " + quoted_excerpt(*text) +
                            did_you_mean(*text, names));
  return BenchCeiling::by_unit;
}

BenchRow parse_row(const Field& item, const std::string& subject, const std::vector<Step>& steps,
                   Diagnostics& diags) {
  BenchRow row;
  row.where = diags.where(item.value);
  const MapReader map(item.value, subject, row_keys, diags);
  const Field step = map.required("step");
  if (auto v = read_identifier(step, diags);
      v && check_step_reference(step, *v, steps, subject, diags))
    row.step = *v;
  if (auto v = read_text(map.optional("label"), subject, diags)) row.label = *v;
  if (row.label.empty()) row.label = row.step;
  if (auto v = read_text(map.optional("lecture"), subject, diags)) row.lecture = *v;
  return row;
}

// Rows of one table: at least one, each step once (a table compares different kernels).
std::vector<BenchRow> parse_rows(const Field& field, const std::string& table_subject,
                                 const std::vector<Step>& steps, Diagnostics& diags) {
  std::vector<BenchRow> rows;
  if (!expect_list(field, diags)) return rows;
  if (field.value.size() == 0) diags.error(field.at, "'rows' must not be empty in " + table_subject);
  std::unordered_map<std::string, int> first_lines;  // step -> its row's line
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (!expect_map(item, diags)) continue;
    BenchRow row =
        parse_row(item, "row " + std::to_string(i + 1) + " of " + table_subject, steps, diags);
    if (!row.step.empty())
      if (const auto [first, added] = first_lines.emplace(row.step, row.where.line); !added) {
        diags.error(row.where, "step " + quoted_excerpt(row.step) + " is listed twice in " + table_subject +
                                   " (first at line " + std::to_string(first->second) + ")");
        continue;
      }
    rows.push_back(std::move(row));
  }
  return rows;
}

BenchTable parse_table(const Field& item, const std::string& subject,
                       const std::vector<Step>& steps, Diagnostics& diags) {
  BenchTable table;
  table.where = diags.where(item.value);
  const MapReader map(item.value, subject, table_keys, diags);
  if (auto v = read_text(map.required("table"), subject, diags)) table.title = *v;
  if (auto v = read_text(map.optional("lecture"), subject, diags)) table.lecture = *v;
  if (auto params = parse_params(map.required("params"), "the params of " + subject, diags))
    table.params = std::move(*params);
  if (auto v = read_bool(map.optional("rate"), diags)) table.rate = *v;
  table.ceiling = parse_ceiling(map.optional("ceiling"), diags);
  table.rows = parse_rows(map.required("rows"), subject, steps, diags);
  // A figure in the lecture column means nothing unless the reader knows whose GPU it is from.
  if (table.lecture.empty())
    for (const auto& row : table.rows)
      if (!row.lecture.empty()) {
        diags.error(row.where, "a row of " + subject +
                                   " gives a lecture figure, but the table has no 'lecture' "
                                   "saying whose figures they are");
        break;
      }
  return table;
}

}  // namespace

std::vector<BenchTable> parse_bench(const Field& field, const std::vector<Step>& steps,
                                    Diagnostics& diags) {
  std::vector<BenchTable> tables;
  if (!expect_list(field, diags)) return tables;
  if (field.value.size() == 0)
    diags.error(field.at, "'bench' must not be empty; leave it out when there is no table");
  std::unordered_map<std::string, int> first_lines;  // heading -> its table's line
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (!expect_map(item, diags)) continue;
    BenchTable table = parse_table(item, "bench table " + std::to_string(i + 1), steps, diags);
    // The heading is how a reader (and the JSON) tells the tables of an assignment apart.
    if (!table.title.empty())
      if (const auto [first, added] = first_lines.emplace(table.title, table.where.line); !added)
        diags.error(table.where, "bench table " + quoted_excerpt(table.title) +
                                     " is listed twice (first at line " + std::to_string(first->second) + ")");
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace cugrade
