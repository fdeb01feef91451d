#include "check/compare.hpp"

#include <cmath>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "check/coords.hpp"
#include "check/fill_evidence.hpp"
#include "check/pattern.hpp"

namespace cugrade {
namespace {

bool is_integer(DType type) { return type == DType::i32 || type == DType::u32 || type == DType::i64; }

/// Element i of an integer array, exactly (Array::value would round an i64 beyond 2^53).
std::int64_t integer_value(const Array& a, std::int64_t i) {
  switch (a.type) {
    case DType::i32: return a.data<std::int32_t>()[i];
    case DType::u32: return a.data<std::uint32_t>()[i];
    case DType::i64: return a.data<std::int64_t>()[i];
    default: break;
  }
  throw std::logic_error("integer_value on a floating-point array");
}

std::string describe_shape(const std::vector<std::int64_t>& dims) {
  if (dims.empty()) return "a scalar";
  return fmt::format("{}", fmt::join(dims, "×"));
}

bool storage_matches(const Array& a) {
  std::int64_t n = 1;
  for (auto d : a.dims) {
    if (d < 0) return false;
    n *= d;
  }
  return a.bytes.size() == static_cast<std::size_t>(n) * dtype_size(a.type);
}

constexpr std::string_view kSlackSuffix = ".slack";

/// A grader's slack must fit its output and allow, never forbid: anything else is a harness bug.
void check_slack(const std::string& name, const Array& slack, const Array& expected) {
  if (slack.dims != expected.dims || !storage_matches(slack) || is_integer(slack.type))
    throw std::logic_error("compare_array: the slack of " + name + " is not a float array of its shape");
  for (std::int64_t i = 0; i < slack.size(); ++i)
    if (!(std::isfinite(slack.value(i)) && slack.value(i) >= 0.0))
      throw std::logic_error(fmt::format("compare_array: the slack of {} is negative or not finite at {}",
                                         name, describe_position(unravel_index(i, slack.dims))));
}

}  // namespace

std::string slack_name(const std::string& output) { return output + std::string(kSlackSuffix); }

bool is_slack_name(const std::string& name) {
  return name.size() > kSlackSuffix.size() && name.ends_with(kSlackSuffix);
}

Result<Comparison> compare_array(const std::string& name, const Array& actual, const Array& expected,
                                 const Tolerance& tol, std::size_t max_listed, const Array* slack,
                                 std::int64_t launched_threads) {
  if (!storage_matches(expected))
    throw std::logic_error("compare_array: the gold of " + name + " does not match its own shape");
  if (slack) check_slack(name, *slack, expected);
  if (actual.dims != expected.dims)
    return fail(fmt::format("output {} has shape {}, but {} was expected", name,
                            describe_shape(actual.dims), describe_shape(expected.dims)));
  if (!storage_matches(actual))
    return fail(fmt::format("output {} holds {} bytes, which is not a {} array of {}", name,
                            actual.bytes.size(), describe_shape(actual.dims), dtype_name(actual.type)));

  Comparison cmp;
  cmp.array = name;
  cmp.checked = expected.size();
  MismatchMask mask;
  mask.dims = expected.dims;
  mask.wrong.assign(static_cast<std::size_t>(cmp.checked), false);
  mask.nonfinite.assign(static_cast<std::size_t>(cmp.checked), false);
  mask.fill.assign(static_cast<std::size_t>(cmp.checked), Fill::none);
  mask.element_bytes = static_cast<std::int64_t>(dtype_size(actual.type));
  mask.launched_threads = launched_threads;
  const bool both_integer = is_integer(actual.type) && is_integer(expected.type);
  const bool exact = is_integer(actual.type) || is_integer(expected.type);

  for (std::int64_t i = 0; i < cmp.checked; ++i) {
    const double y = expected.value(i);
    const double x = actual.value(i);
    if (!std::isfinite(y))
      throw std::logic_error(fmt::format("compare_array: the gold of {} is not finite at {}", name,
                                         describe_position(unravel_index(i, expected.dims))));
    bool wrong;
    double err = 0.0;
    if (!std::isfinite(x)) {
      wrong = true;
      ++cmp.nonfinite;
      mask.nonfinite[static_cast<std::size_t>(i)] = true;
    } else {
      err = std::fabs(x - y);
      if (both_integer) wrong = integer_value(actual, i) != integer_value(expected, i);
      else if (exact) wrong = x != y;
      else wrong = err > tol.atol + tol.rtol * std::fabs(y) + (slack ? slack->value(i) : 0.0);
      cmp.max_abs_error = std::max(cmp.max_abs_error, err);
      if (y != 0.0) cmp.max_rel_error = std::max(cmp.max_rel_error, err / std::fabs(y));
    }
    if (!wrong) continue;
    ++cmp.wrong;
    mask.wrong[static_cast<std::size_t>(i)] = true;
    mask.fill[static_cast<std::size_t>(i)] = fill_of(actual, i);
    if (std::isfinite(x) && (mask.largest_error_index < 0 || err > mask.largest_error)) {
      mask.largest_error = err;
      mask.largest_error_index = i;
    }
    if (cmp.first.size() < max_listed)
      cmp.first.push_back(Mismatch{i, unravel_index(i, expected.dims), y, x});
  }
  cmp.pattern = describe_mismatch_pattern(mask);
  if (cmp.wrong > 0) {
    const std::string evidence = describe_value_evidence(actual, expected, mask.wrong, tol);
    if (!evidence.empty()) cmp.pattern = cmp.pattern.empty() ? evidence : cmp.pattern + "; " + evidence;
  }
  return cmp;
}

}  // namespace cugrade
