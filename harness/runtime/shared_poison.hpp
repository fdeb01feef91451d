#pragma once
// Shared memory poisoned before each check call on the GPU, as the CPU backend's executor does at
// each block's start (harness/cpu/executor/shared_poison.hpp): every byte 0xFF (a float NaN, an
// int -1). Why: a GPU's shared memory holds at first whatever an earlier kernel left, often
// zeros, so a kernel that reads a tile element no thread wrote (a partial tile not zero-filled,
// `sdata` summed past what was loaded) passed on the GPU and failed on the CPU backend. Not
// guaranteed by CUDA (a block may be placed where nothing was poisoned), but on the GPUs this
// was measured on (docs/measurements.md) every block's shared memory starts poisoned.

namespace cugrade::runner {

/// Fills the shared memory of every SM with 0xFF bytes and waits for it; errors are cleared and
/// ignored (grading goes on unpoisoned). Skipped under compute-sanitizer (racecheck would follow
/// every store) and never run before a timed call.
void poison_shared_memory();

}  // namespace cugrade::runner
