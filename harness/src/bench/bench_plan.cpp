#include "bench/bench_plan.hpp"

#include <stdexcept>

#include "core/rng.hpp"
#include "pipeline/case_plan.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

bool same_arrays(const ArraySet& a, const ArraySet& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    if (i->first != j->first || i->second.type != j->second.type ||
        i->second.dims != j->second.dims || i->second.bytes != j->second.bytes)
      return false;
  return true;
}

/// The input files of one table: rows whose generated inputs are identical share a file, so a
/// table of seven kernels over 256 MiB writes 256 MiB, not seven times that.
class TableInputs {
 public:
  TableInputs(fs::path stem) : stem_(std::move(stem)) {}

  /// The file holding `inputs`, written now unless an earlier row's inputs were the same.
  std::string file_for(const ArraySet& inputs) {
    for (const auto& [arrays, path] : written_)
      if (same_arrays(arrays, inputs)) return path;
    const std::string path = stem_.string() + "-" + std::to_string(written_.size()) + ".in";
    // The work folder is ours; failing to write it is cugrade's fault (a full disk).
    if (!write_array_file(path, inputs))
      throw std::runtime_error("cannot write " + path + " (is the disk full?)");
    written_.emplace_back(inputs, path);
    return path;
  }

 private:
  fs::path stem_;
  std::vector<std::pair<ArraySet, std::string>> written_;
};

void say(const BenchPlanOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

}  // namespace

BenchPlan plan_bench(const Spec& spec, const Grader& grader, const BenchPlanOptions& options,
                     const fs::path& work_dir) {
  BenchPlan plan;
  const BenchSettings& s = options.settings;
  for (std::size_t t = 0; t < spec.bench.size(); ++t) {
    const BenchTable& table = spec.bench[t];
    PlannedBenchTable planned;
    TableInputs files(work_dir / ("bench-" + std::to_string(t + 1)));
    // One seed per table: every row sees the same data wherever the grader's inputs allow.
    const std::uint64_t seed = derive_seed(0, spec.id + "/bench/" + params_to_string(table.params));
    const bool time_gold = options.cpu_rate && table.rate;
    say(options, spec.id + ": inputs for '" + table.title + "'" +
                     (time_gold ? " and the CPU gold's time on one core" : "") + " ...");
    for (const BenchRow& row : table.rows) {
      const Case c{"bench/" + std::to_string(t + 1) + "/" + row.step, row.step, table.params, seed,
                   0.0, Visibility::visible};
      std::string task_id, problem;
      Work work;
      try {
        work = grader.work(row.step, table.params);
        Rng rng(seed);
        const CaseData data = grader.generate(c, rng);
        TimeTask task;
        task.id = c.id;
        task.reference_step = row.step;
        task.reference_only = true;
        task.params = table.params;
        task.inputs_file = files.file_for(data.inputs);
        task.outputs = output_decls(data.outputs);
        task.min_samples = s.min_samples;
        task.max_samples = s.max_samples;
        task.target_rse = s.target_rse;
        task.budget_s = s.budget_s;
        task.warmup_s = s.warmup_s;
        plan.job.timings.push_back(std::move(task));
        task_id = c.id;
        // The first row's case stands for the table: every row computes the same thing.
        if (time_gold && !planned.cpu_gold_ms)
          planned.cpu_gold_ms = time_gold_ms(grader, c, data.inputs, options.gold);
      } catch (const std::invalid_argument& e) {
        // A size the grader refuses is a mistake in the spec's bench table, not a crash.
        problem = "the grader cannot generate inputs for this table: " + std::string(e.what());
      } catch (const std::out_of_range& e) {
        problem = "the grader needs a parameter this table does not give (" +
                  std::string(e.what()) + ")";
      }
      planned.task_ids.push_back(task_id);
      planned.works.push_back(work);
      planned.problems.push_back(problem);
    }
    if (!options.cpu_rate)
      planned.notes.push_back("no Rate column: the CPU gold was not timed (--no-cpu-rate)");
    else if (!table.rate)
      planned.notes.push_back("no Rate column: this table does not time the CPU gold (rate: false)");
    plan.tables.push_back(std::move(planned));
  }
  return plan;
}

}  // namespace cugrade
