#pragma once
// Shared memory poisoned before each check call on the GPU, as the CPU backend's executor poisons
// it at each block's start (harness/cpu/executor/shared_poison.hpp): every byte 0xFF by default (a
// float NaN, an int -1). Why: a GPU's shared memory holds at first whatever an earlier kernel
// left, often zeros, so a kernel that reads a tile element no thread wrote (a partial tile not
// zero-filled, `sdata` summed past what was loaded) passed on the GPU and failed on the CPU
// backend. CUDA promises nothing here; measured on an H100 (docs/measurements.md), the blocks of
// a kernel's first wave find the poison, later blocks what earlier blocks of the same kernel left.

#include <cstdint>

namespace cugrade::runner {

/// Fills the shared memory of every SM with `byte` (0xFF by default; 0x00 in the harness's second
/// run, pipeline/schedule_race.hpp) and waits for it; errors are cleared and ignored (grading goes
/// on unpoisoned). Skipped under compute-sanitizer (racecheck would follow every store); never
/// run before a timed call.
void poison_shared_memory(std::uint8_t byte);

}  // namespace cugrade::runner
