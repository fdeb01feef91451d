#pragma once
// The one pass that reads assignment.yaml into a Spec and collects every problem in it; both
// load_spec (fails on the first list of problems) and lint_spec_file (returns them) use it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "spec/size_rules.hpp"
#include "spec/spec.hpp"
#include "spec/yaml_reader.hpp"

namespace cugrade {

/// A spec as far as it could be read, and every problem found in it (empty = valid).
struct ParsedSpec {
  Spec spec;
  std::vector<std::string> problems;  ///< one line each: "file:line:column: text"
};

/// Reads and checks the YAML file at `path`; messages name the path exactly as given. With the
/// grader's `rules`, a spec otherwise valid has its sizes checked against them too.
ParsedSpec parse_spec_file(const std::filesystem::path& path, const SizeRules* rules = nullptr);

/// The interface file as the steps see it: its name as written in the spec and, when it could
/// be read, the names it declares.
struct InterfaceNames {
  std::string shown_name;                         ///< "interface.cuh"
  std::optional<std::vector<std::string>> names;  ///< absent when the file is missing
};

/// The two files that declare entry points: interface.cuh (the students' steps) and
/// reference/<id>/reference_only.cuh (the reference-only steps; names absent when missing).
struct EntryFiles {
  InterfaceNames interface;
  InterfaceNames reference_only;
};

/// The `steps:` list (non-empty, unique names, each entry declared in interface.cuh, or for a
/// reference-only step in reference_only.cuh and not in interface.cuh).
std::vector<Step> parse_steps(const Field& field, const EntryFiles& files, Diagnostics& diags);
/// The `cases:` list; step names are checked against `steps` when there are any.
std::vector<CaseGroup> parse_cases(const Field& field, const std::vector<Step>& steps,
                                   Diagnostics& diags);
/// The `performance:` list; step names are checked against `steps` when there are any.
std::vector<PerformanceTarget> parse_performance(const Field& field, const std::vector<Step>& steps,
                                                 Diagnostics& diags);
/// The `bench:` list (lecture tables); row steps are checked against `steps` when there are any.
std::vector<BenchTable> parse_bench(const Field& field, const std::vector<Step>& steps,
                                    Diagnostics& diags);
/// A map of parameter names to integers >= 1 whose product fits in 64 bits (a size, or the
/// params of a performance target or bench table).
std::optional<Params> parse_params(const Field& field, const std::string& subject,
                                   Diagnostics& diags);
/// Reports "unknown step 'x' in <subject>; did you mean ...? (steps: ...)" unless `name` is a step.
bool check_step_reference(const Field& field, const std::string& name,
                          const std::vector<Step>& steps, const std::string& subject,
                          Diagnostics& diags);

}  // namespace cugrade
