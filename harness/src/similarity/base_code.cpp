#include "similarity/base_code.hpp"

#include <algorithm>

namespace cugrade {

std::map<std::string, std::vector<LineSpan>> base_lines(const std::vector<SimRun>& runs,
                                                        const std::set<std::string>& base_files) {
  std::map<std::string, std::vector<LineSpan>> lines;
  for (const SimRun& run : runs) {
    const bool a_base = base_files.contains(run.file_a), b_base = base_files.contains(run.file_b);
    if (a_base == b_base) continue;
    if (b_base) lines[run.file_a].push_back(run.a);
    else lines[run.file_b].push_back(run.b);
  }
  return lines;
}

std::string blank_lines(std::string_view text, const std::vector<LineSpan>& spans) {
  auto inside = [&spans](int line) {
    return std::any_of(spans.begin(), spans.end(), [line](const LineSpan& s) { return line >= s.first && line <= s.last; });
  };
  std::string out;
  out.reserve(text.size());
  int line = 1;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    if (!inside(line)) out.append(text.substr(start, end - start));
    if (!last) out += '\n';
    start = end + 1;
    ++line;
  }
  return out;
}

int covered_lines(const std::vector<LineSpan>& spans) {
  std::vector<LineSpan> sorted = spans;
  std::sort(sorted.begin(), sorted.end(), [](const LineSpan& x, const LineSpan& y) { return x.first < y.first; });
  int covered = 0, reached = 0;  // lines up to `reached` already counted
  for (const LineSpan& s : sorted) {
    const int from = std::max(s.first, reached + 1);
    if (s.last >= from) covered += s.last - from + 1;
    reached = std::max(reached, s.last);
  }
  return covered;
}

}  // namespace cugrade
