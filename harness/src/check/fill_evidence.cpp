#include "check/fill_evidence.hpp"

#include <cmath>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "check/index_evidence.hpp"
#include "fills.hpp"

namespace cugrade {
namespace {

bool is_integer(DType type) { return type == DType::i32 || type == DType::u32 || type == DType::i64; }

std::int64_t integer_at(const Array& a, std::int64_t i) {
  switch (a.type) {
    case DType::i32: return a.data<std::int32_t>()[i];
    case DType::u32: return a.data<std::uint32_t>()[i];
    case DType::i64: return a.data<std::int64_t>()[i];
    default: return 0;
  }
}

/// The same difference actual − expected at every wrong integer element, or nullopt.
std::optional<std::int64_t> common_offset(const Array& actual, const Array& expected, const std::vector<bool>& wrong) {
  std::optional<std::int64_t> offset;
  for (std::int64_t i = 0; i < actual.size(); ++i) {
    if (!wrong[static_cast<std::size_t>(i)]) continue;
    // Unsigned: a wraparound difference is still the difference the overflow made.
    const auto d = static_cast<std::int64_t>(static_cast<std::uint64_t>(integer_at(actual, i)) -
                                             static_cast<std::uint64_t>(integer_at(expected, i)));
    if (offset && *offset != d) return std::nullopt;
    offset = d;
  }
  return offset;
}

std::string integer_evidence(const Array& actual, const Array& expected, const std::vector<bool>& wrong) {
  if (actual.type == DType::i64) {
    bool half = true, any = false;
    for (std::int64_t i = 0; i < actual.size() && half; ++i) {
      if (!wrong[static_cast<std::size_t>(i)]) continue;
      any = true;
      const auto a = static_cast<std::uint64_t>(integer_at(actual, i));
      const auto e = static_cast<std::uint64_t>(integer_at(expected, i));
      half = (a >> 32) == 0xFFFFFFFFu && (a & 0xFFFFFFFFu) == (e & 0xFFFFFFFFu);
    }
    if (any && half)
      return "the low 4 bytes of each wrong value are right, and the high 4 are all ones (what cugrade filled the "
             "output with): only 4 of its 8 bytes were written (an int copied or stored into a long long?), or a "
             "32-bit int overflowed and was widened";
  }
  const auto offset = common_offset(actual, expected, wrong);
  if (!offset || *offset == 0) return "";
  const auto fresh = static_cast<std::int64_t>(static_cast<std::int32_t>(fresh_device_fill_word));
  if (*offset == fresh)
    return fmt::format("every wrong value is off by {}, what fresh cudaMalloc memory holds on the CPU backend: "
                       "something was added into device memory that was never zeroed (cudaMemset it to 0 first)",
                       *offset);
  if (*offset % (std::int64_t{1} << 32) == 0)
    return fmt::format("every wrong value is off by {}, a multiple of 2^32: a 32-bit int overflowed on the way",
                       *offset);
  if (*offset % 65536 == 0)
    return fmt::format("every wrong value is off by {}, a multiple of 2^16: a 16-bit integer (short) overflowed "
                       "on the way",
                       *offset);
  return "";
}

/// True when the matrix `actual` (R×C) holds the gold's element (i, j) at j·R + i, everywhere.
bool stored_transposed(const Array& actual, const Array& expected, const Tolerance& tol) {
  if (actual.dims.size() != 2 || is_integer(actual.type) != is_integer(expected.type)) return false;
  const std::int64_t rows = actual.dims[0], cols = actual.dims[1];
  if (rows < 2 || cols < 2) return false;  // one row or column: the two layouts are the same
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const double y = expected.value(i * cols + j), x = actual.value(j * rows + i);
      if (!(std::fabs(x - y) <= tol.atol + tol.rtol * std::fabs(y))) return false;
    }
  return true;
}

}  // namespace

Fill fill_of(const Array& actual, std::int64_t i) {
  const std::size_t size = dtype_size(actual.type);
  const std::uint8_t* p = actual.bytes.data() + static_cast<std::size_t>(i) * size;
  if (actual.type == DType::f32) {
    std::uint32_t word;
    std::memcpy(&word, p, 4);
    // 0xFFFFFFFF is none of them: NaN from 0xFF shared-memory poison, or (on a GPU whose driver
    // refused the signalling byte, device_buffers.cpp) an untouched output; nothing is claimed.
    if (word == output_fill_f32_word) return Fill::output;
    if (word == output_fill_f32_quieted) return Fill::output_added;
    if (word == fresh_device_fill_word) return Fill::device;
    if (word == (fresh_device_fill_word | 0x00400000u)) return Fill::device_added;  // the quiet bit set
    // Its last two or three bytes still the fill (8f ff: a signalling NaN's top, which no result
    // and no NaN arithmetic makes; one byte, ff, would be any negative NaN, x86's 0/0 included).
    std::uint8_t fill[4];
    std::memcpy(fill, &output_fill_f32_word, 4);
    for (std::size_t k = 1; k < 3; ++k)
      if (std::memcmp(p + k, fill + k, 4 - k) == 0) return Fill::output_partial;
    return Fill::none;
  }
  bool output = true, device = true;
  for (std::size_t b = 0; b < size; ++b) {
    output &= p[b] == output_fill_byte;
    device &= p[b] == static_cast<std::uint8_t>(fresh_device_fill_word >> (8 * (b % 4)));
  }
  if (output) return Fill::output;
  if (device) return Fill::device;
  return Fill::none;
}

std::string describe_value_evidence(const Array& actual, const Array& expected, const std::vector<bool>& wrong,
                                    const Tolerance& tol) {
  if (is_integer(actual.type) && is_integer(expected.type)) return integer_evidence(actual, expected, wrong);
  if (stored_transposed(actual, expected, tol))
    return fmt::format("it holds the right values at transposed positions: element (i, j) was stored at "
                       "index j·{} + i (column-major) instead of i·{} + j — are the row and column indices swapped?",
                       actual.dims[0], actual.dims[1]);
  return describe_stride_evidence(actual, expected, tol);
}

}  // namespace cugrade
