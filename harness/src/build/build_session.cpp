// BuildSession: the steps and failure readings both build backends share.
#include "build/build_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "build/link_errors.hpp"
#include "build/nvcc_command.hpp"
#include "build/output_filter.hpp"
#include "process/sandbox.hpp"
#include "spec/interface_scan.hpp"

namespace cugrade {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string failure_summary(std::string_view output, const ProcessResult& result,
                            std::string_view tool) {
  // The first line naming an error (GNU as: "file:3: Error: ..."), else the first line.
  for (std::string_view rest = output; !rest.empty();) {
    const std::string_view line = rest.substr(0, rest.find('\n'));
    rest = line.size() < rest.size() ? rest.substr(line.size() + 1) : std::string_view{};
    if (line.find("error") != std::string_view::npos || line.find("Error") != std::string_view::npos)
      return std::string(line);
  }
  std::string first_line(output.substr(0, output.find('\n')));
  if (!first_line.empty()) return first_line;
  return result.signal ? fmt::format("{} was killed by signal {}", tool, *result.signal)
                       : fmt::format("{} failed with exit code {}", tool, result.exit_code);
}

BuildSession::BuildSession(ProcessRunner& runner, const BuildRequest& request, std::string arch)
    : runner_(runner), request_(request), started_(std::chrono::steady_clock::now()) {
  output_.result.arch = std::move(arch);
  sealed_ = request.sealed.value_or(sandbox_status().works);
}

ReadableFolders BuildSession::readable_folders(std::vector<fs::path> system) const {
  // Sealed, TMPDIR is the step's own /tmp (nothing else is there); unsealed it is tmp/ in the
  // build folder, and the host's /tmp (other checks' folders) stays out.
  if (sealed_) system.emplace_back("/tmp");
  return ReadableFolders{request_.work_dir, std::move(system)};
}

std::optional<BuildOutput> BuildSession::stage() {
  try {
    for (const char* folder : {"obj", "tmp"}) fs::create_directories(request_.work_dir / folder);
    auto staged = stage_submission(request_.sources, request_.assignment_dir, request_.work_dir);
    if (!staged) {
      for (auto& diagnostic : staged.error().diagnostics) add_diagnostic(std::move(diagnostic));
      return finish(Outcome::compile_error, staged.error().message);
    }
    staging_ = std::move(*staged);
  } catch (const std::exception& e) {
    return finish(Outcome::harness_error, std::string("cannot stage the submission: ") + e.what());
  }
  return std::nullopt;
}

DiagnosticPaths BuildSession::diagnostic_paths() const {
  DiagnosticPaths paths{request_.sources, request_.assignment_dir, {}};
  for (const auto* list : {&staging_.sources, &staging_.headers})
    for (const auto& file : *list) paths.renamed.emplace_back(file.staged, file.shown);
  return paths;
}

BuildOutput BuildSession::finish(Outcome outcome, std::string message) {
  output_.result.outcome = outcome;
  output_.result.message = std::move(message);
  output_.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (outcome != Outcome::passed) output_.runner.clear();
  return output_;
}

BuildOutput BuildSession::passed(const fs::path& runner) {
  output_.runner = runner;
  return finish(Outcome::passed, "");
}

namespace {

bool is_under(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_normal().lexically_relative(folder.lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

/// Whether the sandbox shows `path` already, as part of the system (and not hidden there).
bool in_sandbox_system(const fs::path& path) {
  const SandboxHost& host = sandbox_host();
  std::error_code ec;
  fs::path real = fs::weakly_canonical(path, ec);
  if (ec) real = path;
  const auto under = [&](const fs::path& folder) { return is_under(real, folder); };
  return std::any_of(host.read_only.begin(), host.read_only.end(), under) &&
         std::none_of(host.hidden.begin(), host.hidden.end(), under);
}

}  // namespace

SandboxSpec BuildSession::sandbox(const std::vector<fs::path>& read_only) const {
  SandboxSpec spec;
  spec.mounts.push_back({request_.work_dir, {}, true});
  // What the system already shows (the toolkit under /usr) is not bound a second time.
  for (const auto& path : read_only)
    if (!path.empty() && !in_sandbox_system(path)) spec.mounts.push_back({path, {}, false});
  // cicc, ptxas and cc1plus stay far below 4 GiB; a compile reading /dev/zero does not.
  spec.address_space_bytes = std::uint64_t{4} << 30;
  spec.file_bytes = std::uint64_t{512} << 20;
  spec.cpu_seconds = static_cast<std::uint64_t>(std::ceil(request_.timeout_s)) + 5;
  return spec;
}

std::string BuildSession::with_student_names(std::string text) const {
  for (const auto* list : {&staging_.sources, &staging_.headers}) {
    for (const auto& file : *list) {
      if (file.staged == file.shown) continue;
      for (auto at = text.find(file.staged); at != std::string::npos;
           at = text.find(file.staged, at + file.shown.size())) {
        text.replace(at, file.staged.size(), file.shown);
      }
    }
  }
  return text;
}

void BuildSession::append_log(const std::string& text) {
  std::string& log = output_.result.log;
  // Once the log is full, later tools add nothing: the first errors are the ones that matter.
  if (log.size() >= build_log_limit_bytes) return;
  log += text;
  if (log.size() > build_log_limit_bytes) {
    log.resize(build_log_limit_bytes);
    log += "\n[compiler output truncated at 16 KiB]\n";
  }
}

ProcessResult BuildSession::execute(const std::vector<std::string>& argv, bool log_output,
                                    const SandboxSpec& sandbox) {
  output_.result.commands.push_back(display_command(argv));
  ProcessRequest process;
  process.argv = argv;
  process.working_dir = request_.work_dir;
  process.environment = request_.environment;
  // The build's own temporary folder, by a relative name: nothing of the grader's paths goes
  // into the commands nvcc runs through a shell.
  process.environment["TMPDIR"] = "tmp";
  process.timeout_s = request_.timeout_s;
  if (sealed_) process.sandbox = sandbox;
  ProcessResult result = runner_.run(process);
  if (log_output) append_log(with_student_names(result.stderr_text + result.stdout_text));
  return result;
}

std::expected<std::string, BuildOutput> BuildSession::checked_compile_output(
    const ProcessResult& result, std::size_t index, const ReadableFolders& folders,
    bool require_lists) {
  const FilteredOutput filtered =
      filter_compiler_output(result.stderr_text + result.stdout_text, folders);
  std::vector<std::string> outside = filtered.outside;
  std::string missing;
  for (const std::string& list : {dependency_path(index), assembler_dependency_path(index)}) {
    const std::optional<std::string> text = read_file(request_.work_dir / list);
    if (!text) {
      if (missing.empty()) missing = list;
      continue;
    }
    for (auto& file : files_outside(parse_dependency_file(*text), folders))
      if (std::find(outside.begin(), outside.end(), file) == outside.end()) outside.push_back(file);
  }
  const StagedFile& source = staging_.sources.at(index);
  if (!outside.empty()) {
    // Nothing the compiler said is shown: a message on the student's own line may still
    // quote what the outside file defines.
    append_log("[the compiler read " + outside.front() +
               ", outside your submission: its output is not shown]\n");
    for (const auto& file : outside)
      add_diagnostic({source.shown, 0, 0, "error", "makes the compiler read " + file + ", outside the submission"});
    return std::unexpected(finish(
        Outcome::compile_error,
        "your file makes the compiler read " + outside.front() +
            ", which is outside your submission: includes must be your own files (next to your "
            ".cu file) or system headers"));
  }
  if (require_lists && result.exit_code == 0 && !result.signal && !missing.empty()) {
    return std::unexpected(finish(Outcome::harness_error,
                                  "the compiler wrote no list of the files it read (" + missing + ")"));
  }
  append_log(with_student_names(filtered.text));
  return filtered.text;
}

void BuildSession::add_diagnostic(Diagnostic diagnostic) {
  output_.result.diagnostics.push_back(std::move(diagnostic));
}

void BuildSession::keep_unset_reads(const std::vector<Diagnostic>& reads) {
  output_.unset_reads.insert(output_.unset_reads.end(), reads.begin(), reads.end());
}

std::optional<std::string> BuildSession::keep_diagnostics(std::vector<Diagnostic> diagnostics) {
  const auto first_error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [](const Diagnostic& d) { return d.severity == "error"; });
  std::optional<std::string> error_text;
  if (first_error != diagnostics.end()) error_text = describe(*first_error);
  if (diagnostics.size() > 10) diagnostics.resize(10);
  auto& kept = output_.result.diagnostics;
  kept.insert(kept.end(), diagnostics.begin(), diagnostics.end());
  if (kept.size() > 10) kept.resize(10);
  return error_text;
}

std::expected<std::vector<Symbol>, BuildOutput> BuildSession::check_symbols(
    std::size_t index, const SymbolContext& context) {
  const std::string object = object_path(index);
  const ProcessResult result = execute(symbols_command(object), false, sandbox());
  if (!result.started) {
    return std::unexpected(finish(Outcome::harness_error,
                                  "nm was not found on PATH: install binutils (cugrade uses nm to "
                                  "check which names your file defines)" +
                                      (result.launch_error.empty() ? std::string()
                                                                   : " (" + result.launch_error + ")")));
  }
  if (result.timed_out || result.exit_code != 0) {
    const std::string why = result.stderr_text.substr(0, result.stderr_text.find('\n'));
    return std::unexpected(finish(Outcome::harness_error, "nm could not list the symbols of " + object +
                                                              (why.empty() ? std::string() : ": " + why)));
  }
  std::vector<Symbol> symbols = parse_nm_output(result.stdout_text);
  const std::vector<SymbolViolation> violations = find_forbidden_symbols(symbols, context);
  if (violations.empty()) return symbols;
  const std::string& file = staging_.sources.at(index).shown;
  for (const auto& violation : violations) {
    add_diagnostic({file, 0, 0, "error",
                    (violation.use ? "uses " : "defines ") + violation.symbol + ": " + violation.reason});
  }
  const SymbolViolation& first = violations.front();
  return std::unexpected(finish(Outcome::forbidden_symbol,
                                std::string("your file ") + (first.use ? "uses " : "defines ") +
                                    first.symbol + ", which it may not: " + first.reason));
}

void BuildSession::start_listing_libraries(std::vector<LinkLibrary> libraries) {
  if (!request_.runner_library.empty())
    libraries.push_back({request_.runner_library, "the runner library", true});
  libraries_ = std::async(std::launch::async,
                          [libraries = std::move(libraries)] { return list_library_symbols(libraries); });
}

std::expected<std::shared_ptr<const LibrarySymbols>, BuildOutput> BuildSession::library_symbols() {
  if (!listed_) listed_ = libraries_.valid() ? libraries_.get() : list_library_symbols({});
  if (!listed_->unreadable.empty())
    return std::unexpected(
        finish(Outcome::harness_error, "cannot list the symbols of " + listed_->unreadable.front()));
  return listed_;
}

std::vector<std::string> BuildSession::entry_names() const {
  // The assignment's copy, staged (staging.hpp): a student's own interface.cuh is never used.
  const fs::path interface = request_.work_dir / staging_folder / "interface.cuh";
  return called_or_declared_names(read_file(interface).value_or(""));
}

std::optional<BuildOutput> BuildSession::seal(const std::vector<std::vector<Symbol>>& symbols) {
  std::vector<Symbol> all;
  for (const auto& list : symbols) all.insert(all.end(), list.begin(), list.end());
  {
    std::ofstream keep(request_.work_dir / entry_points_file, std::ios::binary | std::ios::trunc);
    // Never a list without names: objcopy refuses an empty file, and reads one holding only
    // blank lines as no list at all, keeping every name global. The first name exists nowhere.
    keep << no_entry_point << '\n';
    for (const auto& name : entry_point_symbols(all, entry_names())) keep << name << '\n';
    if (!keep) return finish(Outcome::harness_error, "cannot write " + std::string(entry_points_file));
  }
  std::string input = object_path(0);
  if (symbols.size() > 1) {
    std::vector<std::string> objects;
    for (std::size_t i = 0; i < symbols.size(); ++i) objects.push_back(object_path(i));
    input = "obj/joined.o";
    const ProcessResult joined = execute(join_command(objects, input), true, sandbox());
    if (!joined.started || joined.timed_out)
      return finish(Outcome::harness_error, "ld could not join your objects: " +
                                                (joined.timed_out ? std::string("it timed out") : joined.launch_error));
    // Two of the student's files defining one name: the student's link error.
    if (joined.exit_code != 0) return link_failure(joined, "toolchain", "ld -r failed");
  }
  const ProcessResult sealed = execute(seal_command(input), true, sandbox());
  if (!sealed.started || sealed.timed_out || sealed.exit_code != 0 ||
      !fs::exists(request_.work_dir / sealed_object)) {
    return finish(Outcome::harness_error,
                  "objcopy could not make your object's names private: " +
                      failure_summary(sealed.started ? sealed.stderr_text : sealed.launch_error, sealed, "objcopy"));
  }
  return std::nullopt;
}

BuildOutput BuildSession::link_failure(const ProcessResult& result, std::string_view library,
                                       std::string_view no_reason) {
  const LinkErrors errors = parse_link_errors(result.stderr_text + result.stdout_text);
  if (!errors.missing_files.empty()) {
    const std::string& missing = errors.missing_files.front();
    // -lNAME is a library of the system's that the runner links (Boost.Context on the CPU backend).
    if (missing.starts_with("-l"))
      return finish(Outcome::harness_error,
                    fmt::format("the linker cannot find {}: lib{} is not installed where the compiler "
                                "looks (scripts/install-deps.sh installs what cugrade needs)",
                                missing, missing.substr(2)));
    return finish(Outcome::harness_error,
                  fmt::format("the linker cannot find {}: the assignment's {} is not built or not "
                              "installed",
                              missing, library));
  }
  if (errors.undefined.empty() && errors.multiple.empty()) {
    const std::string why =
        errors.first_error.empty() ? std::string(no_reason) : errors.first_error;
    return finish(Outcome::link_error, "your file does not link: " + with_student_names(why));
  }
  const std::string student_file =
      staging_.sources.empty() ? std::string() : staging_.sources.front().shown;
  for (const auto& name : errors.undefined) {
    add_diagnostic(Diagnostic{student_file, 0, 0, "error", "no definition of " + name});
  }
  for (const auto& name : errors.multiple) {
    add_diagnostic(Diagnostic{student_file, 0, 0, "error", "more than one definition of " + name});
  }
  // A missing name that interface.cuh declares is a missing entry point (link_errors.hpp).
  const std::string declared =
      read_file(request_.assignment_dir / "interface.cuh").value_or(std::string());
  return finish(Outcome::link_error, describe_link_errors(errors, declared));
}

}  // namespace cugrade
