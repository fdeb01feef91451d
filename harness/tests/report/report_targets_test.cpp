#include "report/report_targets.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <doctest/doctest.h>

#include "report/console_report.hpp"
#include "report/github_report.hpp"
#include "report/gradescope_report.hpp"
#include "report/html_report.hpp"
#include "report/json_report.hpp"
#include "report/junit_report.hpp"
#include "report/markdown_report.hpp"
#include "report/prairielearn_report.hpp"
#include "report/sample_report.hpp"
#include "temp_dir.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::vector<std::string>& specs) {
  const auto result = parse_report_targets(specs);
  REQUIRE_FALSE(result.has_value());
  return result.error().message;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using test::TempDir;

/// Captures what is written to std::cout while it lives.
struct CaptureStdout {
  std::stringstream text;
  std::streambuf* previous = std::cout.rdbuf(text.rdbuf());
  ~CaptureStdout() { std::cout.rdbuf(previous); }
};

}  // namespace

TEST_CASE("report::parse_report_targets") {
  SUBCASE("kind=path values, '-' for standard output, the path split at the first '='") {
    const auto targets =
        parse_report_targets({"console=-", "json=out/report.json", "markdown=a=b.md"});
    REQUIRE(targets.has_value());
    CHECK(*targets == std::vector<ReportTarget>{{ReportKind::console, "-"},
                                                {ReportKind::json, "out/report.json"},
                                                {ReportKind::markdown, "a=b.md"}});
  }
  SUBCASE("every kind by its name") {
    const auto targets = parse_report_targets({"html=a.html", "junit=a.xml", "gradescope=r.json",
                                               "prairielearn=p.json", "github=-"});
    REQUIRE(targets.has_value());
    CHECK(*targets == std::vector<ReportTarget>{{ReportKind::html, "a.html"},
                                                {ReportKind::junit, "a.xml"},
                                                {ReportKind::gradescope, "r.json"},
                                                {ReportKind::prairielearn, "p.json"},
                                                {ReportKind::github, "-"}});
    for (const ReportTarget& t : *targets) CHECK(parse_report_targets({std::string(to_string(t.kind)) + "=x"}));
  }
  SUBCASE("no values, no targets") {
    CHECK(parse_report_targets({})->empty());
  }
  SUBCASE("a missing '='") {
    CHECK(error_of({"json"}) == "--report 'json': expected kind=path, e.g. json=report.json or "
                                "console=- ('-' is standard output)");
  }
  SUBCASE("an unknown kind names the nearest") {
    CHECK(error_of({"console=-", "jsno=out.json"}) ==
          "--report 'jsno=out.json': unknown report kind 'jsno' (known kinds: console, json, "
          "markdown, html, junit, gradescope, prairielearn, github, classroom50); did you mean 'json'?");
    CHECK(error_of({"Markdown=-"}) == "--report 'Markdown=-': unknown report kind 'Markdown' "
                                      "(known kinds: console, json, markdown, html, junit, "
                                      "gradescope, prairielearn, github, classroom50); did you mean "
                                      "'markdown'?");
    CHECK(error_of({"gradscope=results.json"}) ==
          "--report 'gradscope=results.json': unknown report kind 'gradscope' (known kinds: "
          "console, json, markdown, html, junit, gradescope, prairielearn, github, classroom50); did you mean "
          "'gradescope'?");
  }
  SUBCASE("an unknown kind with nothing near") {
    CHECK(error_of({"pdf=out.pdf"}) == "--report 'pdf=out.pdf': unknown report kind 'pdf' "
                                       "(known kinds: console, json, markdown, html, junit, "
                                       "gradescope, prairielearn, github, classroom50)");
  }
  SUBCASE("an empty kind or path") {
    CHECK(error_of({"=out.json"}) == "--report '=out.json': the kind before '=' is missing; "
                                     "known kinds: console, json, markdown, html, junit, "
                                     "gradescope, prairielearn, github, classroom50");
    CHECK(error_of({"json="}) ==
          "--report 'json=': the path after '=' is missing; use '-' for standard output");
  }
}

TEST_CASE("report::write_reports") {
  const GradeReport report = test::sample_report();
  TempDir dir;

  SUBCASE("each report to its own file, folders created, no temporary left behind") {
    const fs::path json = dir.path / "nested" / "report.json";
    const fs::path markdown = dir.path / "summary.md";
    const fs::path console = dir.path / "report.txt";
    const auto written = write_reports(report,
                                       {{ReportKind::json, json.string()},
                                        {ReportKind::markdown, markdown.string()},
                                        {ReportKind::console, console.string()}},
                                       /*colour_console=*/true);
    REQUIRE(written.has_value());
    const auto back = report_from_json(nlohmann::json::parse(read_file(json)));
    REQUIRE(back.has_value());
    CHECK(back->cases[5].params.empty());  // hidden details stay out unless asked for
    CHECK(read_file(markdown) == render_markdown(report));
    CHECK(read_file(console) == render_console(report, false));  // no colour in a file
    std::size_t files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir.path))
      files += entry.is_regular_file() ? 1 : 0;
    CHECK(files == 3);
  }
  SUBCASE("each new kind writes what its writer renders; hidden details never reach Gradescope") {
    const fs::path html = dir.path / "r.html", junit = dir.path / "r.xml";
    const fs::path gradescope = dir.path / "results.json", prairielearn = dir.path / "pl.json";
    REQUIRE(write_reports(report,
                          {{ReportKind::html, html.string()}, {ReportKind::junit, junit.string()},
                           {ReportKind::gradescope, gradescope.string()},
                           {ReportKind::prairielearn, prairielearn.string()}},
                          false, /*include_hidden_details=*/true)
                .has_value());
    CHECK(read_file(html) == render_html(report));
    CHECK(read_file(junit) == render_junit(report));
    CHECK(nlohmann::json::parse(read_file(gradescope)) == report_to_gradescope(report));
    CHECK(nlohmann::json::parse(read_file(prairielearn)) == report_to_prairielearn(report));
    CHECK(read_file(gradescope).find("K=77") == std::string::npos);  // a hidden case's size
  }
  SUBCASE("github annotations to standard output") {
    CaptureStdout out;
    REQUIRE(write_reports(report, {{ReportKind::github, "-"}}, true).has_value());
    CHECK(out.text.str() == render_github_annotations(report));
  }
  SUBCASE("a TA's JSON keeps the hidden details") {
    const fs::path json = dir.path / "report.json";
    REQUIRE(write_reports(report, {{ReportKind::json, json.string()}}, false, true).has_value());
    CHECK(*report_from_json(nlohmann::json::parse(read_file(json))) == report);
  }
  SUBCASE("a build log that is not UTF-8 does not stop the JSON") {
    GradeReport latin1 = report;
    latin1.build.log = "matmul.cu(3): warning: caf\xe9";
    const fs::path json = dir.path / "report.json";
    REQUIRE(write_reports(latin1, {{ReportKind::json, json.string()}}, false).has_value());
    const auto back = report_from_json(nlohmann::json::parse(read_file(json)));
    REQUIRE(back.has_value());
    CHECK(back->build.log == "matmul.cu(3): warning: caf\xef\xbf\xbd");
  }
  SUBCASE("an existing file is replaced") {
    const fs::path markdown = dir.path / "summary.md";
    std::ofstream(markdown) << "an older, longer report than this one will be ...........";
    REQUIRE(write_reports(report, {{ReportKind::markdown, markdown.string()}}, false).has_value());
    CHECK(read_file(markdown) == render_markdown(report));
  }
  SUBCASE("'-' writes to standard output, in colour when asked") {
    CaptureStdout out;
    REQUIRE(write_reports(report, {{ReportKind::console, "-"}}, true).has_value());
    CHECK(out.text.str() == render_console(report, true));
  }
  SUBCASE("every target is tried and each failure is named") {
    const fs::path blocker = dir.path / "file";
    std::ofstream(blocker) << "not a folder";
    const fs::path good = dir.path / "ok.md";
    const auto written =
        write_reports(report,
                      {{ReportKind::json, (blocker / "report.json").string()},
                       {ReportKind::markdown, good.string()}},
                      false);
    REQUIRE_FALSE(written.has_value());
    CHECK(written.error().message.starts_with("cannot create the folder of report " +
                                              (blocker / "report.json").string() + ": "));
    CHECK(fs::exists(good));
  }
}

}  // namespace cugrade

namespace cugrade {

TEST_CASE("report::check_report_targets refuses, before any grading, a target that cannot be written") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cugrade-targets-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  fs::create_symlink(dir / "elsewhere.json", dir / "link.json");

  SUBCASE("standard output, a new file, a file in folders still to be made: fine") {
    CHECK(check_report_targets({{ReportKind::console, "-"},
                                {ReportKind::json, (dir / "a.json").string()},
                                {ReportKind::html, (dir / "x" / "y" / "a.html").string()}})
              .has_value());
  }
  SUBCASE("a symbolic link is not replaced, and a write through it is refused too") {
    const auto checked = check_report_targets({{ReportKind::json, (dir / "link.json").string()}});
    REQUIRE_FALSE(checked.has_value());
    CHECK(checked.error().message.find("is a symbolic link") != std::string::npos);
    const auto written = write_reports(test::sample_report(), {{ReportKind::json, (dir / "link.json").string()}}, false);
    REQUIRE_FALSE(written.has_value());
    CHECK(written.error().message.find("symbolic link") != std::string::npos);
    CHECK(fs::is_symlink(dir / "link.json"));
    CHECK_FALSE(fs::exists(dir / "elsewhere.json"));
  }
  SUBCASE("a folder, and a file where a folder must be: each named") {
    const auto checked = check_report_targets(
        {{ReportKind::json, dir.string()}, {ReportKind::junit, (dir / "file" / "junit.xml").string()}});
    REQUIRE_FALSE(checked.has_value());
    CHECK(checked.error().message == "--report json=" + dir.string() + ": is a folder (give a file name inside it)\n"
                                     "--report junit=" + (dir / "file" / "junit.xml").string() + ": " +
                                         (dir / "file").string() + " is not a folder");
  }
  fs::remove_all(dir);
}

}  // namespace cugrade
