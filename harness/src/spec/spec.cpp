#include "spec/spec.hpp"

namespace cugrade {

const Step* Spec::find_step(const std::string& name) const {
  for (const auto& step : steps)
    if (step.name == name) return &step;
  return nullptr;
}

bool Spec::is_reference_only(const std::string& name) const {
  const Step* step = find_step(name);
  return step && step->reference_only;
}

std::string params_to_string(const Params& params) {
  std::string out;
  for (const auto& [name, value] : params)
    out += (out.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return out;
}

}  // namespace cugrade
