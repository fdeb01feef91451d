#include "device_buffers.hpp"

#include <algorithm>
#include <cstring>

#include "fills.hpp"
#include "word_fill.hpp"

namespace cugrade::runner {
namespace {

// Why poison: an output the entry point never writes must not pass as correct because the
// allocation happened to hold zeros (or last call's answer). 0xFF bytes are NaN as float and
// double and -1 as a signed integer, which no tolerance accepts. An f32 output's third byte is
// 0x8F (fills.hpp): a signalling NaN, which arithmetic quiets, so a kernel that adds into its
// output (C += ...) is told apart from one that never wrote it.
constexpr int kPoison = output_fill_byte;

std::string shape_text(const Array& array) {
  std::string text = std::string(dtype_name(array.type)) + "[";
  for (std::size_t i = 0; i < array.dims.size(); ++i)
    text += (i ? "x" : "") + std::to_string(array.dims[i]);
  return text + "]";
}

bool same_layout(const Array& a, const Array& b) { return a.type == b.type && a.dims == b.dims; }

/// The pinned buffer outputs are streamed through (write_outputs): a few milliseconds of writing
/// per piece, a fraction of one to copy it.
constexpr std::size_t staging_bytes = std::size_t{8} << 20;

/// That buffer, made on first use and kept for the process: pinning it takes milliseconds, which
/// once per case would cost more than it saves.
void* staging_buffer(TaskContext& context) {
  static void* staging = nullptr;
  if (!staging) context.check(cudaMallocHost(&staging, staging_bytes), "cudaMallocHost (staging the outputs)");
  return staging;
}

}  // namespace

BufferSet::BufferSet(TaskContext& context, Memory memory, const ArraySet& inputs,
                     const std::map<std::string, OutputDecl>& outputs, InputStart start)
    : context_(context), memory_(memory) {
  for (const auto& [name, array] : inputs) {
    Slot& slot = slots_[name];
    slot.layout.type = array.type;
    slot.layout.dims = array.dims;
    slot.input = true;
  }
  for (const auto& [name, decl] : outputs) {
    Slot& slot = slots_[name];
    if (slot.input && (slot.layout.type != decl.type || slot.layout.dims != decl.dims))
      context_.fatal("output " + name + " is also an input, but as " + shape_text(slot.layout) +
                     ", not as declared");
    slot.layout.type = decl.type;
    slot.layout.dims = decl.dims;
    slot.output = true;
  }
  for (auto& [name, slot] : slots_) {
    for (auto d : slot.layout.dims)
      if (d < 0) context_.fatal("array " + name + " has a negative dimension");
    slot.bytes = static_cast<std::size_t>(slot.layout.size()) * dtype_size(slot.layout.type);
    allocate(name, slot);
  }
  keep_in_out(inputs);
  if (start == InputStart::loaded)
    for (auto& [name, slot] : slots_)
      if (slot.input) upload(name, slot, inputs.at(name));
  reset_outputs();
}

void BufferSet::keep_in_out(const ArraySet& inputs) {
  in_out_.clear();
  for (const auto& [name, slot] : slots_)
    if (slot.input && slot.output) in_out_.emplace(name, inputs.at(name));
}

std::vector<BufferSet::Placement> BufferSet::placements() const {
  std::vector<Placement> out;
  for (const auto& [name, slot] : slots_) out.push_back({name, slot.pointer, slot.bytes});
  return out;
}

std::vector<WatchedOutput> BufferSet::watched_outputs() const {
  std::vector<WatchedOutput> out;
  for (const auto& [name, slot] : slots_)
    if (slot.output) out.push_back({name, slot.pointer, slot.bytes, dtype_size(slot.layout.type)});
  return out;
}

std::vector<WatchedOutput> BufferSet::watched_inputs() const {
  std::vector<WatchedOutput> in;
  for (const auto& [name, slot] : slots_)
    if (slot.input && !slot.output) in.push_back({name, slot.pointer, slot.bytes, dtype_size(slot.layout.type)});
  return in;
}

BufferSet::~BufferSet() {
  if (memory_ != Memory::device) return;
  for (auto& [name, slot] : slots_)
    if (slot.pointer) cudaFree(slot.pointer);
}

void BufferSet::allocate(const std::string& name, Slot& slot) {
  // At least one byte, so even an empty array gets a real, distinct pointer.
  const std::size_t bytes = std::max<std::size_t>(slot.bytes, 1);
  if (memory_ == Memory::host) {
    slot.layout.bytes.assign(bytes, 0);
    slot.pointer = slot.layout.bytes.data();
    return;
  }
  context_.check(cudaMalloc(&slot.pointer, bytes),
                 "cudaMalloc (" + name + ", " + std::to_string(bytes) + " bytes)");
}

void BufferSet::upload(const std::string& name, Slot& slot, const Array& source) {
  if (!same_layout(slot.layout, source) || source.bytes.size() != slot.bytes)
    context_.fatal("input " + name + " is " + shape_text(source) + ", expected " +
                   shape_text(slot.layout));
  if (slot.bytes == 0) return;
  if (memory_ == Memory::host) std::memcpy(slot.pointer, source.bytes.data(), slot.bytes);
  else
    context_.check(cudaMemcpy(slot.pointer, source.bytes.data(), slot.bytes,
                              cudaMemcpyHostToDevice),
                   "cudaMemcpy (input " + name + " to the device)");
}

Array BufferSet::download(const std::string& name, const Slot& slot) {
  Array array = unset_array(slot.layout.type, slot.layout.dims);
  if (slot.bytes == 0) return array;
  if (memory_ == Memory::host) std::memcpy(array.bytes.data(), slot.pointer, slot.bytes);
  else
    context_.check(cudaMemcpy(array.bytes.data(), slot.pointer, slot.bytes,
                              cudaMemcpyDeviceToHost),
                   "cudaMemcpy (" + name + " back to the host)");
  return array;
}

void BufferSet::load_inputs(const ArraySet& inputs) {
  for (const auto& [name, array] : inputs) {
    auto it = slots_.find(name);
    if (it == slots_.end() || !it->second.input)
      context_.fatal("input set has an array " + name + " the first set did not have");
  }
  for (auto& [name, slot] : slots_) {
    if (!slot.input) continue;
    auto it = inputs.find(name);
    if (it == inputs.end()) context_.fatal("input set lacks the array " + name);
    upload(name, slot, it->second);
  }
  keep_in_out(inputs);
}

void BufferSet::reset_outputs() {
  for (auto& [name, slot] : slots_) {
    if (!slot.output || slot.bytes == 0) continue;
    if (slot.input) upload(name, slot, in_out_.at(name));
    else if (memory_ == Memory::host) fill_host(slot);
    else fill_device(name, slot);
  }
}

void BufferSet::fill_host(Slot& slot) {
  if (slot.layout.type == DType::f32)  // every element the signalling NaN of fills.hpp
    std::fill_n(static_cast<std::uint32_t*>(slot.pointer), slot.bytes / 4, output_fill_f32_word);
  else
    std::memset(slot.pointer, kPoison, slot.bytes);
}

void BufferSet::fill_device(const std::string& name, Slot& slot) {
  if (slot.layout.type == DType::f32)  // every element the signalling NaN of fills.hpp
    context_.check(fill_words(slot.pointer, slot.bytes / 4, output_fill_f32_word),
                   "filling output " + name + " (before the call)");
  else
    context_.check(cudaMemset(slot.pointer, kPoison, slot.bytes), "cudaMemset (poisoning output " + name + ")");
}

void BufferSet::write_outputs(const std::string& path, const std::string& what) {
  std::vector<ArraySource> sources;
  for (const auto& [name, slot] : slots_)
    if (slot.output)
      sources.push_back({name, slot.layout.type, slot.layout.dims,
                         [this, &name = name, &slot = slot](const ByteSink& sink) { return stream(name, slot, sink); }});
  if (!write_array_file(path, sources)) context_.fatal("cannot write the " + what + " to " + path);
}

bool BufferSet::stream(const std::string& name, const Slot& slot, const ByteSink& sink) {
  if (memory_ == Memory::host || slot.bytes == 0) return sink(slot.pointer, slot.bytes);
  void* staging = staging_buffer(context_);
  for (std::size_t done = 0; done < slot.bytes;) {
    const std::size_t piece = std::min(staging_bytes, slot.bytes - done);
    context_.check(cudaMemcpy(staging, static_cast<const char*>(slot.pointer) + done, piece, cudaMemcpyDeviceToHost),
                   "cudaMemcpy (" + name + " back to the host)");
    if (!sink(staging, piece)) return false;
    done += piece;
  }
  return true;
}

ArraySet BufferSet::read_inputs() {
  ArraySet inputs;
  for (const auto& [name, slot] : slots_)
    if (slot.input) inputs.emplace(name, download(name, slot));
  return inputs;
}

Call BufferSet::make_call(const std::map<std::string, std::int64_t>& params) const {
  Call call;
  for (const auto& [name, slot] : slots_) call.buffers.emplace(name, slot.pointer);
  call.params = params;
  return call;
}

}  // namespace cugrade::runner
