// Golden file: the workflow `cugrade init matmul` writes is compared with
// harness/tests/data/golden/student_workflow_matmul.yml (CUGRADE_UPDATE_GOLDEN=1 rewrites it);
// the lint test (label lint) runs actionlint on that file and on the template.
#include "cli/student_workflow.hpp"

#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "report/golden.hpp"

namespace cugrade {
namespace {

std::string workflow_template() {
  std::ifstream in(std::string(CUGRADE_SOURCE_ROOT) + "/templates/github/cugrade.yml", std::ios::binary);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

StudentWorkflowSettings matmul() {
  return {.assignment = "matmul", .submission = {"matmul.cu"}, .repository = "my-course/cugrade",
          .ref = "v0.1.0"};
}

std::string error_of(const StudentWorkflowSettings& settings, std::string_view text = "") {
  const auto rendered = render_student_workflow(text.empty() ? workflow_template() : std::string(text), settings);
  REQUIRE_FALSE(rendered.has_value());
  return rendered.error().message;
}

}  // namespace

TEST_CASE("cli::render_student_workflow") {
  SUBCASE("the template filled in for matmul") {
    const auto rendered = render_student_workflow(workflow_template(), matmul());
    REQUIRE(rendered.has_value());
    test::check_golden("student_workflow_matmul.yml", *rendered);
    for (const char* placeholder : {"@ASSIGNMENT@", "@SUBMISSION@", "@CUGRADE_REPOSITORY@", "@CUGRADE_REF@",
                                    "@CUGRADE_PACKAGE_URL@", "@CUGRADE_PACKAGE_SHA256@"})
      CHECK(rendered->find(placeholder) == std::string::npos);
    CHECK(rendered->find("  ASSIGNMENT: \"matmul\"\n") != std::string::npos);
    CHECK(rendered->find("  CUGRADE_REPOSITORY: \"my-course/cugrade\"\n") != std::string::npos);
  }
  SUBCASE("several files become one list") {
    StudentWorkflowSettings settings = matmul();
    settings.submission = {"a.cu", "src/b.cu"};
    CHECK(render_student_workflow(workflow_template(), settings)->find("SUBMISSION: \"a.cu src/b.cu\"") !=
          std::string::npos);
  }
  SUBCASE("values that would break the YAML or the shell are refused") {
    StudentWorkflowSettings settings = matmul();
    settings.repository = "cugrade";
    CHECK(error_of(settings) == "--course-repo 'cugrade': expected owner/name, e.g. my-course/cugrade");
    settings = matmul();
    settings.ref = "v1\"; rm -rf /";
    CHECK(error_of(settings) ==
          "--cugrade-ref 'v1\"; rm -rf /': expected a tag, branch or commit, e.g. v0.1.0");
    settings = matmul();
    settings.submission = {"my file.cu"};
    CHECK(error_of(settings) == "the file name 'my file.cu' cannot go into a workflow: use letters, "
                                "digits, '.', '_', '-' and '/' only");
  }
  SUBCASE("the course's package: its URL and SHA-256 filled in, or both left empty") {
    const std::string sha(64, 'a');
    StudentWorkflowSettings settings = matmul();
    settings.package_url = "https://github.com/my-course/cugrade/releases/download/v0.1.0/cugrade_0.1.0_debian12_amd64.deb";
    settings.package_sha256 = sha;
    const auto rendered = render_student_workflow(workflow_template(), settings);
    REQUIRE(rendered.has_value());
    CHECK(rendered->find("PACKAGE_URL: ${{ vars.CUGRADE_PACKAGE_URL || '" + settings.package_url + "' }}") !=
          std::string::npos);
    CHECK(rendered->find("PACKAGE_SHA256: ${{ vars.CUGRADE_PACKAGE_SHA256 || '" + sha + "' }}") != std::string::npos);
    CHECK(render_student_workflow(workflow_template(), matmul())->find("PACKAGE_URL: ${{ vars.CUGRADE_PACKAGE_URL || '' }}") !=
          std::string::npos);
  }
  SUBCASE("a package that cannot be verified or would break the workflow is refused") {
    StudentWorkflowSettings settings = matmul();
    settings.package_url = "https://example.org/cugrade.deb";
    CHECK(error_of(settings) ==
          "--package-url and --package-sha256 go together: the workflow installs no package it cannot verify");
    settings.package_sha256 = "ABC";
    CHECK(error_of(settings) == "--package-sha256 'ABC': expected the 64 lowercase hex digits sha256sum prints");
    settings.package_sha256 = std::string(64, '0');
    settings.package_url = "https://example.org/x.deb' }}$(id)";
    CHECK(error_of(settings) == "--package-url 'https://example.org/x.deb' }}$(id)': expected an https:// (or "
                                "file://) URL without quotes or spaces");
    settings.package_url = "";
    CHECK(error_of(settings) ==
          "--package-url and --package-sha256 go together: the workflow installs no package it cannot verify");
  }
  SUBCASE("a template without a placeholder is an error, not a silent default") {
    CHECK(error_of(matmul(), "name: x\n") == "the workflow template has no @ASSIGNMENT@ to fill in");
  }
}

}  // namespace cugrade

namespace cugrade {

TEST_CASE("cli::github_origin") {
  const auto config = [](std::string_view url) {
    return "[core]\n\trepositoryformatversion = 0\n[remote \"upstream\"]\n\turl = https://github.com/other/x.git\n"
           "[remote \"origin\"]\n\turl = " + std::string(url) + "\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n";
  };
  CHECK(github_origin(config("https://github.com/my-course/cugrade.git")) == "my-course/cugrade");
  CHECK(github_origin(config("git@github.com:my-course/cugrade.git")) == "my-course/cugrade");
  CHECK(github_origin(config("ssh://git@github.com/my-course/cugrade")) == "my-course/cugrade");
  CHECK(github_origin(config("https://gitlab.com/my-course/cugrade.git")) == "");
  CHECK(github_origin(config("https://github.com/only-owner")) == "");
  CHECK(github_origin("[remote \"upstream\"]\n\turl = https://github.com/other/x.git\n") == "");
  CHECK(github_origin("") == "");
}

}  // namespace cugrade
