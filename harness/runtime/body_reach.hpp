#pragma once
// How far each body of an N-body timed sample may move (runtime/sample_inputs.hpp), so that a
// sample changes the distances of its pairs, and with them every force, and yet no pair is decided
// otherwise by a cutoff: renumbered and mirrored clouds alone have the first sample's forces,
// renumbered and negated, which a cache could answer in O(n) without being caught by the digests.
#include <cstdint>
#include <string>
#include <vector>

namespace cugrade {

/// The bodies of a grader's inputs that a timed sample may move (Grader::movable_bodies): the
/// positions as rows of bodies in the plane, and optionally the velocities that go with row 0.
struct MovableBodies {
  std::string x, y;       ///< the position inputs: body j of row r at r·n + j (rows × n floats each)
  std::string vx, vy;     ///< the velocity inputs (n floats each), or empty: none moved
  double keep_apart = 0;  ///< no pair with a moved body comes closer than this (m): above the cutoff and its band
  double reach = 0;       ///< the most a body moves along each axis (m)
  double speed = 0;       ///< how much a body's velocity may change per metre of its reach (1/s)

  /// Whether a grader declared any.
  bool empty() const { return x.empty() || y.empty(); }
};

/// Per body of every row of `x`, `y` (rows × n floats): how far it may move along each axis. A
/// body whose nearest neighbour in its row is c away gets min(reach, (c − keep_apart)/(2√2)), none
/// when c ≤ keep_apart (and none with a coordinate that is not finite). Two bodies moved within
/// their reach, each coordinate by at most that, end at least keep_apart apart (less the rounding
/// of the moved coordinates to float): each moved by at most √2 times its reach, and (c_j −
/// keep_apart)/2 + (c_k − keep_apart)/2 ≤ d − keep_apart; a pair with no body moved is unchanged.
std::vector<float> body_reach(const float* x, const float* y, std::int64_t rows, std::int64_t n,
                              double keep_apart, double reach);

}  // namespace cugrade
