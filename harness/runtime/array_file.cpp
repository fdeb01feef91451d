#include "array_file.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <fstream>

namespace cugrade {
namespace {
constexpr char kMagic[8] = {'C', 'G', 'A', 'R', 'R', 'A', 'Y', '1'};
constexpr std::uint64_t kMaxDims = 8;
constexpr std::uint64_t kMaxName = 256;

template <class T> void put(std::ofstream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}
template <class T> bool get(std::ifstream& in, T& value) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof value));
}
bool fail_with(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}
}  // namespace

std::size_t dtype_size(DType type) {
  switch (type) {
    case DType::f32: case DType::i32: case DType::u32: return 4;
    case DType::f64: case DType::i64: return 8;
  }
  return 0;
}

const char* dtype_name(DType type) {
  switch (type) {
    case DType::f32: return "f32";
    case DType::f64: return "f64";
    case DType::i32: return "i32";
    case DType::u32: return "u32";
    case DType::i64: return "i64";
  }
  return "?";
}

std::int64_t element_count(const std::vector<std::int64_t>& dims) {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  return n;
}

std::int64_t Array::size() const { return element_count(dims); }

double Array::value(std::int64_t i) const {
  switch (type) {
    case DType::f32: return data<float>()[i];
    case DType::f64: return data<double>()[i];
    case DType::i32: return data<std::int32_t>()[i];
    case DType::u32: return data<std::uint32_t>()[i];
    case DType::i64: return static_cast<double>(data<std::int64_t>()[i]);
  }
  return 0.0;
}

Array make_array(DType type, std::vector<std::int64_t> dims) {
  Array array;
  array.type = type;
  array.dims = std::move(dims);
  array.bytes.assign(static_cast<std::size_t>(array.size()) * dtype_size(type), 0);
  return array;
}

Array unset_array(DType type, std::vector<std::int64_t> dims) {
  Array array;
  array.type = type;
  array.dims = std::move(dims);
  array.bytes.resize(static_cast<std::size_t>(array.size()) * dtype_size(type));
  return array;
}

bool write_array_file(const std::string& path, const std::vector<ArraySource>& arrays) {
  const std::string temp = path + ".partial";
  const auto write_temp = [&] {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(kMagic, sizeof kMagic);
    put<std::uint64_t>(out, arrays.size());
    for (const ArraySource& array : arrays) {
      std::uint64_t expected = dtype_size(array.type);
      for (auto d : array.dims) expected *= static_cast<std::uint64_t>(d);
      put<std::uint64_t>(out, array.name.size());
      out.write(array.name.data(), static_cast<std::streamsize>(array.name.size()));
      put<std::uint8_t>(out, static_cast<std::uint8_t>(array.type));
      put<std::uint64_t>(out, array.dims.size());
      for (auto d : array.dims) put<std::int64_t>(out, d);
      put<std::uint64_t>(out, expected);
      std::uint64_t written = 0;
      const ByteSink sink = [&](const void* data, std::size_t size) {
        written += size;
        return written <= expected && static_cast<bool>(out.write(static_cast<const char*>(data),
                                                                  static_cast<std::streamsize>(size)));
      };
      if (!array.write_bytes(sink) || written != expected) return false;
    }
    return static_cast<bool>(out.flush());
  };
  if (write_temp() && std::rename(temp.c_str(), path.c_str()) == 0) return true;
  std::remove(temp.c_str());
  return false;
}

bool write_array_file(const std::string& path, const ArraySet& arrays) {
  std::vector<ArraySource> sources;
  for (const auto& [name, array] : arrays)
    sources.push_back({name, array.type, array.dims, [&array = array](const ByteSink& sink) {
                         return sink(array.bytes.data(), array.bytes.size());
                       }});
  return write_array_file(path, sources);
}

std::optional<ArraySet> read_array_file(const std::string& path, std::string* error) {
  // A link is not followed: the harness reads what a runner wrote from its folder, and a link the
  // runner planted there would have it read any file (another's outputs, a root-only one).
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    return fail_with(error, path + " is a symbolic link, not a file"), std::nullopt;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return fail_with(error, "cannot open " + path), std::nullopt;
  const auto file_size = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  char magic[sizeof kMagic];
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    return fail_with(error, path + ": not an array file"), std::nullopt;
  std::uint64_t count = 0;
  if (!get(in, count) || count > 1024) return fail_with(error, path + ": bad array count"), std::nullopt;
  ArraySet arrays;
  for (std::uint64_t a = 0; a < count; ++a) {
    std::uint64_t name_size = 0, ndims = 0, nbytes = 0;
    std::uint8_t type = 0;
    if (!get(in, name_size) || name_size > kMaxName)
      return fail_with(error, path + ": bad array name"), std::nullopt;
    std::string name(name_size, '\0');
    in.read(name.data(), static_cast<std::streamsize>(name_size));
    if (!get(in, type) || type > static_cast<std::uint8_t>(DType::i64) || !get(in, ndims) ||
        ndims > kMaxDims)
      return fail_with(error, path + ": bad header of array " + name), std::nullopt;
    Array array;
    array.type = static_cast<DType>(type);
    array.dims.resize(ndims);
    for (auto& d : array.dims)
      if (!get(in, d) || d < 0) return fail_with(error, path + ": bad shape of " + name), std::nullopt;
    std::uint64_t elements = 1;  // the shape's product, refused where it overflows
    for (auto d : array.dims)
      if (__builtin_mul_overflow(elements, static_cast<std::uint64_t>(d), &elements))
        return fail_with(error, path + ": bad shape of " + name), std::nullopt;
    if (!get(in, nbytes) || elements > file_size || nbytes != elements * dtype_size(array.type))
      return fail_with(error, path + ": size of " + name + " does not match its shape"), std::nullopt;
    // Before any allocation: a header may claim more than the file holds (a runner's garbage).
    if (nbytes > file_size - static_cast<std::uint64_t>(in.tellg()))
      return fail_with(error, path + ": truncated array " + name), std::nullopt;
    array.bytes.resize(nbytes);
    if (!in.read(reinterpret_cast<char*>(array.bytes.data()), static_cast<std::streamsize>(nbytes)))
      return fail_with(error, path + ": truncated array " + name), std::nullopt;
    arrays.emplace(std::move(name), std::move(array));
  }
  return arrays;
}

std::string array_digest(const Array& array) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const auto mix = [&hash](const void* data, std::size_t size) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  };
  const auto type = static_cast<std::uint8_t>(array.type);
  mix(&type, 1);
  for (const std::int64_t d : array.dims) mix(&d, sizeof d);
  mix(array.bytes.data(), array.bytes.size());
  static const char hex[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) text[static_cast<std::size_t>(i)] = hex[hash & 0xf];
  return text;
}

}  // namespace cugrade
