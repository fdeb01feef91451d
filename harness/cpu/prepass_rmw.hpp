#pragma once
// The pre-pass's rewrite of read-modify-writes in device code (cugrade_cpu/read_modify_write.hpp
// says why): `out[i] += v` becomes `::cugrade_cpu::rmw(out[i]) += v`, `hist[b]++` becomes
// `::cugrade_cpu::rmw(hist[b])++`, `++*count` becomes `++::cugrade_cpu::rmw(*count)`.
#include <cstddef>
#include <utility>
#include <vector>

#include "prepass_tokens.hpp"

namespace cugrade::cpu {

/// The `{` and `}` (code token indices) of a function body.
using TokenRange = std::pair<std::size_t, std::size_t>;

/// Wraps the updated lvalue of each `+= -= *= /= %= ^= <<= >>=`, `++` and `--` inside `bodies`
/// (the device-only functions' bodies) in ::cugrade_cpu::rmw(...); appends the edits (two
/// insertions each). Only an lvalue that may lie in global memory is wrapped: one reached through
/// `[]`, `*` or `->`, and not an element of a `__shared__` array or of an array declared in a
/// device body (a plain variable, `acc.x`, a loop counter, `sdata[tid]` stay as written, and cost
/// nothing). Whatever the pre-pass cannot read with certainty (a cast before the lvalue, an
/// operator it does not expect next to it) is left as written: a missed update, never a changed
/// program.
void wrap_global_updates(const TokenView& tokens, const std::vector<TokenRange>& bodies, std::vector<Edit>& edits);

}  // namespace cugrade::cpu
