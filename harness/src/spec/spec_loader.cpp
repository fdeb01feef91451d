#include "spec/spec_loader.hpp"

#include <algorithm>

#include "spec/spec_parser.hpp"
#include "spec/suggest.hpp"

namespace cugrade {

namespace fs = std::filesystem;

Result<Spec> load_spec(const fs::path& path, const SizeRules* rules) {
  ParsedSpec parsed = parse_spec_file(path, rules);
  if (parsed.problems.empty()) return std::move(parsed.spec);
  std::string message;
  for (const auto& line : parsed.problems) message += (message.empty() ? "" : "\n") + line;
  return fail(std::move(message));
}

Result<Spec> load_assignment(const fs::path& assignments_dir, const std::string& id, const SizeRules* rules) {
  const std::vector<std::string> known = list_assignments(assignments_dir);
  // Only listed ids are looked up, so an id such as "../x" cannot reach outside the folder.
  if (std::find(known.begin(), known.end(), id) == known.end()) {
    if (known.empty())
      return fail("unknown assignment '" + id + "'; there are no assignments in " +
                  assignments_dir.string());
    return fail("unknown assignment '" + id + "'" + did_you_mean(id, known) +
                " (known: " + join_names(known) + ")");
  }
  return load_spec(assignments_dir / id / "assignment.yaml", rules);
}

std::vector<std::string> list_assignments(const fs::path& assignments_dir) {
  std::vector<std::string> ids;
  std::error_code ec;
  for (fs::directory_iterator it(assignments_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (it->is_directory(file_ec) && fs::is_regular_file(it->path() / "assignment.yaml", file_ec))
      ids.push_back(it->path().filename().string());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace cugrade
