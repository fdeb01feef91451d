#include "spec/lint.hpp"

#include "spec/spec_parser.hpp"

namespace cugrade {

std::vector<std::string> lint_spec_file(const std::filesystem::path& yaml_path,
                                        const SizeRules* rules) {
  return parse_spec_file(yaml_path, rules).problems;
}

}  // namespace cugrade
