// The build stage of a check: the reference's timing baselines taken while nothing of the
// student's can use the GPU (take_baselines_now, a batch's first builds). The stage's outcomes
// as a student reads them (compile_error, link_error, forbidden_symbol) are checked end to end in
// check_submission_test.cpp.
#include "pipeline/build_for_check.hpp"

#include <doctest/doctest.h>

#include "device/device_info.hpp"
#include "pipeline/twice_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

TEST_CASE("pipeline::take_baselines_now") {
  PipelineFixture fixture;
  fixture.options.performance = true;
  CheckContext context{fixture.processes, fixture.where};
  context.baselines = std::make_shared<BaselineCache>();
  auto probe = parse_probe_output(test_data("device/probe_h100.json"));
  REQUIRE(probe.has_value());

  SUBCASE("nothing to take: no GPU, --no-performance, the CPU backend, no cache; nothing runs") {
    CHECK(take_baselines_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) == 0.0);
    context.device = *probe;
    CheckOptions off = fixture.options;
    off.performance = false;
    CHECK(take_baselines_now(context, fixture.spec, twice_grader, off, fixture.work()) == 0.0);
    off = fixture.options;
    off.backend = Backend::cpu;
    CHECK(take_baselines_now(context, fixture.spec, twice_grader, off, fixture.work()) == 0.0);
    context.baselines.reset();
    CHECK(take_baselines_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) == 0.0);
    CHECK(fixture.processes.requests().empty());
  }
  SUBCASE("on a GPU: the reference beside its twin, once; a later call finds the baseline kept") {
    context.device = *probe;
    fixture.expect_timing({}, PipelineFixture::Timed::baselines);
    CHECK(take_baselines_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) > 0.0);
    CHECK(fixture.processes.pending() == 0);
    const std::size_t started = fixture.processes.requests().size();
    CHECK(started == 2);
    take_baselines_now(context, fixture.spec, twice_grader, fixture.options, fixture.work());
    CHECK(fixture.processes.requests().size() == started);
  }
}
