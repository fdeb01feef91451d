// judge_case (harness/src/pipeline/verdicts.cpp): from a finished check task's files to the
// case's verdict — a gold's per-element slack, and in-out arrays that are not const inputs.
#include "pipeline/verdicts.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "test_arrays.hpp"

using namespace cugrade;
using cugrade::test::f32;
using cugrade::test::f64;
namespace fs = std::filesystem;

namespace {

/// One case of a one-step spec, judged from the output and readback files the test writes.
struct Judged {
  fs::path dir;
  Spec spec;
  PlannedCase planned;
  CaseMaterial material;  ///< the planned case's inputs and gold, as the test sets them
  CheckTask task;

  Judged() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-verdicts-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    spec.id = "toy";
    Step step;
    step.name = "step";
    step.entry = "toy_step";
    step.tolerance = Tolerance{0.1, 0.0, "toy"};
    spec.steps.push_back(step);
    planned.spec_case.id = "step/n=3/seed=1";
    planned.spec_case.step = "step";
    planned.spec_case.points = 1.0;
    task.id = planned.spec_case.id;
    task.step = "step";
    task.output_file = (dir / "case.out").string();
    task.readback_file = (dir / "case.readback").string();
  }
  ~Judged() { fs::remove_all(dir); }

  /// The verdict when the runner wrote `outputs` and read back `inputs_after`.
  CaseResult judge(const ArraySet& outputs, const ArraySet& inputs_after) {
    return judge_digests(outputs, inputs_after, inputs_after);
  }
  /// The verdict when the read-back file says `readback` but the done event's digests say `digested`.
  CaseResult judge_digests(const ArraySet& outputs, const ArraySet& readback, const ArraySet& digested,
                           const std::string& memory_refused = "", const std::string& host_work = "") {
    REQUIRE(write_array_file(task.output_file, outputs));
    REQUIRE(write_array_file(task.readback_file, readback));
    for (const auto& [name, array] : outputs) task.outputs[name] = OutputDecl{array.type, array.dims};
    TaskStatus status{Outcome::passed, "", 0.01, {}};
    status.memory_refused = memory_refused;
    status.host_work = host_work;
    for (const auto& [name, array] : digested) status.input_digests[name] = array_digest(array);
    planned.material = std::make_shared<const CaseMaterial>(material);
    return judge_case(spec, planned, task, status);
  }
};

}  // namespace

TEST_CASE("pipeline::judge_case") {
  Judged j;
  SUBCASE("a gold's <output>.slack widens the allowance of its elements only") {
    j.material.gold["A"] = f64({1.0, 1.0, 1.0});
    j.material.gold["A.slack"] = f64({0.5, 0.0, 0.0});
    const CaseResult ok = j.judge({{"A", f32({1.5f, 1.0f, 1.0f})}}, {});
    CHECK(ok.outcome == Outcome::passed);
    REQUIRE(ok.comparisons.size() == 1);  // the slack is no output of its own
    CHECK(ok.comparisons[0].array == "A");
    const CaseResult wrong = j.judge({{"A", f32({1.5f, 1.5f, 1.0f})}}, {});
    CHECK(wrong.outcome == Outcome::wrong_answer);
    CHECK(wrong.comparisons[0].wrong == 1);
  }
  SUBCASE("a slack without its output is a harness bug") {
    j.material.gold["A"] = f64({1.0});
    j.material.gold["B.slack"] = f64({0.5});
    CHECK_THROWS_AS(j.judge({{"A", f32({1.0f})}}, {}), std::logic_error);
  }
  SUBCASE("an in-out array may change; a const input may not") {
    j.material.inputs["V"] = f32({1.0f, 2.0f});  // in-out: also an output
    j.material.inputs["C"] = f32({3.0f});        // const
    j.material.gold["V"] = f64({1.5, 2.5});
    const CaseResult ok = j.judge({{"V", f32({1.5f, 2.5f})}}, {{"V", f32({1.5f, 2.5f})}, {"C", f32({3.0f})}});
    CHECK(ok.outcome == Outcome::passed);
    CHECK(ok.message.empty());
    const CaseResult modified =
        j.judge({{"V", f32({1.5f, 2.5f})}}, {{"V", f32({1.5f, 2.5f})}, {"C", f32({4.0f})}});
    CHECK(modified.outcome == Outcome::wrong_answer);
    CHECK(modified.message ==
          "the call modified its const input C (1 of 1 elements changed, the first at index 0); inputs are "
          "declared const in interface.cuh and must be left unchanged");
  }
  SUBCASE("a read-back file rewritten after the call does not hide what the done event's digests saw") {
    j.material.inputs["C"] = f32({3.0f});
    j.material.gold["V"] = f64({1.5});
    const ArraySet outputs{{"V", f32({1.5f})}};
    const CaseResult forged = j.judge_digests(outputs, {{"C", f32({3.0f})}}, {{"C", f32({0.0f})}});
    CHECK(forged.outcome == Outcome::wrong_answer);
    CHECK(forged.message == "the call modified its const input C; inputs are declared const in interface.cuh "
                            "and must be left unchanged");
    const CaseResult unreported = j.judge_digests(outputs, {{"C", f32({3.0f})}}, {});
    CHECK(unreported.outcome == Outcome::wrong_answer);
    CHECK(unreported.message.find("did not report") != std::string::npos);
  }
  SUBCASE("an allocation the GPU memory limit refused is told with a failed case, not with a passed one") {
    j.material.gold["A"] = f64({1.0});
    const std::string refused = "cudaMalloc asked for 139.0 GiB of GPU memory while your code held 0 B";
    const CaseResult wrong = j.judge_digests({{"A", f32({0.0f})}}, {}, {}, refused);
    CHECK(wrong.outcome == Outcome::wrong_answer);
    CHECK(wrong.message == refused);
    const CaseResult ok = j.judge_digests({{"A", f32({1.0f})}}, {}, {}, refused);
    CHECK(ok.outcome == Outcome::passed);  // the code coped with the failure: nothing to say
    CHECK(ok.message.empty());
    TaskStatus crashed{Outcome::cuda_error, "CUDA error in the entry: an illegal memory access", 0.01, {}};
    crashed.memory_refused = refused;
    const CaseResult failed = judge_case(j.spec, j.planned, j.task, crashed);
    CHECK(failed.message == "CUDA error in the entry: an illegal memory access — " + refused);
  }
  SUBCASE("a right answer that is not a kernel's work fails, unless the step allows host work; a wrong one keeps its words") {
    j.material.gold["A"] = f64({1.0});
    const std::string why = "computed without a kernel: the call launched none, so its result is not the GPU's work";
    const CaseResult host = j.judge_digests({{"A", f32({1.0f})}}, {}, {}, "", why);
    CHECK(host.outcome == Outcome::wrong_answer);
    CHECK(host.message == why);
    const CaseResult both = j.judge_digests({{"A", f32({0.0f})}}, {}, {}, "", why);
    CHECK(both.outcome == Outcome::wrong_answer);
    CHECK(both.message.find("computed without a kernel") == std::string::npos);  // the comparison's words
    j.spec.steps[0].host_work_allowed = true;
    CHECK(j.judge_digests({{"A", f32({1.0f})}}, {}, {}, "", why).outcome == Outcome::passed);
  }
  SUBCASE("a failed output that matches a mistake model is named for it; the verdict stays the gold's") {
    const std::vector<MistakeModel> models{{"doubled", "your A is doubled", {}, [](const Case&, const ArraySet&) {
                                              return ArraySet{{"A", f64({2.0, 4.0})}};
                                            }}};
    j.material.gold["A"] = f64({1.0, 2.0});
    j.material.mistakes = &models;
    const CaseResult named = j.judge({{"A", f32({2.0f, 4.0f})}}, {});
    CHECK(named.outcome == Outcome::wrong_answer);
    CHECK(named.comparisons[0].wrong == 2);
    CHECK(named.message == "your A is doubled");
    const CaseResult other = j.judge({{"A", f32({3.0f, 4.0f})}}, {});
    CHECK(other.outcome == Outcome::wrong_answer);
    CHECK(other.message.empty());
    CHECK(j.judge({{"A", f32({1.0f, 2.0f})}}, {}).message.empty());
    j.material.inputs["C"] = f32({3.0f});
    const CaseResult both = j.judge({{"A", f32({2.0f, 4.0f})}}, {{"C", f32({4.0f})}});
    CHECK(both.message.starts_with("your A is doubled; the call modified its const input C"));
  }
}
