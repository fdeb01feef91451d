#pragma once
// The harness's side of a start gate (runtime/start_gate.hpp): the file that lets the runners
// waiting at it go on. It is created by open(), or at the latest when its GateFile ends, so that
// no runner waits out its bound because the harness left early (an error, an exception).
#include <filesystem>

namespace cugrade {

/// One start gate's file, closed until open().
class GateFile {
 public:
  GateFile() = default;
  /// A gate at `file`, which must not exist yet; its folder is made when missing.
  explicit GateFile(std::filesystem::path file);
  GateFile(GateFile&& other) noexcept;
  GateFile& operator=(GateFile&& other) noexcept;
  GateFile(const GateFile&) = delete;
  GateFile& operator=(const GateFile&) = delete;
  /// Opens the gate if it is not open.
  ~GateFile();

  /// Creates the file: the runners waiting at the gate go on. Opening it again does nothing; a
  /// GateFile with no file does nothing.
  void open();
  /// The gate's file, for the runners' environment (empty: no gate).
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  bool open_ = false;
};

}  // namespace cugrade
