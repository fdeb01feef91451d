// Golden files: render_junit's output is compared with harness/tests/data/golden/junit_*.xml
// (CUGRADE_UPDATE_GOLDEN=1 rewrites them); Boost's XML reader checks that it is well formed.
#include "report/junit_report.hpp"

#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <doctest/doctest.h>

#include "report/golden.hpp"
#include "report/sample_report.hpp"

namespace cugrade {
namespace {

namespace pt = boost::property_tree;

/// The document parsed, or a failed check naming the parser's complaint.
pt::ptree parse(const std::string& xml) {
  std::istringstream in(xml);
  pt::ptree tree;
  try {
    pt::read_xml(in, tree);
  } catch (const pt::xml_parser_error& error) {
    FAIL("not well-formed XML: " << error.what());
  }
  return tree;
}

}  // namespace

TEST_CASE("report::render_junit") {
  SUBCASE("a graded report") {
    test::check_golden("junit_sample.xml", render_junit(test::sample_report()));
  }
  SUBCASE("a compile error: the build is an error, nothing else is listed") {
    const std::string xml = render_junit(test::compile_error_report());
    test::check_golden("junit_compile_error.xml", xml);
    const pt::ptree root = parse(xml).get_child("testsuites");
    CHECK(root.get<int>("<xmlattr>.tests") == 1);
    CHECK(root.get<int>("<xmlattr>.errors") == 1);
    CHECK(root.get<int>("<xmlattr>.failures") == 0);
    CHECK(xml.find("<skipped") == std::string::npos);
    CHECK(xml.find("<error message=\"nvcc rejected matmul.cu") != std::string::npos);
  }
  SUBCASE("an empty submission (nothing to build) is an error saying why, named without a trailing space") {
    GradeReport report = test::compile_error_report();
    report.submission.clear();
    report.build = BuildResult{};
    report.build.message = "the submission is empty";
    report.outcome = Outcome::not_run;
    const std::string xml = render_junit(report);
    const pt::ptree root = parse(xml).get_child("testsuites");
    CHECK(root.get<int>("<xmlattr>.errors") == 1);
    CHECK(xml.find("<error message=\"the submission is empty\" type=\"not_run\"") != std::string::npos);
    CHECK(xml.find("name=\"build\"") != std::string::npos);
    CHECK(xml.find(" \"") == std::string::npos);  // no attribute value ends in a space
  }
  SUBCASE("<testsuites> carries only the attributes the JUnit schema allows it (no skipped)") {
    const pt::ptree root = parse(render_junit(test::sample_report())).get_child("testsuites");
    for (const auto& [attribute, value] : root.get_child("<xmlattr>"))
      CHECK_MESSAGE((attribute == "name" || attribute == "tests" || attribute == "failures" || attribute == "errors" ||
                     attribute == "time" || attribute == "disabled"),
                    attribute);
  }
  SUBCASE("one suite per step after the build's, with totals and properties") {
    const pt::ptree tree = parse(render_junit(test::sample_report()));
    const pt::ptree& root = tree.get_child("testsuites");
    CHECK(root.get<int>("<xmlattr>.tests") == 9);
    CHECK(root.get<int>("<xmlattr>.failures") == 5);
    std::vector<std::string> names;
    for (const auto& [tag, suite] : root)
      if (tag == "testsuite") {
        names.push_back(suite.get<std::string>("<xmlattr>.name"));
        CHECK(suite.get_child("properties").count("property") >= 8);
      }
    CHECK(names == std::vector<std::string>{"matmul.build", "matmul.naive", "matmul.tiled"});
  }
  SUBCASE("markup and bytes that are not XML in student text are escaped or replaced") {
    GradeReport report = test::sample_report();
    report.cases[3].message = "<script>]]>&\"'\x1b[0m caf\xe9";
    const std::string xml = render_junit(report);
    parse(xml);
    CHECK(xml.find("&lt;script&gt;]]&gt;&amp;&quot;&#39;\xef\xbf\xbd[0m caf\xef\xbf\xbd") !=
          std::string::npos);
  }
  SUBCASE("hidden cases are named by id and show only their outcome") {
    const std::string xml = render_junit(test::sample_report());
    CHECK(xml.find("K=77") == std::string::npos);
    CHECK(xml.find("name=\"hidden/tiled/2\"") != std::string::npos);
  }
}

}  // namespace cugrade
