#pragma once
// The runner's half of the event stream (job.hpp): one JSON line per event, appended and flushed
// at once, so the harness sees how far the runner got even if student code then hangs or crashes.
#include <cstdio>
#include <string>

#include "job.hpp"

namespace cugrade::runner {

/// Appends events to the job's events file.
class EventWriter {
 public:
  /// Opens `path` for appending; `ok()` says whether that worked.
  explicit EventWriter(const std::string& path);
  /// Closes the file.
  ~EventWriter();
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  /// True when the file is open.
  bool ok() const { return file_ != nullptr; }
  /// Writes one line and flushes it to the OS (a later crash cannot lose it).
  void emit(const Event& event);

 private:
  std::FILE* file_ = nullptr;
};

}  // namespace cugrade::runner
