#include "run/lockstep_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <tuple>
#include <utility>

#include "process/interactive_process.hpp"
#include "run/timing_digests.hpp"

namespace cugrade {
namespace fs = std::filesystem;

std::uint64_t lockstep_mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

namespace {

/// A fresh per-target salt: 64 bits of the system's entropy (the clock where it has none), so
/// that two checks of the same file do not see the same sequence and no salt follows from another.
std::uint64_t fresh_salt() {
  try {
    std::random_device entropy;
    return (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
  } catch (const std::exception&) {
    return lockstep_mix(static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                        reinterpret_cast<std::uintptr_t>(&fresh_salt));
  }
}

}  // namespace

LockstepSession::LockstepSession(ProcessRunner& processes, const RunRequest& student, const std::vector<TimeTask>& tasks,
                                 const fs::path& reference_runner, const fs::path& reference_dir, const TimingAids& aids)
    : processes_(processes), student_request_(student), reference_runner_(reference_runner),
      reference_dir_(reference_dir), baselines_(aids.baselines), timeout_s_(student.task_timeout_s),
      outcomes_(tasks.size()), selected_(aids.only) {
  std::tie(reference_tasks_, student_tasks_) = sides_tasks(tasks);
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    variant_salts_.push_back(fresh_salt());
    key_salts_.push_back(fresh_salt());
  }
  if (selected_.empty())
    for (std::size_t i = 0; i < tasks.size(); ++i) selected_.push_back(i);
  if (aids.early && aids.early->student && aids.early->reference) {
    student_ = std::move(*aids.early->student);
    reference_ = std::move(*aids.early->reference);
    aids.early->student.reset();
    aids.early->reference.reset();
  }
  reference_.label = "the reference runner";
  twin_.label = "the reference's twin runner";
  student_.label = "your runner";
}

bool LockstepSession::up(std::initializer_list<Side*> sides) {
  std::vector<Side*> greeting;
  for (Side* side : sides)
    if (!side->alive() || !side->greeted) greeting.push_back(side);
  if (greeting.empty()) return true;
  const bool yours = std::find(greeting.begin(), greeting.end(), &student_) != greeting.end();
  const char* name = !yours ? "reference start" : greeting.size() == 1 ? "your start" : "start";
  return phase(name, [&] {
    for (Side* side : greeting)
      if (!side->alive()) {
        if (side == &student_ || side == &reference_) warmed_ = false;  // a fresh process: cold again
        start_side(*side, processes_, student_request_,
                   side == &student_ ? student_request_.runner : reference_runner_, folder_of(*side),
                   side == &student_ ? student_tasks_ : reference_tasks_, fmt::format("timing-{}", starts_++));
      }
    // Every greeting is taken before any is judged, so none is left to answer a later command.
    std::vector<std::pair<std::optional<std::string>, bool>> replies;
    for (Side* side : greeting) {
      auto reply = side->process->receive(5.0 + timeout_s_);
      replies.emplace_back(std::move(reply), side->process->timed_out());
    }
    for (std::size_t i = 0; i < greeting.size(); ++i) {
      if (!replies[i].first || *replies[i].first != "hello")
        return fail(*greeting[i], replies[i].first, replies[i].second, "start");
      greeting[i]->greeted = true;
    }
    return true;
  });
}

fs::path LockstepSession::folder_of(const Side& side) const {
  if (&side == &student_) return student_request_.work_dir;
  if (&side == &reference_) return reference_dir_;
  fs::path twin = reference_dir_;
  twin += "-twin";
  fs::create_directories(twin);
  return twin;
}

void LockstepSession::quit(std::initializer_list<Side*> sides) {
  for (Side* side : sides)
    if (side->alive()) side->process->send("quit");
  for (Side* side : sides)
    if (side->alive()) side->ended = side->process->finish(1.0);
}

bool LockstepSession::load(Side& a, Side& b) {
  const std::string command = "task " + std::to_string(task_);
  std::string to[2];
  Side* sides[2] = {&a, &b};
  for (int i = 0; i < 2; ++i) {
    Side& side = *sides[i];
    side.event_ms.clear();
    side.wall_ms.clear();
    const std::optional<std::size_t> asked = std::exchange(side.loading, std::nullopt);
    if (asked == task_) continue;  // asked already: nothing to send
    if (asked) {
      const auto reply = side.process->receive(5.0 + timeout_s_);
      if (!reply || *reply != "loaded") return fail(side, reply, side.process->timed_out(), "task");
    }
    to[i] = command;
  }
  return exchange(a, to[0], b, to[1], "loaded", 5.0 + timeout_s_);
}

bool LockstepSession::exchange(Side& a, const std::string& to_a, Side& b, const std::string& to_b, const std::string& expected,
                               double timeout_s) {
  const bool sent_a = to_a.empty() || a.process->send(to_a);
  const bool sent_b = to_b.empty() || b.process->send(to_b);
  const auto reply_a = a.process->receive(sent_a ? timeout_s : 0.05);
  const bool a_timed_out = a.process->timed_out();
  const auto reply_b = b.process->receive(sent_b ? timeout_s : 0.05);
  const std::string& said = to_a.empty() ? to_b : to_a;
  const std::string word = said.empty() ? "task" : said.substr(0, said.find(' '));
  if (!reply_b || *reply_b != expected) return fail(b, reply_b, b.process->timed_out(), word);
  if (!reply_a || *reply_a != expected) return fail(a, reply_a, a_timed_out, word);
  return true;
}

bool LockstepSession::fail(Side& side, const std::optional<std::string>& reply, bool timed_out, const std::string& command) {
  TaskStatus status;
  if (reply) {
    status.outcome = Outcome::protocol_error;
    status.message = "the runner's answer to '" + command + "' was not understood: \"" + reply->substr(0, 80) + "\"";
  } else {
    status = why_stopped(side, timed_out, timeout_s_);
  }
  if (!side.ended) side.ended = side.process->finish(0.0);
  if (&side != &student_) {  // the reference is ours: whatever stopped it is cugrade's fault
    status.message = side.label + " failed while timing: " + status.message;
    status.outcome = Outcome::harness_error;
  }
  outcomes_[task_].status = std::move(status);
  return false;
}

bool LockstepSession::call(Side& side, std::uint64_t k, bool record, std::vector<double>* digest) {
  // The variant (h, which the prepare line gives away: mix is invertible) and the digest's key
  // from salts of their own: the key is the runner's to learn only after the call returned.
  const std::uint64_t h = lockstep_mix(variant_salts_[task_] ^ k);
  // Negated or not at random, not by turns: no count of calls predicts the next outputs. The
  // last number keys each element's own sign in the task's sign-free inputs and the moves of its
  // movable bodies (sample_inputs.hpp).
  const std::uint64_t signs = lockstep_mix(h ^ sign_flips_tweak) | 1;
  const std::string prepare = fmt::format("prepare {} {} {} {}", k, h >> 8, (h >> 3) & 1, signs);
  auto reply = ask(side, prepare, timeout_s_);
  if (!reply || *reply != "ready") return fail(side, reply, side.process->timed_out(), "prepare");
  const auto start = Clock::now();
  reply = ask(side, "run", timeout_s_);
  const auto ran = reply ? reply_numbers(*reply, "ran", 1) : std::nullopt;
  if (!ran) return fail(side, reply, side.process->timed_out(), "run");
  reply = ask(side, fmt::format("digest {}", lockstep_mix(key_salts_[task_] ^ k)), timeout_s_);
  const double wall = ms_since(start);
  const auto values = reply ? reply_numbers(*reply, "digest", digest_reply_values(reference_tasks_[task_])) : std::nullopt;
  if (!values) return fail(side, reply, side.process->timed_out(), "digest");
  if (record) {
    side.event_ms.push_back(ran->front());
    side.wall_ms.push_back(wall);
  }
  if (digest) *digest = *values;
  return true;
}

bool LockstepSession::round(std::uint64_t k, bool record) {
  std::vector<double> ours, theirs;
  if (!call(student_, k, record, &ours) || !call(reference_, k, record, &theirs)) return false;
  std::string why;
  TimingOutcome& out = outcomes_[task_];
  if (out.verified && !replies_agree(ours, theirs, reference_tasks_[task_], &why)) {
    out.verified = false;
    out.mismatch = fmt::format("timed call {}: {}", k, why);
  }
  return true;
}

}  // namespace cugrade
