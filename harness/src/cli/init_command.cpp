// `cugrade init <assignment> [dir]`: give a student the template to start from.
#include <iostream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"

namespace cugrade {
namespace {
namespace fs = std::filesystem;

int run_init(const std::string& id, std::string dir) {
  const Locations where = default_locations();
  auto spec = load_assignment(where.assignments(), id);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  const fs::path from = where.templates() / id;
  if (!fs::is_directory(from)) return complain("assignment " + id + " has no template folder " + from.string(), exit_internal);
  const fs::path to = dir.empty() ? fs::path(id) : fs::path(dir);
  std::vector<std::pair<fs::path, fs::path>> copies;
  for (const auto& entry : fs::directory_iterator(from))
    if (entry.is_regular_file()) copies.emplace_back(entry.path(), to / entry.path().filename());
  copies.emplace_back(spec->interface_file, to / spec->interface_file.filename());
  copies.emplace_back(spec->statement_file, to / "ASSIGNMENT.md");
  for (const auto& [source, target] : copies)  // nothing is overwritten: a student's work is never lost
    if (fs::exists(target)) return complain(target.string() + " already exists; choose another folder", exit_usage);
  fs::create_directories(to);
  for (const auto& [source, target] : copies) fs::copy_file(source, target);
  std::cout << "Created " << to.string() << "/ with:\n";
  for (const auto& [source, target] : copies) std::cout << "  " << target.filename().string() << "\n";
  std::cout << "Next: edit the TODOs, then run\n  cugrade check " << id << " --submission " << to.string() << "\n";
  return exit_ok;
}
}  // namespace

void add_init_command(CLI::App& app, int& exit_code) {
  auto id = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("init", "Copy an assignment's template, interface and statement into a folder");
  cmd->footer("Example:\n  cugrade init matmul my_matmul && cugrade check matmul --submission my_matmul\n"
              "Existing files are never overwritten.");
  cmd->add_option("assignment", *id, "Assignment id (see `cugrade list`)")->required();
  cmd->add_option("dir", *dir, "Folder to create (default: the assignment id)");
  cmd->callback([id, dir, &exit_code] { exit_code = run_init(*id, *dir); });
}

}  // namespace cugrade
