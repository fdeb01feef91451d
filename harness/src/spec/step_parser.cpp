// The `steps:` section of assignment.yaml: one entry point per lecture step.
#include <algorithm>
#include <unordered_map>

#include "spec/spec_parser.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

const std::vector<std::string> step_keys = {"name", "entry", "description", "tolerance",
                                            "reference_only", "host_work"};
const std::vector<std::string> host_work_names = {"refused", "allowed"};

// `host_work:` whether the step's result may be computed on the host (issue: a result must be
// the GPU's work, runtime/host_work.hpp); only a lecture that does part of its work on the host
// says `allowed`.
bool parse_host_work(const Field& field, Diagnostics& diags) {
  const auto text = read_string(field, diags);
  if (!text || *text == "refused") return false;
  if (*text == "allowed") return true;
  diags.error(field.at, "'host_work' must be 'refused' (the default) or 'allowed', not " + quoted_excerpt(*text) +
                            did_you_mean(*text, host_work_names));
  return false;
}
const std::vector<std::string> tolerance_keys = {"atol", "rtol", "reason"};

Tolerance parse_tolerance(const Field& field, const std::string& step_subject, Diagnostics& diags) {
  Tolerance tolerance;
  if (!expect_map(field, diags)) return tolerance;
  const MapReader map(field.value, "the tolerance of " + step_subject, tolerance_keys, diags);
  if (auto v = read_number(map.optional("atol"), diags, 0.0)) tolerance.atol = *v;
  const Field rtol = map.optional("rtol");
  if (auto v = read_number(rtol, diags, 0.0)) {
    tolerance.rtol = *v;
    // |0 - x| <= rtol * |x| for every x once rtol >= 1: an all-zero answer would pass.
    if (*v >= 1.0) diags.error(rtol.at, "'rtol' must be below 1: with rtol >= 1 an answer of all zeros passes");
  }
  // A tolerance is a claim about floating-point error; the reason is how a reader checks it.
  const Field reason = map.required("reason");
  if (auto v = read_string(reason, diags)) {
    tolerance.reason = *v;
    if (tolerance.reason.empty()) diags.error(reason.at, "'reason' must not be empty");
  }
  return tolerance;
}

bool declares(const InterfaceNames& file, const std::string& entry) {
  return file.names && std::find(file.names->begin(), file.names->end(), entry) != file.names->end();
}

// A student's step is declared in interface.cuh; a reference-only step in
// reference/<id>/reference_only.cuh and not in interface.cuh, which students implement.
void check_entry(const Field& field, const Step& step, const std::string& step_subject,
                 const EntryFiles& files, Diagnostics& diags) {
  const InterfaceNames& interface = files.interface;
  const InterfaceNames& reference_only = files.reference_only;
  const std::string& entry = step.entry;
  if (!step.reference_only) {
    if (!interface.names) return;  // the missing file is reported once, not per step
    if (declares(interface, entry)) return;
    std::string hint = did_you_mean(entry, *interface.names);
    if (declares(reference_only, entry))
      hint = " (it is declared in " + reference_only.shown_name +
             ": add 'reference_only: true' if students do not write this step)";
    diags.error(field.at, "entry " + quoted_excerpt(entry) + " of " + step_subject + " is not declared in " +
                              interface.shown_name + hint);
    return;
  }
  if (declares(interface, entry))
    diags.error(field.at, "entry " + quoted_excerpt(entry) + " of reference-only " + step_subject +
                              " is declared in " + interface.shown_name +
                              ", which students implement; declare it only in " +
                              reference_only.shown_name);
  if (!reference_only.names) {
    diags.error(field.at, "entry " + quoted_excerpt(entry) + " of reference-only " + step_subject +
                              " must be declared in " + reference_only.shown_name +
                              ", which does not exist");
    return;
  }
  if (declares(reference_only, entry)) return;
  diags.error(field.at, "entry " + quoted_excerpt(entry) + " of reference-only " + step_subject +
                            " is not declared in " + reference_only.shown_name +
                            did_you_mean(entry, *reference_only.names));
}

// "step 'naive'" when the step has a usable name, else "step 2": how messages name it.
std::string step_subject(const YAML::Node& map, std::size_t index) {
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == "name" && it->second.IsScalar() &&
        is_identifier(it->second.Scalar()))
      return "step " + quoted_excerpt(it->second.Scalar());
  return "step " + std::to_string(index + 1);
}

}  // namespace

std::vector<Step> parse_steps(const Field& field, const EntryFiles& files, Diagnostics& diags) {
  std::vector<Step> steps;
  if (!expect_list(field, diags)) return steps;
  if (field.value.size() == 0) diags.error(field.at, "'steps' must not be empty");
  std::unordered_map<std::string, int> first_lines;  // step name -> its line (linear, not quadratic)
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (!expect_map(item, diags)) continue;
    const std::string subject = step_subject(item.value, i);
    const MapReader map(item.value, subject, step_keys, diags);
    Step step;
    step.where = diags.where(item.value);
    const Field name = map.required("name");
    if (auto v = read_identifier(name, diags)) step.name = *v;
    if (auto v = read_bool(map.optional("reference_only"), diags)) step.reference_only = *v;
    const Field entry = map.required("entry");
    if (auto v = read_identifier(entry, diags)) {
      step.entry = *v;
      check_entry(entry, step, subject, files, diags);
    }
    if (auto v = read_string(map.optional("description"), diags)) step.description = *v;
    step.tolerance = parse_tolerance(map.optional("tolerance"), subject, diags);
    step.host_work_allowed = parse_host_work(map.optional("host_work"), diags);
    if (step.name.empty()) continue;
    if (const auto [first, added] = first_lines.emplace(step.name, step.where.line); !added) {
      diags.error(name.at, "step " + quoted_excerpt(step.name) + " is declared twice (first at line " +
                               std::to_string(first->second) + ")");
      continue;
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

bool check_step_reference(const Field& field, const std::string& name,
                          const std::vector<Step>& steps, const std::string& subject,
                          Diagnostics& diags) {
  // With no readable step at all, every reference would fail: that is one problem, not many.
  if (steps.empty()) return false;
  if (std::any_of(steps.begin(), steps.end(), [&](const Step& s) { return s.name == name; }))
    return true;
  std::vector<std::string> names;
  for (const auto& step : steps) names.push_back(step.name);
  diags.error(field.at, "unknown step " + quoted_excerpt(name) + " in " + subject + did_you_mean(name, names) +
                            " (steps: " + join_names(names, 20) + ")");
  return false;
}

}  // namespace cugrade
