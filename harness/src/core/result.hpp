#pragma once
// Expected-style results for harness functions that can fail (design.md §5): a failure is a
// value with a message a person can act on; exceptions are reserved for harness bugs.
#include <expected>
#include <string>

namespace cugrade {

/// A failure a user can act on: what went wrong, and where (file:line:column when known).
struct Error {
  std::string message;  ///< one or more lines, already phrased for the user
};

/// The value, or the Error that prevented it.
template <class T>
using Result = std::expected<T, Error>;

/// Shorthand for returning a failure: `return fail("no such file: " + path);`
inline std::unexpected<Error> fail(std::string message) {
  return std::unexpected<Error>(Error{std::move(message)});
}

}  // namespace cugrade
