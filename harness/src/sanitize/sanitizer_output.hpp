#pragma once
// What compute-sanitizer printed, read back: its reports (invalid and misaligned accesses,
// races on shared memory, reads of uninitialised global memory, barrier errors), each given to
// the check task whose marker came before it (runtime/task_markers.hpp), and turned into one
// sentence for the student in the CPU backend's words: the kind of access, the kernel, the file
// and line, the thread and block, and the array an address lies in.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cugrade {

/// One report of the sanitizer.
struct SanitizerFinding {
  std::string task;     ///< the check task it happened in; "" before any marker
  std::string kind;     ///< "out_of_bounds", "misaligned", "race", "uninitialised", "barrier", "other"
  std::string kernel;   ///< "matmul_naive" (no parameter list)
  std::string where;    ///< "matmul.cu:27"; "" without line information
  std::string message;  ///< the sentence for the student
};

/// Everything one sanitizer process printed.
struct SanitizerOutput {
  bool ran = false;                        ///< its banner was seen: the sanitizer started the program
  std::vector<SanitizerFinding> findings;  ///< in the order printed
  std::size_t unprinted = 0;               ///< reports beyond --print-limit (counted, not shown)
  std::vector<std::string> tasks;          ///< the tasks whose markers were seen, in order
  std::string problem;                     ///< the sanitizer's own failure ("Error: ..."), if any
};

/// Reads `text` (stdout of `compute-sanitizer --tool <tool> runner job` with task markers on).
/// `source_names` are the student's names of the submission's files, in order ("matmul.cu"): a
/// staged file name ("submission_0.cu") is shown as the student's (shown_source_name).
/// Racecheck's warnings are not findings: only its errors (hazards whose values differ) are.
SanitizerOutput parse_sanitizer_output(std::string_view text, const std::string& tool,
                                       const std::vector<std::string>& source_names);

/// One line per task for the case's message: the first finding's sentence, how many reports
/// came from the same line (" (192 reports like it)"), and the other lines that had reports
/// ("; also at matmul.cu:31"). Keyed by task id.
std::map<std::string, std::string> findings_by_task(const std::vector<SanitizerFinding>& findings);

/// The tasks of `output` whose reports --print-limit may have hidden: those after the task of
/// the last report shown, when some were not printed; none otherwise.
std::vector<std::string> tasks_past_print_limit(const SanitizerOutput& output);

}  // namespace cugrade
