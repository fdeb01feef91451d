#include "check/modified_inputs.hpp"

#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "check/coords.hpp"

namespace cugrade {
namespace {

/// "the call modified its const inputs A, B and C; ..." for `parts` ("" when there are none).
std::string modified_message(const std::vector<std::string>& parts) {
  if (parts.empty()) return "";
  std::string list = parts.front();
  for (std::size_t k = 1; k < parts.size(); ++k) list += (k + 1 == parts.size() ? " and " : ", ") + parts[k];
  return fmt::format("the call modified its const input{} {}; inputs are declared const in "
                     "interface.cuh and must be left unchanged", parts.size() == 1 ? "" : "s", list);
}

/// What happened to one input, or "" when it is unchanged.
std::string describe_change(const Array& before, const Array* after) {
  if (after == nullptr) return "missing after the call";
  if (after->type != before.type || after->dims != before.dims || after->bytes.size() != before.bytes.size())
    return "its shape or type changed";
  // Compared bit for bit: a NaN input that stayed NaN is unchanged, and -0.0 written over 0.0 is not.
  const std::size_t width = dtype_size(before.type);
  const std::int64_t n = before.size();
  std::int64_t changed = 0, first = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * width;
    if (std::memcmp(before.bytes.data() + at, after->bytes.data() + at, width) == 0) continue;
    if (changed++ == 0) first = i;
  }
  if (changed == 0) return "";
  return fmt::format("{} of {} elements changed, the first at {}", changed, n,
                     describe_position(unravel_index(first, before.dims)));
}

}  // namespace

std::string describe_modified_inputs(const ArraySet& before, const ArraySet& after,
                                     const std::set<std::string>& in_out) {
  std::vector<std::string> parts;
  for (const auto& [name, array] : before) {
    if (in_out.contains(name)) continue;
    const auto it = after.find(name);
    const std::string change = describe_change(array, it == after.end() ? nullptr : &it->second);
    if (!change.empty()) parts.push_back(fmt::format("{} ({})", name, change));
  }
  return modified_message(parts);
}

std::string describe_input_digests(const std::map<std::string, std::string>& before,
                                   const std::map<std::string, std::string>& digests,
                                   const std::set<std::string>& in_out) {
  std::vector<std::string> changed;
  for (const auto& [name, digest] : before) {
    if (in_out.contains(name)) continue;
    const auto it = digests.find(name);
    if (it == digests.end())
      return fmt::format("the runner did not report whether the call left its const input {} unchanged "
                         "(its done event was not the runner's own)", name);
    if (it->second != digest) changed.push_back(name);
  }
  return modified_message(changed);
}

}  // namespace cugrade
