// The reference's work that needs no student (take_reference_work_now: a batch's and a
// self-test's first builds): its timing baselines, and its counters of the steps checks will
// diagnose, taken while nothing of a student's can use the GPU. The build stage's outcomes as a
// student reads them (compile_error, link_error, forbidden_symbol) are checked end to end in
// check_submission_test.cpp.
#include "pipeline/reference_ahead.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "device/device_info.hpp"
#include "pipeline/twice_fixture.hpp"

using namespace cugrade;
using namespace cugrade::test;

namespace {
/// The check tasks of the job an ncu run was given (its last argument).
std::vector<CheckTask> profiled_calls(const ProcessRequest& r) {
  std::ifstream in(r.argv.back());
  std::stringstream text;
  text << in.rdbuf();
  auto job = job_from_json(text.str());
  return job ? job->checks : std::vector<CheckTask>{};
}

/// CUGRADE_NCU set to `path` while it lives (find_ncu's choice), as it was after.
struct NcuNamed {
  std::string before;
  bool had = false;
  explicit NcuNamed(const std::string& path) {
    if (const char* set = std::getenv("CUGRADE_NCU")) {
      had = true;
      before = set;
    }
    ::setenv("CUGRADE_NCU", path.c_str(), 1);
  }
  ~NcuNamed() {
    if (had) ::setenv("CUGRADE_NCU", before.c_str(), 1);
    else ::unsetenv("CUGRADE_NCU");
  }
};
}  // namespace

TEST_CASE("pipeline::take_reference_work_now") {
  PipelineFixture fixture;
  fixture.options.performance = true;
  fixture.options.diagnosis = true;  // ncu is scripted below wherever it may run
  CheckContext context{fixture.processes, fixture.where};
  context.baselines = std::make_shared<BaselineCache>();
  auto probe = parse_probe_output(test_data("device/probe_h100.json"));
  REQUIRE(probe.has_value());

  SUBCASE("nothing to take: no GPU, --no-performance, the CPU backend, no cache; nothing runs") {
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) == 0.0);
    context.device = *probe;
    CheckOptions off = fixture.options;
    off.performance = false;
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, off, fixture.work(), {"fast"}) == 0.0);
    off = fixture.options;
    off.backend = Backend::cpu;
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, off, fixture.work(), {"fast"}) == 0.0);
    context.baselines.reset();
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) == 0.0);
    CHECK(fixture.processes.requests().empty());
  }
  SUBCASE("on a GPU: the reference beside its twin, once; a later call finds the baseline kept") {
    context.device = *probe;
    fixture.expect_timing({}, PipelineFixture::Timed::baselines);
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) > 0.0);
    CHECK(fixture.processes.pending() == 0);
    const std::size_t started = fixture.processes.requests().size();
    CHECK(started == 2);
    take_reference_work_now(context, fixture.spec, twice_grader, fixture.options, fixture.work());
    CHECK(fixture.processes.requests().size() == started);
  }
  SUBCASE("the steps checks will diagnose: the reference's calls profiled after its baselines") {
    const NcuNamed ncu("/cuda/bin/ncu");
    context.device = *probe;
    context.counters = std::make_shared<CounterCache>();
    fixture.expect_timing({}, PipelineFixture::Timed::baselines);
    std::vector<CheckTask> calls;
    // ncu refused (as without the permission to read counters): nothing kept, nothing thrown;
    // the first check that needs the counters profiles them itself.
    fixture.processes.expect([&](const ProcessRequest& r) {
      calls = profiled_calls(r);
      return fake_exit(1, "", "==ERROR== ERR_NVGPUCTRPERM\n");
    });
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, fixture.options, fixture.work(), {"fast"}) > 0.0);
    CHECK(fixture.processes.pending() == 0);
    REQUIRE(fixture.processes.requests().size() == 3);
    const ProcessRequest& profile = fixture.processes.requests().back();
    CHECK(profile.argv.front() == "/cuda/bin/ncu");
    CHECK(profile.argv[profile.argv.size() - 2] ==
          fixture.where.reference_runner(fixture.spec.id, true).string());
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].reference);
    CHECK(calls[0].step == "simple");  // the reference's step the target times against
    CHECK(calls[0].params.at("n") == 4096);
  }
  SUBCASE("with --no-diagnosis, or no step named, no profile") {
    const NcuNamed ncu("/cuda/bin/ncu");
    context.device = *probe;
    context.counters = std::make_shared<CounterCache>();
    fixture.expect_timing({}, PipelineFixture::Timed::baselines);
    CheckOptions off = fixture.options;
    off.diagnosis = false;
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, off, fixture.work(), {"fast"}) > 0.0);
    CHECK(take_reference_work_now(context, fixture.spec, twice_grader, fixture.options, fixture.work()) > 0.0);
    CHECK(fixture.processes.requests().size() == 2);  // the baselines, taken once
  }
}
