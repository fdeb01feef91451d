#pragma once
// Strict loading of assignment.yaml: an unknown key, a wrong type, a missing file or a reference
// to an unknown step is an Error naming file:line:column and, for keys, the nearest valid one.
#include <filesystem>
#include <optional>
#include <vector>

#include "core/course_secret.hpp"
#include "core/result.hpp"
#include "spec/size_rules.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Loads and validates assignments/<id>/assignment.yaml; `path` is the YAML file. With its
/// grader's `rules`, each size is checked against them too, as lint does (spec/size_rules.hpp).
Result<Spec> load_spec(const std::filesystem::path& path, const SizeRules* rules = nullptr);

/// Loads the spec of assignment `id` below `assignments_dir` (with `rules`, as load_spec);
/// "unknown assignment" lists the ids.
Result<Spec> load_assignment(const std::filesystem::path& assignments_dir, const std::string& id,
                             const SizeRules* rules = nullptr);

/// Ids of every folder below `assignments_dir` that holds an assignment.yaml, sorted.
std::vector<std::string> list_assignments(const std::filesystem::path& assignments_dir);

/// Expands a spec into concrete cases: visible ones always; hidden ones only when a course
/// secret is given (their seeds are keyed by it: hidden_seed(), so a student cannot reproduce them).
std::vector<Case> expand_cases(const Spec& spec, const std::optional<CourseSecret>& course_secret);

}  // namespace cugrade
