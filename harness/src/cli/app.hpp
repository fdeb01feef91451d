#pragma once
// The command line: check, lint, list, calibrate, doctor, init.

namespace cugrade {

/// Parses argv and runs the command; returns the process exit code (0 graded, 1 usage,
/// 2 invalid spec, 3 internal; with --fail-under, 4 when the grade is below the bar).
int run_cli(int argc, char** argv);

}  // namespace cugrade
