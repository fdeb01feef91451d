#include "pipeline/early_sanitizers.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "start_gate.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// How long before its own lapse (start_gate_most_s, counted from later than here) an early
/// runner is still given the go: past it, a fresh runner is safer than one that may have ended.
constexpr double kGoMargin_s = 2.0;

}  // namespace

bool sanitizer_ahead() {
  const char* value = std::getenv("CUGRADE_SANITIZER_AHEAD");
  return !(value && std::string(value) == "0");
}

EarlySanitizers::EarlySanitizers(EarlySanitizers&&) noexcept = default;

EarlySanitizers& EarlySanitizers::operator=(EarlySanitizers&& other) noexcept {
  if (this != &other) {
    stop();
    started_ = other.started_;
    runners_ = std::move(other.runners_);
    mutex_ = std::move(other.mutex_);
    other.runners_.clear();
  }
  return *this;
}

EarlySanitizers::~EarlySanitizers() { stop(); }

EarlySanitizers EarlySanitizers::start(ProcessRunner& processes, const Spec& spec, const RunRequest& first,
                                       const fs::path& sanitizer, const std::vector<SanitizerChunk>& chunks,
                                       const fs::path& dir) {
  EarlySanitizers early;
  early.started_ = std::chrono::steady_clock::now();
  const fs::path gates = dir / "sanitizer-gates";
  std::error_code ec;
  fs::create_directories(gates, ec);
  if (ec) return early;  // no gate, no early runner: the pass starts its own
  for (const SanitizerChunk& chunk : chunks) {
    const fs::path folder = dir / ("sanitize-" + chunk.tool);
    RunRequest request = sanitized_request(spec, first, sanitizer, chunk.tool, chunk.ids, folder);
    Runner runner{chunk.tool, chunk.ids, gates / chunk.tool, folder / "ready", {}, false};
    request.start_gate = runner.gate;
    request.read_only.push_back(gates);  // the gate is read there, never made by the runner
    request.environment[start_gate_ready_variable] = runner.ready.string();
    request.environment[start_gate_lapse_variable] = start_gate_stop;
    runner.outcome = std::async(std::launch::async, [&processes, request] { return run_job(processes, request); });
    early.runners_.push_back(std::move(runner));
  }
  return early;
}

bool EarlySanitizers::await_ready(double most_s) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(most_s);
  const auto all_ready = [&] {
    return std::ranges::all_of(runners_, [](const Runner& r) {
      std::error_code ec;
      return r.opened || fs::exists(r.ready, ec) ||
             r.outcome.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    });
  };
  while (!all_ready()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

void EarlySanitizers::open_gate(Runner& runner, const std::string& word) {
  const fs::path written = runner.gate.string() + ".new";
  std::ofstream(written) << word << "\n";
  std::error_code ec;
  fs::rename(written, runner.gate, ec);
  runner.opened = true;
}

std::optional<RunOutcome> EarlySanitizers::go(const std::string& tool, const std::vector<std::string>& ids) {
  Runner* runner = nullptr;
  {
    std::lock_guard lock(*mutex_);
    const auto found = std::ranges::find_if(runners_, [&](const Runner& r) { return r.tool == tool && !r.opened; });
    if (found == runners_.end()) return std::nullopt;
    runner = &*found;
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (runner->ids != ids || waited > start_gate_most_s - kGoMargin_s) {
      open_gate(*runner, start_gate_stop);
      return std::nullopt;
    }
    open_gate(*runner, "go");
  }
  return runner->outcome.get();
}

void EarlySanitizers::stop() {
  if (!mutex_) return;
  {
    std::lock_guard lock(*mutex_);
    for (Runner& runner : runners_)
      if (!runner.opened) open_gate(runner, start_gate_stop);
  }
  for (Runner& runner : runners_)
    if (runner.outcome.valid()) runner.outcome.wait();
}

}  // namespace cugrade
