#include "pipeline/selftest_entries.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace cugrade {
namespace fs = std::filesystem;

namespace {
std::vector<fs::path> cu_files(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".cu") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

Result<std::vector<SelftestEntry>> selftest_entries(const Locations& where, const std::string& id) {
  std::vector<SelftestEntry> entries;
  SelftestEntry reference;
  reference.label = "reference";
  reference.files = cu_files(where.references() / id);
  reference.expect_full_marks = true;
  reference.reference_only_steps = true;
  SelftestEntry starter;
  starter.label = "template";
  starter.files = cu_files(where.templates() / id);
  starter.expect_failure = true;
  if (reference.files.empty()) return fail("reference/" + id + "/ holds no .cu file");
  if (starter.files.empty()) return fail("templates/" + id + "/ holds no .cu file");
  entries.push_back(reference);
  entries.push_back(starter);
  const fs::path solutions = where.root / "graders" / id / "solutions";
  const fs::path listing = solutions / "expected.yaml";
  if (!fs::exists(listing)) return entries;
  try {
    for (const auto& node : YAML::LoadFile(listing.string())) {
      SelftestEntry e;
      e.label = node["file"].as<std::string>();
      e.files = {solutions / e.label};
      const auto outcome = outcome_from_string(node["outcome"].as<std::string>());
      if (!outcome) return fail(listing.string() + ": unknown outcome for " + e.label);
      e.expected = *outcome;
      if (node["feedback"]) e.feedback = node["feedback"].as<std::string>();
      if (node["absent"]) e.absent = node["absent"].as<std::string>();
      if (node["score_at_most"]) e.score_at_most = node["score_at_most"].as<double>();
      if (node["performance_at_most"]) e.performance_at_most = node["performance_at_most"].as<double>();
      if (node["seconds_at_most"]) e.seconds_at_most = node["seconds_at_most"].as<double>();
      if (node["flaky_on_gpu"]) e.flaky_on_gpu = node["flaky_on_gpu"].as<bool>();
      if (node["sanitizer"]) e.sanitizer = node["sanitizer"].as<bool>();
      if (node["alone"]) e.alone = node["alone"].as<bool>();
      if (node["diagnosis"]) e.diagnosis = node["diagnosis"].as<std::map<std::string, std::string>>();
      if (node["backends"]) e.backends = node["backends"].as<std::vector<std::string>>();
      if (!fs::exists(e.files.front())) return fail(listing.string() + ": " + e.label + " does not exist");
      entries.push_back(std::move(e));
    }
  } catch (const YAML::Exception& e) {
    return fail(listing.string() + ": " + e.what());
  }
  return entries;
}

}  // namespace cugrade
