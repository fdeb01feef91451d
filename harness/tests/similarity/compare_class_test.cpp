#include "similarity/compare_class.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "temp_dir.hpp"

using namespace cugrade;

namespace {

// The starter every student was given: its lines must not make two students alike.
const std::string kTemplate = R"(#include "interface.cuh"

// TODO: write the kernel. Each thread computes one element of C.
__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO
}

void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
)";

const std::string kAlice = R"(#include "interface.cuh"

__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) {
      if (k % 2 == 0) sum += A[row * K + k] * B[k * N + col];
      else sum = sum + A[row * K + k] * B[k * N + col];
    }
    C[row * N + col] = sum * 1.0f;
  }
}

void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
)";

// Alice's with every name changed, other comments and another layout.
const std::string kBob = R"(#include "interface.cuh"
// my own work
__global__ void matmul_kernel(const float* X, const float* Y, float* Z, int M, int N, int K)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;   // row
    int c = blockIdx.x * blockDim.x + threadIdx.x;   // column
    if (r < M && c < N)
    {
        float acc = 0.0f;
        for (int i = 0; i < K; ++i)
        {
            if (i % 2 == 0) acc += X[r * K + i] * Y[i * N + c];
            else acc = acc + X[r * K + i] * Y[i * N + c];
        }
        Z[r * N + c] = acc * 1.0f;
    }
}

void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
)";

// Written otherwise: a grid-stride loop over the elements of C.
const std::string kCarol = R"(#include "interface.cuh"

__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  for (long e = blockIdx.x * (long)blockDim.x + threadIdx.x; e < (long)M * N; e += (long)gridDim.x * blockDim.x) {
    const float* a = A + (e / N) * K;
    const float* b = B + e % N;
    double total = 0;
    for (int t = 0; t < K; t++) total += (double)a[t] * b[(long)t * N];
    C[e] = (float)total;
  }
}

void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
)";

StudentCode code(const std::string& student, const std::string& text) { return {student, text, {{"matmul.cu", 1}}}; }

}  // namespace

// The real sim_c++ (Debian's similarity-tester, in scripts/install-deps.sh's base list).
TEST_CASE("similarity::compare_class") {
  test::TempDir work("similarity");
  auto processes = make_process_runner();
  auto compared = compare_class(*processes,
                                {code("alice", kAlice), code("bob", kBob), code("carol", kCarol),
                                 code("dave", kTemplate), code("erin", kTemplate)},
                                code("template", kTemplate), work.path);
  REQUIRE_MESSAGE(compared.has_value(), compared.error().message);
  REQUIRE(compared->students.size() == 5);
  CHECK_FALSE(compared->tool.empty());

  // The template's launch code is out of everyone's file: only the kernels are compared.
  for (std::size_t i = 0; i < 5; ++i) CHECK_MESSAGE(!compared->base[i].empty(), compared->students[i].student);
  CHECK(compared->tokens[3] == 0);  // the untouched template: nothing of the student's own
  CHECK(compared->tokens[0] > 0);

  REQUIRE_FALSE(compared->pairs.empty());
  const SimilarPair& top = compared->pairs.front();
  CHECK(compared->students[top.a].student == "alice");
  CHECK(compared->students[top.b].student == "bob");
  CHECK(top.percent() >= 90);
  REQUIRE_FALSE(top.runs.empty());
  CHECK(top.runs.front().file_a.starts_with("own/"));
  CHECK(top.run_tokens >= 60);
  for (const SimilarPair& p : compared->pairs) {
    // Two students who handed in the untouched template are not alike: it was taken out.
    CHECK_FALSE((p.a == 3 && p.b == 4));
    if (&p != &top) CHECK(p.percent() < top.percent());
  }
}

TEST_CASE("similarity::compare_class without sim") {
  test::TempDir work("similarity");
  auto processes = make_process_runner();
  SimilarityOptions options;
  options.sim = "/nonexistent/sim_c++";
  auto compared = compare_class(*processes, {code("alice", kAlice), code("bob", kBob)}, code("template", kTemplate),
                                work.path, options);
  REQUIRE_FALSE(compared.has_value());
  CHECK(compared.error().message.find("similarity-tester") != std::string::npos);
}

TEST_CASE("similarity::sim_version") {
  auto processes = make_process_runner();
  CHECK(sim_version(*processes).starts_with("sim_c++"));
  CHECK(sim_version(*processes, "/nonexistent/sim_c++").empty());
}
