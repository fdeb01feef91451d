#pragma once
// The pre-pass's rewrites of shared-memory declarations (see cugrade_cpu/shared_memory.hpp for
// why static ones are poisoned per block and extern ones point at the block's buffer).
#include <cstddef>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "prepass_tokens.hpp"

namespace cugrade::cpu {

/// Whether the declaration whose `extern` is code token k is `extern __shared__ ...` or
/// `extern T __shared__ ...` (NVIDIA's samples write both).
bool is_extern_shared(const TokenView& tokens, std::size_t k);

/// Rewrites `extern __shared__ [__align__(n)] T name[];` (or `extern T __shared__ name[];`)
/// whose `extern` is code token k: a
/// pointer to the block's dynamic shared memory in a function, a macro at file scope. Appends
/// the edit; returns the index of the declaration's `;`. Fails on any other form.
Result<std::size_t> rewrite_extern_shared(const TokenView& tokens, std::size_t k, bool file_scope,
                                          const std::string& file, std::vector<Edit>& edits);

/// After the static `__shared__` declaration whose `__shared__` is code token k, adds (on the
/// same line) the call that poisons each declared variable once per block; at file scope, a
/// registration instead. Returns the index of the declaration's `;` (k when it has none: the
/// declaration is left as it is).
std::size_t annotate_static_shared(const TokenView& tokens, std::size_t k, bool file_scope,
                                   const std::string& file, std::vector<Edit>& edits);

/// `"name"` with quotes and backslashes escaped, for a #line directive or a C string literal.
std::string quote_path(const std::string& name);

}  // namespace cugrade::cpu
