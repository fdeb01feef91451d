// The `steps:` section of assignment.yaml: one entry point per lecture step.
#include <algorithm>

#include "spec/spec_parser.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

const std::vector<std::string> step_keys = {"name", "entry", "description", "tolerance"};
const std::vector<std::string> tolerance_keys = {"atol", "rtol", "reason"};

Tolerance parse_tolerance(const Field& field, const std::string& step_subject, Diagnostics& diags) {
  Tolerance tolerance;
  if (!expect_map(field, diags)) return tolerance;
  const MapReader map(field.value, "the tolerance of " + step_subject, tolerance_keys, diags);
  if (auto v = read_number(map.optional("atol"), diags, 0.0)) tolerance.atol = *v;
  if (auto v = read_number(map.optional("rtol"), diags, 0.0)) tolerance.rtol = *v;
  // A tolerance is a claim about floating-point error; the reason is how a reader checks it.
  const Field reason = map.required("reason");
  if (auto v = read_string(reason, diags)) {
    tolerance.reason = *v;
    if (tolerance.reason.empty()) diags.error(reason.at, "'reason' must not be empty");
  }
  return tolerance;
}

void check_entry(const Field& field, const std::string& entry, const std::string& step_subject,
                 const InterfaceNames& interface, Diagnostics& diags) {
  if (!interface.names) return;  // the missing file is reported once, not per step
  const auto& names = *interface.names;
  if (std::find(names.begin(), names.end(), entry) != names.end()) return;
  diags.error(field.at, "entry '" + entry + "' of " + step_subject + " is not declared in " +
                            interface.shown_name + did_you_mean(entry, names));
}

// "step 'naive'" when the step has a usable name, else "step 2": how messages name it.
std::string step_subject(const YAML::Node& map, std::size_t index) {
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == "name" && it->second.IsScalar() &&
        is_identifier(it->second.Scalar()))
      return "step '" + it->second.Scalar() + "'";
  return "step " + std::to_string(index + 1);
}

}  // namespace

std::vector<Step> parse_steps(const Field& field, const InterfaceNames& interface,
                              Diagnostics& diags) {
  std::vector<Step> steps;
  if (!expect_list(field, diags)) return steps;
  if (field.value.size() == 0) diags.error(field.at, "'steps' must not be empty");
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (!expect_map(item, diags)) continue;
    const std::string subject = step_subject(item.value, i);
    const MapReader map(item.value, subject, step_keys, diags);
    Step step;
    step.where = diags.where(item.value);
    const Field name = map.required("name");
    if (auto v = read_identifier(name, diags)) step.name = *v;
    const Field entry = map.required("entry");
    if (auto v = read_identifier(entry, diags)) {
      step.entry = *v;
      check_entry(entry, step.entry, subject, interface, diags);
    }
    if (auto v = read_string(map.optional("description"), diags)) step.description = *v;
    step.tolerance = parse_tolerance(map.optional("tolerance"), subject, diags);
    if (step.name.empty()) continue;
    const auto first = std::find_if(steps.begin(), steps.end(),
                                    [&](const Step& s) { return s.name == step.name; });
    if (first != steps.end()) {
      diags.error(name.at, "step '" + step.name + "' is declared twice (first at line " +
                               std::to_string(first->where.line) + ")");
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
  std::vector<std::string> names;
  for (const auto& step : steps) names.push_back(step.name);
  if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  diags.error(field.at, "unknown step '" + name + "' in " + subject + did_you_mean(name, names) +
                            " (steps: " + join_names(names) + ")");
  return false;
}

}  // namespace cugrade
