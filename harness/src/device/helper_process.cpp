#include "device/helper_process.hpp"

#include <nlohmann/json.hpp>

namespace cugrade {

std::string first_line(const std::string& output) {
  const std::string line = output.substr(0, output.find('\n'));
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

Result<std::string> run_helper(ProcessRunner& runner, const std::filesystem::path& binary,
                               const std::string& what, double timeout_s) {
  ProcessRequest request;
  request.argv = {binary.string()};
  request.environment = scrubbed_environment();
  request.timeout_s = timeout_s;
  const ProcessResult result = runner.run(request);
  const std::string seconds = std::to_string(static_cast<int>(timeout_s));
  if (!result.started)
    return fail("cannot run " + what + " (" + binary.string() + "): " + result.launch_error +
                "; cugrade was perhaps built without CUDA (cmake -DCUGRADE_WITH_CUDA=ON)");
  if (result.timed_out)
    return fail(what + " did not finish within " + seconds + " s; check the GPU with nvidia-smi");
  if (result.signal)
    return fail(what + " was killed by signal " + std::to_string(*result.signal) +
                "; check the GPU with nvidia-smi");
  if (result.exit_code != 0) {
    const auto j = nlohmann::json::parse(result.stdout_text, nullptr, /*allow_exceptions=*/false);
    const std::string reason = j.is_object() && j.contains("error") && j["error"].is_string()
                                   ? j["error"].get<std::string>()
                                   : first_line(result.stderr_text);
    return fail(what + " failed (exit code " + std::to_string(result.exit_code) + ")" +
                (reason.empty() ? std::string() : ": " + reason));
  }
  return result.stdout_text;
}

}  // namespace cugrade
