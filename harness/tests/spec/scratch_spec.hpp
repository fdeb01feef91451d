#pragma once
// A spec written from text into a fresh folder, for tests of what a file's exact bytes do.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace cugrade::test {

/// A minimal valid spec of assignment vecadd (one step, one case) in LF line endings.
inline constexpr std::string_view minimal_vecadd_spec =
    "id: vecadd\ntitle: Vector addition\nsteps:\n  - {name: naive, entry: vec_add}\n"
    "cases:\n  - sizes: [{n: 4}]\n";

/// <tmp>/cugrade-spec-XXXXXX/vecadd/assignment.yaml holding `yaml` byte for byte, beside an
/// interface.cuh declaring vec_add() and a README.md; removed with the object.
class ScratchSpec {
 public:
  explicit ScratchSpec(std::string_view yaml) {
    std::string pattern = (std::filesystem::temp_directory_path() / "cugrade-spec-XXXXXX").string();
    root_ = ::mkdtemp(pattern.data());
    const std::filesystem::path dir = root_ / "vecadd";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "interface.cuh") << "void vec_add(const float* a, const float* b, float* c, int n);\n";
    std::ofstream(dir / "README.md") << "# Vector addition\n";
    std::ofstream(dir / "assignment.yaml", std::ios::binary) << yaml;
  }
  ~ScratchSpec() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  ScratchSpec(const ScratchSpec&) = delete;
  ScratchSpec& operator=(const ScratchSpec&) = delete;

  /// The spec file, as messages name it.
  std::string path() const { return (root_ / "vecadd" / "assignment.yaml").string(); }

 private:
  std::filesystem::path root_;
};

}  // namespace cugrade::test
