#pragma once
// The CPU backend's <cooperative_groups/reduce.h>: cg::reduce over a thread_block_tile with the
// functors of <cooperative_groups/functional.h> (plus, less, greater, bit_and, bit_or, bit_xor).
#include "../cooperative_groups.h"

namespace cooperative_groups {

/// a + b.
template <class T> struct plus {
  T operator()(T a, T b) const { return a + b; }
};
/// The smaller of a and b.
template <class T> struct less {
  T operator()(T a, T b) const { return b < a ? b : a; }
};
/// The larger of a and b.
template <class T> struct greater {
  T operator()(T a, T b) const { return a < b ? b : a; }
};
/// a & b.
template <class T> struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
/// a | b.
template <class T> struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
/// a ^ b.
template <class T> struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

/// `op` over `value` of every thread of the tile; every thread gets the result. Why a butterfly
/// (shfl_xor): each thread combines the same values, so all end with the same bits, as on a GPU.
template <unsigned Size, class Parent, class T, class Op>
T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op,
         const std::source_location& where = std::source_location::current()) {
  for (unsigned mask = Size / 2; mask > 0; mask /= 2) value = op(value, tile.shfl_xor(value, mask, where));
  return value;
}

/// Not supported: cg::reduce over a whole block or a dynamic group (a compile error at the call).
template <class Group, class T, class Op>
  requires(!details::is_tile<Group>)
__attribute__((error("cooperative_groups::reduce() over a thread block or a thread_group is not supported by "
                     "the CPU backend (it reduces over a thread_block_tile; docs/cpu-backend.md)")))
T reduce(const Group&, T value, Op);

}  // namespace cooperative_groups
