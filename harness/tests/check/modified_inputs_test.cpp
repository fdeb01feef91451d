#include <doctest/doctest.h>

#include <limits>
#include <map>
#include <string>

#include "check/modified_inputs.hpp"

using namespace cugrade;

namespace {
ArraySet inputs() {
  ArraySet set;
  set["A"] = make_array(DType::f32, {2, 3});
  set["B"] = make_array(DType::f32, {4});
  return set;
}

/// Each input's digest before the call.
std::map<std::string, std::string> digests_before() {
  std::map<std::string, std::string> digests;
  for (const auto& [name, array] : inputs()) digests[name] = array_digest(array);
  return digests;
}
}  // namespace

TEST_CASE("check::describe_modified_inputs") {
  SUBCASE("unchanged inputs: no message") {
    CHECK(describe_modified_inputs(inputs(), inputs()) == "");
  }
  SUBCASE("one input changed, with its first changed element") {
    ArraySet after = inputs();
    after["A"].data<float>()[5] = 1.0f;
    CHECK(describe_modified_inputs(inputs(), after) ==
          "the call modified its const input A (1 of 6 elements changed, the first at (row 1, "
          "col 2)); inputs are declared const in interface.cuh and must be left unchanged");
  }
  SUBCASE("several inputs, one of them missing") {
    ArraySet after = inputs();
    after["A"].data<float>()[0] = 2.0f;
    after["A"].data<float>()[4] = 2.0f;
    after.erase("B");
    CHECK(describe_modified_inputs(inputs(), after) ==
          "the call modified its const inputs A (2 of 6 elements changed, the first at (row 0, "
          "col 0)) and B (missing after the call); inputs are declared const in interface.cuh "
          "and must be left unchanged");
  }
  SUBCASE("a changed shape counts as modified") {
    ArraySet after = inputs();
    after["B"] = make_array(DType::f32, {5});
    CHECK(describe_modified_inputs(inputs(), after) ==
          "the call modified its const input B (its shape or type changed); inputs are declared "
          "const in interface.cuh and must be left unchanged");
  }
  SUBCASE("compared bit for bit: a NaN left alone is unchanged, -0.0 over 0.0 is a change") {
    ArraySet before = inputs();
    before["B"].data<float>()[1] = std::numeric_limits<float>::quiet_NaN();
    ArraySet after = before;
    CHECK(describe_modified_inputs(before, after) == "");
    after["B"].data<float>()[2] = -0.0f;
    CHECK(describe_modified_inputs(before, after) ==
          "the call modified its const input B (1 of 4 elements changed, the first at index 2); "
          "inputs are declared const in interface.cuh and must be left unchanged");
  }
  SUBCASE("an in-out array is written by the call: not a const input") {
    ArraySet after = inputs();
    after["B"].data<float>()[0] = 3.0f;
    CHECK(describe_modified_inputs(inputs(), after, {"B"}) == "");
  }
}

TEST_CASE("check::describe_input_digests") {
  std::map<std::string, std::string> digests;
  for (const auto& [name, array] : inputs()) digests[name] = array_digest(array);
  SUBCASE("every input's digest as given: no message") {
    CHECK(describe_input_digests(digests_before(), digests) == "");
  }
  SUBCASE("a changed input is named, whatever its read-back file says") {
    ArraySet after = inputs();
    after["B"].data<float>()[0] = -0.0f;  // a sign bit is a change too
    digests["B"] = array_digest(after["B"]);
    CHECK(describe_input_digests(digests_before(), digests) ==
          "the call modified its const input B; inputs are declared const in interface.cuh and "
          "must be left unchanged");
  }
  SUBCASE("an in-out array is written by the call: its digest is not checked, nor needed") {
    digests["B"] = "0000000000000000";
    CHECK(describe_input_digests(digests_before(), digests, {"B"}) == "");
    digests.erase("B");
    CHECK(describe_input_digests(digests_before(), digests, {"B"}) == "");
  }
  SUBCASE("a done event without the digests (not the runner's own) does not pass") {
    digests.erase("A");
    CHECK(describe_input_digests(digests_before(), digests).find("did not report") != std::string::npos);
  }
  SUBCASE("the digest sees type and shape, not only bytes") {
    Array reshaped = inputs()["A"];
    reshaped.dims = {3, 2};
    CHECK(array_digest(reshaped) != array_digest(inputs()["A"]));
    CHECK(array_digest(inputs()["A"]).size() == 16);
  }
}
