#include "cli/fail_under.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace cugrade {

Result<FailUnder> parse_fail_under(const std::string& text) {
  const auto refuse = [&](const std::string& why) {
    return fail("--fail-under takes points (15) or a percentage from 0 to 100 (75%), not '" + text + "'" + why);
  };
  FailUnder bar;
  bar.text = text;
  bar.percent = !text.empty() && text.back() == '%';
  const std::string number = bar.percent ? text.substr(0, text.size() - 1) : text;
  // strtod alone would take "inf", "nan", hexadecimal and leading blanks: only a plain decimal counts.
  if (number.empty() || number.find_first_not_of("0123456789.eE+-") != std::string::npos) return refuse("");
  char* end = nullptr;
  bar.value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(bar.value)) return refuse("");
  if (bar.value < 0.0) return refuse(": a bar below 0 is always met");
  if (bar.percent && bar.value > 100.0) return refuse(": no submission has more than 100%");
  return bar;
}

double bar_points(const FailUnder& bar, double max_score) {
  return bar.percent ? bar.value / 100.0 * max_score : bar.value;
}

std::string below_bar_message(const FailUnder& bar, double score, double max_score, bool gradable, Outcome outcome) {
  const double wanted = bar_points(bar, max_score);
  if (!gradable)
    return fmt::format("below the bar: the submission is not gradable ({}), so --fail-under {} is not met",
                       to_string(outcome), bar.text);
  if (score + 1e-9 >= wanted) return "";
  std::string line = fmt::format("below the bar: {:g} of {:g} points; --fail-under {} asks for {:g}", score,
                                 max_score, bar.text, wanted);
  if (wanted > max_score + 1e-9)
    line += fmt::format(", more than this run's maximum of {:g} (are the performance points graded in this run?)",
                        max_score);
  return line;
}

}  // namespace cugrade
