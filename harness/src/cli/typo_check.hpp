#pragma once
// "Did you mean": a misspelt command or option is named, with the nearest right one, before
// CLI11 parses (its own messages only say an argument "was not expected").
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cugrade {

/// The message for the first unknown command or long option of `args` (argv without the
/// program name), with the nearest known one; nullopt when every name is known.
std::optional<std::string> find_typo(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace cugrade
