#pragma once
// The assignment's starter code taken out of each student's file before the class is compared,
// so that what every student was given does not count as shared. sim has no base-code option;
// instead it is run once with the students' files as "new" and the template as "old" files
// (-S: each new file compared with the old ones only), and every line of a run it finds there is
// emptied in the student's copy. Lines are emptied, not removed, so the positions sim reports in
// the class's comparison are those of the student's own file.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "similarity/sim_output.hpp"

namespace cugrade {

/// Per file of `runs` that is not one of `base_files`: the lines sim matched with a base file
/// (runs between two base files, or two other files, are left out).
std::map<std::string, std::vector<LineSpan>> base_lines(const std::vector<SimRun>& runs,
                                                        const std::set<std::string>& base_files);

/// `text` with every line inside `spans` emptied (its line break kept): the same number of lines.
std::string blank_lines(std::string_view text, const std::vector<LineSpan>& spans);

/// How many lines `spans` cover together (overlaps counted once).
int covered_lines(const std::vector<LineSpan>& spans);

}  // namespace cugrade
