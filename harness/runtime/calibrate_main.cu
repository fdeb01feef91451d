// cugrade-calibrate: measures the ceilings timing thresholds are scaled by (design.md §7):
// device-to-device copy bandwidth, read-only bandwidth, FP32 SGEMM and FP64 DGEMM throughput,
// each the median of at least ten runs after a warm-up. Prints one JSON object; on failure {"error": ...} and exit 1.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kRuns = 15;
constexpr int kWarmup = 3;

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) throw Failure(std::string(what) + ": " + cudaGetErrorString(error));
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Failure(std::string(what) + ": " + cublasGetStatusString(status));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Device memory freed on scope exit.
struct DeviceBuffer {
  void* pointer = nullptr;
  explicit DeviceBuffer(std::size_t bytes) { check(cudaMalloc(&pointer, bytes), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(pointer); }
};

/// Median milliseconds of `work` (timed with events on the default stream) after a warm-up.
template <class Work> double median_ms(Work work) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < kWarmup; ++i) work();
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> ms;
  for (int i = 0; i < kRuns; ++i) {
    check(cudaEventRecord(start, 0), "cudaEventRecord");
    work();
    check(cudaEventRecord(stop, 0), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float elapsed = 0.0f;
    check(cudaEventElapsedTime(&elapsed, start, stop), "cudaEventElapsedTime");
    ms.push_back(elapsed);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(ms);
}

/// GB/s of cudaMemcpy device-to-device, counting bytes read plus bytes written.
double copy_gbps() {
  std::size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  // 1 GiB each way, less on a small GPU: big enough that launch overhead is noise.
  const std::size_t bytes = std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 4);
  DeviceBuffer source(bytes), target(bytes);
  check(cudaMemset(source.pointer, 1, bytes), "cudaMemset");
  check(cudaMemset(target.pointer, 0, bytes), "cudaMemset");
  const double ms = median_ms([&] {
    check(cudaMemcpy(target.pointer, source.pointer, bytes, cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

/// One block's share of a read-only pass: int4 loads over a grid-stride loop, a shuffle sum and
/// one atomic per block, so almost every byte moved is a byte read.
__global__ void read_all(const int4* data, std::size_t count, unsigned long long* sink) {
  unsigned int sum = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const int4 v = data[i];
    sum += static_cast<unsigned int>(v.x + v.y + v.z + v.w);
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ unsigned int warp_sums[32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long total = 0;
    for (unsigned int w = 0; w < blockDim.x / 32; ++w) total += warp_sums[w];
    atomicAdd(sink, total);
  }
}

/// GB/s of a read-only reduction over 1 GiB (less on a small GPU), counting bytes read: the
/// ceiling of kernels that only read, such as a sum.
double read_gbps() {
  std::size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::size_t bytes = std::min<std::size_t>(std::size_t{1} << 30, free_bytes / 4);
  const std::size_t count = bytes / sizeof(int4);
  DeviceBuffer data(count * sizeof(int4)), sink(sizeof(unsigned long long));
  check(cudaMemset(data.pointer, 1, count * sizeof(int4)), "cudaMemset");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  // Enough resident blocks of 256 threads to keep every SM's load units busy.
  const unsigned int blocks = static_cast<unsigned int>(sms) * 8;
  const double ms = median_ms([&] {
    read_all<<<blocks, 256>>>(static_cast<const int4*>(data.pointer), count,
                              static_cast<unsigned long long*>(sink.pointer));
    check(cudaGetLastError(), "read kernel launch");
  });
  return static_cast<double>(count * sizeof(int4)) / (ms * 1e-3) / 1e9;
}

/// TFLOP/s of cuBLAS DGEMM, 4096 x 4096 x 4096, FP64.
double dgemm_tflops() {
  constexpr int n = 4096;
  const std::size_t bytes = std::size_t{n} * n * sizeof(double);
  std::vector<double> host(std::size_t{n} * n);
  std::uint32_t state = 54321;
  for (auto& x : host) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<double>(state >> 8) / static_cast<double>(1u << 24) - 0.5;
  }
  DeviceBuffer a(bytes), b(bytes), c(bytes);
  check(cudaMemcpy(a.pointer, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(b.pointer, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  const double alpha = 1.0, beta = 0.0;
  const double ms = median_ms([&] {
    check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
                      static_cast<const double*>(a.pointer), n,
                      static_cast<const double*>(b.pointer), n, &beta,
                      static_cast<double*>(c.pointer), n),
          "cublasDgemm");
  });
  cublasDestroy(handle);
  return 2.0 * n * n * static_cast<double>(n) / (ms * 1e-3) / 1e12;
}

/// TFLOP/s of cuBLAS SGEMM, 4096 x 4096 x 4096, true FP32 (no TF32).
double sgemm_tflops() {
  constexpr int n = 4096;
  const std::size_t bytes = std::size_t{n} * n * sizeof(float);
  // Non-trivial data: a GPU multiplying zeros draws less power and may clock higher.
  std::vector<float> host(std::size_t{n} * n);
  std::uint32_t state = 12345;
  for (auto& x : host) {
    state = state * 1664525u + 1013904223u;
    x = static_cast<float>(state >> 8) / static_cast<float>(1u << 24) - 0.5f;
  }
  DeviceBuffer a(bytes), b(bytes), c(bytes);
  check(cudaMemcpy(a.pointer, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(b.pointer, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  // Default math is FP32 for SGEMM; TF32 would come only from CUBLAS_TF32_TENSOR_OP_MATH or the
  // environment, which main() pins off.
  check(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  const float alpha = 1.0f, beta = 0.0f;
  const double ms = median_ms([&] {
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
                      static_cast<const float*>(a.pointer), n,
                      static_cast<const float*>(b.pointer), n, &beta,
                      static_cast<float*>(c.pointer), n),
          "cublasSgemm");
  });
  cublasDestroy(handle);
  return 2.0 * n * n * static_cast<double>(n) / (ms * 1e-3) / 1e12;
}

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

int main() {
  // Why: NVIDIA_TF32_OVERRIDE=0 forbids TF32 everywhere in this process, so the SGEMM ceiling
  // is true FP32, whatever the user's environment says.
  setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
  try {
    int count = 0;
    if (cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess || count == 0)
      throw Failure(std::string("no CUDA device: ") +
                    cudaGetErrorString(error != cudaSuccess ? error : cudaErrorNoDevice));
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int driver = 0;
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    const nlohmann::json result{{"copy_gbps", copy_gbps()},
                                {"read_gbps", read_gbps()},
                                {"sgemm_tflops", sgemm_tflops()},
                                {"dgemm_tflops", dgemm_tflops()},
                                {"gpu", prop.name},
                                {"driver", version_text(driver)}};
    std::printf("%s\n", result.dump().c_str());
    return 0;
  } catch (const Failure& failure) {
    std::printf("%s\n", nlohmann::json{{"error", failure.what()}}.dump().c_str());
    return 1;
  }
}
