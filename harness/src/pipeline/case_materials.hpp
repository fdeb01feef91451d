#pragma once
// What a case costs the CPU before anything runs: its inputs (seeded) and its gold (double
// precision). A batch or a self-test grades many submissions of one spec on the same cases, so
// each is made once, by the first check that asks, and shared read-only after.
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "check/mistake_match.hpp"
#include "graders/grader.hpp"
#include "job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// One case's inputs, the shapes of its outputs, and its gold (empty for a timing target).
struct CaseMaterial {
  ArraySet inputs;
  std::map<std::string, OutputDecl> outputs;
  ArraySet gold;
  /// What the case costs a kernel (correctness cases): the grader's FLOPs plus domain items (Grader::work).
  double work = 0.0;
  /// array_digest of each input (correctness cases): what a runner's report of them is checked against.
  std::map<std::string, std::string> input_digests;
  /// The grader's mistake models, where the case is affordable to try them on (mistake_models);
  /// their golds are made only when a case fails, once for all the checks that share this.
  const std::vector<MistakeModel>* mistakes = nullptr;
  std::shared_ptr<MistakeGolds> mistake_golds = std::make_shared<MistakeGolds>();
};

/// Most work (FLOPs plus domain items, Grader::work) of a case whose mistake models are tried:
/// each model costs about what the gold costs, and a failed case may try them all. 2^28 covers
/// every checked case of the course (matmul 512×384×640, N-body 10240 bodies); a size past it
/// is only named by its patterns.
constexpr double kMostMistakeModelWork = 0x1p28;

/// `grader`'s mistake models, when trying them on a case of `work` (CaseMaterial::work) is
/// affordable; nullptr otherwise.
const std::vector<MistakeModel>* mistake_models(const Grader& grader, double work);

/// The runner's output declarations for a case's outputs.
std::map<std::string, OutputDecl> output_decls(const ArraySet& outputs);

/// The materials of the cases of one spec and grader; safe to share between threads. Each case
/// (keyed by step, parameters and seed) is generated once; a thread asking for one being made
/// waits for it. A generator's or gold's exception reaches every thread that asks.
class CaseMaterials {
 public:
  /// `shared_files` empty: each check writes its own input files (place_inputs). Otherwise a
  /// folder of this object's own (emptied of what a killed run left, created here, removed with
  /// this object) where each material's inputs are written once, for every check to link to: a
  /// batch then writes a 256 MiB input once, not once per student, and the runners find it in
  /// the page cache. The checks' links keep their data after the folder goes.
  explicit CaseMaterials(std::filesystem::path shared_files = {});
  ~CaseMaterials();
  CaseMaterials(const CaseMaterials&) = delete;
  CaseMaterials& operator=(const CaseMaterials&) = delete;
  /// Puts `material`'s inputs at `path`: a hard link to its one file in the shared folder, or a
  /// file of its own (no folder, or one on another file system). Throws std::runtime_error when
  /// it cannot be written: the harness's fault (a full disk), never the student's.
  void place_inputs(const std::shared_ptr<const CaseMaterial>& material, const std::filesystem::path& path);
  /// Inputs, output shapes and gold of a correctness case.
  std::shared_ptr<const CaseMaterial> for_case(const Grader& grader, const Case& c);
  /// Inputs and output shapes of a timing target's case (no gold: timed outputs are compared
  /// with the reference's). Targets whose generated inputs are equal (same parameters and seed,
  /// a generator that does not depend on the step) get the same material, so one file and one
  /// upload serve them all.
  std::shared_ptr<const CaseMaterial> for_timing(const Grader& grader, const Case& timed);
  /// How many were made (not served from the cache): for tests.
  std::size_t made() const;

 private:
  using Made = std::shared_future<std::shared_ptr<const CaseMaterial>>;
  std::shared_ptr<const CaseMaterial> get(const Grader& grader, const Case& c, bool with_gold);
  mutable std::mutex mutex_;
  std::map<std::string, Made> made_;
  /// Timing materials by parameters and seed, whatever their step: the candidates to share.
  std::multimap<std::string, std::shared_ptr<const CaseMaterial>> timing_made_;
  std::filesystem::path shared_files_;
  /// Each material's file in shared_files_, written by the first check that places it.
  std::map<const CaseMaterial*, std::shared_future<std::filesystem::path>> files_;
};

}  // namespace cugrade
