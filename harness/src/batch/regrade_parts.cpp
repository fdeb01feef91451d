#include "batch/regrade_parts.hpp"

#include <map>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "cugrade-regrade-part";

/// An id of any bytes, kept exactly (JSON text is UTF-8; a folder name need not be).
std::string id_hex(const std::string& id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (const unsigned char c : id) (hex += kHex[c >> 4]) += kHex[c & 15];
  return hex;
}

std::optional<std::string> id_of_hex(const std::string& hex) {
  if (hex.size() % 2) return std::nullopt;
  std::string id;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const std::string byte = hex.substr(i, 2);
    if (byte.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
    id += static_cast<char>(std::stoi(byte, nullptr, 16));
  }
  return id;
}

json change_to_json(const ScoreChange& c) {
  return {{"student_hex", id_hex(c.student)},
          {"old_score", c.old_score ? json(*c.old_score) : json(nullptr)},
          {"new_score", c.new_score ? json(*c.new_score) : json(nullptr)},
          {"max_score", c.max_score},
          {"steps", c.steps},
          {"outcome", c.outcome},
          {"changed", c.changed}};
}

std::optional<ScoreChange> change_from_json(const json& j) {
  ScoreChange c;
  auto student = id_of_hex(j.at("student_hex").get<std::string>());
  if (!student) return std::nullopt;
  c.student = *student;
  if (!j.at("old_score").is_null()) c.old_score = j.at("old_score").get<double>();
  if (!j.at("new_score").is_null()) c.new_score = j.at("new_score").get<double>();
  c.max_score = j.at("max_score").get<double>();
  c.steps = j.at("steps").get<std::string>();
  c.outcome = j.at("outcome").get<std::string>();
  c.changed = j.at("changed").get<std::string>();
  return c;
}

/// The findings kept in `file`: students graded again, and each one's change (by id: a later
/// finding of the same student replaces an earlier one).
Result<bool> read_part(const fs::path& file, std::map<std::string, std::optional<ScoreChange>>& found) {
  auto text = read_whole_file(file);
  if (!text) return std::unexpected(text.error());
  try {
    const json j = json::parse(*text);
    if (j.value("format", "") != kFormat) return fail(file.string() + " is not a part of a regrade");
    for (const auto& hex : j.at("again")) {
      auto student = id_of_hex(hex.get<std::string>());
      if (!student) return fail(file.string() + ": a student id that is not hex");
      found.try_emplace(*student);
    }
    for (const auto& c : j.at("changes")) {
      auto change = change_from_json(c);
      if (!change) return fail(file.string() + ": a student id that is not hex");
      found[change->student] = std::move(*change);
    }
  } catch (const json::exception& e) {
    return fail(file.string() + " cannot be read: " + e.what());
  }
  return true;
}

RegradeFindings findings_of(const std::map<std::string, std::optional<ScoreChange>>& found) {
  RegradeFindings findings;
  for (const auto& [student, change] : found) {
    findings.again.push_back(student);
    if (change) findings.changes.push_back(*change);
  }
  return findings;
}

}  // namespace

fs::path regrade_parts_dir(const fs::path& out) { return out / ".regrade-parts"; }

Result<bool> save_regrade_part(const fs::path& out, const std::string& part, const RegradeFindings& findings) {
  if (findings.again.empty()) return true;
  const fs::path file = regrade_parts_dir(out) / (part + ".json");
  std::map<std::string, std::optional<ScoreChange>> found;
  std::error_code ec;
  if (fs::exists(file, ec))
    if (auto read = read_part(file, found); !read) return read;
  for (const auto& student : findings.again) found[student] = std::nullopt;  // graded again now: this run's word
  for (const auto& change : findings.changes) found[change.student] = change;
  const RegradeFindings merged = findings_of(found);
  json j = {{"format", kFormat}, {"again", json::array()}, {"changes", json::array()}};
  for (const auto& student : merged.again) j["again"].push_back(id_hex(student));
  for (const auto& change : merged.changes) j["changes"].push_back(change_to_json(change));
  fs::create_directories(regrade_parts_dir(out), ec);
  if (ec) return fail("cannot create " + regrade_parts_dir(out).string() + ": " + ec.message());
  return write_file_atomically(file, j.dump(1) + "\n");
}

Result<std::string> collect_regrade_parts(const fs::path& out) {
  const fs::path dir = regrade_parts_dir(out);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::string();
  std::map<std::string, std::optional<ScoreChange>> found;
  std::vector<fs::path> parts;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    if (auto read = read_part(entry.path(), found); !read) return std::unexpected(read.error());
    parts.push_back(entry.path());
  }
  auto line = write_regrade_file(out, findings_of(found));
  if (!line) return line;
  for (const auto& part : parts) fs::remove(part, ec);  // consumed: the next collect speaks of the next regrade
  fs::remove(dir, ec);
  return line;
}

}  // namespace cugrade
