#pragma once
// The canonical record of a grade (design.md §3): every other report can be rendered from it,
// and reading it back gives the same GradeReport.
#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// The report as JSON. Hidden cases keep their id, step, outcome and points, but without
/// `include_hidden_details` their params, seed, message and compared values are left out
/// (students see this; TAs pass true). Non-finite numbers are written as "NaN", "Infinity" and
/// "-Infinity", since JSON has no such numbers. Strings are copied as they are: dump with
/// nlohmann::json::error_handler_t::replace, since a compiler log need not be valid UTF-8.
nlohmann::json report_to_json(const GradeReport& report, bool include_hidden_details = false);

/// Reads what report_to_json wrote: report_from_json(report_to_json(r, true)) == r.
/// A missing key or a value of the wrong kind is an Error naming where ("cases[2].outcome").
Result<GradeReport> report_from_json(const nlohmann::json& json);

}  // namespace cugrade
