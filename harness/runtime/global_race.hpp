#pragma once
// What the CPU backend's executor and the harness share about a race on global memory: several
// threads of one launch updating one address with a non-atomic read-modify-write
// (harness/cpu/include/cugrade_cpu/read_modify_write.hpp). The executor ends the kernel with a
// CUDA error whose text starts with this; the harness (run/run_job.cpp) makes the case a wrong
// answer, as a GPU's lost updates would, with that text as its message.

namespace cugrade {

/// The first words of the executor's message.
inline constexpr const char* global_race_message_start = "a race on global memory";

}  // namespace cugrade
