#include "pipeline/run_agreement.hpp"

#include <cmath>
#include <cstring>

#include "array_file.hpp"

namespace cugrade {
namespace {

bool is_integer(DType type) { return type == DType::i32 || type == DType::u32 || type == DType::i64; }

bool arrays_agree(const Array& a, const Array& b, const Tolerance& tolerance) {
  if (a.type != b.type || a.dims != b.dims || a.bytes.size() != b.bytes.size()) return false;
  const std::size_t width = dtype_size(a.type);
  for (std::int64_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(a.bytes.data() + i * width, b.bytes.data() + i * width, width) == 0) continue;
    if (is_integer(a.type)) return false;
    const double x = a.value(i), y = b.value(i);
    if (!std::isfinite(x) || !std::isfinite(y)) return false;
    if (std::abs(x - y) > tolerance.atol + tolerance.rtol * std::abs(x)) return false;
  }
  return true;
}

}  // namespace

bool outputs_agree(const std::string& first, const std::string& second, const Tolerance& tolerance) {
  const auto a = read_array_file(first);
  const auto b = read_array_file(second);
  if (!a || !b) return true;
  if (a->size() != b->size()) return false;
  for (const auto& [name, array] : *a) {
    const auto other = b->find(name);
    if (other == b->end() || !arrays_agree(array, other->second, tolerance)) return false;
  }
  return true;
}

bool runs_disagree(const CaseResult& first, const std::string& first_output, const CaseResult& second,
                   const std::string& second_output, const Tolerance& tolerance) {
  if (first.outcome != second.outcome) return true;
  if (first.outcome != Outcome::wrong_answer) return false;
  return !outputs_agree(first_output, second_output, tolerance);
}

}  // namespace cugrade
