#include "event_writer.hpp"

namespace cugrade::runner {

EventWriter::EventWriter(const std::string& path) : file_(std::fopen(path.c_str(), "a")) {}

EventWriter::~EventWriter() {
  if (file_) std::fclose(file_);
}

void EventWriter::emit(const Event& event) {
  if (!file_) return;
  const std::string line = event_to_line(event) + "\n";
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

}  // namespace cugrade::runner
