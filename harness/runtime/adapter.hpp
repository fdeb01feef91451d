#pragma once
// How the runner calls a step's entry point. Each graders/<id>/adapter.cpp lists its steps with
// CUGRADE_STEP, once; the macro makes both the call of the student's function (global
// namespace, from interface.cuh) and of the reference's (namespace cugrade_reference).
// A reference-only step (spec: `reference_only: true`) is listed with CUGRADE_REFERENCE_STEP: its
// entry is declared in reference/<id>/reference_only.cuh, which the adapter includes inside
// namespace cugrade_reference only, and the runner calls it only as the reference.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cugrade {

/// Where the arrays handed to an entry point live.
enum class Memory { device, host };

/// The buffers and parameters of one call, by the names the grader gave them.
struct Call {
  std::map<std::string, void*> buffers;
  std::map<std::string, std::int64_t> params;

  /// Pointer to the named buffer (device or host memory, as the step declares).
  template <class T> T* ptr(const std::string& name) const {
    auto it = buffers.find(name);
    if (it == buffers.end()) throw std::logic_error("adapter asks for unknown buffer " + name);
    return static_cast<T*>(it->second);
  }
  /// The named integer parameter as an int (the course's entry points take int sizes).
  int i(const std::string& name) const {
    auto it = params.find(name);
    if (it == params.end()) throw std::logic_error("adapter asks for unknown parameter " + name);
    return static_cast<int>(it->second);
  }
};

/// One step: its name in the spec, where its arrays live, and the two calls.
struct StepAdapter {
  const char* step;
  const char* entry;          ///< the student's function name, for messages
  Memory memory;
  void (*student)(const Call&);    ///< nullptr: a reference-only step, or the reference runner
  void (*reference)(const Call&);  ///< nullptr in the student's runner (it holds no reference)
};

/// The steps of the assignment this runner was linked for (defined in graders/<id>/adapter.cpp).
const std::vector<StepAdapter>& adapter_steps();

}  // namespace cugrade

// Which side of a step this runner can call. Why two binaries and not one: a runner that holds
// the instructor's reference would let a submission call it (design.md §4). The student's runner
// library is compiled without CUGRADE_REFERENCE_RUNNER and holds no reference; the reference
// runner (harness/runtime/CMakeLists.txt) is compiled with it and holds no student code.
#ifdef CUGRADE_REFERENCE_RUNNER
#define CUGRADE_STUDENT_SIDE(entry_fn, CALL) nullptr
#define CUGRADE_REFERENCE_SIDE(entry_fn, CALL) \
  [](const ::cugrade::Call& c) { auto f = &::cugrade_reference::entry_fn; CALL; }
#else
#define CUGRADE_STUDENT_SIDE(entry_fn, CALL) \
  [](const ::cugrade::Call& c) { auto f = &::entry_fn; CALL; }
#define CUGRADE_REFERENCE_SIDE(entry_fn, CALL) nullptr
#endif

/// One StepAdapter: `CALL` is an expression using `f` (the entry point) and `c` (the Call), e.g.
/// CUGRADE_STEP("naive", device, matmul_naive, f(c.ptr<const float>("A"), ..., c.i("K")))
#define CUGRADE_STEP(step_name, memory_kind, entry_fn, CALL)                           \
  ::cugrade::StepAdapter {                                                            \
    step_name, #entry_fn, ::cugrade::Memory::memory_kind, CUGRADE_STUDENT_SIDE(entry_fn, CALL), \
        CUGRADE_REFERENCE_SIDE(entry_fn, CALL)                                        \
  }

/// A reference-only StepAdapter: no student call (`student` is nullptr), the reference's call as
/// in CUGRADE_STEP. `entry_fn` is declared in reference/<id>/reference_only.cuh, e.g.
/// CUGRADE_REFERENCE_STEP("naive_f64", device, matmul_naive_f64, f(c.ptr<const double>("A"), ...))
#define CUGRADE_REFERENCE_STEP(step_name, memory_kind, entry_fn, CALL)                 \
  ::cugrade::StepAdapter {                                                            \
    step_name, #entry_fn, ::cugrade::Memory::memory_kind, nullptr,                    \
        CUGRADE_REFERENCE_SIDE(entry_fn, CALL)                                        \
  }
