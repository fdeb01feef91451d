#include "batch/grading_settings.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/config.hpp"
#include "core/sha256.hpp"

namespace cugrade {

namespace {

/// The label whose HMAC under the secret fingerprints it (never a hidden case's label, which
/// has the form "<assignment>/<step>/<params>/<seed>").
constexpr const char* kSecretLabel = "cugrade batch settings: the course secret's fingerprint";

std::string on_off(bool on) { return on ? "on" : "off"; }

/// "none" or "keyed by a course secret", for the reasons.
std::string hidden_in_words(const std::string& hidden) {
  return hidden == "none" ? "none" : "keyed by a course secret";
}

/// SHA-256 of a file's bytes, or of its absence.
std::string file_digest(const std::filesystem::path& path) {
  auto bytes = read_whole_file(path);
  return sha256_hex(bytes ? *bytes : "absent: " + path.string());
}

/// The running program's digest: read once per process (it is tens of megabytes).
const std::string& program_digest() {
  static const std::string digest = file_digest(running_program());
  return digest;
}

/// "0.1.0" of "0.1.0 #0123456789abcdef".
std::string version_of(const std::string& build) { return build.substr(0, build.find(" #")); }

/// What differs between two builds of cugrade, in words.
std::string build_changed(const std::string& before, const std::string& now) {
  if (before.empty()) return fmt::format("cugrade (a build that did not record itself, now {})", now);
  if (version_of(before) != version_of(now))
    return fmt::format("cugrade ({}, now {})", version_of(before), version_of(now));
  return fmt::format("cugrade's build ({} rebuilt: its program, graders or runners changed)", version_of(now));
}

}  // namespace

std::string cugrade_build(const Locations& locations, const std::string& assignment, bool use_cuda) {
  const std::string digests =
      program_digest() +
      file_digest(use_cuda ? locations.cuda_runner_library(assignment) : locations.cpu_runner_library(assignment)) +
      file_digest(locations.reference_runner(assignment, use_cuda));
  return fmt::format("{} #{}", config::version, sha256_hex(digests).substr(0, 16));
}

GradingSettings grading_settings(const Spec& spec, const CheckOptions& options, bool use_cuda,
                                 const Locations& locations) {
  GradingSettings s;
  s.assignment = spec.id;
  if (auto text = read_whole_file(spec.where.file)) s.spec_sha256 = sha256_hex(*text);
  s.hidden = options.course_secret
                 ? "keyed:" + to_hex(hmac_sha256(options.course_secret->bytes(), kSecretLabel)).substr(0, 16)
                 : "none";
  s.backend = use_cuda ? "cuda" : "cpu";
  s.performance = use_cuda && options.performance;
  s.sanitizer = use_cuda && options.sanitizer;
  s.cugrade = cugrade_build(locations, spec.id, use_cuda);
  return s;
}

nlohmann::json settings_to_json(const GradingSettings& s) {
  return {{"assignment", s.assignment}, {"spec_sha256", s.spec_sha256}, {"hidden", s.hidden},
          {"backend", s.backend},       {"performance", s.performance}, {"sanitizer", s.sanitizer},
          {"cugrade", s.cugrade}};
}

std::optional<GradingSettings> settings_from_json(const nlohmann::json& j) {
  try {
    GradingSettings s;
    s.assignment = j.at("assignment").get<std::string>();
    s.spec_sha256 = j.at("spec_sha256").get<std::string>();
    s.hidden = j.at("hidden").get<std::string>();
    s.backend = j.at("backend").get<std::string>();
    s.performance = j.at("performance").get<bool>();
    s.sanitizer = j.at("sanitizer").get<bool>();
    // Absent in a record of a cugrade that kept no build: "" (which differs from any build).
    if (j.contains("cugrade")) s.cugrade = j.at("cugrade").get<std::string>();
    return s;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::string settings_changed(const std::optional<GradingSettings>& before, const GradingSettings& now) {
  if (!before) return "settings an earlier version of cugrade did not keep";
  std::string changed;
  const auto add = [&](const std::string& what) { changed += (changed.empty() ? "" : ", ") + what; };
  if (before->assignment != now.assignment)
    add(fmt::format("the assignment ({}, now {})", before->assignment, now.assignment));
  else if (before->spec_sha256 != now.spec_sha256)
    add("the assignment's spec (assignment.yaml has changed)");
  if (before->hidden != now.hidden)
    add(before->hidden != "none" && now.hidden != "none"
            ? "the hidden cases (keyed by another course secret)"
            : fmt::format("the hidden cases ({}, now {})", hidden_in_words(before->hidden), hidden_in_words(now.hidden)));
  if (before->backend != now.backend) add(fmt::format("the backend ({}, now {})", before->backend, now.backend));
  if (before->performance != now.performance)
    add(fmt::format("the performance timing ({}, now {})", on_off(before->performance), on_off(now.performance)));
  if (before->sanitizer != now.sanitizer)
    add(fmt::format("compute-sanitizer ({}, now {})", on_off(before->sanitizer), on_off(now.sanitizer)));
  if (before->cugrade != now.cugrade) add(build_changed(before->cugrade, now.cugrade));
  return changed;
}

}  // namespace cugrade
