#include "sanitize/sanitizer_output.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>

#include "build/staging.hpp"
#include "task_markers.hpp"

namespace cugrade {
namespace {

constexpr std::string_view kPrefix = "=========";

/// One of a task's arrays, from its buffer marker.
struct Buffer {
  std::string name;
  unsigned long long address = 0;
  unsigned long long bytes = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// The first number after `after` in `text` (hex with 0x, else decimal; thousands commas skipped).
std::optional<unsigned long long> number_after(std::string_view text, std::string_view after) {
  const auto at = text.find(after);
  if (at == std::string_view::npos) return std::nullopt;
  std::string digits;
  std::size_t i = at + after.size();
  while (i < text.size() && text[i] == ' ') ++i;
  const bool hex = text.substr(i, 2) == "0x";
  if (hex) i += 2;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ',' && !hex) continue;
    if (!(hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)))) break;
    digits += c;
  }
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  return std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
}

/// "matmul_naive(const float *, int)+0xc0 in src/submission_0.cu:27" → kernel and "matmul.cu:27".
struct Site {
  std::string kernel;
  std::string where;
};
Site parse_site(std::string_view text, const std::vector<std::string>& names) {
  Site site;
  std::string_view function = text;
  if (const auto in = text.rfind(" in "); in != std::string_view::npos) {
    const std::string_view file = trim(text.substr(in + 4));  // "src/submission_0.cu:27"
    const auto colon = file.rfind(':');
    site.where = colon == std::string_view::npos
                     ? shown_source_name(file, names)
                     : shown_source_name(file.substr(0, colon), names) + std::string(file.substr(colon));
    function = text.substr(0, in);
  }
  if (const auto offset = function.rfind("+0x"); offset != std::string_view::npos) function = function.substr(0, offset);
  // Drop the parameter list: the '(' that matches the last ')'.
  if (!function.empty() && function.back() == ')') {
    int depth = 0;
    for (std::size_t i = function.size(); i-- > 0;) {
      if (function[i] == ')') ++depth;
      if (function[i] == '(' && --depth == 0) {
        function = function.substr(0, i);
        break;
      }
    }
  }
  site.kernel = std::string(trim(function));
  if (const auto space = site.kernel.rfind(' '); space != std::string::npos && site.kernel.find('<') == std::string::npos)
    site.kernel = site.kernel.substr(space + 1);  // "void kernel" → "kernel"
  return site;
}

/// A report being read: its header line and its indented lines.
struct Block {
  std::string header;
  std::vector<std::string> lines;
  std::string task;
  std::vector<Buffer> buffers;
};

std::string plural(unsigned long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// " (matmul.cu:27, thread (1,0,0) of block (3,0,0))" from a block's "at" and "by thread" lines.
std::string place(const Site& site, const std::string& thread) {
  std::string inside;
  if (!site.where.empty()) inside = site.where;
  if (!thread.empty()) inside += (inside.empty() ? "" : ", ") + thread;
  return " in kernel " + site.kernel + (inside.empty() ? "" : " (" + inside + ")");
}

/// "thread (232,0,0) of block (3,0,0)" from "by thread (232,0,0) in block (3,0,0)".
std::string thread_of(std::string_view line) {
  line = trim(line);
  if (!starts(line, "by thread ")) return {};
  std::string text(line.substr(3));
  if (const auto in = text.find(" in block "); in != std::string::npos) text.replace(in, 10, " of block ");
  return text;
}

/// Where `address` lies among the task's buffers: "byte offset 4000 of C (4000 bytes), just past
/// its end"; `nearest` and `size` (memcheck's nearest allocation) when no buffer holds it.
std::string describe_address(unsigned long long address, const std::vector<Buffer>& buffers,
                             std::optional<unsigned long long> nearest, std::optional<unsigned long long> size) {
  const Buffer* owner = nullptr;
  for (const auto& b : buffers)
    if (nearest ? b.address == *nearest : (address >= b.address && address < b.address + b.bytes)) owner = &b;
  // Below the nearest allocation but above another array's end: an index too large for that
  // array is the likelier mistake than a negative one for the next.
  if (owner && address < owner->address) {
    const Buffer* below = nullptr;
    for (const auto& b : buffers)
      if (b.address + b.bytes <= address && (!below || b.address > below->address)) below = &b;
    if (below) owner = below;
  }
  const unsigned long long base = owner ? owner->address : nearest.value_or(0);
  const unsigned long long bytes = owner ? owner->bytes : size.value_or(0);
  if (!owner && !nearest) return "";
  const std::string what = owner ? owner->name + " (" + plural(bytes, "byte", "bytes") + ")"
                                 : "a " + std::to_string(bytes) + "-byte allocation of your own";
  if (address < base) return plural(base - address, "byte", "bytes") + " before the start of " + what;
  const unsigned long long offset = address - base;
  if (offset < bytes) return "byte offset " + std::to_string(offset) + " of " + what;
  const unsigned long long past = offset - bytes;
  return "byte offset " + std::to_string(offset) + " of " + what + ", " +
         (past == 0 ? std::string("just past its end") : plural(past, "byte", "bytes") + " past its end");
}

/// A memcheck or initcheck report of one access ("Invalid __global__ write of size 4 bytes").
SanitizerFinding access_finding(const Block& block, const std::string& tool,
                                const std::vector<std::string>& names) {
  SanitizerFinding f;
  f.task = block.task;
  Site site;
  std::string thread;
  std::optional<unsigned long long> address, nearest, size;
  bool misaligned = false;
  for (const auto& raw : block.lines) {
    const std::string_view line = trim(raw);
    if (starts(line, "at ")) site = parse_site(line.substr(3), names);
    else if (starts(line, "by thread ")) thread = thread_of(line);
    else if (starts(line, "Access to ") || starts(line, "Access at ") || starts(line, "Address ")) {
      address = number_after(line, starts(line, "Address ") ? "Address" : (starts(line, "Access to ") ? "Access to" : "Access at"));
      misaligned = line.find("misaligned") != std::string_view::npos;
    } else if (starts(line, "and is ")) {
      nearest = number_after(line, "nearest allocation at");
      size = number_after(line, "of size");
    }
  }
  f.kernel = site.kernel;
  f.where = site.where;
  const std::string& h = block.header;
  std::string space = h.find("__shared__") != std::string::npos ? "__shared__"
                      : h.find("__local__") != std::string::npos ? "local"
                                                                   : "global";
  const std::string access = h.find(" write") != std::string::npos ? "write" : "read";
  std::string of_size;
  if (const auto bytes = number_after(h, "of size")) of_size = " of " + plural(*bytes, "byte", "bytes");
  const std::string found = " — found by compute-sanitizer " + tool;
  if (tool == "initcheck") {
    f.kind = "uninitialised";
    const std::string in_array = address ? describe_address(*address, block.buffers, std::nullopt, std::nullopt) : "";
    f.message = "reads uninitialised " + space + " memory: a " + access + of_size + place(site, thread) + " from " +
                (in_array.empty() ? std::string("memory the program allocated itself") : in_array) +
                ", which nothing had written (a fresh cudaMalloc, never zeroed or copied to?)" + found;
  } else if (misaligned || h.find("Misaligned") != std::string::npos) {
    f.kind = "misaligned";
    f.message = "misaligned address: a " + space + " memory " + access + of_size + place(site, thread) +
                " at an address that is not a multiple of its size (e.g. reinterpret_cast<float4*>(p + i) "
                "with i not a multiple of 4)" + found;
  } else {
    f.kind = "out_of_bounds";
    std::string at;
    if (address && space == "global") {
      const std::string described = describe_address(*address, block.buffers, nearest, size);
      at = " at " + (described.empty() ? "an address outside every allocation" : described);
    }
    // Where, as the CPU backend says it ("; the write is at matmul.cu:27"), so that the harness
    // quotes the line after it on both backends (pipeline/source_quotes.hpp).
    const std::string line = site.where.empty() ? "" : "; the " + access + " is at " + site.where;
    f.message = "out-of-bounds " + space + " memory " + access + of_size + place(Site{site.kernel, ""}, thread) + at +
                line + found;
  }
  return f;
}

/// A racecheck error: "Error: Race reported between Write access at K+0x140 in f.cu:8" and
/// "and Read access at K+0x120 in f.cu:8 [3968 hazards]" lines.
SanitizerFinding race_finding(const Block& block, const std::vector<std::string>& names) {
  SanitizerFinding f;
  f.task = block.task;
  f.kind = "race";
  std::vector<std::pair<std::string, Site>> sites;  // access kind, site
  unsigned long long hazards = 0;
  auto take = [&](std::string_view line) {
    const auto access = line.find(" access at ");
    if (access == std::string_view::npos) return;
    std::string_view kind = line.substr(0, access);
    if (const auto space = kind.rfind(' '); space != std::string_view::npos) kind.remove_prefix(space + 1);
    std::string_view rest = line.substr(access + 11);
    if (const auto bracket = rest.rfind(" ["); bracket != std::string_view::npos) {
      hazards += number_after(rest.substr(bracket), "[").value_or(0);
      rest = rest.substr(0, bracket);
    }
    std::string lower(kind);
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    sites.emplace_back(lower, parse_site(rest, names));
  };
  take(block.header);
  for (const auto& raw : block.lines) take(trim(raw));
  if (!sites.empty()) {
    f.kernel = sites.front().second.kernel;
    f.where = sites.front().second.where;
  }
  std::string between;
  for (std::size_t i = 0; i < sites.size() && i < 3; ++i) {
    between += (i == 0 ? "" : i + 1 == sites.size() || i == 2 ? " and " : ", ") + std::string("a ") + sites[i].first +
               (sites[i].second.where.empty() ? "" : " at " + sites[i].second.where);
  }
  // racecheck's warnings are the hazards it is less sure of: in practice lanes of one warp that
  // rely on running in lockstep (the printed volatile last warp), which they do not since Volta.
  const bool warning = starts(block.header, "Warning:");
  f.message = "a race on __shared__ memory in kernel " + f.kernel + ": " + between +
              " by different threads with no barrier between them" +
              (hazards ? " (" + plural(hazards, "hazard", "hazards") + ")" : "") +
              (warning ? " — lanes of one warp relying on lockstep? Since Volta they need __syncwarp() between "
                         "the write and the read. Found by compute-sanitizer racecheck (a warning)"
                       : " — a missing __syncthreads()? Found by compute-sanitizer racecheck");
  return f;
}

/// A synccheck report ("Barrier error detected. Divergent thread(s) in block").
SanitizerFinding barrier_finding(const Block& block, const std::vector<std::string>& names) {
  SanitizerFinding f;
  f.task = block.task;
  f.kind = "barrier";
  Site site;
  std::string thread;
  for (const auto& raw : block.lines) {
    const std::string_view line = trim(raw);
    if (starts(line, "at ")) site = parse_site(line.substr(3), names);
    else if (starts(line, "by thread ")) thread = thread_of(line);
  }
  f.kernel = site.kernel;
  f.where = site.where;
  std::string what = block.header;
  while (!what.empty() && (what.back() == '.' || what.back() == ':')) what.pop_back();
  f.message = "a barrier that not every thread reaches" + place(site, thread) + " (\"" + what +
              "\"): is a __syncthreads() inside a branch or a loop that some threads leave early? "
              "Found by compute-sanitizer synccheck";
  return f;
}

}  // namespace

SanitizerOutput parse_sanitizer_output(std::string_view text, const std::string& tool,
                                       const std::vector<std::string>& source_names) {
  SanitizerOutput out;
  std::string task;
  std::vector<Buffer> buffers;
  std::optional<Block> block;
  auto finish = [&] {
    if (!block) return;
    const std::string& h = block->header;
    if (starts(h, "Invalid ") || starts(h, "Uninitialized ") || starts(h, "Misaligned ") ||
        starts(h, "Out-of-range "))
      out.findings.push_back(access_finding(*block, tool, source_names));
    else if (starts(h, "Error: Race reported") || starts(h, "Error: Potential ") || starts(h, "Warning: Race reported"))
      out.findings.push_back(race_finding(*block, source_names));
    else if (tool == "synccheck" && (starts(h, "Barrier error") || starts(h, "Invalid ")))
      out.findings.push_back(barrier_finding(*block, source_names));
    block.reset();
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (starts(line, task_marker_prefix)) {
      finish();
      task = std::string(trim(line.substr(std::string_view(task_marker_prefix).size())));
      buffers.clear();
      if (out.tasks.size() < 100000) out.tasks.push_back(task);
      continue;
    }
    if (starts(line, buffer_marker_prefix)) {
      std::string_view rest = line.substr(std::string_view(buffer_marker_prefix).size());
      const auto first = rest.find(' ');
      if (first == std::string_view::npos) continue;
      Buffer b{std::string(rest.substr(0, first)), number_after(rest.substr(first), "").value_or(0), 0};
      if (const auto last = rest.rfind(' '); last != first) b.bytes = number_after(rest.substr(last), "").value_or(0);
      buffers.push_back(std::move(b));
      continue;
    }
    // The sanitizer's lines start with its prefix; but a line the program left unfinished (no
    // newline) runs into the sanitizer's next one, so the prefix is looked for anywhere, last.
    const auto prefix = line.rfind(kPrefix);
    if (prefix == std::string_view::npos) continue;  // the program's own output
    std::string_view content = line.substr(prefix + kPrefix.size());
    if (starts(content, "     ")) {  // an indented line of the current report
      if (block && block->lines.size() < 32) block->lines.emplace_back(trim(content));
      continue;
    }
    finish();
    content = trim(content);
    if (content.empty()) continue;
    if (content == "COMPUTE-SANITIZER") { out.ran = true; continue; }
    if (starts(content, "ERROR SUMMARY:") && content.find("not printed") != std::string_view::npos) {
      out.unprinted += number_after(content, "ERROR SUMMARY:").value_or(0);
      continue;
    }
    if (content.find("SUMMARY:") != std::string_view::npos || starts(content, "Program hit ") ||
        (starts(content, "Warning: ") && !starts(content, "Warning: Race reported")) ||
        starts(content, "Target application returned"))
      continue;
    if ((starts(content, "Error: ") && !starts(content, "Error: Race reported") &&
         !starts(content, "Error: Potential ")) ||
        starts(content, "Internal Sanitizer Error")) {
      if (out.problem.empty()) out.problem = std::string(content.substr(0, 300));
      continue;
    }
    block = Block{std::string(content), {}, task, buffers};
  }
  finish();
  return out;
}

std::vector<std::string> tasks_past_print_limit(const SanitizerOutput& output) {
  if (output.unprinted == 0 || output.findings.empty()) return {};
  const std::string& last = output.findings.back().task;
  const auto at = std::find(output.tasks.begin(), output.tasks.end(), last);
  if (at == output.tasks.end()) return {};
  std::vector<std::string> after;
  for (auto it = at + 1; it != output.tasks.end(); ++it)
    if (std::find(after.begin(), after.end(), *it) == after.end() && *it != last) after.push_back(*it);
  return after;
}

std::map<std::string, std::string> findings_by_task(const std::vector<SanitizerFinding>& findings) {
  // Per task: its sites (kind, kernel, line) in order, each with its first sentence and count.
  struct Site {
    std::string key, message;
    std::size_t count = 0;
  };
  std::map<std::string, std::vector<Site>> sites;
  for (const auto& f : findings) {
    auto& list = sites[f.task];
    const std::string key = f.kind + "|" + f.kernel + "|" + f.where;
    auto it = std::find_if(list.begin(), list.end(), [&](const Site& s) { return s.key == key; });
    if (it == list.end()) list.push_back({key, f.message, 1});
    else ++it->count;
  }
  std::map<std::string, std::string> out;
  for (const auto& [task, list] : sites) {
    const Site& first = list.front();
    std::string text = first.message;
    if (first.count > 1) text += " (" + std::to_string(first.count) + " reports like it)";
    std::string others;
    for (std::size_t i = 1; i < list.size(); ++i) {
      const auto where = list[i].key.substr(list[i].key.rfind('|') + 1);
      others += (others.empty() ? "" : ", ") + (where.empty() ? std::string("a kernel without line information") : where);
    }
    if (!others.empty()) text += "; also at " + others;
    out[task] = text;
  }
  return out;
}

}  // namespace cugrade
