#pragma once
// What compute-sanitizer leaves in its runner's environment, taken out once the CUDA context
// exists, so that a submission's entry points see the same variables in a sanitized run as in any
// other (issue 51: a submission that races only when it is not watched). Measured on an H200
// (CUDA 13.0, 2026-12-02): the sanitizer's launcher sets NV_SANITIZER_INJECTION_*,
// NVIDIA_PROCESS_INJECTION_*, NVIDIA-PROCESS-TRACKING-*, NVTX_INJECTION64_PATH, PWD and puts its
// own folder in LD_LIBRARY_PATH; taken out after cudaFree(0), racecheck still reports every
// later kernel's races; taken out before the context exists (a constructor), the sanitizer never
// attaches ("No attachable process found") and the runner hangs. So code that runs before main
// (a constructor), and /proc/self/environ (the block the process started with), still show them:
// docs/security.md, "Sanitized and other runs".

namespace cugrade::runner {

/// Under compute-sanitizer (CUGRADE_TASK_MARKERS=1 or the sanitizer's own variables; nothing
/// otherwise): removes its variables (and the harness's CUGRADE_TASK_MARKERS, read first) from
/// this process's environment, restores LD_LIBRARY_PATH without the sanitizer's folder, and sets
/// CUDA_MODULE_LOADING as every other runner has it. Call once the CUDA context exists.
void hide_sanitizer_traces();

/// Whether `name` is a variable compute-sanitizer's launcher sets in its target's environment.
bool sanitizer_variable(const char* name);

}  // namespace cugrade::runner
