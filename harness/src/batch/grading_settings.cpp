#include "batch/grading_settings.hpp"

#include <fmt/format.h>

#include "core/atomic_file.hpp"
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

}  // namespace

GradingSettings grading_settings(const Spec& spec, const CheckOptions& options, bool use_cuda) {
  GradingSettings s;
  s.assignment = spec.id;
  if (auto text = read_whole_file(spec.where.file)) s.spec_sha256 = sha256_hex(*text);
  s.hidden = options.course_secret
                 ? "keyed:" + to_hex(hmac_sha256(options.course_secret->bytes(), kSecretLabel)).substr(0, 16)
                 : "none";
  s.backend = use_cuda ? "cuda" : "cpu";
  s.performance = use_cuda && options.performance;
  s.sanitizer = use_cuda && options.sanitizer;
  return s;
}

nlohmann::json settings_to_json(const GradingSettings& s) {
  return {{"assignment", s.assignment}, {"spec_sha256", s.spec_sha256}, {"hidden", s.hidden},
          {"backend", s.backend},       {"performance", s.performance}, {"sanitizer", s.sanitizer}};
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
  return changed;
}

}  // namespace cugrade
