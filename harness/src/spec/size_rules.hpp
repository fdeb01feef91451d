#pragma once
// What an assignment's grader accepts as a size, so that lint refuses, before anything runs, a
// case the grader cannot generate (a parameter missing or unknown) or the machine cannot hold.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spec/spec.hpp"
#include "spec/yaml_reader.hpp"

namespace cugrade {

/// The size parameters a grader reads: those every size must give, and those it may.
struct SizeParameters {
  std::vector<std::string> required;  ///< {"M", "N", "K"}
  std::vector<std::string> optional;  ///< {"nt", "at_cutoff"}: the grader has a default
};

/// A grader's sizes as lint sees them: its parameters and its data model.
struct SizeRules {
  std::string assignment;     ///< "matmul", for messages
  SizeParameters parameters;
  /// Bytes one call of `step` reads and writes at `params` (the grader's work model: at least
  /// its inputs and outputs); may throw std::invalid_argument for a size the grader refuses.
  std::function<double(const std::string& step, const Params& params)> bytes;
};

/// The most data (inputs and outputs) a performance target or bench size may take: 32 GiB.
/// Cases are bounded by `limits.host_memory_mb` instead, the CPU backend's runner's memory.
inline constexpr std::uint64_t most_timed_bytes = std::uint64_t{32} << 30;

/// Checks every size of `spec` (valid as far as the spec alone says) against its grader's
/// `rules`: each parameter known ("did you mean"), each required one given, the size one the
/// grader accepts, its data within bounds. `root` is the document `spec` was read from: the
/// messages point at its nodes.
void check_sizes(const Spec& spec, const YAML::Node& root, const SizeRules& rules,
                 Diagnostics& diags);

}  // namespace cugrade
