#pragma once
// Whether a check call's result is the GPU's work: the evidence the runner gives the harness
// that it is not (harness/src/run: TaskStatus::host_work; the step's spec decides whether it
// matters, `host_work: allowed`). Three signs, each cheap to see from inside the runner:
//  - the call launched no kernel;
//  - a device output ends the call holding exactly what host code copied to the device during
//    it (into the output, or into memory copied on into it), unchanged by any kernel, and the
//    call read back nothing a kernel wrote (a sum read back and finished on the host is GPU work);
//  - a host output (an entry that takes host pointers, vecadd) changed otherwise than by a
//    device-to-host copy, or by one of device memory holding exactly what host code sent there.
// Copies from the host are no sign by themselves (zeros sent before a kernel adds into them, an
// output sent to the device out of symmetry): only a result still equal to them is. A copy is
// noted by the wraps of both backends (copy_wraps.cpp on a GPU, the CPU executor's cudaMemcpy).
// What this cannot see (a kernel that only copies a result the host computed) is written down in
// docs/security.md, "Work that is not the GPU's".
#include <cstddef>
#include <string>
#include <vector>

#include "adapter.hpp"

namespace cugrade::runner {

/// One output buffer of a check call.
struct WatchedOutput {
  std::string name;
  void* pointer = nullptr;
  std::size_t bytes = 0;
  std::size_t element_bytes = 1;  ///< to name the first element host code changed
};

/// Reads `bytes` of device memory into host memory for the watch (false on failure); the
/// default copies directly, as the CPU backend's device memory allows.
using DeviceReader = bool (*)(void* host, const void* device, std::size_t bytes);

/// The reader of device memory (a GPU's registers its own, copy_wraps.cpp); nullptr: the default.
void set_device_reader(DeviceReader read);

/// Starts watching a check call's outputs, which live in `memory`: from now until
/// host_work_evidence, copies into them (and into device memory filled from the host) are noted.
/// `inputs`: the call's inputs, whose reading back is no kernel's work.
void watch_outputs(Memory memory, const std::vector<WatchedOutput>& outputs,
                   const std::vector<WatchedOutput>& inputs = {});

/// Notes a copy of `bytes` from `src` to `dst` that has completed; does nothing while no call is
/// watched. Each end is device memory or host memory as its flag says.
void note_copy(void* dst, const void* src, std::size_t bytes, bool dst_on_device, bool src_on_device);

/// Whether a check call is being watched (a copy wrap asks before it looks at pointers).
bool watching_copies();

/// Ends the watch: the first sign that the call's result is not a kernel's work, in words for the
/// student (it starts with "computed without a kernel" where none ran), given the kernels the call
/// launched; "" when there is none.
std::string host_work_evidence(long launches);

}  // namespace cugrade::runner

/// What the CPU executor's copies call (weak there: a program without the runner links too).
extern "C" void cugrade_runner_note_copy(void* dst, const void* src, std::size_t bytes, int dst_on_device,
                                         int src_on_device);
