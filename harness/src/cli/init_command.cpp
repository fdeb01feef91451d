// `cugrade init <assignment> [dir]`: give a student the template to start from, and the workflow
// that grades every push of their repository.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/student_workflow.hpp"
#include "core/atomic_file.hpp"
#include "core/config.hpp"

namespace cugrade {
namespace {
namespace fs = std::filesystem;

struct InitArgs {
  std::string id;
  std::string dir;
  std::string course_repo;  ///< owner/name of the course's repository holding cugrade
  std::string cugrade_ref;  ///< the tag the students' workflow builds
  std::string package_url;     ///< the course's release package the workflow installs instead
  std::string package_sha256;  ///< its SHA-256
  bool no_workflow = false;
};

/// The repository the workflow builds cugrade from: --course-repo, else $CUGRADE_COURSE_REPOSITORY,
/// else a placeholder the course replaces.
std::string course_repository(const InitArgs& args, const Locations& where) {
  if (!args.course_repo.empty()) return args.course_repo;
  if (const char* env = std::getenv("CUGRADE_COURSE_REPOSITORY"); env != nullptr && *env != '\0') return env;
  // The GitHub repository this cugrade was cloned from: the course's, for a student.
  if (auto config = read_whole_file(where.root / ".git" / "config"))
    if (std::string origin = github_origin(*config); !origin.empty()) return origin;
  return std::string(kPlaceholderRepository);
}

/// `value` when given, else the environment variable `name`, else "".
std::string given_or_env(const std::string& value, const char* name) {
  if (!value.empty()) return value;
  const char* env = std::getenv(name);
  return env != nullptr ? env : "";
}

/// The student workflow for this assignment, its placeholders filled in.
Result<std::string> workflow_for(const Locations& where, const InitArgs& args,
                                 const std::vector<std::pair<fs::path, fs::path>>& copies) {
  const fs::path path = where.templates() / "github" / "cugrade.yml";
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read the workflow template " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  StudentWorkflowSettings settings{.assignment = args.id, .repository = course_repository(args, where),
                                   .ref = args.cugrade_ref.empty() ? std::string("v") + config::version
                                                                   : args.cugrade_ref,
                                   .package_url = given_or_env(args.package_url, "CUGRADE_PACKAGE_URL"),
                                   .package_sha256 = given_or_env(args.package_sha256, "CUGRADE_PACKAGE_SHA256")};
  for (const auto& [source, target] : copies)
    if (target.extension() == ".cu") settings.submission.push_back(target.filename().string());
  std::sort(settings.submission.begin(), settings.submission.end());
  return render_student_workflow(text.str(), settings);
}

int run_init(const InitArgs& args) {
  const Locations where = default_locations();
  auto spec = load_assignment(where.assignments(), args.id);
  if (!spec) return complain(spec.error().message, exit_invalid_spec);
  const fs::path from = where.templates() / args.id;
  if (!fs::is_directory(from)) return complain("assignment " + args.id + " has no template folder " + from.string(), exit_internal);
  const fs::path to = args.dir.empty() ? fs::path(args.id) : fs::path(args.dir);
  if (std::error_code ec; fs::exists(to, ec) && !fs::is_directory(to, ec))
    return complain(to.string() + " exists and is not a folder; choose a folder to create (e.g. cugrade init " + args.id +
                        " my_" + args.id + ")",
                    exit_usage);
  std::vector<std::pair<fs::path, fs::path>> copies;
  for (const auto& entry : fs::directory_iterator(from))
    if (entry.is_regular_file()) copies.emplace_back(entry.path(), to / entry.path().filename());
  copies.emplace_back(spec->interface_file, to / spec->interface_file.filename());
  copies.emplace_back(spec->statement_file, to / "ASSIGNMENT.md");
  std::string workflow;
  if (!args.no_workflow) {
    auto rendered = workflow_for(where, args, copies);
    if (!rendered) return complain(rendered.error().message, rendered.error().message.starts_with("--") ? exit_usage : exit_internal);
    workflow = std::move(*rendered);
  }
  const fs::path workflow_path = to / kStudentWorkflowPath;
  for (const auto& [source, target] : copies)  // nothing is overwritten: a student's work is never lost
    if (fs::exists(target)) return complain(target.string() + " already exists; choose another folder", exit_usage);
  if (!workflow.empty() && fs::exists(workflow_path))
    return complain(workflow_path.string() + " already exists; choose another folder or pass --no-workflow", exit_usage);
  fs::create_directories(to);
  for (const auto& [source, target] : copies) fs::copy_file(source, target);
  std::cout << "Created " << to.string() << "/ with:\n";
  for (const auto& [source, target] : copies) std::cout << "  " << target.filename().string() << "\n";
  if (!workflow.empty()) {
    fs::create_directories(workflow_path.parent_path());
    std::ofstream(workflow_path, std::ios::binary) << workflow;
    std::cout << "  " << kStudentWorkflowPath << " (grades every push on GitHub)\n";
    // Which way the workflow gets cugrade: the course's package, or a build from source.
    const std::string package_url = given_or_env(args.package_url, "CUGRADE_PACKAGE_URL");
    if (!package_url.empty())
      std::cout << "The workflow installs the course's cugrade package " << package_url
                << " (after checking its SHA-256).\n";
    else
      std::cout << "The workflow builds cugrade from source (" << course_repository(args, where) << " at "
                << (args.cugrade_ref.empty() ? std::string("v") + config::version : args.cugrade_ref)
                << "); with --package-url and --package-sha256 it installs the course's release package instead.\n";
    if (package_url.empty() && course_repository(args, where) == kPlaceholderRepository)
      std::cout << "Note: this cugrade does not know your course's repository, so the workflow cannot build it "
                   "yet: ask your course staff for its name and put it in CUGRADE_REPOSITORY in "
                << kStudentWorkflowPath << ".\n";
  }
  std::cout << "Next: edit the TODOs, then run\n  cugrade check " << args.id << " --submission " << to.string() << "\n";
  return exit_ok;
}
}  // namespace

void add_init_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<InitArgs>();
  CLI::App* cmd = app.add_subcommand("init", "Copy an assignment's template, interface and statement into a folder");
  cmd->footer("Example:\n  cugrade init matmul my_matmul && cugrade check matmul --submission my_matmul\n"
              "  cugrade init matmul starter --course-repo my-course/cugrade --cugrade-ref v0.1.0\n"
              "  cugrade init matmul starter --package-url https://github.com/my-course/cugrade/releases/download/"
              "v0.1.0/cugrade_0.1.0_debian12_amd64.deb --package-sha256 <sha256sum of it>\n"
              "Also writes .github/workflows/cugrade.yml, which grades every push of the folder's\n"
              "GitHub repository (see docs/autograding.md). Existing files are never overwritten.");
  cmd->add_option("assignment", args->id, "Assignment id (see `cugrade list`)")->required();
  cmd->add_option("dir", args->dir, "Folder to create (default: the assignment id)");
  cmd->add_option("--course-repo", args->course_repo,
                  "owner/name of the course's repository the workflow builds cugrade from "
                  "(default: $CUGRADE_COURSE_REPOSITORY)");
  cmd->add_option("--cugrade-ref", args->cugrade_ref, "Tag of cugrade the workflow builds (default: v<this version>)");
  cmd->add_option("--package-url", args->package_url,
                  "URL of the course's cugrade release package (.deb) the workflow installs instead of building "
                  "cugrade (default: $CUGRADE_PACKAGE_URL)");
  cmd->add_option("--package-sha256", args->package_sha256,
                  "SHA-256 of that package, checked before it is installed (default: $CUGRADE_PACKAGE_SHA256)");
  cmd->add_flag("--no-workflow", args->no_workflow, "Do not write .github/workflows/cugrade.yml");
  cmd->callback([args, &exit_code] { exit_code = run_init(*args); });
}

}  // namespace cugrade
