// The warp-level rendezvous of the block's fibers: the warp intrinsics' exchange of values
// (__shfl_sync, __ballot_sync, __syncwarp, ...) and the lanes __activemask() gives.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "block_runner.hpp"
#include "error_state.hpp"
#include "source_site.hpp"

namespace cugrade_cpu {

const WarpSlots& BlockRunner::warp_exchange(unsigned mask, std::uint64_t value, const char* intrinsic,
                                            const std::source_location& where) {
  Thread& t = *running_;
  Warp& w = warps_[t.warp];
  const unsigned me = 1u << t.context.lane;
  const unsigned members = (mask & w.existing) | me;
  if (w.arrived == 0) {
    w.round = members;
  } else if (members != w.round) {
    char text[160];
    std::snprintf(text, sizeof text, "lanes of warp %u called warp intrinsics with different masks "
                  "(0x%08x and 0x%08x)", t.warp, w.round, members);
    fail("unsupported warp synchronisation in kernel " + code_name(kernel()) + ": " + text +
         " at " + site(where) + "; the CPU backend needs every lane of one call to pass the same mask");
  }
  w.pending.value[t.context.lane] = value;
  w.arrived |= me;
  if (w.arrived == w.round) {
    w.published = w.pending;
    w.published.members = w.round;
    w.published.existing = w.existing;
    w.arrived = 0;
    ++w.generation;
    return w.published;
  }
  std::string name = std::string(intrinsic) + "()";
  // Why a static set of names: Thread keeps a const char*, and intrinsic names are literals,
  // but "()" has to be appended once per distinct name, not per call.
  static thread_local std::vector<std::unique_ptr<std::string>> names;
  const char* label = nullptr;
  for (const auto& s : names)
    if (*s == name) label = s->c_str();
  if (!label) label = names.emplace_back(std::make_unique<std::string>(name))->c_str();
  wait(&w.generation, label, where);
  return w.published;
}

bool BlockRunner::warp_settled(const Thread& me) const {
  for (std::size_t i = me.warp * 32; i < threads_.size() && i < me.warp * 32 + 32; ++i) {
    const Thread& t = threads_[i];
    if (&t == &me || t.state == State::done || t.parked) continue;
    if (t.state == State::waiting && *t.generation == t.waited_generation) continue;  // still held
    return false;  // ready to run: it may yet reach this call
  }
  return true;
}

unsigned BlockRunner::active_lanes(const std::source_location& where) {
  // A GPU runs a divergent branch with the lanes that took it: here the lanes run one after
  // another, so this lane parks at the call until no lane of its warp could still reach it, and
  // the lanes parked at the same call then form the mask (each gets it, and goes on).
  Thread& me = *running_;
  me.parked = true;
  me.park_site = where;
  for (;;) {
    if (me.resolved) break;
    if (warp_settled(me)) {
      unsigned mask = 0;
      const std::size_t first = me.warp * 32, end = std::min<std::size_t>(first + 32, threads_.size());
      for (std::size_t i = first; i < end; ++i)
        if (threads_[i].parked && same_site(threads_[i].park_site, where)) mask |= 1u << (i % 32);
      for (std::size_t i = first; i < end; ++i)
        if (threads_[i].parked && same_site(threads_[i].park_site, where)) {
          threads_[i].parked = false;
          threads_[i].resolved = true;
          threads_[i].active_mask = mask;
        }
      break;
    }
    yield();
  }
  me.resolved = false;
  return me.active_mask;
}

}  // namespace cugrade_cpu
