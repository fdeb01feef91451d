// The `cases:` and `performance:` sections of assignment.yaml: sizes, seeds, points and targets.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "spec/spec_parser.hpp"
#include "spec/suggest.hpp"

namespace cugrade {
namespace {

const std::vector<std::string> group_keys = {"steps", "sizes", "seeds", "points", "visibility", "sanitize"};
const std::vector<std::string> target_keys = {"step",           "reference",    "params",
                                              "full_credit_at", "no_credit_at", "points"};
const std::vector<std::string> visibility_names = {"visible", "hidden"};
// The most points one case group's case or one target may be worth: any more is no grade, and
// enough of them add up past what a double holds ("Score: inf / inf").
constexpr double most_points = 1e6;

std::vector<std::string> parse_group_steps(const Field& field, const std::vector<Step>& steps,
                                           const std::string& subject, Diagnostics& diags) {
  std::vector<std::string> names;
  if (!expect_list(field, diags)) return names;
  if (field.value.size() == 0)
    diags.error(field.at,
                "'steps' must not be empty in " + subject + "; leave it out to mean every step");
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (auto name = read_identifier(item, diags);
        name && check_step_reference(item, *name, steps, subject, diags))
      names.push_back(*name);
  }
  return names;
}

std::vector<Params> parse_sizes(const Field& field, const std::string& subject,
                                Diagnostics& diags) {
  std::vector<Params> sizes;
  if (!expect_list(field, diags)) return sizes;
  if (field.value.size() == 0) diags.error(field.at, "'sizes' must not be empty in " + subject);
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (auto params = parse_params(item, "size " + std::to_string(i + 1) + " of " + subject, diags))
      sizes.push_back(std::move(*params));
  }
  return sizes;
}

std::vector<std::uint64_t> parse_seeds(const Field& field, Diagnostics& diags) {
  if (!field.present()) return {1};
  std::vector<std::uint64_t> seeds;
  if (!expect_list(field, diags)) return seeds;
  if (field.value.size() == 0) diags.error(field.at, "'seeds' must not be empty");
  for (std::size_t i = 0; i < field.value.size(); ++i)
    if (auto v = read_unsigned(item_of(field, i, field.value[i]), diags)) seeds.push_back(*v);
  return seeds;
}

Visibility parse_visibility(const Field& field, Diagnostics& diags) {
  const auto text = read_string(field, diags);
  if (!text || *text == "visible") return Visibility::visible;
  if (*text == "hidden") return Visibility::hidden;
  diags.error(field.at, "'visibility' must be 'visible' or 'hidden', not " + quoted_excerpt(*text) +
                            did_you_mean(*text, visibility_names));
  return Visibility::visible;
}

// Two groups (or one group twice) naming the same step, size and seed would grade one case
// twice under one id; report the first such repeat of each group.
void check_repeats(const std::vector<CaseGroup>& groups, const std::vector<Step>& steps,
                   Diagnostics& diags) {
  std::set<std::string> seen;
  for (const auto& group : groups) {
    bool reported = false;
    for (const auto& step : steps) {
      if (!group.steps.empty() &&
          std::find(group.steps.begin(), group.steps.end(), step.name) == group.steps.end())
        continue;
      for (const auto& size : group.sizes)
        for (const auto seed : group.seeds) {
          const std::string id =
              step.name + "/" + params_to_string(size) + "/seed=" + std::to_string(seed);
          const std::string key = (group.visibility == Visibility::hidden ? "hidden " : "") + id;
          if (seen.insert(key).second || reported) continue;
          diags.error(group.where, "case " + quoted_excerpt(id) + " is listed more than once" +
                                       (group.visibility == Visibility::hidden ? " (hidden)" : ""));
          reported = true;
        }
    }
  }
}

}  // namespace

std::optional<Params> parse_params(const Field& field, const std::string& subject,
                                   Diagnostics& diags) {
  if (!expect_map(field, diags)) return std::nullopt;
  Params params;
  bool ok = true;
  for (auto it = field.value.begin(); it != field.value.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar() || !is_identifier(key.Scalar())) {
      diags.error(key,
                  "parameter names in " + subject + " must be identifiers, not " + describe(key));
      ok = false;
      continue;
    }
    const std::string& name = key.Scalar();
    if (params.contains(name)) {
      diags.error(key, "parameter " + quoted_excerpt(name) + " is given twice in " + subject);
      ok = false;
      continue;
    }
    const bool empty = it->second.IsNull();
    const Field value{quoted_excerpt(name), it->second, empty ? key : it->second};
    // A size of 0 is no case at all (an empty array to generate, nothing to check).
    const auto v = read_unsigned(value, diags, 1);
    if (v && *v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      diags.error(value.at, quoted_excerpt(name) + " is too large: " + excerpt(value.value.Scalar()));
      ok = false;
    } else if (!v) {
      ok = false;
    } else {
      params[name] = static_cast<std::int64_t>(*v);
    }
  }
  if (params.empty() && ok) diags.error(field.at, subject + " must name at least one parameter");
  // Graders multiply sizes in 64-bit integers (rows × columns, N × NT): a product past that
  // range would wrap around to a small or negative element count.
  std::int64_t product = 1;
  for (auto it = params.begin(); ok && it != params.end(); ++it)
    if (__builtin_mul_overflow(product, it->second, &product)) {
      diags.error(field.at, subject + " is too large: the product of its parameters (" +
                                excerpt(params_to_string(params)) + ") does not fit in 64 bits");
      ok = false;
    }
  return ok && !params.empty() ? std::optional<Params>(std::move(params)) : std::nullopt;
}

std::vector<CaseGroup> parse_cases(const Field& field, const std::vector<Step>& steps,
                                   Diagnostics& diags) {
  std::vector<CaseGroup> groups;
  if (!expect_list(field, diags)) return groups;
  if (field.value.size() == 0) diags.error(field.at, "'cases' must not be empty");
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (!expect_map(item, diags)) continue;
    const std::string subject = "case group " + std::to_string(i + 1);
    const MapReader map(item.value, subject, group_keys, diags);
    CaseGroup group;
    group.where = diags.where(item.value);
    group.steps = parse_group_steps(map.optional("steps"), steps, subject, diags);
    group.sizes = parse_sizes(map.required("sizes"), subject, diags);
    group.seeds = parse_seeds(map.optional("seeds"), diags);
    if (auto v = read_number(map.optional("points"), diags, 0.0, false, most_points)) group.points = *v;
    group.visibility = parse_visibility(map.optional("visibility"), diags);
    group.sanitize = group.visibility == Visibility::visible;
    if (auto v = read_bool(map.optional("sanitize"), diags)) group.sanitize = *v;
    groups.push_back(std::move(group));
  }
  if (diags.empty()) check_repeats(groups, steps, diags);
  return groups;
}

std::vector<PerformanceTarget> parse_performance(const Field& field, const std::vector<Step>& steps,
                                                 Diagnostics& diags) {
  std::vector<PerformanceTarget> targets;
  if (!expect_list(field, diags)) return targets;
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    if (!expect_map(item, diags)) continue;
    const std::string subject = "performance target " + std::to_string(i + 1);
    const MapReader map(item.value, subject, target_keys, diags);
    PerformanceTarget target;
    target.where = diags.where(item.value);
    const Field step = map.required("step");
    if (auto v = read_identifier(step, diags)) {
      target.step = *v;
      // A reference-only step has no student entry to time (it may still be the `reference`).
      const auto named = std::find_if(steps.begin(), steps.end(), [&](const Step& s) { return s.name == *v; });
      if (check_step_reference(step, *v, steps, subject, diags) && named->reference_only)
        diags.error(step.at, "step " + quoted_excerpt(*v) + " of " + subject +
                                 " is reference-only: students do not write it, so it cannot be timed as theirs");
    }
    target.reference = target.step;
    const Field reference = map.optional("reference");
    if (auto v = read_identifier(reference, diags)) {
      target.reference = *v;
      check_step_reference(reference, *v, steps, subject, diags);
    }
    if (auto params = parse_params(map.required("params"), "the params of " + subject, diags))
      target.params = std::move(*params);
    const Field full = map.optional("full_credit_at");
    const Field none = map.optional("no_credit_at");
    const auto full_at = read_number(full, diags, 0.0, true);
    const auto none_at = read_number(none, diags, 0.0, true);
    if (full_at) target.full_credit_at = *full_at;
    if (none_at) target.no_credit_at = *none_at;
    // Credit rises linearly from no_credit_at to full_credit_at: the two must not cross.
    const bool both_valid = (full_at || !full.present()) && (none_at || !none.present());
    if (both_valid && (full_at || none_at) && target.no_credit_at >= target.full_credit_at)
      diags.error(none.present() ? none.at : full.at,
                  "'no_credit_at' must be below 'full_credit_at' in " + subject);
    if (auto v = read_number(map.required("points"), diags, 0.0, false, most_points)) target.points = *v;
    targets.push_back(std::move(target));
  }
  return targets;
}

}  // namespace cugrade
