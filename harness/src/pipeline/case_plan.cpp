#include "pipeline/case_plan.hpp"

#include <stdexcept>
#include <vector>

namespace cugrade {
namespace {
/// A file name safe for any case id ("naive/M=65,N=33/seed=1" → "case-3").
std::string file_stem(const char* kind, std::size_t index) {
  return std::string(kind) + "-" + std::to_string(index);
}

void write_or_throw(const std::filesystem::path& path, const ArraySet& arrays) {
  // The work folder is ours; failing to write it is a harness fault (disk full), not the student's.
  if (!write_array_file(path.string(), arrays))
    throw std::runtime_error("cannot write " + path.string() + " (is the disk full?)");
}
}  // namespace

std::map<std::string, OutputDecl> output_decls(const ArraySet& outputs) {
  std::map<std::string, OutputDecl> decls;
  for (const auto& [name, array] : outputs) decls[name] = OutputDecl{array.type, array.dims};
  return decls;
}

std::vector<Case> graded_cases(const Spec& spec, std::vector<Case> cases, bool reference_only_steps) {
  if (reference_only_steps) return cases;
  std::erase_if(cases, [&spec](const Case& c) { return spec.is_reference_only(c.step); });
  return cases;
}

CasePlan plan_cases(const Spec& spec, const Grader& grader, const std::vector<Case>& cases,
                    const std::vector<PerformanceTarget>& timings, const std::filesystem::path& work_dir) {
  CasePlan plan;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Rng rng(c.seed);
    CaseData data = grader.generate(c, rng);
    const auto stem = work_dir / file_stem("case", i);
    write_or_throw(stem.string() + ".in", data.inputs);
    CheckTask task;
    task.id = c.id;
    task.step = c.step;
    task.reference = spec.is_reference_only(c.step);
    task.params = c.params;
    task.inputs_file = stem.string() + ".in";
    task.outputs = output_decls(data.outputs);
    task.output_file = stem.string() + ".out";
    task.readback_file = stem.string() + ".readback";
    plan.job.checks.push_back(std::move(task));
    ArraySet gold = grader.gold(c, data.inputs);
    plan.cases.push_back({c, std::move(data.inputs), std::move(gold)});
  }
  for (std::size_t i = 0; i < timings.size(); ++i) {
    const PerformanceTarget& target = timings[i];
    Case timed{"perf/" + target.step, target.step, target.params,
               derive_seed(0, spec.id + "/perf/" + target.step), 0.0, Visibility::visible};
    Rng rng(timed.seed);
    CaseData data = grader.generate(timed, rng);
    Rng verify_rng(derive_seed(1, spec.id + "/verify/" + target.step));
    CaseData verify = grader.generate(timed, verify_rng);
    const auto stem = work_dir / file_stem("timing", i);
    write_or_throw(stem.string() + ".in", data.inputs);
    write_or_throw(stem.string() + ".verify.in", verify.inputs);
    TimeTask task;
    task.id = timed.id;
    task.step = target.step;
    task.reference_step = target.reference;
    task.params = target.params;
    task.inputs_file = stem.string() + ".in";
    task.verify_inputs_file = stem.string() + ".verify.in";
    task.outputs = output_decls(data.outputs);
    task.student_output_file = stem.string() + ".student.out";
    task.reference_output_file = stem.string() + ".reference.out";
    plan.job.timings.push_back(std::move(task));
    plan.timings.push_back({target, grader.work(target.step, target.params)});
  }
  return plan;
}

}  // namespace cugrade
