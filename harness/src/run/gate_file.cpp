#include "run/gate_file.hpp"

#include <fstream>
#include <utility>

namespace cugrade {
namespace fs = std::filesystem;

GateFile::GateFile(fs::path file) : file_(std::move(file)) {
  std::error_code ignored;
  fs::create_directories(file_.parent_path(), ignored);  // a folder that cannot be made: open() fails, runners time out
  fs::remove(file_, ignored);
}

GateFile::GateFile(GateFile&& other) noexcept
    : file_(std::exchange(other.file_, {})), open_(std::exchange(other.open_, true)) {}

GateFile& GateFile::operator=(GateFile&& other) noexcept {
  if (this != &other) {
    open();
    file_ = std::exchange(other.file_, {});
    open_ = std::exchange(other.open_, true);
  }
  return *this;
}

GateFile::~GateFile() { open(); }

void GateFile::open() {
  if (open_ || file_.empty()) return;
  open_ = true;
  std::ofstream{file_};
}

}  // namespace cugrade
