// `cugrade doctor` (the lecture's device query plus everything cugrade needs) and
// `cugrade calibrate` (measure this GPU's ceilings once and cache them).
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "core/config.hpp"
#include "core/program_path.hpp"
#include "pipeline/environment.hpp"
#include "process/sandbox.hpp"
#include "cli/similarity_option.hpp"
#include "similarity/compare_class.hpp"

namespace cugrade {
namespace {
namespace fs = std::filesystem;

std::string gib(std::int64_t bytes) { return fmt::format("{:.1f} GiB", bytes / 1073741824.0); }
std::string kib(std::int64_t bytes) { return fmt::format("{} KiB", bytes / 1024); }

int run_doctor() {
  const Locations where = default_locations();
  auto processes = make_process_runner();
  std::vector<std::string> missing;
  auto line = [](const std::string& what, const std::string& value) { std::cout << fmt::format("{:<18} {}\n", what, value); };

  line("cugrade", std::string(config::version) + " (" + where.found_by + ")");
  line("data", where.root.string() + " (assignments, references, templates, graders' solutions)");
  line("runners", where.runner_dir.string() + " (CUDA), " + where.cpu_runner_dir.string() + " (CPU)");
  line("CPU headers", where.cpu_include.string());
  const DeviceInfo device = find_device(*processes, where);
  if (device.present()) {
    line("GPUs", std::to_string(device.device_count));
    line("GPU 0", fmt::format("{} (compute capability {}, arch {})", device.name, device.compute_capability, device.arch()));
    line("  multiprocessors", std::to_string(device.sm_count));
    line("  global memory", gib(device.total_global_mem));
    line("  shared/block", fmt::format("{} ({} with opt-in)", kib(device.shared_mem_per_block), kib(device.shared_mem_per_block_optin)));
    line("  max threads/block", std::to_string(device.max_threads_per_block));
    line("  warp size", std::to_string(device.warp_size));
    line("  L2 cache", fmt::format("{:.0f} MiB", device.l2_cache_size / 1048576.0));
    line("  clocks", fmt::format("SM {} MHz, memory {} MHz, bus {} bits", device.clock_rate_khz / 1000,
                                 device.memory_clock_rate_khz / 1000, device.memory_bus_width));
    line("driver / runtime", "CUDA " + device.driver_version + " / " + device.runtime_version);
    // One cugrade at a time per GPU (device/gpu_claim.hpp): whether a check now would wait.
    const std::string key = gpu_claim_key(device, 0, "0");
    const auto claimed = gpu_claimed_elsewhere(key);
    const std::string holder = claimed && *claimed ? gpu_claim_holder(key) : "";
    line("GPU 0 claim", !claimed ? "cannot be claimed: " + claimed.error().message
                        : *claimed ? "in use by another cugrade on this machine" + (holder.empty() ? "" : " (" + holder + ")") +
                                         ": a check now waits for its turn (" + gpu_claim_file(key).string() + ")"
                                   : "free (" + gpu_claim_file(key).string() + ")");
    if (!claimed)
      missing.push_back("the GPU cannot be claimed (" + claimed.error().message + "): checks run unclaimed, "
                        "so two at once disturb each other's timing; set CUGRADE_LOCK_DIR to a folder every user can write");
  } else {
    line("GPU", "none usable: " + (device.error.empty() ? std::string("no CUDA device") : device.error));
    missing.push_back("no GPU: `cugrade check` grades correctness on the CPU backend (--backend cpu); "
                      "performance is graded only on a GPU");
  }
  const std::string nvcc = nvcc_version(*processes, where);
  line("nvcc", nvcc.empty() ? "not found (" + where.nvcc.string() + ")" : nvcc + " (" + where.nvcc.string() + ")");
  if (nvcc.empty()) missing.push_back("nvcc not found: install the CUDA toolkit or set CUGRADE_NVCC=/path/to/nvcc");
  const std::string cxx_output = version_output(*processes, "g++");
  const std::string cxx = cxx_output.substr(0, cxx_output.find('\n'));
  line("host compiler", cxx.empty() ? "g++ not found" : cxx);
  if (cxx.empty()) missing.push_back("g++ not found: sudo apt-get install g++ (the CPU backend and nvcc need it)");

  const SandboxStatus& sandbox = sandbox_status();
  line("sandbox", sandbox.works ? "works: " + sandbox.reason : "does not work: " + sandbox.reason);
  if (!sandbox.works)
    missing.push_back("sandbox: " + sandbox.fix + " (until then `cugrade check` reports say \"not sealed\" and "
                      "`cugrade grade` refuses without --allow-unsealed)");
  // An installed cugrade's runners come with its package; a build tree's from a rebuild.
  const bool installed = where.installed;
  const std::string rebuild = installed ? "reinstall the cugrade package" : "rebuild cugrade (cmake --build --preset default)";
  if (!fs::is_directory(where.assignments()))
    missing.push_back("no assignments in " + where.root.string() + ": " +
                      (installed ? rebuild : "set CUGRADE_ROOT to cugrade's source tree"));
  // Code similarity (`cugrade similarity`, `grade --similarity`) runs Debian's similarity-tester.
  const char* path_list = std::getenv("PATH");
  const fs::path named = similarity_program();
  const fs::path sim = named.is_absolute() ? named : find_program(named.string(), path_list ? path_list : "");
  const std::string sim_said = sim.empty() ? "" : sim_version(*processes, sim);
  line("similarity", sim_said.empty() ? "sim_c++ not found (`cugrade similarity` needs it)" : sim_said + " (" + sim.string() + ")");
  if (sim_said.empty())
    missing.push_back("sim_c++ not found: sudo apt-get install similarity-tester (for `cugrade similarity` and "
                      "`cugrade grade --similarity`; grading itself does not need it)");
  for (const auto& id : list_assignments(where.assignments())) {
    const bool cuda = fs::exists(where.cuda_runner_library(id));
    const bool cpu = fs::exists(where.cpu_runner_library(id));
    line("runner " + id, fmt::format("cuda {}, cpu {}", cuda ? "ready" : "missing", cpu ? "ready" : "missing"));
    if (!cuda && !nvcc.empty())
      missing.push_back("runner library for " + id + " missing: " +
                        (installed ? "this package was built without nvcc; build cugrade from source with nvcc on PATH"
                                   : "rebuild cugrade with nvcc on PATH"));
    if (!cpu) missing.push_back("CPU runner library for " + id + " missing: " + rebuild);
  }
  if (device.present()) {
    auto cached = load_cached_ceilings(default_cache_dir(), device.name, device.driver_version);
    line("calibration", cached ? fmt::format("{} (measured {})", describe_ceilings(*cached), cached->measured_at)
                               : "not yet (the first timed check measures it; or run `cugrade calibrate`)");
  }
  std::cout << "\n";
  if (missing.empty()) std::cout << "Everything cugrade needs is here.\n";
  for (const auto& m : missing) std::cout << "- " << m << "\n";
  return exit_ok;
}

int run_calibrate(bool force) {
  const Locations where = default_locations();
  auto processes = make_process_runner();
  auto device = probe_device(*processes, where.probe());
  if (!device) return complain(device.error().message, exit_internal);
  if (!device->present())
    return complain("no GPU to calibrate (" + device->error + "); ceilings are measured per GPU and driver", exit_usage);
  if (!force)
    if (auto cached = load_cached_ceilings(default_cache_dir(), device->name, device->driver_version)) {
      std::cout << fmt::format("{} (driver CUDA {}): {} (cached {}; --force to measure again)\n", cached->gpu,
                               cached->driver, describe_ceilings(*cached), cached->measured_at);
      return exit_ok;
    }
  const std::optional<GpuClaim> claim = claim_gpu_for_command(*device);  // ceilings measured alone
  std::cerr << "cugrade: measuring copy and read bandwidth, cuBLAS SGEMM (FP32) and DGEMM (FP64) ...\n";
  auto measured = calibrate(*processes, where.calibrator());
  if (!measured) return complain(measured.error().message, exit_internal);
  auto saved = save_ceilings(default_cache_dir(), *measured);
  if (!saved) return complain(saved.error().message, exit_internal);
  std::cout << fmt::format("{} (driver CUDA {}): {}\nsaved to {}\n", measured->gpu, measured->driver,
                           describe_ceilings(*measured), saved->string());
  return exit_ok;
}
}  // namespace

void add_doctor_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("doctor", "Show the GPU, driver, nvcc and what cugrade is missing, with the fix");
  cmd->footer("Example:\n  cugrade doctor");
  cmd->callback([&exit_code] { exit_code = run_doctor(); });
}

void add_calibrate_command(CLI::App& app, int& exit_code) {
  auto force = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("calibrate", "Measure this GPU's ceilings (copy bandwidth, FP32 SGEMM) and cache them");
  cmd->footer("Example:\n  cugrade calibrate --force\n"
              "Reports show rates as % of these ceilings; the cache is per GPU and driver.");
  cmd->add_flag("--force", *force, "Measure again even when cached");
  cmd->callback([force, &exit_code] { exit_code = run_calibrate(*force); });
}

}  // namespace cugrade
