#pragma once
// The executor's half of shared-memory poisoning (cugrade_cpu/shared_memory.hpp): the poison
// byte of a launch, the file-scope __shared__ variables, and the log of which kernels use which
// shared memory (the harness names the kernel from it when a result depends on the poison).
#include <cstddef>
#include <source_location>
#include <string>

namespace cugrade_cpu {

/// The byte shared memory is filled with at each block start: CUGRADE_SHARED_POISON as two
/// hex digits ("00"), 0xFF when unset or malformed.
unsigned char shared_poison_byte();

/// Fills every registered file-scope __shared__ variable of this worker with `byte`, and logs
/// them for `kernel`.
void poison_file_scope_shared(unsigned char byte, const char* kernel);

/// Whether CUGRADE_CPU_SHARED_LOG names a log file.
bool shared_log_enabled();

/// Appends "kernel<TAB>what" to the file named by CUGRADE_CPU_SHARED_LOG, once per distinct line;
/// nothing when the variable is unset.
void log_shared_use(const char* kernel, const std::string& what);

/// "__shared__ tile in matmul_tiled, mm.cu:12": `declaration` ("__shared__ tile"), the function
/// its declaration is in (from `where`), and where.
std::string describe_declaration(const std::string& declaration, const std::source_location& where);

}  // namespace cugrade_cpu
