#include "core/outcome.hpp"

#include <array>
#include <utility>

namespace cugrade {
namespace {
constexpr std::array<std::pair<Outcome, std::string_view>, 12> kNames{{
    {Outcome::passed, "passed"},
    {Outcome::wrong_answer, "wrong_answer"},
    {Outcome::compile_error, "compile_error"},
    {Outcome::link_error, "link_error"},
    {Outcome::forbidden_symbol, "forbidden_symbol"},
    {Outcome::timeout, "timeout"},
    {Outcome::crashed, "crashed"},
    {Outcome::cuda_error, "cuda_error"},
    {Outcome::output_limit, "output_limit"},
    {Outcome::protocol_error, "protocol_error"},
    {Outcome::not_run, "not_run"},
    {Outcome::harness_error, "harness_error"},
}};
}  // namespace

std::string_view to_string(Outcome outcome) {
  for (const auto& [value, name] : kNames)
    if (value == outcome) return name;
  return "harness_error";
}

std::optional<Outcome> outcome_from_string(std::string_view name) {
  for (const auto& [value, known] : kNames)
    if (known == name) return value;
  return std::nullopt;
}

bool is_student_outcome(Outcome outcome) {
  return outcome != Outcome::harness_error && outcome != Outcome::not_run;
}

bool is_ungradable(Outcome outcome) {
  return outcome == Outcome::compile_error || outcome == Outcome::link_error ||
         outcome == Outcome::forbidden_symbol;
}

}  // namespace cugrade
