#include "similarity/compare_class.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "similarity/base_code.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// Runs sim in `work` with `arguments`, its report written to `work/<output>`, and reads it back.
/// sim exits 0 even when it refuses an option or cannot open a file, saying so on stderr: any
/// word there is a failure.
Result<SimOutput> run_sim(ProcessRunner& processes, const SimilarityOptions& options, const fs::path& work,
                          std::vector<std::string> arguments, const std::string& output) {
  ProcessRequest request;
  request.argv = {options.sim.string()};
  request.argv.insert(request.argv.end(), {"-o", output});
  request.argv.insert(request.argv.end(), arguments.begin(), arguments.end());
  request.working_dir = work;
  request.environment = scrubbed_environment();
  request.timeout_s = options.timeout_s;
  const ProcessResult result = processes.run(request);
  if (!result.started)
    return fail(options.sim.string() + " cannot be run (" + result.launch_error +
                "): install Debian's similarity-tester (sudo apt-get install similarity-tester)");
  if (result.timed_out) return fail(fmt::format("{} took longer than {:.0f} s", options.sim.string(), options.timeout_s));
  if (result.exit_code != 0 || !result.stderr_text.empty())
    return fail(fmt::format("{} failed (exit {}): {}", options.sim.string(), result.exit_code,
                            result.stderr_text.substr(0, 400)));
  auto text = read_whole_file(work / output);
  if (!text) return fail(options.sim.string() + " wrote no report: " + text.error().message);
  auto parsed = parse_sim_output(*text);
  if (!parsed) return fail(options.sim.string() + " " + arguments.front() + ": " + parsed.error().message);
  return parsed;
}

std::string staged_name(const std::string& folder, std::size_t index) { return fmt::format("{}/{:05}.cu", folder, index); }

}  // namespace

Result<ClassSimilarity> compare_class(ProcessRunner& processes, std::vector<StudentCode> students, const StudentCode& base,
                                      const fs::path& work, const SimilarityOptions& options) {
  ClassSimilarity out;
  out.min_run = options.min_run;
  out.students = std::move(students);
  const std::size_t n = out.students.size();
  out.base.resize(n);
  out.tokens.assign(n, 0);
  std::error_code ec;
  fs::remove_all(work, ec);
  for (const char* folder : {"given", "own", "base"})
    if (fs::create_directories(work / folder, ec); ec) return fail("cannot create " + (work / folder).string() + ": " + ec.message());
  // Staged by number: no student's id or file name reaches sim's command line.
  std::map<std::string, std::size_t> index_of;
  std::vector<std::string> given, own;
  for (std::size_t i = 0; i < n; ++i) {
    given.push_back(staged_name("given", i));
    own.push_back(staged_name("own", i));
    index_of[own.back()] = i;
    if (auto written = write_file_atomically(work / given.back(), out.students[i].text); !written)
      return fail(written.error().message);
  }
  const std::string base_file = "base/template.cu";
  if (auto written = write_file_atomically(work / base_file, base.text); !written) return fail(written.error().message);
  if (n == 0) return out;

  // 1. The template's lines in each student's file (-S: new files against the old one only).
  std::vector<std::string> arguments{"-S", "-n", "-r", std::to_string(options.base_min_run)};
  arguments.insert(arguments.end(), given.begin(), given.end());
  arguments.insert(arguments.end(), {"/", base_file});
  auto against_base = run_sim(processes, options, work, arguments, "base.txt");
  if (!against_base) return fail(against_base.error().message);
  const auto template_lines = base_lines(against_base->runs, {base_file});
  for (std::size_t i = 0; i < n; ++i) {
    if (auto found = template_lines.find(given[i]); found != template_lines.end()) out.base[i] = found->second;
    if (auto written = write_file_atomically(work / own[i], blank_lines(out.students[i].text, out.base[i])); !written)
      return fail(written.error().message);
  }

  // 2. Each pair in isolation (-e): percentages both ways (-a -p), then the runs themselves (-s -n).
  const std::string run = std::to_string(options.min_run);
  arguments = {"-e", "-a", "-p", "-r", run};
  arguments.insert(arguments.end(), own.begin(), own.end());
  auto percentages = run_sim(processes, options, work, arguments, "percentages.txt");
  if (!percentages) return fail(percentages.error().message);
  arguments = {"-e", "-s", "-n", "-r", run};
  arguments.insert(arguments.end(), own.begin(), own.end());
  auto runs = run_sim(processes, options, work, arguments, "runs.txt");
  if (!runs) return fail(runs.error().message);

  for (const SimFileSize& file : percentages->files)
    if (auto i = index_of.find(file.file); i != index_of.end()) out.tokens[i->second] = file.tokens;
  std::map<std::pair<std::size_t, std::size_t>, SimilarPair> pairs;
  auto pair_of = [&pairs](std::size_t x, std::size_t y) -> SimilarPair& {
    SimilarPair& p = pairs[{std::min(x, y), std::max(x, y)}];
    p.a = std::min(x, y);
    p.b = std::max(x, y);
    return p;
  };
  for (const SimPercentage& p : percentages->percentages) {
    const auto f = index_of.find(p.file), g = index_of.find(p.of);
    if (f == index_of.end() || g == index_of.end() || f->second == g->second)
      return fail("sim's percentages name a file it was not given: " + p.file + ", " + p.of);
    SimilarPair& pair = pair_of(f->second, g->second);
    (f->second < g->second ? pair.a_percent : pair.b_percent) = p.percent;
  }
  for (SimRun r : runs->runs) {
    const auto f = index_of.find(r.file_a), g = index_of.find(r.file_b);
    if (f == index_of.end() || g == index_of.end())
      return fail("sim's runs name a file it was not given: " + r.file_a + ", " + r.file_b);
    if (f->second == g->second) continue;  // -s compares no file with itself; nothing to show
    if (f->second > g->second) {
      std::swap(r.file_a, r.file_b);
      std::swap(r.a, r.b);
    }
    SimilarPair& pair = pair_of(f->second, g->second);
    pair.run_tokens += r.tokens;
    pair.runs.push_back(std::move(r));
  }
  for (auto& [key, pair] : pairs) {
    std::stable_sort(pair.runs.begin(), pair.runs.end(), [](const SimRun& x, const SimRun& y) { return x.tokens > y.tokens; });
    out.pairs.push_back(std::move(pair));
  }
  std::stable_sort(out.pairs.begin(), out.pairs.end(), [](const SimilarPair& x, const SimilarPair& y) {
    if (x.percent() != y.percent()) return x.percent() > y.percent();
    return x.run_tokens > y.run_tokens;
  });
  out.tool = sim_version(processes, options.sim);
  return out;
}

std::string sim_version(ProcessRunner& processes, const fs::path& sim) {
  ProcessRequest request;
  request.argv = {sim.string(), "-v"};
  request.environment = scrubbed_environment();
  request.timeout_s = 10.0;
  const ProcessResult result = processes.run(request);
  if (!result.started || result.exit_code != 0) return "";
  std::string said = result.stdout_text.substr(0, result.stdout_text.find('\n'));  // "Build Aug  7 2019, 23:48:57"
  return said.empty() ? sim.filename().string() : fmt::format("{} ({})", sim.filename().string(), said);
}

}  // namespace cugrade
