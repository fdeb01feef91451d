#include "diagnose/ncu_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cugrade {

std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(std::move(field));
  return fields;
}

bool metric_number(const std::string& value, const std::string& unit, double& out) {
  std::string digits;
  for (char c : value)
    if (c != ',' && c != ' ') digits += c;
  if (digits.empty()) return false;
  char* end = nullptr;
  const double number = std::strtod(digits.c_str(), &end);
  if (end == digits.c_str() || *end != '\0') return false;
  if (!std::isfinite(number)) return false;  // "nan", "inf": nothing ncu measured
  double scale = 1.0;
  if (unit == "us" || unit == "usecond") scale = 1e3;
  else if (unit == "ms" || unit == "msecond") scale = 1e6;
  else if (unit == "s" || unit == "second") scale = 1e9;
  out = number * scale;
  return true;
}

Result<std::vector<KernelProfile>> parse_ncu_csv(std::string_view text) {
  std::vector<KernelProfile> kernels;
  // Column indices of the table's header, once it is found.
  long id_col = -1, kernel_col = -1, name_col = -1, unit_col = -1, value_col = -1;
  std::size_t columns = 0;
  std::size_t needed = 0;  // cells a metric's row must have: up to the last column read
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.front() != '"') continue;  // ==PROF== lines, a program's output
    const std::vector<std::string> fields = csv_fields(line);
    const auto column = [&](const char* heading) {
      const auto it = std::find(fields.begin(), fields.end(), heading);
      return it == fields.end() ? -1L : static_cast<long>(it - fields.begin());
    };
    if (column("Metric Name") >= 0 && column("Metric Value") >= 0 && column("ID") >= 0) {
      id_col = column("ID");
      kernel_col = column("Kernel Name");
      name_col = column("Metric Name");
      unit_col = column("Metric Unit");
      value_col = column("Metric Value");
      columns = fields.size();
      needed = static_cast<std::size_t>(std::max({id_col, kernel_col, name_col, unit_col, value_col})) + 1;
      continue;
    }
    // A metric's row may stop after its value: with a section's rules the heading goes on
    // ("Rule Name", ..., "Estimated Speedup") and ncu leaves those cells out of metric rows.
    if (value_col < 0 || fields.size() < needed || fields.size() > columns) continue;
    const std::string& id = fields[static_cast<std::size_t>(id_col)];
    if (kernels.empty() || kernels.back().id != id) {
      // A launch's rows come together; an ID seen before continues its record.
      auto it = std::find_if(kernels.begin(), kernels.end(), [&](const KernelProfile& k) { return k.id == id; });
      if (it == kernels.end()) {
        kernels.push_back({id, kernel_col >= 0 ? fields[static_cast<std::size_t>(kernel_col)] : "", {}});
      } else {
        std::rotate(it, it + 1, kernels.end());
      }
    }
    double number = 0.0;
    const std::string unit = unit_col >= 0 ? fields[static_cast<std::size_t>(unit_col)] : "";
    if (metric_number(fields[static_cast<std::size_t>(value_col)], unit, number))
      kernels.back().metrics[fields[static_cast<std::size_t>(name_col)]] = number;
  }
  if (value_col < 0) return fail("ncu printed no table of metrics");
  // Listed in the order of their IDs (a continued record was moved to the end above).
  std::stable_sort(kernels.begin(), kernels.end(), [](const KernelProfile& a, const KernelProfile& b) {
    return std::strtol(a.id.c_str(), nullptr, 10) < std::strtol(b.id.c_str(), nullptr, 10);
  });
  return kernels;
}

std::string short_kernel_name(const std::string& kernel) {
  // The parameter list starts at the '(' that closes no template argument list.
  int angle = 0;
  std::size_t open = kernel.size();
  for (std::size_t i = 0; i < kernel.size(); ++i) {
    if (kernel[i] == '<') ++angle;
    else if (kernel[i] == '>') --angle;
    else if (kernel[i] == '(' && angle == 0) {
      open = i;
      break;
    }
  }
  std::string name = kernel.substr(0, open);
  // "void reduce7<128u>": the return type goes (the last space outside template arguments).
  angle = 0;
  std::size_t space = std::string::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++angle;
    else if (name[i] == '>') --angle;
    else if (name[i] == ' ' && angle == 0) space = i;
  }
  if (space != std::string::npos) name = name.substr(space + 1);
  return name;
}

}  // namespace cugrade
