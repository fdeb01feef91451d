#include "spec/measured_error.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace cugrade {
namespace {

/// The largest share over `step`'s sizes, and the size it was at.
std::pair<double, std::string> worst_size(const MeasuredStep& step) {
  std::pair<double, std::string> worst{0.0, ""};
  for (const auto& size : step.sizes)
    if (size.share > worst.first || worst.second.empty()) worst = {size.share, size.params};
  return worst;
}

/// The sizes of `step`'s performance targets no backend measured, as "M=2048,N=2048,K=2048".
std::vector<std::string> unmeasured_timed_sizes(const Spec& spec, const Step& step, const MeasuredErrors& errors) {
  std::vector<std::string> missing;
  for (const auto& target : spec.performance) {
    if (target.step != step.name) continue;
    const std::string params = params_to_string(target.params);
    bool found = false;
    for (const auto& backend : errors.backends)
      for (const auto& measured : backend.steps)
        if (measured.step == step.name)
          for (const auto& size : measured.sizes) found = found || size.params == params;
    if (!found) missing.push_back(params);
  }
  return missing;
}

const MeasuredStep* find_step(const MeasuredBackend& backend, const std::string& name) {
  for (const auto& step : backend.steps)
    if (step.step == name) return &step;
  return nullptr;
}

/// Whether a step's tolerance is exact (integers, moved bits): nothing to scale.
bool exact(const Tolerance& t) { return t.atol == 0.0 && t.rtol == 0.0; }

/// `value` rounded up to two significant digits.
double round_up_2(double value) {
  if (value <= 0.0) return 0.0;
  const double unit = std::pow(10.0, std::floor(std::log10(value)) - 1);
  return std::ceil(value / unit * (1 - 1e-12)) * unit;
}

}  // namespace

Result<MeasuredErrors> load_measured_errors(const std::filesystem::path& path) {
  MeasuredErrors errors;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return errors;
  try {
    const YAML::Node root = YAML::LoadFile(path.string());
    if (!root.IsMap()) return fail(path.string() + ": expected a map of backends (cpu:, cuda:)");
    for (const auto& entry : root) {
      MeasuredBackend backend;
      backend.backend = entry.first.as<std::string>();
      if (backend.backend != "cpu" && backend.backend != "cuda")
        return fail(fmt::format("{}: unknown backend '{}' (cpu or cuda)", path.string(), backend.backend));
      backend.where = entry.second["where"].as<std::string>("");
      for (const auto& s : entry.second["steps"]) {
        MeasuredStep step;
        step.step = s.first.as<std::string>();
        step.atol = s.second["tolerance"]["atol"].as<double>();
        step.rtol = s.second["tolerance"]["rtol"].as<double>();
        for (const auto& z : s.second["sizes"])
          step.sizes.push_back({z["params"].as<std::string>(), z["share"].as<double>(), z["max_abs_error"].as<double>()});
        backend.steps.push_back(std::move(step));
      }
      errors.backends.push_back(std::move(backend));
    }
  } catch (const YAML::Exception& e) {
    return fail(fmt::format("{}: {}", path.string(), e.what()));
  }
  return errors;
}

std::string measured_errors_yaml(const MeasuredErrors& errors) {
  std::string text =
      "# The reference's own error against the gold in double, per step and size: `share` is the\n"
      "# largest |x - gold| / (atol + rtol*|gold|) of any output element (1: at the limit; elements the\n"
      "# grader gives slack at a cutoff left out), `max_abs_error` the largest |x - gold|. Written by\n"
      "# `cugrade lint --measure-tolerance ID --backend cpu|cuda` (each backend's part replaced on its\n"
      "# own); `cugrade lint` shows each step's tolerance beside it and refuses one looser than " +
      fmt::format("{}", kLoosestTolerance) + " times\n# the largest share (docs/assignment-spec.md, \"Tolerances\").\n";
  for (const auto& backend : errors.backends) {
    text += fmt::format("{}:\n  where: \"{}\"\n  steps:\n", backend.backend, backend.where);
    for (const auto& step : backend.steps) {
      text += fmt::format("    {}:\n      tolerance: {{atol: {}, rtol: {}}}\n      sizes:\n", step.step, step.atol, step.rtol);
      for (const auto& size : step.sizes)
        text += fmt::format("        - {{params: \"{}\", share: {:.4g}, max_abs_error: {:.4g}}}\n", size.params, size.share,
                            size.max_abs_error);
    }
  }
  return text;
}

MeasuredErrors with_backend(MeasuredErrors errors, MeasuredBackend measured) {
  for (auto& backend : errors.backends)
    if (backend.backend == measured.backend) {
      backend = std::move(measured);
      return errors;
    }
  errors.backends.push_back(std::move(measured));
  // cpu before cuda, whichever was measured first.
  std::ranges::sort(errors.backends, {}, &MeasuredBackend::backend);
  return errors;
}

std::optional<double> share_of_present(const MeasuredStep& measured, const Tolerance& present) {
  const double worst = worst_size(measured).first;
  if (measured.atol == present.atol && measured.rtol == present.rtol) return worst;
  // Scaled as a whole: one factor for both (a part that is 0 stays 0).
  if ((measured.atol == 0.0) != (present.atol == 0.0) || (measured.rtol == 0.0) != (present.rtol == 0.0))
    return std::nullopt;
  const double by_atol = measured.atol > 0.0 ? present.atol / measured.atol : 0.0;
  const double by_rtol = measured.rtol > 0.0 ? present.rtol / measured.rtol : 0.0;
  const double factor = by_atol > 0.0 ? by_atol : by_rtol;
  if (factor <= 0.0 || (by_atol > 0.0 && by_rtol > 0.0 && std::fabs(by_atol / by_rtol - 1.0) > 1e-9)) return std::nullopt;
  // error / (f·T) = (error / T) / f: the share at the present tolerance, exactly.
  return worst / factor;
}

Tolerance suggested_tolerance(const Tolerance& present, double share) {
  Tolerance suggested = present;
  suggested.atol = round_up_2(present.atol * kToleranceMargin * share);
  suggested.rtol = round_up_2(present.rtol * kToleranceMargin * share);
  return suggested;
}

std::vector<std::string> tolerance_problems(const Spec& spec, const MeasuredErrors& errors, const std::string& file) {
  std::vector<std::string> problems;
  const auto measure = fmt::format("`cugrade lint --measure-tolerance {}`", spec.id);
  for (const auto& step : spec.steps) {
    if (step.reference_only || exact(step.tolerance)) continue;
    const auto at = fmt::format("{}: step {}", file, step.name);
    double worst = -1.0;
    std::string worst_backend;
    for (const auto& backend : errors.backends) {
      const MeasuredStep* measured = find_step(backend, step.name);
      if (!measured) continue;
      const auto share = share_of_present(*measured, step.tolerance);
      if (!share) {
        problems.push_back(fmt::format("{}: the {} measurement is against atol {}, rtol {}, not the spec's atol {}, rtol {}: "
                                       "measure again ({} --backend {})",
                                       at, backend.backend, measured->atol, measured->rtol, step.tolerance.atol,
                                       step.tolerance.rtol, measure, backend.backend));
        continue;
      }
      if (*share > worst) worst = *share, worst_backend = backend.backend;
    }
    if (worst < 0.0) {
      problems.push_back(fmt::format("{}: its tolerance is not measured against the reference's own error: run {}", at, measure));
      continue;
    }
    if (worst == 0.0) continue;  // the reference matches the gold exactly: nothing to scale by
    const double times = 1.0 / worst;
    const Tolerance suggested = suggested_tolerance(step.tolerance, worst);
    const bool timed_unmeasured = !unmeasured_timed_sizes(spec, step, errors).empty();
    if (times > kLoosestTolerance && !timed_unmeasured)
      problems.push_back(fmt::format("{}: its tolerance (atol {}, rtol {}) is {:.1f} times the reference's largest error "
                                     "({}), more than {}: arithmetic of lower precision would pass; {} times is atol {:.2g}, rtol {:.2g}",
                                     at, step.tolerance.atol, step.tolerance.rtol, times, worst_backend, kLoosestTolerance,
                                     kToleranceMargin, suggested.atol, suggested.rtol));
    else if (times < kTightestTolerance)
      problems.push_back(fmt::format("{}: its tolerance (atol {}, rtol {}) is only {:.1f} times the reference's largest error "
                                     "({}), less than {}: a correct kernel summing in another order may fail; {} times is "
                                     "atol {:.2g}, rtol {:.2g}",
                                     at, step.tolerance.atol, step.tolerance.rtol, times, worst_backend, kTightestTolerance,
                                     kToleranceMargin, suggested.atol, suggested.rtol));
  }
  return problems;
}

std::vector<std::string> tolerance_lines(const Spec& spec, const MeasuredErrors& errors) {
  std::vector<std::string> lines;
  for (const auto& step : spec.steps) {
    std::string line = fmt::format("  {:<16} ", step.name);
    if (exact(step.tolerance)) {
      lines.push_back(line + "exact (atol 0, rtol 0)");
      continue;
    }
    line += fmt::format("atol {}, rtol {}", step.tolerance.atol, step.tolerance.rtol);
    bool any = false;
    for (const auto& backend : errors.backends) {
      const MeasuredStep* measured = find_step(backend, step.name);
      if (!measured) continue;
      any = true;
      const auto share = share_of_present(*measured, step.tolerance);
      const auto [_, params] = worst_size(*measured);
      if (!share) line += fmt::format("; {}: measured against another tolerance", backend.backend);
      else if (*share == 0.0) line += fmt::format("; {}: the reference is exact", backend.backend);
      else
        line += fmt::format("; {}: reference error {:.3g} of it at {} (tolerance {:.1f}x)", backend.backend, *share, params,
                            1.0 / *share);
    }
    if (!any) line += "; not measured";
    else if (const auto missing = unmeasured_timed_sizes(spec, step, errors); !missing.empty())
      line += fmt::format("; its timed size {} not measured (--backend cuda): how loose it may be is not judged",
                          missing.front());
    if (step.reference_only) line += " (reference only)";
    lines.push_back(line);
  }
  return lines;
}

}  // namespace cugrade
