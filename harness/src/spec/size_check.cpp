// Sizes against the grader that will generate them: parameter names, the grader's own
// conditions (its work model refuses what its generator would), and the memory the data takes.
#include <algorithm>
#include <cstdio>
#include <exception>

#include "spec/size_rules.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

// "1.5 GiB", "300.0 MiB": a byte count as a person reads it.
std::string show_bytes(double bytes) {
  char text[64];
  const bool gib = bytes >= double(std::uint64_t{1} << 30);
  std::snprintf(text, sizeof text, "%.1f %s", bytes / double(std::uint64_t{1} << (gib ? 30 : 20)),
                gib ? "GiB" : "MiB");
  return text;
}

// One size to check: its parameters, its map in the document, and what bounds it.
struct SizeAt {
  const Params& params;
  YAML::Node node;                 ///< its map in the document
  std::string subject;             ///< "size 2 of case group 1"
  std::vector<std::string> steps;  ///< the steps it is run for
  double most_bytes;
  std::string bound;               ///< how messages name the bound
};

// Every parameter known to the grader, every required one given.
bool check_names(const SizeAt& size, const SizeRules& rules, Diagnostics& diags) {
  std::vector<std::string> known = rules.parameters.required;
  known.insert(known.end(), rules.parameters.optional.begin(), rules.parameters.optional.end());
  bool ok = true;
  for (auto it = size.node.begin(); it != size.node.end(); ++it) {
    const std::string& name = it->first.Scalar();
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    diags.error(it->first, "unknown parameter " + quoted_excerpt(name) + " in " + size.subject +
                               did_you_mean(name, known) + " (the " + rules.assignment +
                               " grader reads " + join_names(known) + ")");
    ok = false;
  }
  for (const auto& name : rules.parameters.required)
    if (!size.params.contains(name)) {
      diags.error(size.node, size.subject + " has no '" + name + "' (the " + rules.assignment +
                                 " grader needs " + join_names(rules.parameters.required) + ")");
      ok = false;
    }
  return ok;
}

// The grader accepts the size, and its largest step's data fits the bound.
void check_data(const SizeAt& size, const SizeRules& rules, Diagnostics& diags) {
  double most = 0.0;
  std::string largest;
  try {
    for (const auto& step : size.steps)
      if (const double bytes = rules.bytes(step, size.params); bytes > most) {
        most = bytes;
        largest = step;
      }
  } catch (const std::exception& e) {
    diags.error(size.node, size.subject + " is not one the grader accepts: " +
                               excerpt(e.what(), 200));
    return;
  }
  if (most > size.most_bytes)
    diags.error(size.node, size.subject + " needs at least " + show_bytes(most) +
                               " for the inputs and outputs of step " + quoted_excerpt(largest) +
                               ", more than " + size.bound);
}

void check_size(const SizeAt& size, const SizeRules& rules, Diagnostics& diags) {
  if (check_names(size, rules, diags)) check_data(size, rules, diags);
}

}  // namespace

void check_sizes(const Spec& spec, const YAML::Node& root, const SizeRules& rules,
                 Diagnostics& diags) {
  std::vector<std::string> every_step;
  for (const auto& step : spec.steps) every_step.push_back(step.name);
  // A case runs in the CPU backend's runner, whose data host_memory_mb bounds, and in a CUDA
  // runner, whose memory gpu_memory_mb bounds: the smaller.
  const bool host_bound = spec.limits.host_memory_bytes <= spec.limits.gpu_memory_bytes;
  const std::uint64_t case_most = host_bound ? spec.limits.host_memory_bytes : spec.limits.gpu_memory_bytes;
  const double case_bytes = static_cast<double>(case_most);
  const std::string case_bound = std::string(host_bound ? "'host_memory_mb'" : "'gpu_memory_mb'") + " allows (" +
                                 std::to_string(case_most >> 20) + " MiB)";
  // The bench runs the reference alone, in a runner without the GPU memory limit.
  const std::string bench_bound = "a timed size may take (" + show_bytes(static_cast<double>(most_timed_bytes)) + ")";
  // A timed size runs in a CUDA runner, whose memory gpu_memory_mb bounds (and never past what
  // any timed size may take).
  const bool gpu_bound = spec.limits.gpu_memory_bytes < most_timed_bytes;
  const double timed_bytes = static_cast<double>(gpu_bound ? spec.limits.gpu_memory_bytes : most_timed_bytes);
  const std::string timed_bound =
      gpu_bound ? "'gpu_memory_mb' allows (" + std::to_string(spec.limits.gpu_memory_bytes >> 20) + " MiB)"
                : bench_bound;

  const YAML::Node cases = root["cases"];
  for (std::size_t i = 0; i < spec.cases.size(); ++i) {
    const CaseGroup& group = spec.cases[i];
    const YAML::Node sizes = cases[i]["sizes"];
    for (std::size_t j = 0; j < group.sizes.size(); ++j)
      check_size(SizeAt{group.sizes[j], sizes[j],
                        "size " + std::to_string(j + 1) + " of case group " + std::to_string(i + 1),
                        group.steps.empty() ? every_step : group.steps, case_bytes, case_bound},
                 rules, diags);
  }
  const YAML::Node targets = root["performance"];
  for (std::size_t i = 0; i < spec.performance.size(); ++i) {
    const PerformanceTarget& target = spec.performance[i];
    check_size(SizeAt{target.params, targets[i]["params"],
                      "the size of performance target " + std::to_string(i + 1),
                      {target.step, target.reference}, timed_bytes, timed_bound},
               rules, diags);
  }
  const YAML::Node tables = root["bench"];
  for (std::size_t i = 0; i < spec.bench.size(); ++i) {
    const BenchTable& table = spec.bench[i];
    std::vector<std::string> steps;
    for (const auto& row : table.rows) steps.push_back(row.step);
    check_size(SizeAt{table.params, tables[i]["params"],
                      "the size of bench table " + std::to_string(i + 1), steps,
                      double(most_timed_bytes), bench_bound},
               rules, diags);
  }
}

}  // namespace cugrade
