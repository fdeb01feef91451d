#include "batch/blackboard_download.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <string_view>

#include "batch/deadline.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view attempt_word = "_attempt_";
/// "YYYY-MM-DD-HH-MM-SS": digits, but for the dashes.
constexpr std::string_view attempt_shape = "0000-00-00-00-00-00";

/// Whether `text` has the attempt time's shape.
bool attempt_shaped(std::string_view text) {
  if (text.size() != attempt_shape.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (attempt_shape[i] == '-' ? text[i] != '-' : !(text[i] >= '0' && text[i] <= '9')) return false;
  return true;
}

/// The values of the first lines of an attempt's text file, each after its label's ": "
/// ("Assignment: HW2 Matmul" → "HW2 Matmul"), trimmed. An unreadable file gives none.
std::vector<std::string> label_values(const fs::path& text_file) {
  auto text = read_regular_file(text_file, text_file.filename().string(), 64 * 1024);
  if (!text) return {};
  std::vector<std::string> values;
  std::istringstream lines(std::string(text->begin(), text->end()));
  std::string line;
  for (int read = 0; read < 40 && std::getline(lines, line); ++read) {
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 2);
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ' || value.back() == '\t')) value.pop_back();
    if (!value.empty()) values.push_back(std::move(value));
  }
  return values;
}

}  // namespace

std::optional<BlackboardFileName> blackboard_file_name(const std::string& file_name) {
  // The last "_attempt_<time>" that is followed by "_<name>" or by ".txt" alone: an assignment's
  // or a file's own name may say "attempt" too.
  for (std::size_t at = file_name.rfind(attempt_word); at != std::string::npos && at > 0;
       at = file_name.rfind(attempt_word, at - 1)) {
    const std::size_t time = at + attempt_word.size();
    if (!blackboard_attempt_unix(file_name.substr(time, attempt_shape.size()))) continue;  // its shape, a real date
    const std::string owner = file_name.substr(0, at);
    const std::size_t rest = time + attempt_shape.size();
    const std::string tail = file_name.substr(rest);
    // The owner is "<assignment>_<user name>", neither part empty.
    const std::size_t cut = owner.rfind('_');
    if (cut == std::string::npos || cut == 0 || cut + 1 == owner.size()) continue;
    if (tail == ".txt") return BlackboardFileName{owner, file_name.substr(time, attempt_shape.size()), ""};
    if (tail.size() > 1 && tail[0] == '_' && tail != "_." && tail != "_..")
      return BlackboardFileName{owner, file_name.substr(time, attempt_shape.size()), tail.substr(1)};
  }
  return std::nullopt;
}

std::map<std::string, std::string> blackboard_students(const std::vector<std::string>& owners,
                                                       const std::map<std::string, fs::path>& texts) {
  std::set<std::string> distinct(owners.begin(), owners.end());
  std::map<std::string, std::string> students;
  if (distinct.empty()) return students;
  // The assignment's name from an attempt's text file: the value that, with "_", begins its owner.
  for (const auto& [owner, text] : texts) {
    if (!distinct.contains(owner)) continue;
    std::size_t best = 0;
    for (const std::string& value : label_values(text))
      if (owner.size() > value.size() + 1 && owner.starts_with(value) && owner[value.size()] == '_')
        best = std::max(best, value.size() + 1);
    if (best == 0) continue;
    const std::string assignment = owner.substr(0, best);  // with its "_"
    // Every owner that begins so is named after it; the same user name never twice.
    std::set<std::string> names;
    bool fits = true;
    for (const std::string& other : distinct)
      fits = fits && other.starts_with(assignment) && names.insert(other.substr(assignment.size())).second;
    if (!fits) continue;
    for (const std::string& other : distinct) students[other] = other.substr(assignment.size());
    return students;
  }
  // Else the longest beginning all owners share, up to and with its last "_" (one owner alone:
  // its last part). An owner never ends with "_" (blackboard_file_name), so no user name is empty.
  std::string shared = *distinct.begin();
  for (const std::string& owner : distinct) {
    std::size_t same = 0;
    while (same < shared.size() && same < owner.size() && shared[same] == owner[same]) ++same;
    shared.resize(same);
  }
  const std::size_t cut = shared.rfind('_');
  for (const std::string& owner : distinct)
    students[owner] = cut == std::string::npos ? owner : owner.substr(cut + 1);
  return students;
}

Result<std::int64_t> blackboard_attempt_unix(const std::string& attempt) {
  if (!attempt_shaped(attempt)) return fail("not a Blackboard attempt time: '" + attempt.substr(0, 40) + "'");
  // "2026-11-28-10-00-00" → "2026-11-28 10:00:00", this machine's local time.
  const std::string written = attempt.substr(0, 10) + " " + attempt.substr(11, 2) + ":" + attempt.substr(14, 2) + ":" +
                              attempt.substr(17, 2);
  auto when = parse_deadline(written);
  if (!when) return fail("not a valid Blackboard attempt time: '" + attempt + "'");
  return *when;
}

}  // namespace cugrade
