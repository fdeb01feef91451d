#include "batch/student_record.hpp"

#include "batch/student_paths.hpp"
#include "core/atomic_file.hpp"
#include "core/printable.hpp"
#include "core/utc_time.hpp"
#include "report/json_report.hpp"

namespace cugrade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
/// Marks the file as ours, and its layout's version, so an unrelated JSON file is never read as one.
constexpr const char* kFormat = "cugrade-batch-record";
constexpr int kVersion = 1;
}  // namespace

bool StudentRecord::operator==(const StudentRecord& other) const {
  return student == other.student && source == other.source && source_sha256 == other.source_sha256 &&
         submitted_unix == other.submitted_unix && submitted_from == other.submitted_from && settings == other.settings && seconds.build == other.seconds.build &&
         seconds.inputs == other.seconds.inputs && seconds.run == other.seconds.run &&
         seconds.timing == other.seconds.timing && seconds.diagnosis == other.seconds.diagnosis &&
         unpack_seconds == other.unpack_seconds &&
         report == other.report;
}

namespace {
std::string to_hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : bytes) (hex += kHex[c >> 4]) += kHex[c & 15];
  return hex;
}

std::optional<std::string> from_hex(std::string_view hex) {
  if (hex.size() % 2) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string bytes;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes += static_cast<char>(hi << 4 | lo);
  }
  return bytes;
}
}  // namespace

std::optional<bool> handed_in_late(const StudentRecord& record, std::int64_t deadline_unix) {
  if (record.submitted_from == nothing_handed_in) return std::nullopt;
  if (record.submitted_from == canvas_late || record.submitted_from == canvas_on_time)
    return record.submitted_from == canvas_late;
  return record.submitted_unix > deadline_unix;
}

json record_to_json(const StudentRecord& record) {
  json j = {{"format", kFormat},
          {"version", kVersion},
          {"student", record.student},
          {"source", record.source},
          {"source_sha256", record.source_sha256},
          {"submitted_unix", record.submitted_unix},
          {"submitted_at", iso8601_utc(record.submitted_unix)},
          {"submitted_from", record.submitted_from},
          {"seconds",
           {{"unpack", record.unpack_seconds},
            {"build", record.seconds.build},
            {"inputs", record.seconds.inputs},
            {"run", record.seconds.run},
            {"timing", record.seconds.timing},
            {"diagnosis", record.seconds.diagnosis}}},
          {"report", report_to_json(record.report, true)}};
  // JSON text is UTF-8: an id that is not (a folder name may be any bytes) is kept exactly in hex
  // beside its readable form, so the record is found and matched again.
  if (!is_valid_utf8(record.student)) j["student_hex"] = to_hex(record.student);
  if (record.settings) j["graded_with"] = settings_to_json(*record.settings);
  return j;
}

Result<StudentRecord> record_from_json(const json& j) {
  try {
    if (!j.is_object() || j.value("format", "") != kFormat) return fail("not a cugrade batch record");
    if (j.at("version").get<int>() != kVersion)
      return fail("a batch record of another version (" + j.at("version").dump() + ")");
    StudentRecord record;
    record.student = j.at("student").get<std::string>();
    if (j.contains("student_hex")) {
      auto bytes = from_hex(j.at("student_hex").get<std::string>());
      if (!bytes) return fail("malformed batch record: student_hex is not hex");
      record.student = std::move(*bytes);
    }
    record.source = j.at("source").get<std::string>();
    record.source_sha256 = j.at("source_sha256").get<std::string>();
    record.submitted_unix = j.at("submitted_unix").get<std::int64_t>();
    record.submitted_from = j.value("submitted_from", "");  // absent in records of earlier versions
    if (j.contains("graded_with")) {  // absent likewise: such a record is graded again (resume.hpp)
      record.settings = settings_from_json(j.at("graded_with"));
      if (!record.settings) return fail("malformed batch record: graded_with");
    }
    const json& s = j.at("seconds");
    record.unpack_seconds = s.at("unpack").get<double>();
    record.seconds.build = s.at("build").get<double>();
    record.seconds.inputs = s.at("inputs").get<double>();
    record.seconds.run = s.at("run").get<double>();
    record.seconds.timing = s.at("timing").get<double>();
    record.seconds.diagnosis = s.value("diagnosis", 0.0);  // absent in records from before diagnosis
    auto report = report_from_json(j.at("report"));
    if (!report) return fail("report: " + report.error().message);
    record.report = std::move(*report);
    return record;
  } catch (const json::exception& e) {
    return fail(std::string("malformed batch record: ") + e.what());
  }
}

fs::path record_path(const fs::path& out, const std::string& student) { return student_record_file(out, student); }

Result<bool> save_record(const fs::path& out, const StudentRecord& record) {
  return write_file_atomically(record_path(out, record.student),
                               record_to_json(record).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

Result<std::optional<StudentRecord>> load_record(const fs::path& out, const std::string& student) {
  const fs::path path = record_path(out, student);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<StudentRecord>{};
  auto text = read_whole_file(path);
  if (!text) return std::unexpected(text.error());
  const json j = json::parse(*text, nullptr, false);
  if (j.is_discarded()) return fail("its result file is not valid JSON");
  auto record = record_from_json(j);
  if (!record) return std::unexpected(record.error());
  if (record->student != student) return fail("its result file names another student");
  return std::optional<StudentRecord>{std::move(*record)};
}

}  // namespace cugrade
