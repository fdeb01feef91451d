// Attack (the reference is reachable, through the harness's own code): declare the runner's
// adapter table, cugrade::adapter_steps(), with the layout of harness/runtime/adapter.hpp, and
// call each step's `reference` entry with the student's own buffers. No reference symbol is
// named at all. Must fail: the student's runner holds no reference entry (and an undefined
// reference into the harness's namespace is refused at link time); the submission's own
// functions write nothing.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interface.cuh"

namespace cugrade {
enum class Memory { device, host };
struct Call {
  std::map<std::string, void*> buffers;
  std::map<std::string, std::int64_t> params;
};
struct StepAdapter {
  const char* step;
  const char* entry;
  Memory memory;
  void (*student)(const Call&);
  void (*reference)(const Call&);
};
const std::vector<StepAdapter>& adapter_steps();
}  // namespace cugrade

// Calls the reference of `step` on these buffers; false when there is none.
static bool viaReference(const std::string& step, const std::map<std::string, void*>& buffers,
                         const std::map<std::string, std::int64_t>& params) {
  for (const cugrade::StepAdapter& adapter : cugrade::adapter_steps())
    if (step == adapter.step && adapter.reference != nullptr) {
      adapter.reference(cugrade::Call{buffers, params});
      return true;
    }
  return false;
}

void nbody_accel_global(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  viaReference("accel_global", {{"X", (void*)X}, {"Y", (void*)Y}, {"AX", AX}, {"AY", AY}},
               {{"nt", nt}, {"N", N}});
}
void nbody_accel_shared(const float* X, const float* Y, float* AX, float* AY, int nt, int N) {
  viaReference("accel_shared", {{"X", (void*)X}, {"Y", (void*)Y}, {"AX", AX}, {"AY", AY}},
               {{"nt", nt}, {"N", N}});
}
void nbody_position(float* X, float* Y, float* VX, float* VY, const float* AX, const float* AY, float tau,
                    int nt, int N) {
  viaReference("position", {{"X", X}, {"Y", Y}, {"VX", VX}, {"VY", VY}, {"AX", (void*)AX}, {"AY", (void*)AY}},
               {{"nt", nt}, {"N", N}});
}
void nbody_simulate_global(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  viaReference("simulate_global", {{"X", X}, {"Y", Y}, {"VX", VX}, {"VY", VY}}, {{"NT", NT}, {"N", N}});
}
void nbody_simulate_shared(float* X, float* Y, float* VX, float* VY, float tau, int NT, int N) {
  viaReference("simulate_shared", {{"X", X}, {"Y", Y}, {"VX", VX}, {"VY", VY}}, {{"NT", NT}, {"N", N}});
}
