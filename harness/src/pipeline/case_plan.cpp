#include "pipeline/case_plan.hpp"

#include <map>
#include <stdexcept>
#include <vector>

namespace cugrade {
namespace {
/// A file name safe for any case id ("naive/M=65,N=33/seed=1" → "case-3").
std::string file_stem(const char* kind, std::size_t index) {
  return std::string(kind) + "-" + std::to_string(index);
}

/// The part of a grader's movable bodies a task's `inputs` hold: none without both positions,
/// no velocities without both.
MovableBodies movable_bodies_of(MovableBodies declared, const ArraySet& inputs) {
  if (declared.empty() || !inputs.contains(declared.x) || !inputs.contains(declared.y)) return {};
  if (!inputs.contains(declared.vx) || !inputs.contains(declared.vy)) declared.vx = declared.vy = "";
  return declared;
}
}  // namespace

std::vector<Case> graded_cases(const Spec& spec, std::vector<Case> cases, bool reference_only_steps) {
  if (reference_only_steps) return cases;
  std::erase_if(cases, [&spec](const Case& c) { return spec.is_reference_only(c.step); });
  return cases;
}

WorkLayout work_layout(const std::filesystem::path& work_dir) {
  WorkLayout layout{work_dir / "inputs", work_dir / "run", work_dir / "reference", work_dir / "timing",
                    work_dir / "reference-timing"};
  for (const auto& dir : {layout.inputs, layout.run, layout.reference, layout.timing, layout.reference_timing})
    std::filesystem::create_directories(dir);
  return layout;
}

CasePlan plan_cases(const Spec& spec, const Grader& grader, const std::vector<Case>& cases,
                    const std::vector<PerformanceTarget>& timings, const std::filesystem::path& work_dir,
                    CaseMaterials* materials) {
  CaseMaterials own;
  if (!materials) materials = &own;
  CasePlan plan;
  plan.layout = work_layout(work_dir);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    auto material = materials->for_case(grader, c);
    const std::string name = file_stem("case", i);
    materials->place_inputs(material, plan.layout.inputs / (name + ".in"));
    CheckTask task;
    task.id = name;
    task.step = c.step;
    task.reference = spec.is_reference_only(c.step);
    task.params = c.params;
    task.inputs_file = (plan.layout.inputs / (name + ".in")).string();
    task.outputs = material->outputs;
    // A case of a reference-only step runs in the reference runner, which writes only its folder.
    const auto out = (task.reference ? plan.layout.reference : plan.layout.run) / name;
    task.output_file = out.string() + ".out";
    task.readback_file = out.string() + ".readback";
    plan.job.checks.push_back(std::move(task));
    plan.cases.push_back({c, std::move(material)});
  }
  std::map<const CaseMaterial*, std::filesystem::path> timing_files;  // each material's file, written once
  for (std::size_t i = 0; i < timings.size(); ++i) {
    const PerformanceTarget& target = timings[i];
    // The seed follows the parameters, not the step: the timed steps of one size then share their
    // inputs (CaseMaterials::for_timing), written once and uploaded once by each runner.
    Case timed{"perf/" + target.step, target.step, target.params,
               derive_seed(0, spec.id + "/perf/" + params_to_string(target.params)), 0.0, Visibility::visible};
    const auto material = materials->for_timing(grader, timed);
    // One base input set: every timed call gets its own variant of it (runtime/sample_inputs.hpp).
    auto [written, fresh] = timing_files.try_emplace(material.get(), plan.layout.inputs / file_stem("timing", i));
    const auto stem = written->second;
    if (fresh) materials->place_inputs(material, stem.string() + ".in");
    TimeTask task;
    task.id = timed.id;
    task.step = target.step;
    task.reference_step = target.reference;
    task.params = target.params;
    task.inputs_file = stem.string() + ".in";
    task.outputs = material->outputs;
    for (const std::string& name : grader.sign_free_inputs)
      if (material->inputs.contains(name)) task.sign_free_inputs.push_back(name);
    task.movable_bodies = movable_bodies_of(grader.movable_bodies, material->inputs);
    if (const Step* step = spec.find_step(target.step)) {
      task.atol = step->tolerance.atol;
      task.rtol = step->tolerance.rtol;
    }
    plan.job.timings.push_back(std::move(task));
    plan.timings.push_back({target, grader.work(target.step, target.params)});
  }
  return plan;
}

}  // namespace cugrade
