#pragma once
// The frame every HTML report shares: one self-contained document (the style sheet inline, no
// scripts, no fonts or images fetched), so a page opens the same from a file, an LMS upload or
// a CI artifact, offline, years later.
#include <string>
#include <string_view>

#include "core/outcome.hpp"

namespace cugrade {

/// A complete HTML5 document with the shared style sheet inline; `title` is escaped, `body` is
/// inserted as it is (already escaped markup).
std::string html_document(std::string_view title, std::string_view body);

/// `<span class="badge pass">PASS</span>`: the outcome's status word in its colour (PASS green,
/// FAIL red, SKIP amber), the outcome name as a tooltip.
std::string html_status_badge(Outcome outcome);

/// The CSS class of an outcome's colour: "pass", "fail" or "skip".
std::string_view html_status_class(Outcome outcome);

}  // namespace cugrade
