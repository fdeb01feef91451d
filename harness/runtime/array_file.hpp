#pragma once
// Named, typed, shaped arrays and the little binary file format that carries them between the
// harness (trusted) and the runner (untrusted). Plain C++17: compiled into both.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cugrade {

/// Element type of an array.
enum class DType : std::uint8_t { f32 = 0, f64 = 1, i32 = 2, u32 = 3, i64 = 4 };

/// Bytes per element of a dtype.
std::size_t dtype_size(DType type);

/// "f32", "f64", "i32", "u32", "i64".
const char* dtype_name(DType type);

/// A dense row-major array: dims {rows, cols} for a matrix, {n} for a vector, {} for a scalar.
struct Array {
  DType type = DType::f32;
  std::vector<std::int64_t> dims;
  std::vector<std::uint8_t> bytes;

  /// Number of elements (product of dims; 1 for a scalar).
  std::int64_t size() const;
  /// Typed view of the storage; T must match `type`.
  template <class T> T* data() { return reinterpret_cast<T*>(bytes.data()); }
  template <class T> const T* data() const { return reinterpret_cast<const T*>(bytes.data()); }
  /// Element i converted to double, whatever the dtype.
  double value(std::int64_t i) const;
};

/// A zero-filled array of the given type and shape.
Array make_array(DType type, std::vector<std::int64_t> dims);

/// Arrays by name ("A", "B", "C"); ordered so files and reports are deterministic.
using ArraySet = std::map<std::string, Array>;

/// A 64-bit FNV-1a digest of an array's type, shape and bytes, as 16 hex digits: the runner
/// reports one per input after each call, in its done event, so a change to a const input is
/// seen even where the read-back file is later rewritten.
std::string array_digest(const Array& array);

/// Writes the set to `path` atomically (temp file + rename); false on an I/O error.
bool write_array_file(const std::string& path, const ArraySet& arrays);

/// Reads a file written by write_array_file; nullopt (and `error` set) when it is missing,
/// truncated, or malformed — a runner that wrote garbage is a protocol_error, not a crash.
std::optional<ArraySet> read_array_file(const std::string& path, std::string* error = nullptr);

}  // namespace cugrade
