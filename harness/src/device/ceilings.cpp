#include "device/ceilings.hpp"

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <utility>

#include "core/utc_time.hpp"
#include "device/helper_process.hpp"

namespace cugrade {
namespace {

using nlohmann::json;

/// Reads the measured fields; the message says what is missing.
Result<Ceilings> ceilings_from_json(const json& j) {
  if (!j.is_object()) return fail("it is not a JSON object");
  Ceilings c;
  for (const char* key : {"copy_gbps", "sgemm_tflops"})
    if (!j.contains(key) || !j[key].is_number() || !(j[key].get<double>() > 0.0))
      return fail(std::string("\"") + key + "\" is missing or not a positive number");
  for (const char* key : {"gpu", "driver"})
    if (!j.contains(key) || !j[key].is_string())
      return fail(std::string("\"") + key + "\" is missing or not a string");
  c.copy_gbps = j["copy_gbps"].get<double>();
  c.sgemm_tflops = j["sgemm_tflops"].get<double>();
  // Measured since a later version: absent from older caches, where 0 means "not measured".
  for (auto [key, field] : {std::pair{"read_gbps", &c.read_gbps}, {"dgemm_tflops", &c.dgemm_tflops}})
    if (j.contains(key) && j[key].is_number() && j[key].get<double>() > 0.0)
      *field = j[key].get<double>();
  c.gpu = j["gpu"].get<std::string>();
  c.driver = j["driver"].get<std::string>();
  if (j.contains("measured_at") && j["measured_at"].is_string())
    c.measured_at = j["measured_at"].get<std::string>();
  return c;
}

}  // namespace

std::string describe_ceilings(const Ceilings& ceilings) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(0) << "copy " << ceilings.copy_gbps << " GB/s";
  if (ceilings.read_gbps > 0.0) text << ", read " << ceilings.read_gbps << " GB/s";
  text << std::setprecision(1) << ", SGEMM FP32 " << ceilings.sgemm_tflops << " TFLOP/s";
  if (ceilings.dgemm_tflops > 0.0) text << ", DGEMM FP64 " << ceilings.dgemm_tflops << " TFLOP/s";
  return text.str();
}

std::filesystem::path default_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::filesystem::path(xdg) / "cugrade";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".cache" / "cugrade";
}

std::string ceilings_file_name(const std::string& gpu, const std::string& driver) {
  std::string name = (gpu.empty() ? "unknown-gpu" : gpu) + "-" + driver;
  for (char& c : name) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    if (!safe) c = '_';
  }
  return name + ".json";
}

Result<Ceilings> load_cached_ceilings(const std::filesystem::path& cache_dir,
                                      const std::string& gpu, const std::string& driver) {
  const auto path = cache_dir / ceilings_file_name(gpu, driver);
  std::ifstream in(path);
  if (!in)
    return fail("no calibration for " + gpu + " (driver " + driver + ") yet: run `cugrade calibrate`");
  std::stringstream text;
  text << in.rdbuf();
  const json j = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto ceilings = ceilings_from_json(j);
  if (!ceilings)
    return fail("the calibration cache " + path.string() + " is damaged (" +
                ceilings.error().message + "); delete it and run `cugrade calibrate` again");
  if (ceilings->gpu != gpu || ceilings->driver != driver)
    return fail("the calibration cache " + path.string() + " is for " + ceilings->gpu +
                " (driver " + ceilings->driver + "), not " + gpu + " (driver " + driver +
                "); run `cugrade calibrate` again");
  return ceilings;
}

Result<std::filesystem::path> save_ceilings(const std::filesystem::path& cache_dir,
                                            const Ceilings& ceilings) {
  std::error_code error;
  std::filesystem::create_directories(cache_dir, error);
  if (error)
    return fail("cannot create the cache folder " + cache_dir.string() + ": " + error.message());
  const auto path = cache_dir / ceilings_file_name(ceilings.gpu, ceilings.driver);
  // Written to a temporary file and renamed, so a concurrent reader never sees half a file.
  const auto temporary = std::filesystem::path(path.string() + ".tmp");
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << json{{"copy_gbps", ceilings.copy_gbps},
                {"read_gbps", ceilings.read_gbps},
                {"sgemm_tflops", ceilings.sgemm_tflops},
                {"dgemm_tflops", ceilings.dgemm_tflops},
                {"gpu", ceilings.gpu},
                {"driver", ceilings.driver},
                {"measured_at", ceilings.measured_at}}
               .dump(2)
        << "\n";
    if (!out.flush()) return fail("cannot write the calibration cache " + temporary.string());
  }
  std::filesystem::rename(temporary, path, error);
  if (error) return fail("cannot write the calibration cache " + path.string() + ": " + error.message());
  return path;
}

Result<Ceilings> parse_calibrate_output(const std::string& output) {
  const json j = json::parse(output, nullptr, /*allow_exceptions=*/false);
  auto ceilings = ceilings_from_json(j);
  if (!ceilings)
    return fail("the calibration printed something unexpected (" + ceilings.error().message +
                "): \"" + first_line(output) + "\"");
  return ceilings;
}

Result<Ceilings> calibrate(ProcessRunner& runner, const std::filesystem::path& calibrate_binary) {
  // 300 s: the measurement itself takes seconds; the rest is room for a slow first cuBLAS load.
  auto output = run_helper(runner, calibrate_binary, "the calibration", 300.0);
  if (!output) return std::unexpected(output.error());
  auto ceilings = parse_calibrate_output(*output);
  if (ceilings) ceilings->measured_at = utc_now_iso8601();
  return ceilings;
}

}  // namespace cugrade
