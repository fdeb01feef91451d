#include "pipeline/case_materials.hpp"

#include <exception>
#include <stdexcept>
#include <utility>

namespace cugrade {

std::map<std::string, OutputDecl> output_decls(const ArraySet& outputs) {
  std::map<std::string, OutputDecl> decls;
  for (const auto& [name, array] : outputs) decls[name] = OutputDecl{array.type, array.dims};
  return decls;
}

const std::vector<MistakeModel>* mistake_models(const Grader& grader, double work) {
  return !grader.mistakes.empty() && work <= kMostMistakeModelWork ? &grader.mistakes : nullptr;
}

namespace {
void write_inputs_file(const std::filesystem::path& path, const ArraySet& arrays) {
  // The work folder is ours; failing to write it is a harness fault (disk full), not the student's.
  if (!write_array_file(path.string(), arrays))
    throw std::runtime_error("cannot write " + path.string() + " (is the disk full?)");
}

bool same_arrays(const ArraySet& a, const ArraySet& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    if (i->first != j->first || i->second.type != j->second.type || i->second.dims != j->second.dims ||
        i->second.bytes != j->second.bytes)
      return false;
  return true;
}
}  // namespace

CaseMaterials::CaseMaterials(std::filesystem::path shared_files) : shared_files_(std::move(shared_files)) {
  if (shared_files_.empty()) return;
  std::filesystem::remove_all(shared_files_);
  std::filesystem::create_directories(shared_files_);
}

CaseMaterials::~CaseMaterials() {
  std::error_code ignored;
  if (!shared_files_.empty()) std::filesystem::remove_all(shared_files_, ignored);
}

void CaseMaterials::place_inputs(const std::shared_ptr<const CaseMaterial>& material,
                                 const std::filesystem::path& path) {
  if (shared_files_.empty()) return write_inputs_file(path, material->inputs);
  std::promise<std::filesystem::path> promise;
  std::shared_future<std::filesystem::path> file;
  std::filesystem::path shared;  // set where this check writes it
  {
    std::lock_guard lock(mutex_);
    auto [it, fresh] = files_.try_emplace(material.get());
    if (fresh) {
      it->second = promise.get_future().share();
      shared = shared_files_ / ("inputs-" + std::to_string(files_.size()) + ".in");
    }
    file = it->second;
  }
  if (!shared.empty()) {
    try {
      write_inputs_file(shared, material->inputs);
      promise.set_value(shared);
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }
  std::error_code linked;
  std::filesystem::create_hard_link(file.get(), path, linked);  // file.get() rethrows a failed write
  if (linked) write_inputs_file(path, material->inputs);
}

std::shared_ptr<const CaseMaterial> CaseMaterials::for_case(const Grader& grader, const Case& c) {
  return get(grader, c, true);
}

std::shared_ptr<const CaseMaterial> CaseMaterials::for_timing(const Grader& grader, const Case& timed) {
  auto material = get(grader, timed, false);
  const std::string key = params_to_string(timed.params) + " " + std::to_string(timed.seed);
  std::lock_guard lock(mutex_);
  const auto [first, last] = timing_made_.equal_range(key);
  for (auto it = first; it != last; ++it)
    if (it->second == material ||
        (it->second->outputs == material->outputs && same_arrays(it->second->inputs, material->inputs)))
      return it->second;
  timing_made_.emplace(key, material);
  return material;
}

std::size_t CaseMaterials::made() const {
  std::lock_guard lock(mutex_);
  return made_.size();
}

std::shared_ptr<const CaseMaterial> CaseMaterials::get(const Grader& grader, const Case& c, bool with_gold) {
  // The id alone is not enough: a hidden case's id hides its parameters, and its seed is keyed.
  const std::string key = std::string(with_gold ? "case " : "timing ") + c.step + " " + params_to_string(c.params) +
                          " " + std::to_string(c.seed);
  std::promise<std::shared_ptr<const CaseMaterial>> promise;
  {
    std::lock_guard lock(mutex_);
    if (auto found = made_.find(key); found != made_.end()) {
      Made made = found->second;
      return made.get();  // waits while another thread makes it (outside the lock)
    }
    made_.emplace(key, promise.get_future().share());
  }
  try {
    Rng rng(c.seed);
    CaseData data = grader.generate(c, rng);
    auto material = std::make_shared<CaseMaterial>();
    material->outputs = output_decls(data.outputs);
    if (with_gold) {
      material->gold = grader.gold(c, data.inputs);
      const Work work = grader.work(c.step, c.params);
      material->work = work.flops + work.items;
      material->mistakes = mistake_models(grader, material->work);
      for (const auto& [name, array] : data.inputs) material->input_digests[name] = array_digest(array);
    }
    material->inputs = std::move(data.inputs);
    promise.set_value(material);
    return material;
  } catch (...) {
    promise.set_exception(std::current_exception());
    throw;
  }
}

}  // namespace cugrade
