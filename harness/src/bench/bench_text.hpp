#pragma once
// The lecture tables as people read them: aligned text for a terminal, GitHub-flavoured Markdown
// for the docs. Both show the same cells (bench_format.hpp).
#include <string>

#include "bench/bench_report.hpp"

namespace cugrade {

/// Plain text: the preamble, then per assignment and table a caption and aligned columns.
std::string render_bench_console(const BenchReport& report);

/// Markdown: "# cugrade bench", a section per assignment, a pipe table per lecture table.
std::string render_bench_markdown(const BenchReport& report);

}  // namespace cugrade
