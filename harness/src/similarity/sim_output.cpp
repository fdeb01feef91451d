#include "similarity/sim_output.hpp"

#include <regex>

namespace cugrade {

namespace {
// sim's own lines (sim 3.0, Debian's similarity-tester): the sizes it read, its totals, the
// separator between new and old files, a run in -n form, a percentage in -p form.
const std::regex kFileSize(R"(^File (.+): (\d+) tokens?, (\d+) lines?$)");
const std::regex kSeparator(R"(^File [/|]: new/old separator$)");
const std::regex kTotal(R"(^Total input: .*$)");
const std::regex kRun(R"(^(.+?): line (\d+)-(\d+)\s*\|(.+?): line (\d+)-(\d+)\s*\[(\d+)\]\s*$)");
const std::regex kPercentage(R"(^(.+) consists for (\d+) % of (.+) material$)");

int number(const std::ssub_match& m) { return std::stoi(m.str()); }
}  // namespace

Result<SimOutput> parse_sim_output(std::string_view text) {
  SimOutput out;
  std::size_t start = 0;
  int line_number = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::smatch m;
    try {
      if (std::regex_match(line, kSeparator) || std::regex_match(line, kTotal)) continue;
      if (std::regex_match(line, m, kFileSize)) {
        out.files.push_back({m[1].str(), std::stol(m[2].str()), std::stol(m[3].str())});
      } else if (std::regex_match(line, m, kRun)) {
        out.runs.push_back({m[1].str(), {number(m[2]), number(m[3])}, m[4].str(), {number(m[5]), number(m[6])}, number(m[7])});
      } else if (std::regex_match(line, m, kPercentage)) {
        out.percentages.push_back({m[1].str(), m[3].str(), number(m[2])});
      } else {
        return fail("sim's output, line " + std::to_string(line_number) + ", is not one cugrade reads: \"" +
                    line.substr(0, 120) + "\"");
      }
    } catch (const std::out_of_range&) {  // a number past int: not sim's
      return fail("sim's output, line " + std::to_string(line_number) + ", holds a number out of range");
    }
  }
  return out;
}

}  // namespace cugrade
