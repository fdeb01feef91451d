#include "run/runner_events.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <system_error>

namespace cugrade {

std::vector<std::string> task_ids(const Job& job) {
  std::vector<std::string> ids;
  for (const auto& t : job.checks) ids.push_back(t.id);
  for (const auto& t : job.timings) ids.push_back(t.id);
  return ids;
}

void EventFollower::poll() {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  std::string fresh;
  char buffer[1 << 16];
  for (ssize_t n; fresh.size() < kMostPerPoll &&
                  (n = ::pread(fd, buffer, sizeof buffer, offset_ + static_cast<off_t>(fresh.size()))) > 0;)
    fresh.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  std::size_t start = 0;
  for (std::size_t end; (end = fresh.find('\n', start)) != std::string::npos; start = end + 1)
    if (auto event = event_from_line(fresh.substr(start, end - start))) take(std::move(*event));
  // A "line" longer than any event (the student's code writing into the stream) is passed over,
  // not read again at every poll.
  if (fresh.size() - start > kLongestLine) start = fresh.size();
  offset_ += static_cast<off_t>(start);
}

void EventFollower::take(Event event) {
  // A task's clock runs from the first start seen for it: the event stream is writable by the
  // student's code, and a start written again must not restart a slow case's deadline.
  if (event.kind == "start" && !started_.contains(event.task)) {
    started_.insert(event.task);
    current_ = {event.task, Clock::now()};
    idle_since_.reset();
  }
  // A task ends with its done, with a fatal event (the runner refused it) or with a CUDA
  // error; after the last two the runner goes on with the next task or ends (run_job tells
  // them apart).
  if ((event.kind == "done" || event.kind == "fatal" || event.kind == "cuda_error") && current_ &&
      current_->first == event.task) {
    current_.reset();
    idle_since_ = Clock::now();
  }
  events_.push_back(std::move(event));
}

InputsRelease::InputsRelease(const std::filesystem::path& root, Job& job) {
  if (root.empty()) return;
  static std::atomic<unsigned> counter{0};
  dir_ = root / ("runner-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
  for (auto& task : job.checks) rewrite(task.inputs_file);
  for (auto& task : job.timings) rewrite(task.inputs_file);
  order_ = task_ids(job);
}

InputsRelease::~InputsRelease() {
  std::error_code ignored;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
}

void InputsRelease::follow(const std::vector<Event>& events) {
  if (dir_.empty()) return;
  for (; seen_ < events.size(); ++seen_) {
    if (next_ >= order_.size()) return;
    const Event& e = events[seen_];
    const bool starts_next = next_ == 0 && e.kind == "start" && e.task == order_[0];
    const bool ends_previous = (e.kind == "done" || e.kind == "fatal" || e.kind == "cuda_error") && next_ > 0 &&
                               e.task == order_[next_ - 1];
    if (starts_next || ends_previous) release(next_++);
  }
}

void InputsRelease::rewrite(std::string& inputs_file) {
  const std::filesystem::path shown = dir_ / (std::to_string(sources_.size()) + ".in");
  sources_.push_back({inputs_file, shown});
  inputs_file = shown.string();
}

void InputsRelease::release(std::size_t index) {
  const auto& [source, shown] = sources_[index];
  std::error_code error;
  // A hard link costs no copy; the folder is read-only in the sandbox, so the runner cannot
  // change the file (in a batch, every student's case shares it). Across file systems, a copy.
  std::filesystem::create_hard_link(source, shown, error);
  if (error) std::filesystem::copy_file(source, shown, error);
}

}  // namespace cugrade
