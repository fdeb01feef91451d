#include "batch/canvas_download.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/printable.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// The largest loose file read (the submission's own limits, smaller, are checked later).
constexpr std::uint64_t kLargestLooseFile = std::uint64_t{256} << 20;

/// Whether `text` is one or more ASCII digits.
bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Whether `text` is an ASCII letter or digit.
bool alphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/// Where Canvas's extension of `name` starts (Attachment.make_unique_filename's
/// `(\.[A-Za-z][A-Za-z0-9]*)*(\.[A-Za-z0-9]*)$`, its leftmost match), or npos where it has none.
std::size_t canvas_extension_start(std::string_view name) {
  for (std::size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', dot + 1)) {
    // From here: dotted words of letters and digits, each but the last starting with a letter.
    bool matches = true;
    for (std::size_t word = dot + 1; matches;) {
      const std::size_t end = std::min(name.find('.', word), name.size());
      const std::string_view text = name.substr(word, end - word);
      matches = std::all_of(text.begin(), text.end(), alphanumeric);
      if (end == name.size()) break;
      matches = matches && !text.empty() && !(text[0] >= '0' && text[0] <= '9');
      word = end + 1;
    }
    if (matches) return dot;
  }
  return std::string_view::npos;
}

/// Whether `name` is a header's (what a source includes by name): .cuh, .h, .hpp and their kin.
bool header_name(const fs::path& name) {
  static const std::set<std::string> extensions{".cuh", ".h", ".hh", ".hpp", ".hxx", ".inc", ".inl", ".ipp", ".tpp"};
  return extensions.contains(name.extension().string());
}

/// Whether `text` is a UUID as Ruby's SecureRandom.uuid writes it (8-4-4-4-12 hexadecimal digits).
bool is_uuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (c == '-')) return false;
    if (!dash && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> canvas_name_before_rename(const std::string& name) {
  const std::string_view text(name);
  const std::size_t extension = std::min(canvas_extension_start(text), text.size());
  const std::string_view base = text.substr(0, extension);
  std::size_t dash = std::string_view::npos;
  if (base.size() > 37 && is_uuid(base.substr(base.size() - 36)) && base[base.size() - 37] == '-') {
    dash = base.size() - 37;
  } else if (const std::size_t last = base.rfind('-'); last != std::string_view::npos) {
    const std::string_view number = base.substr(last + 1);
    if (all_digits(number) && number[0] != '0') dash = last;
  }
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  return std::string(base.substr(0, dash)) + std::string(text.substr(extension));
}

std::optional<CanvasFileName> canvas_file_name(const std::string& file_name) {
  // Where "<user id>_" starts: at the start (no name) or after a '_'. The first such place followed
  // by "<file id>_<name>" (or Canvas's page of a text entry or link) ends the student's name, since
  // Canvas takes every "_<digits>_" out of names.
  const std::string_view text(file_name);
  for (std::size_t start = 0;;) {
    const std::size_t first = text.find('_', start);
    if (first == std::string_view::npos) return std::nullopt;
    if (all_digits(text.substr(start, first - start))) {
      const std::string_view rest = text.substr(first + 1);
      const std::size_t second = rest.find('_');
      const bool attachment = second != std::string_view::npos && all_digits(rest.substr(0, second)) &&
                              second + 1 < rest.size();
      if (attachment || rest == "text.html" || rest == "link.html") {
        CanvasFileName out;
        std::string name(start == 0 ? std::string_view{} : text.substr(0, start - 1));
        if (name == "late" || name == "LATE") {
          name.clear();
          out.late = true;
        } else if (name.ends_with("_late") || name.ends_with("_LATE")) {
          name.resize(name.size() - 5);
          out.late = true;
        }
        const std::string user(text.substr(start, first - start));
        out.student = name.empty() ? user : name + "_" + user;
        out.name = attachment ? rest.substr(second + 1) : rest;
        if (out.name == "." || out.name == "..") return std::nullopt;
        return out;
      }
    }
    start = first + 1;
  }
}

Result<bool> copy_loose_files(const std::vector<LooseFile>& files, const fs::path& into) {
  std::error_code ec;
  fs::create_directories(into, ec);
  if (ec) return fail("cannot create " + into.string() + ": " + ec.message());
  std::vector<fs::path> copied;  // where each file went
  for (const LooseFile& file : files) {
    const std::string downloaded = file.path.filename().string();
    auto bytes = read_regular_file(file.path, printable(downloaded), kLargestLooseFile);
    if (!bytes) return std::unexpected(bytes.error());
    // A name to copy it under: not hidden, no folder in it.
    const bool plain = !file.name.empty() && file.name[0] != '.' && file.name.find('/') == std::string::npos;
    fs::path target = into / (plain ? file.name : downloaded);
    if (fs::exists(fs::symlink_status(target, ec))) target = into / downloaded;
    auto written = write_file_atomically(target, *bytes);
    if (!written) return std::unexpected(written.error());
    copied.push_back(target);
  }
  // Renamed headers under their names before the renaming: one file to a name, none in the way.
  std::map<std::string, std::vector<fs::path>> renamed;  // the name before → the copies renamed from it
  for (const fs::path& copy : copied)
    if (auto before = canvas_name_before_rename(copy.filename().string()); before && header_name(*before))
      renamed[*before].push_back(copy);
  for (const auto& [before, from] : renamed) {
    if (from.size() != 1 || before[0] == '.' || fs::exists(fs::symlink_status(into / before, ec))) continue;
    auto bytes = read_regular_file(from.front(), printable(from.front().filename().string()), kLargestLooseFile);
    if (!bytes) return std::unexpected(bytes.error());
    auto written = write_file_atomically(into / before, *bytes);
    if (!written) return std::unexpected(written.error());
  }
  return true;
}

}  // namespace cugrade
