#include "cli/cli_support.hpp"

#include <stdlib.h>
#include <string.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cugrade {

int complain(const std::string& message, int code) {
  std::cerr << "cugrade: " << message << "\n";
  return code;
}

std::filesystem::path absolute_path(const std::string& typed) {
  if (typed.empty()) return {};
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(typed, ec);  // not normalised: a/.. through a link
  return ec ? std::filesystem::path(typed) : absolute;
}

std::string no_gpu_message(const DeviceInfo& device) {
  return "--backend cuda, but no usable NVIDIA GPU here (" +
         (device.error.empty() ? std::string("no device") : device.error) +
         "); nothing was graded. Grade on a machine with a GPU, or with --backend cpu (correctness only)";
}

Result<Backend> parse_backend(const std::string& text) {
  if (text == "auto") return Backend::automatic;
  if (text == "cuda") return Backend::cuda;
  if (text == "cpu") return Backend::cpu;
  const bool means_gpu = text == "gpu" || text == "GPU" || text == "CUDA" || text == "nvidia";
  return fail("unknown backend '" + text + "': choose auto, cuda or cpu" +
              (means_gpu ? " (the GPU's is cuda)" : ""));
}

Result<std::optional<CourseSecret>> course_secret(const std::string& secret_file) {
  std::string bytes;
  if (!secret_file.empty()) {
    std::ifstream in(secret_file, std::ios::binary);
    if (!in) return fail("cannot read the secret file " + secret_file);
    std::ostringstream content;
    content << in.rdbuf();
    bytes = content.str();
    // A file written by `echo` or an editor ends in a line break that is not part of the secret
    // (the same bytes as `CUGRADE_COURSE_SECRET="$(cat file)"` gives).
    while (!bytes.empty() && (bytes.back() == '\n' || bytes.back() == '\r' || bytes.back() == ' ')) bytes.pop_back();
    if (bytes.empty()) return fail("the secret file " + secret_file + " is empty");
  } else if (char* env = std::getenv("CUGRADE_COURSE_SECRET"); env && *env) {
    bytes = env;
    // Children get an environment of their own (scrubbed_environment), never ours; the value is
    // also wiped from this process's environment block, which /proc/<pid>/environ shows.
    ::explicit_bzero(env, std::strlen(env));
    ::unsetenv("CUGRADE_COURSE_SECRET");
  } else {
    return std::optional<CourseSecret>{};
  }
  return std::optional<CourseSecret>{CourseSecret(std::move(bytes))};
}

std::optional<GpuClaim> claim_gpu_for_command(const DeviceInfo& device) {
  if (!device.present()) return std::nullopt;
  auto claim = claim_gpu(device, 0, "0", [](const std::string& line) { std::cerr << "cugrade: " << line << "\n"; });
  if (claim) return std::move(*claim);
  std::cerr << "cugrade: " << unclaimed_gpu_note(claim.error().message) << "\n";
  return std::nullopt;
}

}  // namespace cugrade
