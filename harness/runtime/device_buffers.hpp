#pragma once
// The arrays an entry point works on, in device or host memory as its step declares: inputs
// filled from an array file, outputs poisoned before every call.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "adapter.hpp"
#include "array_file.hpp"
#include "host_work.hpp"
#include "job.hpp"
#include "task_context.hpp"

namespace cugrade::runner {

/// One task's buffers. An output whose name is also an input is in-out: it starts as that input
/// (restored before every call) instead of being poisoned.
class BufferSet {
 public:
  /// What an input's buffer starts as.
  enum class InputStart {
    loaded,  ///< a copy of its array
    unset,   ///< nothing: the caller writes it before every call (timing samples)
  };
  /// Allocates a buffer per input (filled from `inputs`, as `start` says) and per output
  /// (poisoned); CUDA failures and outputs that contradict their input are reported through
  /// `context`. `inputs` need not outlive the set.
  BufferSet(TaskContext& context, Memory memory, const ArraySet& inputs,
            const std::map<std::string, OutputDecl>& outputs, InputStart start = InputStart::loaded);
  /// Frees every buffer (errors ignored: after a sticky error there is nothing to save).
  ~BufferSet();
  BufferSet(const BufferSet&) = delete;
  BufferSet& operator=(const BufferSet&) = delete;

  /// Where the buffers live.
  Memory memory() const { return memory_; }
  /// Replaces the inputs' contents; `inputs` must name the same arrays with the same types and
  /// shapes (fatal otherwise).
  void load_inputs(const ArraySet& inputs);
  /// Readies the buffers for the next call: outputs poisoned, in-out buffers restored to the
  /// inputs last loaded.
  void reset_outputs();
  /// The declared outputs, as the last call left them, written to an array file at `path`
  /// without a host copy of them whole (device memory goes through a small pinned buffer, one
  /// for the process); an I/O error is fatal, named as `what` (TaskContext::write_arrays).
  void write_outputs(const std::string& path, const std::string& what);
  /// The inputs, as the last call left them (a const input that changed is the student's bug).
  ArraySet read_inputs();
  /// The Call handing these buffers and `params` to an entry point.
  Call make_call(const std::map<std::string, std::int64_t>& params) const;
  /// Each buffer's name, address and size in bytes, by name.
  struct Placement {
    std::string name;
    const void* pointer;
    std::size_t bytes;
  };
  std::vector<Placement> placements() const;
  /// The declared outputs, as host_work.hpp watches them.
  std::vector<WatchedOutput> watched_outputs() const;
  /// The call's inputs only (not in-out arrays), for the same watch: what reading them back is not.
  std::vector<WatchedOutput> watched_inputs() const;

 private:
  struct Slot {
    Array layout;            ///< type and dims; for host memory also the storage itself
    void* pointer = nullptr; ///< what the entry point gets
    std::size_t bytes = 0;
    bool input = false, output = false;
  };
  void allocate(const std::string& name, Slot& slot);
  void upload(const std::string& name, Slot& slot, const Array& source);
  /// Keeps a copy of each in-out array of `inputs` (the only ones restored before a call).
  void keep_in_out(const ArraySet& inputs);
  /// Fills an output with the runner's fill (fills.hpp), in host or device memory.
  void fill_host(Slot& slot);
  void fill_device(const std::string& name, Slot& slot);
  Array download(const std::string& name, const Slot& slot);
  /// Hands `slot`'s bytes to `sink` in order, through the pinned staging buffer where they are in
  /// device memory.
  bool stream(const std::string& name, const Slot& slot, const ByteSink& sink);

  TaskContext& context_;
  Memory memory_;
  ArraySet in_out_;  ///< the in-out arrays as last loaded, to restore their buffers from
  std::map<std::string, Slot> slots_;
};

}  // namespace cugrade::runner
