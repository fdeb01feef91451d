#include "device/gpu_claim.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/printable.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// `text` with every character but letters, digits, '-', '_' and '.' made '_': part of a file name.
std::string file_name_part(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
      c = '_';
  return out;
}

/// `path` opened for locking (a lock needs no writing), made where it is missing readable by every
/// user, never through a link. An existing file is opened without O_CREAT: in a sticky folder
/// such as /tmp the kernel refuses O_CREAT on another user's file (fs.protected_regular).
Result<int> open_lock_file(const fs::path& path) {
  int fd = -1;
  for (int attempt = 0; attempt < 3 && fd < 0; ++attempt) {
    fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
      fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd >= 0) ::fchmod(fd, 0644);  // past a umask of 077: other users lock it too
      else if (errno == EEXIST) continue;  // another process made it meanwhile: open theirs
    }
    if (fd < 0) break;
  }
  if (fd < 0) return fail("cannot open the GPU's lock file " + path.string() + ": " + std::strerror(errno));
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return fail("the GPU's lock file " + path.string() + " is not a regular file");
  }
  return fd;
}

/// Locks `fd` exclusively, waiting as long as it takes, or until `give_up` (when given, asked every
/// 20 ms) says yes: false then. `before_wait` is called where it must wait.
Result<bool> lock_exclusively(int fd, const fs::path& path, const std::function<void()>& before_wait,
                              const std::function<bool()>& give_up) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return true;
  if (errno != EWOULDBLOCK) return fail("cannot lock " + path.string() + ": " + std::strerror(errno));
  if (before_wait) before_wait();
  // Without give_up the kernel wakes the waiter; with it, the lock is tried every 20 ms.
  while (::flock(fd, give_up ? LOCK_EX | LOCK_NB : LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    if (!give_up || errno != EWOULDBLOCK) return fail("cannot lock " + path.string() + ": " + std::strerror(errno));
    if (give_up()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace

fs::path gpu_claim_folder() {
  const char* folder = std::getenv("CUGRADE_LOCK_DIR");
  return folder && *folder ? fs::path(folder) : fs::path("/tmp");
}

std::string gpu_claim_key(const DeviceInfo& device, std::size_t index, const std::string& lane) {
  if (index < device.uuids.size() && !device.uuids[index].empty()) return device.uuids[index];
  return "device-" + lane;
}

std::string gpu_claim_holder(const std::string& key, const fs::path& folder) {
  struct stat status {};
  if (::stat(gpu_claim_file(key, folder).c_str(), &status) != 0) return "";
  // A held flock's line: "1: FLOCK  ADVISORY  WRITE 1234 fe:00:10952964 0 EOF" (a waiter's has "->").
  // The device /proc/locks names may not be stat's (overlay file systems): an inode alone, where
  // only one held flock has it, names the holder too.
  const std::string device = fmt::format("{:02x}:{:02x}:", major(status.st_dev), minor(status.st_dev));
  const std::string inode = ":" + std::to_string(status.st_ino);
  std::ifstream locks("/proc/locks");
  std::string line, exact;
  std::vector<std::string> same_inode;
  while (std::getline(locks, line)) {
    std::istringstream words(line);
    std::string number, type, mode, access, pid, where;
    if (!(words >> number >> type) || type != "FLOCK" || !(words >> mode >> access >> pid >> where)) continue;
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || !where.ends_with(inode)) continue;
    if (where == device + std::to_string(status.st_ino)) exact = pid;
    same_inode.push_back(pid);
  }
  const std::string pid = !exact.empty() ? exact : same_inode.size() == 1 ? same_inode.front() : "";
  if (pid.empty()) return "";
  std::ifstream cmdline("/proc/" + pid + "/cmdline", std::ios::binary);
  std::string command((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  std::replace(command.begin(), command.end(), '\0', ' ');
  while (!command.empty() && command.back() == ' ') command.pop_back();
  if (command.size() > 120) command = command.substr(0, 117) + "...";
  return "pid " + pid + (command.empty() ? "" : ": " + printable(command));
}

fs::path gpu_claim_file(const std::string& key, const fs::path& folder) {
  return folder / ("cugrade-gpu-" + file_name_part(key) + ".lock");
}

Result<bool> gpu_claimed_elsewhere(const std::string& key, const fs::path& folder) {
  const fs::path path = gpu_claim_file(key, folder);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return false;
  if (fd < 0) return fail("cannot open the GPU's lock file " + path.string() + ": " + std::strerror(errno));
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  const int error = errno;
  ::close(fd);  // releases it at once where it was free
  if (!free && error != EWOULDBLOCK) return fail("cannot lock " + path.string() + ": " + std::strerror(error));
  return !free;
}

Result<GpuClaim> GpuClaim::acquire(const std::string& key, const std::function<void()>& waiting,
                                   const fs::path& folder, const std::function<bool()>& give_up) {
  const fs::path lock_path = gpu_claim_file(key, folder);
  const fs::path queue_path = fs::path(lock_path).replace_extension(".queue");
  auto queue = open_lock_file(queue_path);
  if (!queue) return std::unexpected(queue.error());
  auto lock = open_lock_file(lock_path);
  if (!lock) {
    ::close(*queue);
    return std::unexpected(lock.error());
  }
  const auto started = std::chrono::steady_clock::now();
  bool told = false;
  const auto tell_once = [&] {
    if (!told && waiting) waiting();
    told = true;
  };
  // The queue first: a process waiting for the GPU holds it, so that the holder, back for its
  // next turn, waits behind it instead of taking the GPU again at once.
  auto queued = lock_exclusively(*queue, queue_path, tell_once, give_up);
  auto locked = queued && *queued ? lock_exclusively(*lock, lock_path, tell_once, give_up) : queued;
  ::close(*queue);  // the next in the queue may now wait for the GPU
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!locked || !*locked) {
    ::close(*lock);
    if (!locked) return std::unexpected(locked.error());
    return GpuClaim(-1, waited);  // given up: holds nothing
  }
  return GpuClaim(*lock, waited);
}

Result<GpuClaim> claim_gpu(const DeviceInfo& device, std::size_t index, const std::string& lane,
                           const std::function<void(const std::string&)>& say, bool say_when_got,
                           const std::function<bool()>& give_up) {
  const std::string gpu = device.name.empty() ? "GPU " + lane : "GPU " + lane + " (" + device.name + ")";
  const std::string key = gpu_claim_key(device, index, lane);
  auto claim = GpuClaim::acquire(
      key,
      [&] {
        if (!say) return;
        const std::string holder = gpu_claim_holder(key);
        say(gpu + " is in use by another cugrade on this machine" + (holder.empty() ? "" : " (" + holder + ")") +
            ": waiting for its turn");
      },
      gpu_claim_folder(), give_up);
  if (claim && claim->held() && claim->waited_s() >= 0.1 && say && say_when_got)
    say(fmt::format("got {} after {:.1f} s of waiting", gpu, claim->waited_s()));
  return claim;
}

std::string unclaimed_gpu_note(const std::string& why) {
  return "the GPU was not claimed against other cugrade processes (" + why +
         "): a check or batch on this GPU at the same time would have disturbed this one's timing";
}

GpuClaim::GpuClaim(GpuClaim&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), waited_s_(other.waited_s_) {}

GpuClaim& GpuClaim::operator=(GpuClaim&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    waited_s_ = other.waited_s_;
  }
  return *this;
}

GpuClaim::~GpuClaim() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor of the file releases its lock
}

}  // namespace cugrade
