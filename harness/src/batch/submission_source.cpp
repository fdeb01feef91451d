#include "batch/submission_source.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/printable.hpp"
#include "pipeline/submission_files.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The student id and kind of an archive's file name; nullopt for anything else.
std::optional<std::pair<std::string, SourceKind>> archive_name(const std::string& name) {
  for (const auto& [suffix, kind] : {std::pair<std::string_view, SourceKind>{".zip", SourceKind::zip},
                                     {".tar.gz", SourceKind::tar}, {".tgz", SourceKind::tar},
                                     {".tar", SourceKind::tar}})
    if (ends_with(name, suffix)) return std::pair{name.substr(0, name.size() - suffix.size()), kind};
  return std::nullopt;
}

/// Why a loose file in the submissions folder is skipped (after its name).
constexpr std::string_view not_a_submission = ": not a folder or a .zip/.tar.gz archive";

/// Whether `name` is as Moodle names a file in its download of every submission without a folder
/// per student ("Download submissions in folders" unticked): "<full name>_<id>_assignsubmission_
/// <plugin>_<file's name>", the full name holding no '_' (Moodle makes each one a space).
bool moodle_flat_name(std::string_view name) {
  const std::size_t id = name.find('_');
  if (id == std::string_view::npos) return false;
  const std::size_t end = name.find('_', id + 1);
  if (end == id + 1 || end == std::string_view::npos) return false;
  const std::string_view digits = name.substr(id + 1, end - id - 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  const std::string_view rest = name.substr(end + 1);
  const std::size_t plugin_end = rest.find('_', std::string_view("assignsubmission_").size());
  return rest.starts_with("assignsubmission_") && plugin_end != std::string_view::npos && plugin_end + 1 < rest.size();
}

/// Hidden entries and the metadata folders archivers and editors leave behind.
bool is_clutter(const std::string& name) { return name.empty() || name[0] == '.' || name == "__MACOSX"; }

/// Blackboard's download (`files`, every one named so): each student's last attempt, its files
/// by their own names (its text file is Blackboard's, not the student's: it names the source
/// only where the attempt holds no file); each earlier attempt is a line of `skipped`.
void list_blackboard_attempts(const std::vector<fs::path>& files,
                              std::map<std::string, std::vector<SubmissionSource>>& by_student,
                              std::vector<std::string>& skipped) {
  // owner → attempt (in time order: the names' times sort so) → its files, the text file's name empty
  std::map<std::string, std::map<std::string, std::vector<LooseFile>>> attempts;
  std::vector<std::string> owners;
  for (const fs::path& path : files) {
    const auto named = blackboard_file_name(path.filename().string());
    attempts[named->owner][named->attempt].push_back({path, named->name});
    owners.push_back(named->owner);
  }
  std::map<std::string, fs::path> texts;  // owner → its last attempt's text file
  for (const auto& [owner, by_time] : attempts)
    for (const LooseFile& file : by_time.rbegin()->second)
      if (file.name.empty()) texts[owner] = file.path;
  const std::map<std::string, std::string> students = blackboard_students(owners, texts);
  for (const auto& [owner, by_time] : attempts) {
    const std::string& student = students.at(owner);
    const auto& [last, handed_in] = *by_time.rbegin();
    SubmissionSource source{student, handed_in.front().path, SourceKind::blackboard, {}, false, last};
    std::copy_if(handed_in.begin(), handed_in.end(), std::back_inserter(source.files),
                 [](const LooseFile& file) { return !file.name.empty(); });
    by_student[student].push_back(std::move(source));
    for (const auto& [attempt, earlier] : by_time)
      if (attempt != last)
        skipped.push_back(fmt::format("{}: attempt {} not graded, an earlier one than the attempt {} (Blackboard's "
                                      "download: each student's last attempt is graded)",
                                      printable(student), attempt, last));
  }
}

}  // namespace

Result<SubmissionListing> list_submissions(const fs::path& dir, const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (fs::is_regular_file(dir, ec) && archive_name(dir.filename().string()))
      return fail("the submissions folder " + dir.string() +
                  " is an archive: unzip it into a folder and give that (an LMS's download of every submission, "
                  "Canvas's, Blackboard's or Moodle's, is unzipped so)");
    return fail("the submissions folder " + dir.string() + " does not exist or is not a folder");
  }
  std::map<std::string, std::vector<SubmissionSource>> by_student;
  SubmissionListing listing;
  std::vector<std::pair<fs::path, fs::file_status>> entries;
  fs::directory_iterator it(dir, ec);
  if (ec) return fail("cannot read the submissions folder " + dir.string() + ": " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (is_clutter(it->path().filename().string())) continue;
    // Never through a link: a link is a student's entry all the same (by its name), refused when
    // it is fingerprinted, so the student gets a result saying why rather than silence.
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    std::error_code same;
    if (!out.empty() && fs::equivalent(it->path(), out, same)) {  // never a student, nor a folder that makes DIR no Canvas download
      listing.skipped.push_back(printable(it->path().filename().string()) + ": the output folder");
      continue;
    }
    entries.emplace_back(it->path(), status);
  }
  if (ec) return fail("cannot read the submissions folder " + dir.string() + ": " + ec.message());
  // An LMS's download, unpacked: no folder, and every file named as Blackboard's download names
  // them, or else as Canvas's (so that an archive a TA named "lab_1_2_alice.zip" among others is
  // never taken for Canvas's). Blackboard's names are the more particular ("_attempt_<time>").
  const auto named_so = [&](auto named) {
    return std::find_if_not(entries.begin(), entries.end(), [&](const std::pair<fs::path, fs::file_status>& entry) {
      return !fs::is_directory(entry.second) && named(entry.first.filename().string()).has_value();
    });
  };
  const auto not_blackboard = named_so(blackboard_file_name);
  const auto not_canvas = named_so(canvas_file_name);
  const bool from_blackboard = !entries.empty() && not_blackboard == entries.end();
  const bool from_canvas = !from_blackboard && !entries.empty() && not_canvas == entries.end();
  // A file named as a download names them, beside something else: skipped, naming what is in the way.
  const auto skip_download_named = [&](const std::string& name, const char* download, const auto& other) {
    listing.download = download;
    listing.not_download = printable(other->first.filename().string()) + (fs::is_directory(other->second) ? "/" : "");
    listing.skipped.push_back(printable(name) + ": named as in " + download + " download, but " + listing.not_download +
                              " is there too");
    ++listing.download_named_skipped;
  };
  std::vector<fs::path> blackboard_files;
  for (const auto& [path, status] : entries) {
    const std::string name = path.filename().string();
    const auto archive = archive_name(name);
    const auto canvas = from_canvas ? canvas_file_name(name) : std::nullopt;
    if (from_blackboard) {  // a student's attempts, together once every file is listed
      blackboard_files.push_back(path);
    } else if (canvas) {  // one of a student's files in Canvas's download: with the others of that student
      std::vector<SubmissionSource>& sources = by_student[canvas->student];
      auto theirs = std::find_if(sources.begin(), sources.end(),
                                 [](const SubmissionSource& s) { return s.kind == SourceKind::canvas; });
      if (theirs == sources.end()) {
        sources.push_back({canvas->student, path, SourceKind::canvas, {}, false, {}});
        theirs = std::prev(sources.end());
      }
      SubmissionSource& source = *theirs;
      source.files.push_back({path, canvas->name});
      source.late = source.late || canvas->late;
    } else if (fs::is_directory(status) || (fs::is_symlink(status) && !archive)) {
      by_student[name].push_back({name, path, SourceKind::folder, {}, false, {}});
    } else if (archive) {
      by_student[archive->first].push_back({archive->first, path, archive->second, {}, false, {}});
    } else if (blackboard_file_name(name)) {
      skip_download_named(name, "Blackboard's", not_blackboard);
    } else if (canvas_file_name(name)) {
      skip_download_named(name, "Canvas's", not_canvas);
    } else {
      listing.skipped.push_back(printable(name) + std::string(not_a_submission));
    }
  }
  list_blackboard_attempts(blackboard_files, by_student, listing.skipped);
  for (auto& [student, sources] : by_student) {
    for (SubmissionSource& source : sources)
      if (!source.files.empty()) {  // an LMS's loose files: in name order, the first one naming the source
        std::sort(source.files.begin(), source.files.end(),
                  [](const LooseFile& a, const LooseFile& b) { return a.path < b.path; });
        source.path = source.files.front().path;
      }
    if (sources.size() == 1) {
      listing.submissions.push_back(sources.front());
      continue;
    }
    std::vector<std::string> names;
    for (const auto& s : sources) names.push_back(printable(s.path.filename().string()));
    std::sort(names.begin(), names.end());
    listing.skipped.push_back(fmt::format("{}: {} submissions ({}); keep one and run again", printable(student),
                                          sources.size(), fmt::join(names, ", ")));
  }
  std::sort(listing.skipped.begin(), listing.skipped.end());
  return listing;
}

std::string no_submission_message(const fs::path& dir, const SubmissionListing& listing, const std::string& assignment) {
  std::string message = "no submission in " + printable(dir.string()) +
                        ": each student's submission is a sub-folder or a .zip, .tar.gz, .tgz or .tar archive there, "
                        "named by the student's id";
  // An LMS's download with something else beside it: say what keeps it from being read so.
  if (listing.download_named_skipped > 0)
    return message + fmt::format("; {} file{} named as in {} download, which is read as such only where nothing "
                                 "else is there: move {} out",
                                 listing.download_named_skipped, listing.download_named_skipped == 1 ? " is" : "s are",
                                 listing.download, listing.not_download);
  // Loose files skipped as no submission, every one named as in Moodle's download without folders:
  // the TA's download option, not one student's folder.
  const auto loose_name = [](const std::string& line) {
    return line.ends_with(not_a_submission) ? std::string_view(line).substr(0, line.size() - not_a_submission.size())
                                            : std::string_view();
  };
  if (!listing.skipped.empty() && std::all_of(listing.skipped.begin(), listing.skipped.end(), [&](const std::string& line) {
        return moodle_flat_name(loose_name(line));
      }))
    return message + "; its files are named as Moodle's download without a folder per student names them "
                     "(\"<full name>_<id>_assignsubmission_file_<name>\"), which is not read: download the submissions "
                     "again with \"Download submissions in folders\" ticked (Moodle's default), which gives each "
                     "student a folder";
  // A loose file skipped as no submission, named *.cu: one student's file.
  const auto is_cu = [](const std::string& line) { return line.ends_with(".cu" + std::string(not_a_submission)); };
  const auto files = std::count_if(listing.skipped.begin(), listing.skipped.end(), is_cu);
  if (files > 0)
    message += fmt::format("; it holds {} .cu file{} itself, as one submission does: `cugrade check {} -s {}` grades it",
                           files, files == 1 ? "" : "s", assignment, printable(dir.string()));
  else if (!listing.skipped.empty())
    message += fmt::format(" ({} other entr{} skipped)", listing.skipped.size(), listing.skipped.size() == 1 ? "y" : "ies");
  return message;
}

namespace {

/// What one level of a submission's folders holds, the clutter and Gradescope's metadata left
/// aside (that file, beside the folder of the student's files, is the LMS's, not theirs). A link
/// is never followed, not even to look into: it counts as a file.
struct FolderLevel {
  std::vector<std::string> seen;  ///< every entry's name, a folder's ending in '/', printable
  std::vector<fs::path> folders;
  std::vector<fs::path> files;    ///< everything that is not a folder, links included
  bool has_cu = false;
  std::error_code error;

  /// The one folder it holds and nothing else (a wrapper archives are made with), if so.
  const fs::path* lone_folder() const { return folders.size() == 1 && seen.size() == 1 ? &folders.front() : nullptr; }
};

FolderLevel read_level(const fs::path& dir) {
  FolderLevel level;
  std::error_code& ec = level.error;
  for (fs::directory_iterator it(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (is_clutter(name) || name == "submission_metadata.json") continue;
    const bool folder = fs::is_directory(it->symlink_status(ec));
    level.seen.push_back(printable(folder ? name + "/" : name));
    (folder ? level.folders : level.files).push_back(it->path());
    if (!folder && it->path().extension() == ".cu") level.has_cu = true;
  }
  return level;
}

/// The first level of `root` that is not a lone wrapper folder (archives are often made of the
/// folder rather than its contents), looked for a few levels deep, with its folder; nothing
/// where every level was one. A level that cannot be read ends the search (its error set).
std::optional<std::pair<fs::path, FolderLevel>> past_wrappers(const fs::path& root) {
  fs::path dir = root;
  for (int depth = 0; depth < 4; ++depth) {
    FolderLevel level = read_level(dir);
    const fs::path* inner = level.error || level.has_cu ? nullptr : level.lone_folder();
    if (!inner) return std::pair{dir, std::move(level)};
    dir = *inner;
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<fs::path>> find_submission_files(const fs::path& root, const Limits& limits) {
  auto found = past_wrappers(root);
  if (!found) return fail("the submission holds no .cu file (only folders inside folders)");
  auto& [dir, level] = *found;
  if (level.error) return fail("cannot read the submission: " + level.error.message());
  if (level.has_cu) return submission_files({dir.string()}, limits, root);
  std::vector<std::string>& seen = level.seen;
  if (seen.empty()) return fail("the submission is empty");
  std::sort(seen.begin(), seen.end());
  if (seen.size() > 8) {
    const std::size_t more = seen.size() - 8;
    seen.resize(8);
    seen.push_back(fmt::format("and {} more", more));
  }
  return fail(fmt::format("the submission holds no .cu file (it holds {})", fmt::join(seen, ", ")));
}

std::optional<fs::path> lone_archive(const fs::path& folder) {
  const auto found = past_wrappers(folder);
  if (!found) return std::nullopt;
  const FolderLevel& level = found->second;
  if (level.error || level.has_cu || level.seen.size() != 1 || level.files.size() != 1) return std::nullopt;
  const fs::path& only = level.files.front();
  std::error_code ec;
  // A regular file only: a link named alice.zip is not followed (it is refused as a file).
  if (!fs::is_regular_file(fs::symlink_status(only, ec)) || !archive_name(only.filename().string())) return std::nullopt;
  return only;
}

Result<SubmissionRoot> submission_root(const SubmissionSource& source, const std::filesystem::path& work,
                                       const UnpackLimits& unpack) {
  SubmissionRoot root{source.path};
  if (source.kind == SourceKind::canvas || source.kind == SourceKind::blackboard) {
    if (source.files.empty())  // Blackboard's attempt of text typed into its box alone
      return fail("the attempt holds no file, only the text typed into Blackboard's box: nothing to compile");
    root.folder = work / "handed-in";
    if (auto copied = copy_loose_files(source.files, root.folder); !copied) return fail(copied.error().message);
  }
  // An archive, or a folder holding nothing but one (an LMS's download of what was uploaded).
  const std::optional<std::filesystem::path> archive =
      source.kind == SourceKind::zip || source.kind == SourceKind::tar ? std::optional(source.path)
                                                                       : lone_archive(root.folder);
  if (!archive) return root;
  root.folder = work / "files";
  root.from_archive = true;
  auto unpacked = unpack_archive(*archive, root.folder, unpack);
  if (!unpacked) return fail(printable(archive->filename().string()) + " cannot be unpacked: " + unpacked.error().message);
  root.newest_file_unix = unpacked->newest_file_unix;
  return root;
}

}  // namespace cugrade
