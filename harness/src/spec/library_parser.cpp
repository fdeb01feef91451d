#include "spec/library_parser.hpp"

#include <algorithm>

#include "spec/libraries.hpp"
#include "spec/suggest.hpp"

namespace cugrade {

std::vector<std::string> parse_allowed_libraries(const Field& field, Diagnostics& diags) {
  std::vector<std::string> names;
  if (!field.present() || !expect_list(field, diags)) return names;
  std::vector<std::string> known;
  for (const auto& library : optional_libraries()) known.emplace_back(library.name);
  for (std::size_t i = 0; i < field.value.size(); ++i) {
    const Field item = item_of(field, i, field.value[i]);
    const auto name = read_string(item, diags);
    if (!name) continue;
    if (!find_optional_library(*name)) {
      diags.error(item.at, "unknown library " + quoted_excerpt(*name) + " in 'allowed_libraries'" + did_you_mean(*name, known) +
                               " (known: " + join_names(known) + ")");
    } else if (std::find(names.begin(), names.end(), *name) != names.end()) {
      diags.error(item.at, "library " + quoted_excerpt(*name) + " is listed twice in 'allowed_libraries'");
    } else {
      names.push_back(*name);
    }
  }
  return names;
}

}  // namespace cugrade
