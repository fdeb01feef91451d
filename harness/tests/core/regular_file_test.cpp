// Files a student hands in are read as data: a link, a pipe, a device or a socket is refused on
// sight, without being followed, waited on or read.
#include "core/regular_file.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>

using namespace cugrade;
namespace fs = std::filesystem;

namespace {
struct Scratch {
  fs::path dir;
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "cugrade-regular-file-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
  }
  ~Scratch() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
  }
};

/// The error reading `path` gives, within 5 seconds; fails the test when it succeeds or waits.
std::string refusal(const fs::path& path, std::uint64_t max_bytes = 1 << 20) {
  auto reading = std::async(std::launch::async, [&] { return read_regular_file(path, "x.cu", max_bytes); });
  if (reading.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    FAIL_CHECK("read_regular_file is still waiting after 5 s");
    // Unblock a reader stuck on a FIFO, so the test ends rather than hangs.
    const int writer = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0) ::close(writer);
  }
  auto got = reading.get();
  REQUIRE_FALSE(got.has_value());
  return got.error().message;
}
}  // namespace

TEST_CASE("core::read_regular_file") {
  Scratch s;
  SUBCASE("a regular file: its bytes, NULs and all") {
    const fs::path file = s.write("a.cu", std::string("int x;\0\xff", 8));
    auto got = read_regular_file(file, "a.cu", 8);
    REQUIRE(got.has_value());
    CHECK(*got == std::string("int x;\0\xff", 8));
  }
  SUBCASE("a file past the limit is refused, naming the limit") {
    const fs::path file = s.write("big.cu", std::string(2048, 'x'));
    CHECK(refusal(file, 1024) == "x.cu is larger than 1 KiB");
    CHECK(refusal(file, 1000) == "x.cu is larger than 1000 bytes");
    CHECK(read_regular_file(file, "big.cu", 2048).has_value());
  }
  SUBCASE("a named pipe is refused at once, not waited on") {
    const fs::path fifo = s.dir / "pipe.cu";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto started = std::chrono::steady_clock::now();
    CHECK(refusal(fifo) == "x.cu is a named pipe (FIFO), not a file: a submission is regular files only");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  }
  SUBCASE("a symbolic link is not followed: to a secret, to /dev/zero, to a good file") {
    const fs::path secret = s.write("secret", "the course secret");
    fs::create_symlink(secret, s.dir / "to-secret.cu");
    CHECK(refusal(s.dir / "to-secret.cu") == "x.cu is a symbolic link, not a file: a submission is regular files only");
    fs::create_symlink("/dev/zero", s.dir / "zero.cu");
    CHECK(refusal(s.dir / "zero.cu") == "x.cu is a symbolic link, not a file: a submission is regular files only");
    const fs::path good = s.write("good.cu", "int x;");
    fs::create_symlink(good, s.dir / "alias.cu");
    CHECK(refusal(s.dir / "alias.cu").find("symbolic link") != std::string::npos);
  }
  SUBCASE("a device is refused without being opened") {
    CHECK(refusal("/dev/zero") == "x.cu is a device, not a file: a submission is regular files only");
    CHECK(refusal("/dev/null") == "x.cu is a device, not a file: a submission is regular files only");
  }
  SUBCASE("a socket is refused") {
    const fs::path socket_path = s.dir / "sock.cu";
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    REQUIRE(socket_path.string().size() < sizeof address.sun_path);
    std::strcpy(address.sun_path, socket_path.c_str());
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    CHECK(refusal(socket_path) == "x.cu is a socket, not a file: a submission is regular files only");
    ::close(fd);
  }
  SUBCASE("a folder and a missing file are refused") {
    fs::create_directories(s.dir / "dir.cu");
    CHECK(refusal(s.dir / "dir.cu") == "x.cu is a folder, not a file: a submission is regular files only");
    CHECK(refusal(s.dir / "missing.cu") == "x.cu does not exist");
  }
}

TEST_CASE("core::open_regular_file") {
  Scratch s;
  const fs::path file = s.write("a.cu", "abc");
  auto fd = open_regular_file(file, "a.cu");
  REQUIRE(fd.has_value());
  CHECK(fd->get() >= 0);
  CHECK((::fcntl(fd->get(), F_GETFD) & FD_CLOEXEC) != 0);  // not inherited by a child
  char buffer[4] = {};
  CHECK(::read(fd->get(), buffer, sizeof buffer) == 3);
  CHECK(std::string(buffer) == "abc");
}

TEST_CASE("core::size_in_words") {
  CHECK(size_in_words(1 << 20) == "1 MiB");
  CHECK(size_in_words(4u << 20) == "4 MiB");
  CHECK(size_in_words(512 * 1024) == "512 KiB");
  CHECK(size_in_words(1000) == "1000 bytes");
}
