#pragma once
// Named, typed, shaped arrays and the little binary file format that carries them between the
// harness (trusted) and the runner (untrusted). Plain C++17: compiled into both.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cugrade {

/// Element type of an array.
enum class DType : std::uint8_t { f32 = 0, f64 = 1, i32 = 2, u32 = 3, i64 = 4 };

/// Bytes per element of a dtype.
std::size_t dtype_size(DType type);

/// "f32", "f64", "i32", "u32", "i64".
const char* dtype_name(DType type);

/// An allocator whose containers grow without zeroing what they add (`resize`): for storage
/// written whole right after, from a file or the GPU. At 256 MiB, zeroing first costs as much as
/// the copy itself.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};

/// An array's storage (`resize` leaves new bytes unset; `assign(n, 0)` zeroes).
using ArrayBytes = std::vector<std::uint8_t, UninitialisedAllocator<std::uint8_t>>;

/// Elements of an array of shape `dims`: their product (1 for a scalar, {}).
std::int64_t element_count(const std::vector<std::int64_t>& dims);

/// A dense row-major array: dims {rows, cols} for a matrix, {n} for a vector, {} for a scalar.
struct Array {
  DType type = DType::f32;
  std::vector<std::int64_t> dims;
  ArrayBytes bytes;

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

/// An array of the given type and shape whose bytes are not set: for one about to be written over
/// whole (a download, a file's contents).
Array unset_array(DType type, std::vector<std::int64_t> dims);

/// Arrays by name ("A", "B", "C"); ordered so files and reports are deterministic.
using ArraySet = std::map<std::string, Array>;

/// A 64-bit FNV-1a digest of an array's type, shape and bytes, as 16 hex digits: the runner
/// reports one per input after each call, in its done event, so a change to a const input is
/// seen even where the read-back file is later rewritten.
std::string array_digest(const Array& array);

/// Writes the set to `path` atomically (temp file + rename); false on an I/O error.
bool write_array_file(const std::string& path, const ArraySet& arrays);

/// Takes the next piece of an array's bytes; false on an I/O error.
using ByteSink = std::function<bool(const void* data, std::size_t size)>;

/// An array written piece by piece: its name, type and shape, and what hands its bytes, in order,
/// to the sink it is given (false on an error). For arrays that are not in host memory whole.
struct ArraySource {
  std::string name;
  DType type = DType::f32;
  std::vector<std::int64_t> dims;
  std::function<bool(const ByteSink&)> write_bytes;
};

/// write_array_file's streaming form: the same file, atomically; false on an I/O error or where a
/// source hands over more or fewer bytes than its shape holds.
bool write_array_file(const std::string& path, const std::vector<ArraySource>& arrays);

/// Reads a file written by write_array_file; nullopt (and `error` set) when it is missing,
/// truncated, malformed or a symbolic link (never followed) — a runner that wrote garbage is a
/// protocol_error, not a crash.
std::optional<ArraySet> read_array_file(const std::string& path, std::string* error = nullptr);

}  // namespace cugrade
