#pragma once
// Blackboard Learn's "Assignment File Download", unzipped: no folder per student but every file
// loose, named by its student and attempt, and a text file per attempt. What such a name says,
// and which student it is.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// What the name of a file in Blackboard's download says. Blackboard names each file
/// "<assignment>_<user name>_attempt_<YYYY-MM-DD-HH-MM-SS>_<the file's own name>", and the
/// attempt's own text file (the student's name, the time, any comment) the same without the
/// last part, ending ".txt".
struct BlackboardFileName {
  std::string owner;    ///< "HW2 Matmul_jsmith": the assignment's name and the user name
  std::string attempt;  ///< "2026-11-28-10-00-00": when the attempt was handed in (Blackboard's time)
  std::string name;     ///< the file's own name ("matmul.cu"); empty for the attempt's text file
};

/// `file_name` read as Blackboard names a downloaded submission's file (its attempt time a real
/// date and time); nothing for any other name.
std::optional<BlackboardFileName> blackboard_file_name(const std::string& file_name);

/// The user name in each owner ("HW2 Matmul_jsmith" → "jsmith"), by the assignment's name: the
/// value of a line of an attempt's text file (`texts`: owner → that file) that, with "_", begins
/// the owner ("Assignment: HW2 Matmul"; the labels are in the course's language), or else the
/// longest beginning all owners share up to a "_" (a user name may hold "_": "HW2_j_smith").
/// Distinct owners always get distinct user names.
std::map<std::string, std::string> blackboard_students(const std::vector<std::string>& owners,
                                                       const std::map<std::string, std::filesystem::path>& texts);

/// Seconds since the epoch of an attempt's time ("2026-11-28-10-00-00"), read as this machine's
/// local time (Blackboard writes its server's, without a zone); an error for anything else.
Result<std::int64_t> blackboard_attempt_unix(const std::string& attempt);

}  // namespace cugrade
