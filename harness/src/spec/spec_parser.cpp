#include "spec/spec_parser.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "spec/interface_scan.hpp"
#include "spec/library_parser.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> top_keys = {
    "id", "title", "lectures", "interface", "statement", "steps", "cases", "performance",
    "bench", "limits", "allowed_libraries"};
const std::vector<std::string> limit_keys = {"build_timeout_s", "run_timeout_s", "output_limit_kb",
                                             "submission_file_kb", "submission_kb", "host_memory_mb"};

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
    diags.error(at, what + " file '" + shown + "' does not exist (looked in " +
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
  if (auto v = read_number(map.optional("build_timeout_s"), diags, 0.0, true))
    limits.build_timeout_s = *v;
  if (auto v = read_number(map.optional("run_timeout_s"), diags, 0.0, true))
    limits.run_timeout_s = *v;
  // Kibibytes in the file (readable numbers), bytes in the struct (what the runner counts).
  if (auto v = read_unsigned(map.optional("output_limit_kb"), diags, 1))
    limits.output_limit_bytes = static_cast<std::size_t>(*v) * 1024;
  if (auto v = read_unsigned(map.optional("submission_file_kb"), diags, 1))
    limits.submission_file_bytes = static_cast<std::uint64_t>(*v) * 1024;
  if (auto v = read_unsigned(map.optional("submission_kb"), diags, 1))
    limits.submission_bytes = static_cast<std::uint64_t>(*v) * 1024;
  if (auto v = read_unsigned(map.optional("host_memory_mb"), diags, 1))
    limits.host_memory_bytes = static_cast<std::uint64_t>(*v) << 20;
  return limits;
}

std::vector<std::string> parse_lectures(const Field& field, Diagnostics& diags) {
  std::vector<std::string> lectures;
  if (!expect_list(field, diags)) return lectures;
  for (std::size_t i = 0; i < field.value.size(); ++i)
    if (auto v = read_string(item_of(field, i, field.value[i]), diags)) lectures.push_back(*v);
  return lectures;
}

// Reads the whole document, or records why it cannot be read.
std::optional<YAML::Node> load_document(const fs::path& path, Diagnostics& diags) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    diags.error(SourceLocation{}, "no such file");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error(SourceLocation{}, "cannot be read");
    return std::nullopt;
  }
  try {
    return YAML::Load(in);
  } catch (const YAML::ParserException& e) {
    diags.error(SourceLocation{diags.file(), e.mark.line + 1, e.mark.column + 1},
                "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    diags.error(SourceLocation{}, "invalid YAML: " + e.msg);
  }
  return std::nullopt;
}

}  // namespace

ParsedSpec parse_spec_file(const fs::path& path) {
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
      diags.error(id.at, "id '" + spec.id + "' must equal the folder name '" + folder + "'");
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
  parsed.problems = diags.lines();
  return parsed;
}

}  // namespace cugrade
