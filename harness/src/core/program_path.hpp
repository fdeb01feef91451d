#pragma once
// Finding a program on a PATH-style list of folders, as execvp would, without running it.
#include <filesystem>
#include <string_view>

namespace cugrade {

/// The first executable `name` in the absolute folders of `path_list` ("a:b"), else in /usr/bin
/// or /bin; an empty path when there is none.
std::filesystem::path find_program(std::string_view name, std::string_view path_list);

}  // namespace cugrade
