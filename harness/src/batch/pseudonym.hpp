#pragma once
// Students' pseudonyms on the class's leaderboard: a keyed hash (HMAC-SHA256) of the student's id
// under the course secret, so a name is stable across runs and assignments of the course while no
// one without the secret can tell whose it is (a plain hash of an id would be undone by hashing
// the roster).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/course_secret.hpp"

namespace cugrade {

/// "anon-" and the first `hex_digits` (1 to 64) hex digits of HMAC-SHA256(secret,
/// "cugrade/leaderboard/" + student).
std::string pseudonym(const CourseSecret& secret, std::string_view student, std::size_t hex_digits = 8);

/// Each of `students`' pseudonym, 8 hex digits long; where two of the class would share one,
/// theirs are lengthened (12, 16, ... digits) until they differ, so no two rows can be confused.
std::map<std::string, std::string> class_pseudonyms(const CourseSecret& secret, const std::vector<std::string>& students);

}  // namespace cugrade
