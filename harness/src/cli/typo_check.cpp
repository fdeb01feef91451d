#include "cli/typo_check.hpp"

#include <algorithm>

#include "spec/suggest.hpp"

namespace cugrade {

std::optional<std::string> find_typo(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) commands.push_back(sub->get_name());
  // The command: the first word that is not an option of cugrade's own (--version, --help).
  const CLI::App* command = nullptr;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    if (args[i].starts_with("-")) continue;
    if (std::find(commands.begin(), commands.end(), args[i]) == commands.end())
      return "unknown command '" + args[i] + "'" + did_you_mean(args[i], commands) + " (commands: " +
             join_names(commands) + ")";
    command = app.get_subcommand(args[i]);
    break;
  }
  if (!command) return std::nullopt;
  std::vector<std::string> options;
  for (const CLI::Option* option : command->get_options())
    for (const std::string& name : option->get_lnames()) options.push_back("--" + name);
  for (++i; i < args.size(); ++i) {
    if (args[i] == "--") break;  // what follows is not options
    if (!args[i].starts_with("--") || args[i] == "--help") continue;
    const std::string name = args[i].substr(0, args[i].find('='));
    if (std::find(options.begin(), options.end(), name) != options.end()) continue;
    return "unknown option '" + name + "' for `cugrade " + command->get_name() + "`" + did_you_mean(name, options) +
           " (see cugrade " + command->get_name() + " --help)";
  }
  return std::nullopt;
}

}  // namespace cugrade
