#pragma once
// How the pre-pass reads a launch `kernel<<<grid, block, smem, stream>>>(args)`: which tokens
// are the kernel expression, the configuration and the arguments. The rewriter (prepass.cpp)
// builds its call from this, and the clang oracle test compares it with clang's
// CUDAKernelCallExpr nodes (harness/tests/cpu/prepass_oracle_test.cpp).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "prepass_tokens.hpp"

namespace cugrade::cpu {

/// A range [begin, end) of source bytes, from a token's first character to another's end.
struct SourceSpan {
  std::size_t begin = 0, end = 0;
  bool operator==(const SourceSpan&) const = default;
};

/// One launch, as code-token indices and source spans.
struct LaunchSite {
  std::size_t kernel_first = 0;  ///< first token of the kernel expression
  std::size_t open = 0;          ///< the first `<` of `<<<`
  std::size_t close = 0;         ///< the first `>` of `>>>`
  std::size_t paren = 0;         ///< the `(` after `>>>`
  std::size_t paren_close = 0;   ///< its `)`
  SourceSpan kernel;             ///< `k`, `ns::k<T, 4>`, `(expr)`
  SourceSpan config;             ///< `<<<` ... `>>>`, both included
  SourceSpan call;               ///< `(` ... `)`, both included
  std::vector<SourceSpan> config_args;  ///< split at top-level commas
  std::vector<SourceSpan> call_args;    ///< split at top-level commas (empty: no arguments)
  int line = 0;                  ///< line of `<<<`
  int directive = 0;             ///< 0, or the #define the launch is written in
};

/// Reads the launch whose `<<<` is code token `k` of `tokens`. Fails with "file:line: ..." when
/// no kernel precedes it, `>>>` or the argument list is missing, or brackets do not close.
Result<LaunchSite> parse_launch(const TokenView& tokens, std::size_t k, const std::string& file);

/// Every launch of `source`, in order (those inside #define bodies included), as the rewriter
/// sees them; fails like parse_launch on the first it cannot read.
Result<std::vector<LaunchSite>> find_launches(std::string_view source, const std::string& file);

}  // namespace cugrade::cpu
