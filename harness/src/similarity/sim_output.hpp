#pragma once
// What Dick Grune's similarity tester (Debian `similarity-tester`: sim_c++) prints, read back:
// the size of each file it read, the runs it found (with -n: positions and sizes only) and the
// percentages (with -p). Every line is recognised or the reading fails, so a changed format is
// noticed rather than read as "no similarity".
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// Lines `first` to `last` (1-based, inclusive) of one file.
struct LineSpan {
  int first = 0;
  int last = 0;
  /// Same lines.
  bool operator==(const LineSpan&) const = default;
};

/// One run: the same token sequence (identifiers, numbers and layout aside) in two files.
struct SimRun {
  std::string file_a;  ///< as sim was given it
  LineSpan a;
  std::string file_b;
  LineSpan b;
  int tokens = 0;      ///< the run's length in significant tokens
};

/// "F consists for x % of G material": x % of F's tokens also lie in G.
struct SimPercentage {
  std::string file;
  std::string of;
  int percent = 0;
};

/// "File F: N tokens, M lines".
struct SimFileSize {
  std::string file;
  long tokens = 0;
  long lines = 0;
};

/// Everything one run of sim printed.
struct SimOutput {
  std::vector<SimFileSize> files;
  std::vector<SimRun> runs;
  std::vector<SimPercentage> percentages;
};

/// Reads sim's output (default, -n or -p form, headers included; the -n form only for runs).
/// Fails on a line it does not recognise, quoting it. File names must not hold "|" or ": line ".
Result<SimOutput> parse_sim_output(std::string_view text);

}  // namespace cugrade
