#pragma once
// The start gate, shared by harness and runner. A runner whose environment names a file in
// CUGRADE_START_GATE waits, once its CUDA context exists and before its first case, until that
// file exists. The harness creates it once the timing runners it started beside the cases' runner
// have their contexts too (run/lockstep_timing.hpp, start_early_runners): on an H100, another
// process's context starting clears the shared memory a runner poisons before each case.

namespace cugrade {

/// The environment variable naming the gate's file.
inline constexpr const char* start_gate_variable = "CUGRADE_START_GATE";

/// The longest a runner waits at the gate: past it, it starts anyway (the harness opens the gate
/// within seconds even when a timing runner fails to start; this only bounds a harness fault).
inline constexpr double start_gate_most_s = 10.0;

}  // namespace cugrade
