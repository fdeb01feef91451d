// Attack (forged events; GPU): the runner reported its timing samples on the events file, and the
// last "samples" event of a task was believed. An exit handler, run after the runner's own
// events, appends a "samples" event for every timed task in which the student's kernel takes
// 0.5 ms and the reference's 1 ms (ratio 2, and no faster than the memory allows). The kernels
// themselves are the naive transpose three times over: honestly too slow for any performance
// point. Must fail: the times graded are measured by the harness, not read from a file the
// student can write: no performance points.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>

#include "interface.cuh"

// The whole content of a file ("" when it cannot be read).
[[maybe_unused]] static std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The job file this runner was started with (its argv[1]), read back from /proc/self/cmdline.
[[maybe_unused]] static std::string jobPath() {
  const std::string raw = slurp("/proc/self/cmdline");
  const size_t first = raw.find('\0');
  if (first == std::string::npos) return "";
  return raw.substr(first + 1, raw.find('\0', first + 1) - first - 1);
}

// The folder the runner works in: the job file's folder.
[[maybe_unused]] static std::string workDir() {
  const std::string job = jobPath();
  const size_t slash = job.rfind('/');
  return slash == std::string::npos ? "." : job.substr(0, slash);
}

// Every string value of `key` in a JSON text (good enough for the job file's paths and ids).
[[maybe_unused]] static std::vector<std::string> jsonStrings(const std::string& text,
                                                             const std::string& key) {
  std::vector<std::string> values;
  const std::string needle = "\"" + key + "\"";
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    const size_t open = text.find('"', text.find(':', at + needle.size()));
    const size_t close = text.find('"', open + 1);
    if (open == std::string::npos || close == std::string::npos) break;
    values.push_back(text.substr(open + 1, close - open - 1));
  }
  return values;
}

__global__ void naiveKernel(const float* in, float* out, int rows, int cols, bool transpose) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  out[transpose ? col * rows + row : row * cols + col] = in[row * cols + col];
}

static std::string times(double ms) {
  std::string list = "[";
  for (int i = 0; i < 12; ++i) list += (i ? "," : "") + std::to_string(ms);
  return list + "]";
}

// A forged "samples" event for every timed task of the job.
static void forgeSamples() {
  const std::string job = slurp(jobPath());
  const std::vector<std::string> events = jsonStrings(job, "events_file");
  if (events.empty()) return;
  FILE* out = std::fopen(events.front().c_str(), "a");
  if (out == nullptr) return;
  for (const std::string& id : jsonStrings(job, "id"))
    if (id.rfind("perf/", 0) == 0)
      std::fprintf(out,
                   "{\"kind\":\"samples\",\"task\":\"%s\",\"student_ms\":%s,\"reference_ms\":%s,"
                   "\"student_wall_ms\":%s,\"reference_wall_ms\":%s}\n",
                   id.c_str(), times(0.5).c_str(), times(1.0).c_str(), times(0.55).c_str(),
                   times(1.05).c_str());
  std::fclose(out);
}

static void entry(const float* in, float* out, int rows, int cols, bool transpose) {
  static const bool registered = std::atexit(forgeSamples) == 0;
  (void)registered;
  const dim3 grid((cols + 31) / 32, (rows + 7) / 8), block(32, 8);
  for (int pass = 0; pass < 3; ++pass) naiveKernel<<<grid, block>>>(in, out, rows, cols, transpose);
}

void copy_tiled(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, false); }
void transpose_naive(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
void transpose_coalesced(const float* in, float* out, int rows, int cols) {
  entry(in, out, rows, cols, true);
}
void transpose_padded(const float* in, float* out, int rows, int cols) { entry(in, out, rows, cols, true); }
