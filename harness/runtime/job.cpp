#include "job.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

namespace cugrade {
namespace {
using nlohmann::json;

json outputs_to_json(const std::map<std::string, OutputDecl>& outputs) {
  json j = json::object();
  for (const auto& [name, decl] : outputs)
    j[name] = {{"type", static_cast<int>(decl.type)}, {"dims", decl.dims}};
  return j;
}

std::map<std::string, OutputDecl> outputs_from_json(const json& j) {
  std::map<std::string, OutputDecl> outputs;
  for (const auto& [name, value] : j.items()) {
    OutputDecl decl;
    const int type = value.at("type").get<int>();
    if (type < 0 || type > static_cast<int>(DType::i64)) throw std::runtime_error("bad dtype");
    decl.type = static_cast<DType>(type);
    decl.dims = value.at("dims").get<std::vector<std::int64_t>>();
    outputs.emplace(name, std::move(decl));
  }
  return outputs;
}

json movable_bodies_to_json(const MovableBodies& m) {
  return {{"x", m.x}, {"y", m.y}, {"vx", m.vx}, {"vy", m.vy},
          {"keep_apart", m.keep_apart}, {"reach", m.reach}, {"speed", m.speed}};
}

MovableBodies movable_bodies_from_json(const json& j) {
  return {j.at("x").get<std::string>(), j.at("y").get<std::string>(), j.at("vx").get<std::string>(),
          j.at("vy").get<std::string>(), j.at("keep_apart").get<double>(), j.at("reach").get<double>(),
          j.at("speed").get<double>()};
}
}  // namespace

std::string job_to_json(const Job& job) {
  json j;
  j["events_file"] = job.events_file;
  j["checks"] = json::array();
  for (const auto& t : job.checks) {
    json check{{"id", t.id}, {"step", t.step}, {"reference", t.reference},
               {"params", t.params}, {"inputs_file", t.inputs_file},
               {"outputs", outputs_to_json(t.outputs)}, {"output_file", t.output_file},
               {"readback_file", t.readback_file}};
    if (!t.shared_poison.empty()) check["shared_poison"] = t.shared_poison;
    if (!t.repeats.empty()) check["repeats"] = t.repeats;
    j["checks"].push_back(std::move(check));
  }
  j["timings"] = json::array();
  for (const auto& t : job.timings)
    j["timings"].push_back(
        {{"id", t.id}, {"step", t.step}, {"reference_step", t.reference_step},
         {"reference_only", t.reference_only}, {"params", t.params},
         {"inputs_file", t.inputs_file}, {"verify_inputs_file", t.verify_inputs_file},
         {"outputs", outputs_to_json(t.outputs)}, {"student_output_file", t.student_output_file},
         {"reference_output_file", t.reference_output_file}, {"min_samples", t.min_samples},
         {"max_samples", t.max_samples}, {"target_rse", t.target_rse}, {"budget_s", t.budget_s},
         {"warmup_s", t.warmup_s}, {"flush_bytes", t.flush_bytes}, {"atol", t.atol},
         {"rtol", t.rtol}, {"sign_free_inputs", t.sign_free_inputs},
         {"movable_bodies", movable_bodies_to_json(t.movable_bodies)}});
  return j.dump(2);
}

std::optional<Job> job_from_json(const std::string& text, std::string* error) {
  try {
    const json j = json::parse(text);
    Job job;
    job.events_file = j.at("events_file").get<std::string>();
    for (const auto& t : j.at("checks")) {
      CheckTask task;
      task.id = t.at("id").get<std::string>();
      task.step = t.at("step").get<std::string>();
      task.reference = t.at("reference").get<bool>();
      task.params = t.at("params").get<std::map<std::string, std::int64_t>>();
      task.inputs_file = t.at("inputs_file").get<std::string>();
      task.outputs = outputs_from_json(t.at("outputs"));
      task.output_file = t.at("output_file").get<std::string>();
      task.readback_file = t.at("readback_file").get<std::string>();
      task.shared_poison = t.value("shared_poison", std::string());
      task.repeats = t.value("repeats", std::string());
      job.checks.push_back(std::move(task));
    }
    for (const auto& t : j.at("timings")) {
      TimeTask task;
      task.id = t.at("id").get<std::string>();
      task.step = t.at("step").get<std::string>();
      task.reference_step = t.at("reference_step").get<std::string>();
      task.reference_only = t.at("reference_only").get<bool>();
      task.params = t.at("params").get<std::map<std::string, std::int64_t>>();
      task.inputs_file = t.at("inputs_file").get<std::string>();
      task.verify_inputs_file = t.at("verify_inputs_file").get<std::string>();
      task.outputs = outputs_from_json(t.at("outputs"));
      task.student_output_file = t.at("student_output_file").get<std::string>();
      task.reference_output_file = t.at("reference_output_file").get<std::string>();
      task.min_samples = t.at("min_samples").get<std::size_t>();
      task.max_samples = t.at("max_samples").get<std::size_t>();
      task.target_rse = t.at("target_rse").get<double>();
      task.budget_s = t.at("budget_s").get<double>();
      task.warmup_s = t.at("warmup_s").get<double>();
      task.flush_bytes = t.at("flush_bytes").get<std::int64_t>();
      task.atol = t.value("atol", 0.0);
      task.rtol = t.value("rtol", 0.0);
      task.sign_free_inputs = t.value("sign_free_inputs", std::vector<std::string>());
      if (t.contains("movable_bodies")) task.movable_bodies = movable_bodies_from_json(t.at("movable_bodies"));
      job.timings.push_back(std::move(task));
    }
    return job;
  } catch (const std::exception& e) {
    if (error) *error = std::string("malformed job: ") + e.what();
    return std::nullopt;
  }
}

std::string event_to_line(const Event& e) {
  json j{{"kind", e.kind}, {"task", e.task}};
  if (!e.call.empty()) j["call"] = e.call;
  if (!e.error.empty()) j["error"] = e.error;
  if (!e.kernel.empty()) j["kernel"] = e.kernel;
  if (!e.failed_call.empty()) j["failed_call"] = e.failed_call;
  if (e.kind == "done") j["seconds"] = e.seconds;
  if (!e.inputs.empty()) j["inputs"] = e.inputs;
  if (!e.shared_memory.empty()) j["shared_memory"] = e.shared_memory;
  if (!e.memory_refused.empty()) j["memory_refused"] = e.memory_refused;
  if (e.context_survived) j["context_survived"] = true;
  if (e.launches > 0) j["launches"] = e.launches;
  if (!e.host_work.empty()) j["host_work"] = e.host_work;
  if (e.threads > 0) j["threads"] = e.threads;
  if (e.kind == "samples") {
    j["student_ms"] = e.student_ms;
    j["reference_ms"] = e.reference_ms;
    j["student_wall_ms"] = e.student_wall_ms;
    j["reference_wall_ms"] = e.reference_wall_ms;
  }
  return j.dump();
}

std::optional<Event> event_from_line(const std::string& line) {
  const json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) return std::nullopt;
  try {
    Event e;
    e.kind = j["kind"].get<std::string>();
    e.task = j.value("task", "");
    e.call = j.value("call", "");
    e.error = j.value("error", "");
    e.kernel = j.value("kernel", "");
    e.failed_call = j.value("failed_call", "");
    e.seconds = j.value("seconds", 0.0);
    e.inputs = j.value("inputs", std::map<std::string, std::string>{});
    e.shared_memory = j.value("shared_memory", "");
    e.memory_refused = j.value("memory_refused", "");
    e.context_survived = j.value("context_survived", false);
    e.launches = j.value("launches", 0L);
    e.host_work = j.value("host_work", std::string());
    e.threads = j.value("threads", 0LL);
    e.student_ms = j.value("student_ms", std::vector<double>{});
    e.reference_ms = j.value("reference_ms", std::vector<double>{});
    e.student_wall_ms = j.value("student_wall_ms", std::vector<double>{});
    e.reference_wall_ms = j.value("reference_wall_ms", std::vector<double>{});
    return e;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<Event> read_events(const std::string& path) {
  std::vector<Event> events;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (auto e = event_from_line(line)) events.push_back(std::move(*e));
  return events;
}

}  // namespace cugrade
