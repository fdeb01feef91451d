#pragma once
// From the counters of one call of the student's step and one of the reference's to the cause of
// the difference, in a sentence a student can act on. Each rule compares the two calls (the
// reference is the yardstick: a long long reduction's shared accesses take two wavefronts in
// any kernel), and the first rule that holds, in the order below, names the cause:
//   uncoalesced_stores / uncoalesced_loads  sectors per request ≥ 2× the reference's (and ≥ 8)
//   bank_conflicts    wavefronts per shared instruction ≥ 2× the reference's (and ≥ 2)
//   work_per_thread   ≥ 2× the reference's threads and ≥ 1.2× its instructions (no grid-stride
//                     loop, one output per thread where the reference's computes several)
//                     (first: blocks that end as soon as they start also leave the SMs idle)
//   occupancy         lanes at work on an SM ≤ half the reference's (blocks under 32 threads, ...)
//   no_reuse          ≥ 3× the reference's global load requests (no tile kept in shared memory)
//   divergence        ≥ 1.3× the instructions, with ≥ 2× the reference's shared loads in warps
//                     with a lane at work (a predicated tid % (2*s) test: the working lanes spread
//                     over every warp) or fewer lanes at work per instruction
//   instructions      ≥ 1.3× the instructions, none of the above
//   none              no counter stands out (the numbers are still listed)
#include "diagnose/counters.hpp"
#include "report/grade_report.hpp"

namespace cugrade {

/// The diagnosis of `student` against `reference` (one call each, same size and inputs).
PerformanceDiagnosis diagnose_counters(const CallCounters& student, const CallCounters& reference);

/// "counters (yours / the reference's): ..." — the numbers the rules read, one line.
std::string counters_line(const CallCounters& student, const CallCounters& reference);

}  // namespace cugrade
