#include "batch/extensions.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "batch/deadline.hpp"
#include "core/atomic_file.hpp"
#include "core/utc_time.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// One CSV record and the line it starts on.
struct CsvRow {
  std::size_t line = 0;
  std::vector<std::string> fields;
};

/// RFC 4180's records of `text`: commas between fields, a field in double quotes may hold commas,
/// line breaks and doubled quotes; LF or CRLF ends a record; blank lines are skipped.
Result<std::vector<CsvRow>> csv_rows(std::string_view text, const std::string& shown) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string field;
  std::size_t line = 1;
  bool quoted = false, was_quoted = false;
  row.line = line;
  const auto end_record = [&] {
    row.fields.push_back(std::move(field));
    field.clear();
    if (!(row.fields.size() == 1 && row.fields[0].empty() && !was_quoted)) rows.push_back(std::move(row));
    row = CsvRow{};
    row.line = line;
    was_quoted = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (c == '"') quoted = false;
      else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"' && field.empty()) {
      quoted = was_quoted = true;
    } else if (c == ',') {
      row.fields.push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++line;
      end_record();
    } else {
      field += c;
    }
  }
  if (quoted) return fail(fmt::format("{}:{}: a quoted field is never closed", shown, row.line));
  if (!field.empty() || !row.fields.empty() || was_quoted) end_record();
  return rows;
}

std::string lowercase_trimmed(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  text.erase(0, std::min(text.size(), text.find_first_not_of(" \t")));
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // a spreadsheet's byte-order mark
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

Result<Extensions> parse_extensions(std::string_view text, const std::string& shown, std::int64_t class_deadline_unix) {
  auto rows = csv_rows(text, shown);
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return fail(shown + ": empty; expected a header \"student,deadline\" and a row per student");
  const CsvRow& header = rows->front();
  std::optional<std::size_t> student_column, deadline_column;
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const std::string name = lowercase_trimmed(header.fields[i]);
    if (name == "student" && !student_column) student_column = i;
    if (name == "deadline" && !deadline_column) deadline_column = i;
  }
  if (!student_column || !deadline_column)
    return fail(fmt::format("{}:{}: the first line names the columns: expected \"student,deadline\" (more columns, "
                            "e.g. a reason, may follow), got \"{}\"",
                            shown, header.line, excerpt(fmt::format("{}", fmt::join(header.fields, ",")))));
  Extensions extensions;
  extensions.shown = shown;
  for (std::size_t r = 1; r < rows->size(); ++r) {
    const CsvRow& row = (*rows)[r];
    const std::string where = fmt::format("{}:{}", shown, row.line);
    if (row.fields.size() <= std::max(*student_column, *deadline_column))
      return fail(where + ": fewer columns than the header's (a row is: student,deadline)");
    std::string student = row.fields[*student_column];
    // The id as it was typed: spaces a spreadsheet left around it are not part of it.
    while (!student.empty() && student.back() == ' ') student.pop_back();
    student.erase(0, std::min(student.size(), student.find_first_not_of(' ')));
    if (student.empty()) return fail(where + ": no student id");
    std::string date = row.fields[*deadline_column];
    while (!date.empty() && date.back() == ' ') date.pop_back();
    date.erase(0, std::min(date.size(), date.find_first_not_of(' ')));
    auto deadline = parse_deadline(date);
    if (!deadline) {
      std::string why = deadline.error().message;
      if (why.rfind("--deadline ", 0) == 0) why.erase(0, 11);
      return fail(where + ": the deadline of " + quoted_excerpt(student) + ", " + why);
    }
    if (*deadline < class_deadline_unix)
      return fail(fmt::format("{}: the deadline of {}, {}, is before the class's ({}): an extension gives more time",
                              where, quoted_excerpt(student), iso8601_utc(*deadline), iso8601_utc(class_deadline_unix)));
    if (!extensions.deadlines.emplace(student, *deadline).second)
      return fail(where + ": " + quoted_excerpt(student) + " is listed twice");
  }
  return extensions;
}

Result<Extensions> read_extensions(const fs::path& path, std::int64_t class_deadline_unix) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return fail("--extensions: cannot read " + path.string() + ": " + ec.message());
  if (size > (std::uintmax_t{4} << 20)) return fail("--extensions: " + path.string() + " is larger than 4 MiB");
  auto text = read_whole_file(path);
  if (!text) return fail("--extensions: " + text.error().message);
  return parse_extensions(*text, path.string(), class_deadline_unix);
}

Result<bool> check_extension_students(const Extensions& extensions, const std::vector<std::string>& students) {
  std::vector<std::string> unknown;
  for (const auto& [student, deadline] : extensions.deadlines)
    if (std::find(students.begin(), students.end(), student) == students.end())
      unknown.push_back(quoted_excerpt(student) + did_you_mean(student, students));
  if (unknown.empty()) return true;
  return fail(fmt::format("{}: {} student{} with no submission in this class: {} (fix the id, or remove the row "
                          "of a student who handed in nothing)",
                          extensions.shown, unknown.size(), unknown.size() == 1 ? "" : "s", join_names(unknown, 10)));
}

}  // namespace cugrade
