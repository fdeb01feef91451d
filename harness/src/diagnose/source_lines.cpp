#include "diagnose/source_lines.hpp"

#include <algorithm>
#include <cstdlib>

#include "diagnose/ncu_csv.hpp"

namespace cugrade {

Result<std::vector<SourceLine>> parse_source_page(std::string_view text) {
  std::vector<SourceLine> lines;
  std::string file;
  std::vector<std::string> header;
  const auto column = [&](const char* heading) {  // the first column of that name ("Source" comes twice)
    const auto it = std::find(header.begin(), header.end(), heading);
    return it == header.end() ? -1L : static_cast<long>(it - header.begin());
  };
  bool table = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    if (raw.empty() || raw.front() != '"') continue;
    const std::vector<std::string> fields = csv_fields(raw);
    if (fields.size() >= 2 && fields[0] == "File Path") {
      file = fields[1].substr(fields[1].find_last_of('/') + 1);
      continue;
    }
    if (!fields.empty() && fields[0] == "Line No") {
      header = fields;
      table = true;
      continue;
    }
    if (!table || fields.size() != header.size() || fields[0].empty()) continue;  // a SASS row
    SourceLine line;
    line.file = file;
    line.line = std::atoi(fields[0].c_str());
    if (line.line <= 0) continue;
    const auto value = [&](const char* heading) {
      const long at = column(heading);
      double v = 0.0;
      return at >= 0 && metric_number(fields[static_cast<std::size_t>(at)], "", v) ? v : 0.0;
    };
    if (const long at = column("Source"); at >= 0) line.text = fields[static_cast<std::size_t>(at)];
    line.excess_global_sectors = value("L2 Theoretical Sectors Global Excessive");
    line.excess_shared_wavefronts = value("L1 Wavefronts Shared Excessive");
    line.global_requests = value("L1 Tag Requests Global");
    line.stall_samples = value("Warp Stall Sampling (All Samples)");
    lines.push_back(std::move(line));
  }
  if (!table) return fail("ncu printed no source table");
  return lines;
}

const SourceLine* line_for_cause(const std::vector<SourceLine>& lines, const std::string& cause) {
  double SourceLine::*measure = &SourceLine::stall_samples;
  if (cause == "uncoalesced_loads" || cause == "uncoalesced_stores") measure = &SourceLine::excess_global_sectors;
  else if (cause == "bank_conflicts") measure = &SourceLine::excess_shared_wavefronts;
  else if (cause == "no_reuse") measure = &SourceLine::global_requests;
  const SourceLine* best = nullptr;
  for (const SourceLine& line : lines)
    if (line.*measure > 0.0 && (!best || line.*measure > best->*measure)) best = &line;
  return best;
}

}  // namespace cugrade
