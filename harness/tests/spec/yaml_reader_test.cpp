#include "spec/yaml_reader.hpp"

#include <doctest/doctest.h>

using namespace cugrade;

namespace {

// The field `key` of a one-map document, read through a MapReader that accepts any key.
Field field_of(const YAML::Node& map, const std::string& key, Diagnostics& diags) {
  std::vector<std::string> keys;
  for (auto it = map.begin(); it != map.end(); ++it) keys.push_back(it->first.Scalar());
  return MapReader(map, "the test", keys, diags).optional(key);
}

}  // namespace

TEST_CASE("spec::Diagnostics::lines") {
  Diagnostics diags("t.yaml");
  diags.error(SourceLocation{"", 3, 1}, "third");
  diags.error(SourceLocation{}, "no position");
  diags.error(SourceLocation{"", 1, 7}, "first");
  diags.error(SourceLocation{"", 3, 1}, "third, found later");
  CHECK(diags.lines() == std::vector<std::string>{"t.yaml:1:7: first", "t.yaml:3:1: third",
                                                  "t.yaml:3:1: third, found later",
                                                  "t.yaml: no position"});
}

TEST_CASE("spec::Diagnostics::lines past 100 problems") {
  Diagnostics diags("t.yaml");
  for (int i = 1; i <= 250; ++i) diags.error(SourceLocation{"", i, 1}, "problem " + std::to_string(i));
  const auto lines = diags.lines();
  REQUIRE(lines.size() == 101);
  CHECK(lines[0] == "t.yaml:1:1: problem 1");
  CHECK(lines[99] == "t.yaml:100:1: problem 100");
  CHECK(lines[100] == "t.yaml: … and 150 more problems (fix these first)");
}

TEST_CASE("spec::Diagnostics::error keeps a message short") {
  Diagnostics diags("t.yaml");
  diags.error(SourceLocation{"", 1, 1}, "long: " + std::string(5000, 'x'));
  REQUIRE(diags.lines().size() == 1);
  CHECK(diags.lines()[0].size() < 1100);
  CHECK(diags.lines()[0].ends_with("x…"));
}

TEST_CASE("spec::MapReader") {
  Diagnostics diags("t.yaml");
  const YAML::Node map = YAML::Load("nmae: a\nname: b\nname: c\n[x]: 1\n");
  const MapReader reader(map, "step 1", {"name", "entry"}, diags);
  SUBCASE("unknown, repeated and non-name keys are reported as the map is opened") {
    CHECK(diags.lines() == std::vector<std::string>{
                               "t.yaml:1:1: unknown key 'nmae' in step 1; did you mean 'name'?",
                               "t.yaml:3:1: key 'name' is given twice in step 1 (first at line 2)",
                               "t.yaml:4:1: keys in step 1 must be plain names, not a sequence"});
  }
  SUBCASE("the first of a repeated key is the one read") {
    CHECK(read_string(reader.optional("name"), diags) == "b");
  }
  SUBCASE("a missing required key") {
    const Field entry = reader.required("entry");
    CHECK_FALSE(entry.present());
    REQUIRE(diags.lines().size() == 4);
    CHECK(diags.lines()[1] == "t.yaml:1:1: step 1 has no 'entry'");
  }
}

TEST_CASE("spec::read_string") {
  Diagnostics diags("t.yaml");
  const YAML::Node map = YAML::Load("title:\nother: [a]\n");
  SUBCASE("an empty value is reported at its key") {
    CHECK(read_string(field_of(map, "title", diags), diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{"t.yaml:1:1: 'title' must be a string, not empty"});
  }
  SUBCASE("a list is not a string") {
    CHECK(read_string(field_of(map, "other", diags), diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{"t.yaml:2:8: 'other' must be a string, not a sequence"});
  }
  SUBCASE("an absent key is no problem") {
    CHECK(read_string(field_of(map, "absent", diags), diags) == std::nullopt);
    CHECK(diags.empty());
  }
}

TEST_CASE("spec::read_number") {
  Diagnostics diags("t.yaml");
  const YAML::Node map = YAML::Load("a: 1.0e-5\nb: +2\nc: .inf\nd: true\ne: 0\n");
  CHECK(read_number(field_of(map, "a", diags), diags) == doctest::Approx(1.0e-5));
  CHECK(read_number(field_of(map, "b", diags), diags) == 2.0);
  CHECK(read_number(field_of(map, "e", diags), diags, 0.0) == 0.0);
  CHECK(diags.empty());
  CHECK(read_number(field_of(map, "c", diags), diags) == std::nullopt);
  CHECK(read_number(field_of(map, "d", diags), diags) == std::nullopt);
  CHECK(read_number(field_of(map, "e", diags), diags, 0.0, true) == std::nullopt);
  CHECK(diags.lines() == std::vector<std::string>{"t.yaml:3:4: 'c' must be a number, not '.inf'",
                                                  "t.yaml:4:4: 'd' must be a number, not 'true'",
                                                  "t.yaml:5:4: 'e' must be > 0, not 0"});
}

TEST_CASE("spec::read_number bounds and spelling") {
  Diagnostics diags("t.yaml");
  const YAML::Node map =
      YAML::Load("a: \"1e-5\"\nb: '2'\nc: !!str 3\nd: 3600\ne: 3600.5\nf: !!float 4\n");
  SUBCASE("a maximum is inclusive") {
    CHECK(read_number(field_of(map, "d", diags), diags, 0.0, true, 3600.0) == 3600.0);
    CHECK(read_number(field_of(map, "e", diags), diags, 0.0, true, 3600.0) == std::nullopt);
    CHECK(diags.lines() == std::vector<std::string>{"t.yaml:5:4: 'e' must be at most 3600, not 3600.5"});
  }
  SUBCASE("a quoted or !!str-tagged number is a string; an explicit !!float is a number") {
    CHECK(read_number(field_of(map, "f", diags), diags) == 4.0);
    CHECK(read_number(field_of(map, "a", diags), diags) == std::nullopt);
    CHECK(read_number(field_of(map, "b", diags), diags) == std::nullopt);
    CHECK(read_unsigned(field_of(map, "c", diags), diags) == std::nullopt);
    CHECK(diags.lines() ==
          std::vector<std::string>{
              "t.yaml:1:4: 'a' must be a number, not a string (\"1e-5\"): write it without quotes",
              "t.yaml:2:4: 'b' must be a number, not a string (\"2\"): write it without quotes",
              "t.yaml:3:4: 'c' must be an integer, not a string (\"3\"): write it without quotes"});
  }
}

TEST_CASE("spec::read_unsigned") {
  Diagnostics diags("t.yaml");
  const YAML::Node map =
      YAML::Load("a: +5\nb: -0\nc: 18446744073709551615\nd: 18446744073709551616\ne: -1\nf: 0\n");
  CHECK(read_unsigned(field_of(map, "a", diags), diags) == 5u);
  CHECK(read_unsigned(field_of(map, "b", diags), diags) == 0u);
  CHECK(read_unsigned(field_of(map, "c", diags), diags) == 18446744073709551615u);
  CHECK(diags.empty());
  CHECK(read_unsigned(field_of(map, "d", diags), diags) == std::nullopt);
  CHECK(read_unsigned(field_of(map, "e", diags), diags) == std::nullopt);
  CHECK(read_unsigned(field_of(map, "f", diags), diags, 1) == std::nullopt);
  CHECK(diags.lines() ==
        std::vector<std::string>{"t.yaml:4:4: 'd' is too large: 18446744073709551616",
                                 "t.yaml:5:4: 'e' must be >= 0, not -1",
                                 "t.yaml:6:4: 'f' must be >= 1, not 0"});
}

TEST_CASE("spec::read_identifier") {
  Diagnostics diags("t.yaml");
  const YAML::Node map = YAML::Load("a: _tiled2\nb: 2fast\nc: vec-add\n");
  CHECK(read_identifier(field_of(map, "a", diags), diags) == "_tiled2");
  CHECK(read_identifier(field_of(map, "b", diags), diags) == std::nullopt);
  CHECK(read_identifier(field_of(map, "c", diags), diags) == std::nullopt);
  CHECK(diags.lines().size() == 2);
  CHECK(diags.lines()[1] ==
        "t.yaml:3:4: 'c' must be an identifier (letters, digits and '_', not "
        "starting with a digit), not 'vec-add'");
}
