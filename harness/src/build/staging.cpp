// stage_submission(): the submission's files, and only those, in the build folder.
#include "build/staging.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <fstream>

#include "build/source_scan.hpp"
#include "core/regular_file.hpp"

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// Most headers one submission may stage (a guard against include chains without end).
constexpr std::size_t max_headers = 256;

struct Pending {
  StagedFile file;
  std::string text;
};

std::unexpected<StagingFailure> refuse(std::string message,
                                       std::vector<Diagnostic> diagnostics = {}) {
  return std::unexpected(StagingFailure{std::move(message), std::move(diagnostics)});
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); });
}

/// Whether a folder between `base` and `base/name` is a symbolic link (a header reached through
/// a linked folder is not next to the student's file).
bool through_link(const fs::path& base, const std::string& name) {
  fs::path folder = base;
  const fs::path relative(name);
  for (auto part = relative.begin(); part != relative.end() && std::next(part) != relative.end(); ++part) {
    folder /= *part;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(folder, ec))) return true;
  }
  return false;
}

bool exists_as_entry(const fs::path& path) {
  std::error_code ec;
  return fs::exists(fs::symlink_status(path, ec));
}

bool same_file(const fs::path& a, const fs::path& b) {
  if (a.lexically_normal() == b.lexically_normal()) return true;
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

}  // namespace

std::expected<Staging, StagingFailure> stage_submission(const std::vector<fs::path>& sources,
                                                        const fs::path& assignment_dir,
                                                        const fs::path& build_dir) {
  const fs::path root = build_dir / staging_folder;
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root);

  Staging staging;
  std::deque<Pending> pending;
  const fs::path interface = assignment_dir.empty() ? fs::path() : assignment_dir / "interface.cuh";
  if (!interface.empty() && fs::is_regular_file(interface, ec)) {
    auto text = read_regular_file(interface, "interface.cuh", staged_file_limit_bytes);
    if (!text) throw std::runtime_error("cannot read the assignment's " + text.error().message);
    const std::string staged = std::string(staging_folder) + "/interface.cuh";
    write_text(build_dir / staged, *text);
    staging.headers.push_back({interface, staged, "interface.cuh"});
  }

  for (std::size_t i = 0; i < sources.size(); ++i) {
    const fs::path& source = sources[i];
    const std::string name = source.filename().string();
    if (!exists_as_entry(source)) return refuse("submission file " + name + " was not found");
    auto text = read_regular_file(source, "submission file " + name, staged_file_limit_bytes);
    if (!text) return refuse(text.error().message);
    if (blank(*text)) return refuse("submission file " + name + " is empty");
    StagedFile file{source, std::string(staging_folder) + "/" + staged_source_name(i), name};
    write_text(build_dir / file.staged, *text);
    staging.sources.push_back(file);
    pending.push_back({std::move(file), std::move(*text)});
  }

  const auto staged_as = [&](const std::string& staged) -> const StagedFile* {
    for (const auto* list : {&staging.sources, &staging.headers})
      for (const auto& file : *list)
        if (file.staged == staged) return &file;
    return nullptr;
  };

  while (!pending.empty()) {
    const Pending current = std::move(pending.front());
    pending.pop_front();
    const SourceScan scan = scan_source(current.text);
    if (!scan.refused.empty()) {
      std::vector<Diagnostic> diagnostics;
      for (const auto& refused : scan.refused) {
        if (diagnostics.size() == 10) break;
        diagnostics.push_back({current.file.shown, refused.line, 0, "error",
                               refused.construct + ": " + refused.reason});
      }
      const RefusedConstruct& first = scan.refused.front();
      return refuse("your file is refused before compiling: " + current.file.shown + ":" +
                        std::to_string(first.line) + ": " + first.construct + ": " + first.reason,
                    std::move(diagnostics));
    }
    for (const auto& include : scan.includes) {
      // Angled includes and those a macro names are left to the compiler (its search path is
      // the staging folder and the system's; dependency_check.hpp sees what it opened).
      if (include.angled || include.name.empty()) continue;
      const std::string staged =
          (fs::path(current.file.staged).parent_path() / include.name).generic_string();
      if (staged == std::string(staging_folder) + "/interface.cuh") continue;
      const fs::path original = current.file.original.parent_path() / include.name;
      const std::string where = current.file.shown + ":" + std::to_string(include.line);
      if (through_link(current.file.original.parent_path(), include.name))
        return refuse("your file is refused before compiling: " + where + ": #include \"" +
                      include.name + "\" goes through a symbolic link to a folder; a submission "
                      "is regular files");
      if (const StagedFile* already = staged_as(staged)) {
        if (same_file(already->original, original)) continue;
        return refuse("your file is refused before compiling: " + where + ": #include \"" +
                      include.name + "\" names a different file than " + already->shown +
                      " does; give your headers distinct names");
      }
      if (!exists_as_entry(original)) continue;  // a system header, or missing: the compiler says
      if (staging.headers.size() >= max_headers)
        return refuse("your submission includes more than " + std::to_string(max_headers) +
                      " headers of its own");
      const std::string shown = staged.substr(staging_folder.size() + 1);
      auto text = read_regular_file(original, "header " + shown + " (included at " + where + ")",
                                    staged_file_limit_bytes);
      if (!text) return refuse(text.error().message);
      StagedFile header{original, staged, shown};
      write_text(build_dir / staged, *text);
      staging.headers.push_back(header);
      pending.push_back({std::move(header), std::move(*text)});
    }
  }
  return staging;
}

std::string staged_source_name(std::size_t index) { return "submission_" + std::to_string(index) + ".cu"; }

std::string shown_source_name(std::string_view printed, const std::vector<std::string>& names) {
  if (const auto slash = printed.rfind('/'); slash != std::string_view::npos) printed.remove_prefix(slash + 1);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (printed == staged_source_name(i)) return names[i];
  return std::string(printed);
}

}  // namespace cugrade
