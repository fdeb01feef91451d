#include "cluster/squeue_states.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cugrade {

std::vector<QueuedTask> parse_squeue(const std::string& output) {
  std::vector<QueuedTask> tasks;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find('|');
    if (first == std::string::npos) continue;
    const auto second = line.find('|', first + 1);
    if (second == std::string::npos) continue;
    const auto third = line.find('|', second + 1);
    QueuedTask task{line.substr(0, first), line.substr(first + 1, second - first - 1),
                    line.substr(second + 1, third == std::string::npos ? std::string::npos : third - second - 1),
                    third == std::string::npos ? "" : line.substr(third + 1)};
    const auto trim = [](std::string& s) {
      s.erase(0, s.find_first_not_of(' '));
      s.erase(s.find_last_not_of(' ') + 1);
    };
    trim(task.job);
    trim(task.state);
    trim(task.node);
    trim(task.reason);
    if (task.job.empty() || task.state.empty()) continue;
    tasks.push_back(std::move(task));
  }
  return tasks;
}

bool job_has_ended(const std::string& state) {
  static constexpr std::array<std::string_view, 11> ended = {
      "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
      "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "SPECIAL_EXIT", "REVOKED"};
  // squeue may add a '+' ("CANCELLED+", cancelled by another user than the owner).
  std::string_view name = state;
  while (!name.empty() && name.back() == '+') name.remove_suffix(1);
  return std::find(ended.begin(), ended.end(), name) != ended.end();
}

std::vector<QueuedTask> still_queued(const std::vector<QueuedTask>& tasks) {
  std::vector<QueuedTask> queued;
  for (const auto& task : tasks)
    if (!job_has_ended(task.state)) queued.push_back(task);
  return queued;
}

namespace {

/// Whether `index` is in "5-9", "2,4-6" (a throttle "%4" already cut off).
bool in_ranges(std::string_view ranges, std::size_t index) {
  while (!ranges.empty()) {
    const auto comma = ranges.find(',');
    const std::string_view range = ranges.substr(0, comma);
    const auto dash = range.find('-');
    try {
      const std::size_t first = std::stoul(std::string(range.substr(0, dash)));
      const std::size_t last = dash == std::string_view::npos ? first : std::stoul(std::string(range.substr(dash + 1)));
      if (first <= index && index <= last) return true;
    } catch (const std::exception&) {
      // not a range squeue writes: it lists nothing
    }
    if (comma == std::string_view::npos) break;
    ranges.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

bool task_listed(const std::vector<QueuedTask>& tasks, const std::string& job_id, std::size_t index) {
  const std::string prefix = job_id + "_";
  for (const auto& task : tasks) {
    if (task.job.compare(0, prefix.size(), prefix) != 0) continue;
    std::string_view rest = std::string_view(task.job).substr(prefix.size());
    if (!rest.empty() && rest.front() == '[') {
      rest.remove_prefix(1);
      rest = rest.substr(0, rest.find_first_of("%]"));
      if (in_ranges(rest, index)) return true;
    } else if (rest == std::to_string(index)) {
      return true;
    }
  }
  return false;
}

std::string queue_summary(const std::vector<QueuedTask>& tasks) {
  std::map<std::string, std::size_t> states;
  std::set<std::string> nodes;
  for (const auto& task : tasks) {
    const bool says_why = task.state == "PENDING" && !task.reason.empty() && task.reason != "None";
    ++states[says_why ? task.state + " (" + task.reason + ")" : task.state];
    if (!task.node.empty()) nodes.insert(task.node);
  }
  std::string text;
  for (const auto& [state, count] : states) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, state);
  if (!nodes.empty()) text += fmt::format(" on {}", fmt::join(nodes, " "));
  return text;
}

std::vector<QueuedTask> held_tasks(const std::vector<QueuedTask>& tasks) {
  std::vector<QueuedTask> held;
  for (const auto& task : tasks) {
    // JobHeldAdmin, JobHeldUser, "launch failed requeued held"; REQUEUE_HOLD is the state's own word.
    const bool is_held = task.reason.starts_with("JobHeld") || task.reason.ends_with("requeued held") ||
                         task.state == "REQUEUE_HOLD";
    if (is_held && !job_has_ended(task.state)) held.push_back(task);
  }
  return held;
}

bool squeue_knows_none(const std::string& error_text) {
  return error_text.find("Invalid job id specified") != std::string::npos;
}

}  // namespace cugrade
