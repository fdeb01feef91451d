#pragma once
// A step's own folder, which the step could write while it ran: what the harness does there must
// never go through what the step put there. The harness, root where it hands steps their own
// users, writes the next job file into a runner's folder, makes the reruns' folders below it and
// mounts them, and reads what the runner wrote; a link the step planted would send it outside.
#include <filesystem>

namespace cugrade {

/// Removes what a step left in `folder` that is neither a regular file nor a folder, at any depth
/// and following nothing: symbolic links above all (and pipes, sockets, devices). Called once a
/// step has ended, before the harness writes a job file into its folder, reads its outputs or
/// mounts a folder below it: a link the step planted would send the harness, which may be root,
/// outside (a root-only file read into a report, a host file overwritten, a host folder mounted).
void remove_planted_links(const std::filesystem::path& folder);

/// Creates `file`, empty, in a folder a running step can write, never through what the step put
/// there: a link (or a pipe) in its place is removed, and the file made with O_EXCL | O_NOFOLLOW;
/// a regular file already there is left as it is. False when it cannot be made.
bool create_empty_file(const std::filesystem::path& file);

}  // namespace cugrade
