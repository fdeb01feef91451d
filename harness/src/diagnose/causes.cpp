#include "diagnose/causes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace cugrade {
namespace {

/// One rule that held: its cause and its sentence.
struct Finding {
  std::string cause;
  std::string message;
};

double times(double a, double b) { return b > 0.0 ? a / b : 0.0; }

/// "4.1", "32", "0.25": a number as a person writes it (three significant digits at most).
std::string num(double value) {
  return std::abs(value) >= 1000.0 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
}

/// "2.75 M", "131 k", "512".
std::string count(double value) {
  if (value >= 1e9) return fmt::format("{:.3g} G", value / 1e9);
  if (value >= 1e6) return fmt::format("{:.3g} M", value / 1e6);
  if (value >= 1e4) return fmt::format("{:.3g} k", value / 1e3);
  return fmt::format("{:.0f}", value);
}

/// Where the counters are: "in mtran" (or nothing when ncu named no kernel).
std::string in_kernel(const CallCounters& c) { return c.main_kernel.empty() ? "" : " in " + c.main_kernel; }

/// Sectors per request of one direction ("loads", "stores"), when they are the student's problem.
std::optional<Finding> uncoalesced(const CallCounters& s, const CallCounters& r, bool stores) {
  const double mine = stores ? s.store_sectors_per_request() : s.load_sectors_per_request();
  const double theirs = stores ? r.store_sectors_per_request() : r.load_sectors_per_request();
  const double sectors = stores ? s.global_store_sectors : s.global_load_sectors;
  const double all = s.global_load_sectors + s.global_store_sectors;
  // A warp's 32 floats in a row take 4 sectors; the reference's figure stands for the data type.
  const double yardstick = theirs > 0.0 ? theirs : 4.0;
  if (mine < 8.0 || mine < 2.0 * yardstick || sectors < 0.1 * all) return std::nullopt;
  const char* what = stores ? "stores" : "loads";
  return Finding{stores ? "uncoalesced_stores" : "uncoalesced_loads",
                 fmt::format("your global {} need {}× the sectors per request of the reference ({} against {}): "
                             "uncoalesced {}{} — the threads of a warp {} addresses far apart; let consecutive "
                             "threads {} consecutive elements",
                             what, num(mine / yardstick), num(mine), num(yardstick), what, in_kernel(s),
                             stores ? "write" : "read", stores ? "write" : "read")};
}

/// Bank conflicts of one direction (loads or stores), with the wavefronts they add.
struct Conflicts {
  double mine = 0.0, theirs = 0.0, excess = 0.0;
  bool loads = true;
};

std::optional<Conflicts> conflicts(const CallCounters& s, const CallCounters& r, bool loads) {
  const double instructions = loads ? s.shared_load_instructions : s.shared_store_instructions;
  const double wavefronts = loads ? s.shared_load_wavefronts : s.shared_store_wavefronts;
  const double conflicts = loads ? s.shared_load_conflicts : s.shared_store_conflicts;
  const double mine = loads ? s.shared_load_ways() : s.shared_store_ways();
  // The reference's figure stands for the data type (a long long takes two wavefronts anyway).
  const double theirs = std::max(1.0, loads ? r.shared_load_ways() : r.shared_store_ways());
  if (instructions <= 0.0 || mine < 2.0 || mine < 2.0 * theirs || conflicts < 0.25 * wavefronts) return std::nullopt;
  return Conflicts{mine, theirs, wavefronts - theirs * instructions, loads};
}

std::optional<Finding> bank_conflicts(const CallCounters& s, const CallCounters& r) {
  const auto loads = conflicts(s, r, true), stores = conflicts(s, r, false);
  if (!loads && !stores) return std::nullopt;
  const Conflicts& worst = !stores || (loads && loads->excess >= stores->excess) ? *loads : *stores;
  const Conflicts* other = loads && stores ? (&worst == &*loads ? &*stores : &*loads) : nullptr;
  return Finding{"bank_conflicts",
                 fmt::format("{:.0f}-way shared-memory bank conflicts on {}{}: a warp's shared {} takes {} "
                             "wavefronts on average, the reference's {}{} — the threads of a warp hit the same bank; "
                             "pad the tile (e.g. [32][33]) so that a column spans all 32 banks",
                             std::round(worst.mine), worst.loads ? "loads" : "stores", in_kernel(s),
                             worst.loads ? "load" : "store", num(worst.mine), num(worst.theirs),
                             other ? fmt::format(" ({}-way on {})", num(other->mine), other->loads ? "loads" : "stores")
                                   : std::string())};
}

std::optional<Finding> occupancy(const CallCounters& s, const CallCounters& r) {
  const double mine = s.lane_occupancy_pct();
  const double theirs = r.lane_occupancy_pct();
  if (theirs <= 0.0 || mine > 0.5 * theirs) return std::nullopt;
  if (s.block_size > 0 && s.block_size < 32)
    return Finding{"occupancy",
                   fmt::format("low occupancy{}: blocks of {} thread{} leave {} of each warp's 32 lanes idle, so the "
                               "SMs keep {}% of their thread slots at work against the reference's {}% — use "
                               "blocks of 128 to 256 threads",
                               in_kernel(s), s.block_size, s.block_size == 1 ? "" : "s", 32 - s.block_size, num(mine),
                               num(theirs))};
  return Finding{"occupancy",
                 fmt::format("low achieved occupancy{}: {}% of the SMs' warp slots busy with {} lanes at work per "
                             "instruction, against the reference's {}% and {} (your launch: blocks of {} threads, a "
                             "grid of {} blocks, {} registers per thread)",
                             in_kernel(s), num(s.warps_active_pct), num(s.threads_per_instruction()),
                             num(r.warps_active_pct), num(r.threads_per_instruction()), s.block_size, s.grid_size,
                             s.registers_per_thread)};
}

std::optional<Finding> no_reuse(const CallCounters& s, const CallCounters& r) {
  const double factor = times(s.global_load_requests, r.global_load_requests);
  if (factor < 3.0) return std::nullopt;
  const bool no_shared = s.shared_instructions() < 0.1 * r.shared_instructions();
  return Finding{"no_reuse",
                 fmt::format("your {} issues {}× the global load requests of the reference{}: each value is read "
                             "from global memory again by every thread that needs it — load a tile into __shared__ "
                             "memory once and let the block reuse it",
                             s.main_kernel.empty() ? "code" : s.main_kernel, num(factor),
                             no_shared ? " and uses almost no shared memory" : "")};
}

/// More threads than the reference's for the same result: each does a fraction of the work of one
/// of the reference's, and every thread's fixed costs are paid as many times more.
std::optional<Finding> work_per_thread(const CallCounters& s, const CallCounters& r) {
  const double factor = times(s.threads(), r.threads());
  const double more_instructions = times(s.instructions, r.instructions);
  if (factor < 2.0 || more_instructions < 1.2) return std::nullopt;
  const double more_shared_loads = times(s.shared_load_instructions, r.shared_load_instructions);
  return Finding{"work_per_thread",
                 fmt::format("your {} launches {}× the threads of the reference ({} blocks of {} against {} of {}) "
                             "for the same result: each thread does about 1/{} of the work of one of the "
                             "reference's, so what every thread pays (its indices, its loads{}, its part in the "
                             "block's sum) is paid {}× as often — {}× the instructions{} — give each thread more "
                             "work: a grid-stride loop that adds many elements per thread, or several outputs per "
                             "thread that share each value loaded",
                             s.main_kernel.empty() ? "code" : s.main_kernel, num(factor), count(s.grid_size),
                             s.block_size, count(r.grid_size), r.block_size, num(factor),
                             more_shared_loads >= 1.5 ? " from shared memory" : "", num(factor),
                             num(more_instructions),
                             more_shared_loads >= 1.5 ? fmt::format(", {}× the shared-memory loads", num(more_shared_loads))
                                                      : std::string())};
}

/// The lanes that work spread over more warps than the reference's: a test such as
/// tid % (2*s) == 0 that the compiler predicates shows as shared loads with a lane at work in
/// every warp, where the reference's tid < s leaves whole warps without one.
std::optional<Finding> divergence(const CallCounters& s, const CallCounters& r) {
  const double factor = times(s.instructions, r.instructions);
  if (factor < 1.3) return std::nullopt;
  const double spread = times(s.shared_loads_at_work, r.shared_loads_at_work);
  if (spread >= 2.0)
    return Finding{"divergence",
                   fmt::format("divergent warps{}: {}× the reference's shared-memory loads in warps with a lane at "
                               "work ({} against {}) and {}× its instructions, for the same result — the threads "
                               "that work are spread over every warp (a test such as tid % (2*s) == 0), so every "
                               "warp runs every step of the loop with most of its lanes idle; let the threads that "
                               "work be consecutive (tid < s) so that whole warps drop out",
                               in_kernel(s), num(spread), count(s.shared_loads_at_work),
                               count(r.shared_loads_at_work), num(factor))};
  const double mine = s.active_threads_per_instruction(), theirs = r.active_threads_per_instruction();
  if (mine > 0.0 && mine < 0.9 * theirs)
    return Finding{"divergence",
                   fmt::format("divergent warps{}: {}× the instructions of the reference for the same result, with "
                               "only {} of a warp's 32 lanes at work per instruction (the reference: {}) — threads "
                               "of one warp take different branches, or costly index arithmetic (%, /) decides who "
                               "works; let whole warps work or idle together (e.g. tid < s)",
                               in_kernel(s), num(factor), num(mine), num(theirs))};
  return std::nullopt;
}

std::optional<Finding> instructions(const CallCounters& s, const CallCounters& r) {
  const double factor = times(s.instructions, r.instructions);
  if (factor < 1.3) return std::nullopt;
  return Finding{"instructions",
                 fmt::format("{}× the instructions of the reference for the same result{} — look for warps "
                             "that run every step of a loop with most of their lanes idle (a test such as "
                             "tid % (2*s) == 0 splits every warp, where tid < s lets whole warps drop out), for "
                             "costly index arithmetic (integer % and /) and for work done again that could be done once",
                             num(factor), in_kernel(s))};
}

}  // namespace

std::string counters_line(const CallCounters& s, const CallCounters& r) {
  const auto pair = [](double mine, double theirs) { return num(mine) + " / " + num(theirs); };
  return fmt::format(
      "counters (yours / the reference's): global load sectors per request {}, store {}; shared wavefronts per "
      "load {}, per store {}; lanes at work per instruction {}; achieved occupancy {} %; DRAM throughput {} % of "
      "peak; instructions {} / {}; threads {} / {}; shared loads in warps with a lane at work {} / {}; kernel time "
      "{} / {} µs over {} / {} kernel{}",
      pair(s.load_sectors_per_request(), r.load_sectors_per_request()),
      pair(s.store_sectors_per_request(), r.store_sectors_per_request()),
      pair(s.shared_load_ways(), r.shared_load_ways()), pair(s.shared_store_ways(), r.shared_store_ways()),
      pair(s.active_threads_per_instruction(), r.active_threads_per_instruction()),
      pair(s.warps_active_pct, r.warps_active_pct), pair(s.dram_throughput_pct, r.dram_throughput_pct),
      count(s.instructions), count(r.instructions), count(s.threads()), count(r.threads()),
      count(s.shared_loads_at_work), count(r.shared_loads_at_work), num(s.duration_ns / 1e3),
      num(r.duration_ns / 1e3), s.kernels, r.kernels, r.kernels == 1 ? "" : "s");
}

PerformanceDiagnosis diagnose_counters(const CallCounters& s, const CallCounters& r) {
  std::vector<Finding> findings;
  for (auto rule : {uncoalesced(s, r, true), uncoalesced(s, r, false), bank_conflicts(s, r),
                    work_per_thread(s, r), occupancy(s, r), no_reuse(s, r), divergence(s, r), instructions(s, r)})
    if (rule) findings.push_back(std::move(*rule));
  PerformanceDiagnosis d;
  d.kernel = s.main_kernel;
  if (findings.empty()) {
    d.cause = "none";
    d.message = fmt::format("no counter stands out{}: its kernels took {} µs in the profiler against the "
                            "reference's {} µs, with the same access pattern, occupancy and instruction count "
                            "within the rules' margins",
                            in_kernel(s), num(s.duration_ns / 1e3), num(r.duration_ns / 1e3));
  } else {
    d.cause = findings.front().cause;
    d.message = findings.front().message;
    for (std::size_t i = 1; i < findings.size(); ++i) d.details.push_back("also: " + findings[i].message);
  }
  d.details.push_back(counters_line(s, r));
  return d;
}

}  // namespace cugrade
