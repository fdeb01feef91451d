#pragma once
// The start gate, shared by harness and runner. A runner whose environment names a file in
// CUGRADE_START_GATE waits, once its CUDA context exists and before its first case, until that
// file exists. The harness creates it once the timing runners it started beside the cases' runner
// have their contexts too (run/lockstep_timing.hpp, start_early_runners): on an H100, another
// process's context starting clears the shared memory a runner poisons before each case.
// The sanitizer's runners started beside the cases (pipeline/early_sanitizers.hpp) also say when
// their contexts exist (a ready file) and wait at a gate of their own, which either lets them run
// their cases or ends them before any.

namespace cugrade {

/// The environment variable naming the gate's file.
inline constexpr const char* start_gate_variable = "CUGRADE_START_GATE";

/// The longest a runner waits at the gate: past it, it starts anyway (the harness opens the gate
/// within seconds even when a timing runner fails to start; this only bounds a harness fault).
inline constexpr double start_gate_most_s = 10.0;

/// The environment variable naming a file the runner creates once its CUDA context exists, just
/// before it waits at the gate (how the harness knows that its context has started).
inline constexpr const char* start_gate_ready_variable = "CUGRADE_START_GATE_READY";

/// The environment variable saying what a runner does when its gate has not opened within
/// start_gate_most_s: "stop" ends it before its first case (exit 0, no case run); otherwise it
/// starts anyway.
inline constexpr const char* start_gate_lapse_variable = "CUGRADE_START_GATE_LAPSE";

/// What a gate file that begins with this says: end before the first case, running none.
inline constexpr const char* start_gate_stop = "stop";

}  // namespace cugrade
