#include "batch/pseudonym.hpp"

#include <doctest/doctest.h>

#include <set>
#include <unordered_map>

#include "core/sha256.hpp"

namespace cugrade {
namespace {

TEST_CASE("batch::pseudonym") {
  const CourseSecret secret("course secret of 2026");
  SUBCASE("anon- and 8 hex digits of HMAC-SHA256(secret, cugrade/leaderboard/<id>)") {
    const std::string name = pseudonym(secret, "alice");
    CHECK(name == "anon-" + to_hex(hmac_sha256("course secret of 2026", "cugrade/leaderboard/alice")).substr(0, 8));
    CHECK(pseudonym(secret, "alice", 12).starts_with(name));
    CHECK(pseudonym(secret, "alice", 12).size() == 5 + 12);
    // The same by another implementation: Python's hmac.new(b"course secret of 2026",
    // b"cugrade/leaderboard/alice", hashlib.sha256).hexdigest()[:8].
    CHECK(name == "anon-1efeb64b");
  }
  SUBCASE("stable for a student, different for another student or another course's secret") {
    CHECK(pseudonym(secret, "alice") == pseudonym(CourseSecret("course secret of 2026"), "alice"));
    CHECK(pseudonym(secret, "alice") != pseudonym(secret, "bob"));
    CHECK(pseudonym(secret, "alice") != pseudonym(CourseSecret("another course"), "alice"));
    // Not a plain hash of the id: without the secret, hashing the roster finds no one.
    CHECK(pseudonym(secret, "alice").substr(5) != sha256_hex("alice").substr(0, 8));
  }
}

TEST_CASE("batch::class_pseudonyms") {
  const CourseSecret secret("course secret of 2026");
  SUBCASE("one per student, 8 digits where none are shared") {
    const auto names = class_pseudonyms(secret, {"alice", "bob", "carol"});
    REQUIRE(names.size() == 3);
    CHECK(names.at("bob") == pseudonym(secret, "bob"));
  }
  SUBCASE("two students whose 8 digits agree are told apart by longer ones") {
    // A birthday search for two ids sharing the first 32 bits (about 80,000 tries).
    std::unordered_map<std::string, std::string> seen;
    std::string first, second;
    for (int i = 0; second.empty(); ++i) {
      const std::string id = "s" + std::to_string(i);
      const auto [at, added] = seen.emplace(pseudonym(secret, id), id);
      if (!added) first = at->second, second = id;
    }
    const auto names = class_pseudonyms(secret, {first, second, "alice"});
    CHECK(names.at(first) != names.at(second));
    CHECK(names.at(first).size() > 5 + 8);
    CHECK(names.at(first).starts_with(pseudonym(secret, first)));
    CHECK(names.at("alice") == pseudonym(secret, "alice"));  // the others keep their names
  }
}

}  // namespace
}  // namespace cugrade
