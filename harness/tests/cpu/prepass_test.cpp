// The pre-pass on a corpus of launch forms (data/prepass/<name>.cu -> <name>.expected.cpp; the
// build also compiles every pre-passed corpus file against the shims) and on what it refuses.
#include "prepass.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "prepass_lexer.hpp"

namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("prepass::cuda_to_cpp corpus") {
  const std::filesystem::path dir = std::filesystem::path(CUGRADE_CPU_TEST_DATA) / "prepass";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".cu") continue;
    ++files;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    auto out = cugrade::cpu::cuda_to_cpp(read(entry.path()), name);
    REQUIRE(out.has_value());
    std::filesystem::path expected = entry.path();
    expected.replace_extension(".expected.cpp");
    CHECK(*out == read(expected));
  }
  CHECK(files >= 6);
}

TEST_CASE("prepass::cuda_to_cpp") {
  using cugrade::cpu::cuda_to_cpp;
  SUBCASE("lines keep their numbers") {
    const std::string source = "void f(int* x) {\n  k<<<1,\n    2>>>(x,\n  // c\n  3);\n  bad;\n}\n";
    auto out = cuda_to_cpp(source, "a.cu");
    REQUIRE(out.has_value());
    CHECK(out->starts_with("#line 1 \"a.cu\"\n"));
    CHECK(count(*out, "\n") == count(source, "\n") + 1);
    CHECK(out->find("  bad;") != std::string::npos);
  }
  SUBCASE("every launch in a file is rewritten") {
    auto out = cuda_to_cpp("void f() { a<<<1,1>>>(); b<<<2,2>>>(1); c<<<3,3>>>(a<<1, 2>>1); }", "a.cu");
    REQUIRE(out.has_value());
    CHECK(count(*out, "::cugrade_cpu::launch(") == 3);
    CHECK(out->find("a<<1, 2>>1") != std::string::npos);
  }
  SUBCASE("__noinline__ becomes the GCC attribute (a macro would break libstdc++ 13)") {
    auto out = cuda_to_cpp("__noinline__ __device__ int f() { return 1; }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(out->find("__attribute__((noinline)) __device__ int f()") != std::string::npos);
  }
  SUBCASE("__CUDA_ARCH__ in device-only code reads as nvcc's device pass; elsewhere it stays undefined") {
    const std::string source =
        "__device__ int f() {\n#ifdef __CUDA_ARCH__\n#if __CUDA_ARCH__ >= 700 && defined(__CUDA_ARCH__)\n"
        "  return __CUDA_ARCH__;\n#endif\n#endif\n#if !defined __CUDA_ARCH__\n  return -1;\n#endif\n"
        "#ifndef __CUDA_ARCH__\n  return -2;\n#endif\n}\n"
        "__host__ __device__ int g() {\n#ifdef __CUDA_ARCH__\n  return 1;\n#endif\n  return 0;\n}\n"
        "int h() {\n#if __CUDA_ARCH__ >= 700\n  return 1;\n#endif\n  return 0;\n}\n"
        "__device__ int table[2] = {__CUDA_ARCH__, 0};\n"
        "__global__ void k(int* out) { out[0] = f(); }\n";
    auto out = cuda_to_cpp(source, "a.cu", {}, 750);
    REQUIRE(out.has_value());
    CHECK(out->find("#if 1 /* 750 */\n#if 750 >= 700 && 1\n  return 750;") != std::string::npos);
    CHECK(out->find("#if !1\n") != std::string::npos);
    CHECK(out->find("#if 0 /* 750 */\n  return -2;") != std::string::npos);
    // A __host__ __device__ function, host code and a __device__ variable's initialiser: as nvcc's host pass.
    CHECK(out->find("int g() {\n#ifdef __CUDA_ARCH__\n") != std::string::npos);
    CHECK(out->find("int h() {\n#if __CUDA_ARCH__ >= 700\n") != std::string::npos);
    CHECK(out->find("table[2] = {__CUDA_ARCH__, 0}") != std::string::npos);
    CHECK(count(*out, "\n") == count(source, "\n") + 1);  // lines keep their numbers
  }
  SUBCASE("__CUDA_ARCH__ for nvcc's -arch") {
    using cugrade::cpu::cuda_arch_number;
    CHECK(cuda_arch_number("sm_75") == 750);
    CHECK(cuda_arch_number("sm_90a") == 900);
    CHECK(cuda_arch_number("compute_86") == 860);
    CHECK(cuda_arch_number("sm_100") == 1000);
    CHECK(cuda_arch_number("cpu") == 900);
    CHECK(cuda_arch_number("") == 900);
  }
  SUBCASE("a file name with a quote is escaped in #line") {
    auto out = cuda_to_cpp("int x;\n", "my \"file\".cu");
    CHECK(out->starts_with("#line 1 \"my \\\"file\\\".cu\"\n"));
  }
  SUBCASE("launch brackets written with blanks between them, as nvcc accepts") {
    auto out = cuda_to_cpp("void f(int* x) { k << < 1, 2 >> > (x); g<<< 1, 2 >> >(x); }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(count(*out, "::cugrade_cpu::launch(::cugrade_cpu::launch_config( 1, 2 ), \"k\"") == 1);
    CHECK(count(*out, "::cugrade_cpu::launch(") == 2);
  }
  SUBCASE("every kernel body starts by naming the kernel (not a declaration, not a __device__ function)") {
    auto out = cuda_to_cpp("__global__ void d(int);\n__device__ int f() { return 1; }\n"
                           "template <int N> __global__ void __launch_bounds__(256) k(int (*p)[N]) { }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(count(*out, "::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);") == 1);
    CHECK(out->find("k(int (*p)[N]) { ::cugrade_cpu::kernel_signature(") != std::string::npos);
  }
  SUBCASE("a kernel taken from an array of kernel pointers") {
    auto out = cuda_to_cpp("void f() { fpDeriv[fp]<<<grid[d][fp], 1>>>(x); }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(out->find(", \"fpDeriv[fp]\", [&](auto&&... cugrade_a) { fpDeriv[fp](") != std::string::npos);
  }
  SUBCASE("operator<< <T> and a << b are no launches") {
    const std::string source = "template <class T> void f() { operator<< <T>(x, y); z = a << b; }\n";
    auto out = cuda_to_cpp(source, "a.cu");
    REQUIRE(out.has_value());
    CHECK(count(*out, "::cugrade_cpu::launch(") == 0);
  }
  SUBCASE("a UTF-8 byte-order mark is dropped, and a directive on line 1 stays one") {
    auto out = cuda_to_cpp("\xEF\xBB\xBF#define N 4\nvoid f() { k<<<1, N>>>(); }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(out->starts_with("#line 1 \"a.cu\"\n#define N 4\n"));
    CHECK(count(*out, "::cugrade_cpu::launch(") == 1);
  }
  SUBCASE("static __shared__ loses the static (the shim's __shared__ is static thread_local)") {
    auto out = cuda_to_cpp("__global__ void k() { static __shared__ int a[4]; __shared__ static int b; }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(count(*out, "static") == 0);
    CHECK(count(*out, "::cugrade_cpu::shared_declared(") == 2);
  }
  SUBCASE("a launch with template arguments names the kernel through the enclosing function") {
    auto out = cuda_to_cpp("template <int N> void f() { k<N><<<1, 1>>>(); h<<<1, 1>>>(); }\n", "a.cu");
    REQUIRE(out.has_value());
    CHECK(out->find("::cugrade_cpu::kernel_name(\"k<N>\", __PRETTY_FUNCTION__)") != std::string::npos);
    CHECK(out->find(", \"h\", [&]") != std::string::npos);
  }
  SUBCASE("no closing >>>") {
    auto out = cuda_to_cpp("void f() {\n  k<<<1, 1(x);\n}\n", "a.cu");
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().message == "a.cu:2: this launch's <<< has no matching >>>.");
  }
  SUBCASE("no arguments after >>>") {
    auto out = cuda_to_cpp("void f() { k<<<1, 1>>>; }", "a.cu");
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().message == "a.cu:1: a kernel launch needs its arguments in parentheses after >>>.");
  }
  SUBCASE("no kernel before <<<") {
    auto out = cuda_to_cpp("void f() { <<<1, 1>>>(); }", "a.cu");
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().message.starts_with("a.cu:1: cannot tell which kernel this launch (<<<) calls"));
  }
  SUBCASE("an extern __shared__ declaration it cannot rewrite") {
    auto out = cuda_to_cpp("__global__ void k() {\n  extern __shared__ float s[4];\n}\n", "a.cu");
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().message.starts_with("a.cu:2: unsupported extern __shared__ declaration"));
  }
}

TEST_CASE("prepass::tokenize") {
  using cugrade::cpu::TokenKind;
  const std::string source = "#include <a<<<b>\nx = R\"(<<<)\" + '<' + 1'000; // <<<\n#define M k<<<1,1>>>()\n";
  auto tokens = cugrade::cpu::tokenize(source);
  REQUIRE(tokens.size() > 3);
  CHECK(tokens[0].kind == TokenKind::opaque_directive);
  CHECK(tokens[1].text(source) == "x");
  CHECK(tokens[1].line == 2);
  CHECK(tokens[3].kind == TokenKind::literal);
  CHECK(tokens[3].text(source) == "R\"(<<<)\"");
  auto number = std::find_if(tokens.begin(), tokens.end(), [](const auto& t) { return t.kind == TokenKind::number; });
  CHECK(number->text(source) == "1'000");
  auto comment = std::find_if(tokens.begin(), tokens.end(), [](const auto& t) { return t.kind == TokenKind::comment; });
  CHECK(comment->text(source) == "// <<<");
  CHECK(tokens.back().directive > 0);  // tokens of the #define body carry its directive number
  CHECK(tokens.back().line == 3);
}

TEST_CASE("prepass::cuda_to_cpp local headers") {
  using cugrade::cpu::cuda_to_cpp;
  std::map<std::string, std::string> files = {
      {"dir/launch.cuh", "#pragma once\ntemplate <class K> void go(K k, int* x) {\n  k<<<1, 32>>>(x);\n}\n"},
      {"dir/sub/outer.cuh", "#include \"inner.cuh\"\nint outer;\n"},
      {"dir/sub/inner.cuh", "int inner;"},
      {"dir/self.cuh", "#include \"self.cuh\"\n"},
  };
  const cugrade::cpu::HeaderReader reader = [&](const std::filesystem::path& path) -> std::optional<std::string> {
    auto it = files.find(path.generic_string());
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  SUBCASE("a header's launch is rewritten, between #line directives; the includer keeps its lines") {
    auto out = cuda_to_cpp("#include \"launch.cuh\"\nint after;\n", "dir/main.cu", reader);
    REQUIRE(out.has_value());
    CHECK(out->find("#line 1 \"dir/launch.cuh\"\n") != std::string::npos);
    CHECK(out->find("k<<<") == std::string::npos);
    CHECK(out->find("::cugrade_cpu::launch(::cugrade_cpu::launch_config(1, 32), \"k\"") != std::string::npos);
    CHECK(out->ends_with("#endif\n#line 2 \"dir/main.cu\"\nint after;\n"));
  }
  SUBCASE("a #pragma once header is inlined once, inside a guard") {
    auto out = cuda_to_cpp("#include \"launch.cuh\"\n#include \"launch.cuh\"\n", "dir/main.cu", reader);
    REQUIRE(out.has_value());
    CHECK(count(*out, "#line 1 \"dir/launch.cuh\"") == 1);
    CHECK(count(*out, "#ifndef CUGRADE_ONCE_") == 1);
    CHECK(out->find("#pragma once") == std::string::npos);
  }
  SUBCASE("nested headers resolve next to the file that includes them") {
    auto out = cuda_to_cpp("#include \"sub/outer.cuh\"\n", "dir/main.cu", reader);
    REQUIRE(out.has_value());
    CHECK(out->find("#line 1 \"dir/sub/inner.cuh\"\nint inner;\n#line 2 \"dir/sub/outer.cuh\"\nint outer;") !=
          std::string::npos);
  }
  SUBCASE("headers it cannot find, <...> headers and no reader: left to the compiler") {
    CHECK(*cuda_to_cpp("#include \"interface.cuh\"\n", "dir/main.cu", reader) ==
          "#line 1 \"dir/main.cu\"\n#include \"interface.cuh\"\n");
    CHECK(*cuda_to_cpp("#include <cstdio>\n", "dir/main.cu", reader) == "#line 1 \"dir/main.cu\"\n#include <cstdio>\n");
    CHECK(*cuda_to_cpp("#include \"launch.cuh\"\n", "dir/main.cu") == "#line 1 \"dir/main.cu\"\n#include \"launch.cuh\"\n");
  }
  SUBCASE("a header that includes itself") {
    auto out = cuda_to_cpp("#include \"self.cuh\"\n", "dir/main.cu", reader);
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().message ==
          "dir/self.cuh:1: #include \"self.cuh\" nests more than 32 levels deep (does a header include itself?).");
  }
}
