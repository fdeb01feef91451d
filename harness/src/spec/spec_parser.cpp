#include "spec/spec_parser.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "spec/interface_scan.hpp"
#include "spec/library_parser.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> top_keys = {
    "id", "title", "lectures", "interface", "statement", "steps", "cases", "performance",
    "bench", "limits", "allowed_libraries"};
const std::vector<std::string> limit_keys = {"build_timeout_s", "run_timeout_s", "sanitizer_timeout_s",
                                             "output_limit_kb",
                                             "submission_file_kb", "submission_kb", "host_memory_mb",
                                             "gpu_memory_mb"};
// The longest build or run timeout a spec may set, in seconds (an hour).
constexpr double longest_timeout_s = 3600.0;
// The shortest, in seconds: in less no case can finish (a process's start, a GPU's first launch),
// so every correct submission would be graded as a hang.
constexpr double shortest_timeout_s = 0.1;
// The most GPU memory a runner may be allowed, in MiB (a tebibyte: more than any GPU holds).
constexpr std::uint64_t most_gpu_memory_mb = std::uint64_t{1} << 20;

// The folder as the user would write it: "assignments/matmul/", or "./" for a bare file name.
std::string shown_folder(const fs::path& path) {
  const std::string parent = path.parent_path().generic_string();
  return parent.empty() ? "./" : parent + "/";
}

// A file named next to the spec (interface, statement): its absolute path, checked to exist.
fs::path companion_file(const Field& field, const std::string& fallback, const std::string& what,
                        const fs::path& given_path, const fs::path& dir, Diagnostics& diags,
                        std::string& shown) {
  shown = fallback;
  if (field.present()) {
    const auto value = read_string(field, diags);
    if (!value) return {};
    shown = *value;
  }
  const fs::path file = (dir / shown).lexically_normal();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    // A default file has no line of its own; an explicit one points at its value.
    const SourceLocation at = field.present() ? diags.where(field.at) : SourceLocation{};
    diags.error(at, what + " file " + quoted_excerpt(shown) + " does not exist (looked in " +
                        shown_folder(given_path) + ")");
    return {};
  }
  return file;
}

std::optional<std::vector<std::string>> read_names(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return called_or_declared_names(text.str());
}

Limits parse_limits(const Field& field, Diagnostics& diags) {
  Limits limits;
  if (!expect_map(field, diags)) return limits;
  const MapReader map(field.value, "'limits'", limit_keys, diags);
  // Above an hour a timeout guards nothing: a hung compiler or runner would hold a TA's batch.
  if (auto v = read_number(map.optional("build_timeout_s"), diags, shortest_timeout_s, false, longest_timeout_s))
    limits.build_timeout_s = *v;
  if (auto v = read_number(map.optional("run_timeout_s"), diags, shortest_timeout_s, false, longest_timeout_s))
    limits.run_timeout_s = *v;
  if (auto v = read_number(map.optional("sanitizer_timeout_s"), diags, shortest_timeout_s, false, longest_timeout_s))
    limits.sanitizer_timeout_s = *v;
  // Kibibytes in the file (readable numbers), bytes in the struct (what the runner counts).
  if (auto v = read_unsigned(map.optional("output_limit_kb"), diags, 1))
    limits.output_limit_bytes = static_cast<std::size_t>(*v) * 1024;
  if (auto v = read_unsigned(map.optional("submission_file_kb"), diags, 1))
    limits.submission_file_bytes = static_cast<std::uint64_t>(*v) * 1024;
  if (auto v = read_unsigned(map.optional("submission_kb"), diags, 1))
    limits.submission_bytes = static_cast<std::uint64_t>(*v) * 1024;
  if (auto v = read_unsigned(map.optional("host_memory_mb"), diags, 1))
    limits.host_memory_bytes = static_cast<std::uint64_t>(*v) << 20;
  // Above a tebibyte no GPU holds it: a typo, which would leave the runners no limit at all.
  if (auto v = read_unsigned(map.optional("gpu_memory_mb"), diags, 1, most_gpu_memory_mb))
    limits.gpu_memory_bytes = static_cast<std::uint64_t>(*v) << 20;
  return limits;
}

std::vector<std::string> parse_lectures(const Field& field, Diagnostics& diags) {
  std::vector<std::string> lectures;
  if (!expect_list(field, diags)) return lectures;
  for (std::size_t i = 0; i < field.value.size(); ++i)
    if (auto v = read_string(item_of(field, i, field.value[i]), diags)) lectures.push_back(*v);
  return lectures;
}

// The 1-based line and column of byte `offset` of `text`, lines ending at '\n'.
SourceLocation location_of(const std::string& file, std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const std::size_t line_start = before.rfind('\n') + 1;  // npos + 1 == 0: the first line
  const auto line = std::count(before.begin(), before.end(), '\n') + 1;
  return SourceLocation{file, static_cast<int>(line), static_cast<int>(offset - line_start + 1)};
}

// A '\r' not followed by '\n' (old Mac line endings): yaml-cpp ends lines only at '\n', so such a
// file reads as one line, a comment swallowing everything after it, or an "empty" spec.
bool refuse_cr_line_endings(std::string_view text, Diagnostics& diags) {
  for (std::size_t at = text.find('\r'); at != std::string_view::npos; at = text.find('\r', at + 1))
    if (at + 1 == text.size() || text[at + 1] != '\n') {
      diags.error(location_of(diags.file(), text, at),
                  "the file uses CR-only line endings (a carriage return without a line feed); "
                  "save it with LF (or CRLF) line endings");
      return true;
    }
  return false;
}

// A spec is one YAML document: a second one (after a '---' line) would be silently ignored.
// Reports it at its '---' line, or at its first node when no such line precedes it.
void refuse_second_document(std::string_view text, const YAML::Node& second, Diagnostics& diags) {
  const int content_line = second.Mark().line;  // 0-based
  int line = 0, marker_line = -1;
  for (std::size_t start = 0; start < text.size() && line <= content_line; ++line) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (text.substr(start, end - start).starts_with("---")) marker_line = line;
    start = end + 1;
  }
  const SourceLocation at = marker_line >= 0
                                ? SourceLocation{diags.file(), marker_line + 1, 1}
                                : diags.where(second);
  diags.error(at, "a second YAML document starts here; a spec is one document (remove this '---' "
                  "and what follows, or merge it into the spec)");
}

// Reads the whole document, or records why it cannot be read.
std::optional<YAML::Node> load_document(const fs::path& path, Diagnostics& diags) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    diags.error(SourceLocation{}, "no such file");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.is_open() || in.bad()) {
    diags.error(SourceLocation{}, "cannot be read");
    return std::nullopt;
  }
  if (refuse_cr_line_endings(text, diags)) return std::nullopt;
  try {
    std::vector<YAML::Node> documents = YAML::LoadAll(text);
    // A second document that is only comments (or a trailing '---') holds nothing: harmless.
    for (std::size_t i = 1; i < documents.size(); ++i)
      if (!documents[i].IsNull()) {
        refuse_second_document(text, documents[i], diags);
        break;
      }
    return documents.empty() ? YAML::Node() : documents.front();
  } catch (const YAML::ParserException& e) {
    diags.error(SourceLocation{diags.file(), e.mark.line + 1, e.mark.column + 1},
                "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    diags.error(SourceLocation{}, "invalid YAML: " + e.msg);
  }
  return std::nullopt;
}

}  // namespace

ParsedSpec parse_spec_file(const fs::path& path, const SizeRules* rules) {
  ParsedSpec parsed;
  Spec& spec = parsed.spec;
  Diagnostics diags(path.string());
  spec.where = SourceLocation{path.string(), 0, 0};
  spec.dir = fs::absolute(path).lexically_normal().parent_path();

  const auto root = load_document(path, diags);
  if (!root) {
    parsed.problems = diags.lines();
    return parsed;
  }
  if (!root->IsMap()) {
    if (root->IsNull())
      diags.error(SourceLocation{},
                  "the spec is empty; it needs 'id', 'title', 'steps' and 'cases'");
    else
      diags.error(*root, "the spec must be a map of keys, not " + describe(*root));
    parsed.problems = diags.lines();
    return parsed;
  }

  const MapReader top(*root, "the spec", top_keys, diags);
  const Field id = top.required("id");
  if (auto v = read_string(id, diags)) {
    spec.id = *v;
    const std::string folder = spec.dir.filename().string();
    if (spec.id != folder)
      diags.error(id.at, "id " + quoted_excerpt(spec.id) + " must equal the folder name " + quoted_excerpt(folder));
  }
  const Field title = top.required("title");
  if (auto v = read_string(title, diags)) {
    spec.title = *v;
    if (spec.title.empty()) diags.error(title.at, "'title' must not be empty");
  }
  spec.lectures = parse_lectures(top.optional("lectures"), diags);

  EntryFiles entries;
  InterfaceNames& interface = entries.interface;
  spec.interface_file = companion_file(top.optional("interface"), "interface.cuh", "interface",
                                       path, spec.dir, diags, interface.shown_name);
  if (!spec.interface_file.empty()) interface.names = read_names(spec.interface_file);
  // Reference-only entries live with the reference (reference/<id>/, a sibling of
  // assignments/): students never see them. A missing file matters only to such steps.
  const std::string folder = spec.dir.filename().string();
  const fs::path reference_only = spec.dir.parent_path().parent_path() / "reference" / folder /
                                  "reference_only.cuh";
  entries.reference_only.shown_name = "reference/" + folder + "/reference_only.cuh";
  std::error_code ec;
  if (fs::is_regular_file(reference_only, ec))
    entries.reference_only.names = read_names(reference_only);
  std::string statement_name;
  spec.statement_file = companion_file(top.optional("statement"), "README.md", "statement", path,
                                       spec.dir, diags, statement_name);

  spec.steps = parse_steps(top.required("steps"), entries, diags);
  if (std::any_of(spec.steps.begin(), spec.steps.end(), [](const Step& s) { return s.reference_only; }))
    spec.reference_only_file = reference_only;
  spec.cases = parse_cases(top.required("cases"), spec.steps, diags);
  spec.performance = parse_performance(top.optional("performance"), spec.steps, diags);
  spec.bench = parse_bench(top.optional("bench"), spec.steps, diags);
  spec.limits = parse_limits(top.optional("limits"), diags);
  spec.allowed_libraries = parse_allowed_libraries(top.optional("allowed_libraries"), diags);
  // The grader's view needs a spec that holds together (its sizes, steps and limits all read).
  if (rules && diags.empty()) check_sizes(spec, *root, *rules, diags);
  parsed.problems = diags.lines();
  return parsed;
}

}  // namespace cugrade
