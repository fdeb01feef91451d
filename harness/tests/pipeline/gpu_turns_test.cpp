// GpuTurns: lanes share the GPU for their cases (up to a number at once) and have it alone for
// their timing; a lane waiting to be alone is not overtaken by lanes asking to share after it, or,
// where turns alone are gathered, lets others share until enough wait, then all go first.
#include "pipeline/gpu_turns.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace cugrade;
using namespace std::chrono_literals;

namespace {
/// What the threads did, in order.
struct Events {
  std::mutex mutex;
  std::vector<std::string> said;
  void say(const std::string& what) {
    std::lock_guard lock(mutex);
    said.push_back(what);
  }
  std::vector<std::string> all() {
    std::lock_guard lock(mutex);
    return said;
  }
};

/// Asks for a turn with `ask` while `held` is held: it must wait, and come once `held` is given back.
template <class Ask>
void check_waits_for(Ask ask, GpuTurns::Turn& held) {
  std::atomic<bool> came{false};
  std::jthread lane([&] {
    auto turn = ask();
    came = true;
  });
  std::this_thread::sleep_for(50ms);
  CHECK_FALSE(came.load());
  held.release();
  lane.join();
  CHECK(came.load());
}
}  // namespace

TEST_CASE("pipeline::GpuTurns") {
  GpuTurns turns;

  SUBCASE("any number of lanes share the GPU at once") {
    auto a = turns.shared();
    auto b = turns.shared();
    CHECK(a.held());
    CHECK(b.held());
    CHECK(turns.sharing() == 2);
    a.release();
    CHECK_FALSE(a.held());
    CHECK(turns.sharing() == 1);
    a.release();  // once only
    CHECK(turns.sharing() == 1);
  }

  SUBCASE("a turn alone waits until every shared turn is given back") {
    auto sharing = turns.shared();
    check_waits_for([&] { return turns.alone(); }, sharing);
    CHECK(turns.sharing() == 0);
  }

  SUBCASE("a lane waiting to be alone goes before a lane that asks to share after it") {
    Events events;
    auto first = turns.shared();
    std::jthread timing([&] {
      auto turn = turns.alone();
      events.say("alone");
      std::this_thread::sleep_for(20ms);
      events.say("alone ends");
    });
    std::this_thread::sleep_for(50ms);  // the timing lane now waits for `first`
    std::jthread cases([&] {
      auto turn = turns.shared();
      events.say("shared");
    });
    std::this_thread::sleep_for(50ms);
    CHECK(events.all().empty());  // neither may start while `first` holds its turn
    first.release();
    timing.join();
    cases.join();
    CHECK(events.all() == std::vector<std::string>{"alone", "alone ends", "shared"});
  }

  SUBCASE("one turn alone at a time, and a turn moves with its owner") {
    std::atomic<int> inside{0}, most{0};
    std::vector<std::jthread> lanes;
    for (int i = 0; i < 4; ++i)
      lanes.emplace_back([&] {
        for (int k = 0; k < 20; ++k) {
          GpuTurns::Turn turn;
          turn = turns.alone();
          GpuTurns::Turn moved = std::move(turn);
          CHECK_FALSE(turn.held());
          const int now = ++inside;
          int seen = most.load();
          while (now > seen && !most.compare_exchange_weak(seen, now)) {
          }
          std::this_thread::sleep_for(100us);
          --inside;
        }
      });
    for (auto& lane : lanes) lane.join();
    CHECK(most.load() == 1);
    auto after = turns.shared();  // every turn was given back
    CHECK(after.held());
  }
}

TEST_CASE("pipeline::GpuTurns with a limit and gathered turns alone") {
  SUBCASE("no more than `sharing_most` lanes share at once") {
    GpuTurns turns(2, 1);
    auto a = turns.shared();
    auto b = turns.shared();
    CHECK(turns.sharing() == 2);
    check_waits_for([&] { return turns.shared(); }, a);  // a third one
  }

  SUBCASE("share_with lets more lanes share from then on, a lane waiting for a share first, never fewer") {
    GpuTurns turns(1, 1);
    auto a = turns.shared();
    std::atomic<bool> came{false};
    std::jthread waiting([&] {
      auto turn = turns.shared();
      came = true;
    });
    std::this_thread::sleep_for(50ms);
    CHECK_FALSE(came.load());  // one at a time
    turns.share_with(2);
    waiting.join();  // the waiting lane shares at once, beside `a`
    CHECK(came.load());
    turns.share_with(1);  // never narrower
    auto b = turns.shared();  // two share
    CHECK(turns.sharing() == 2);
    check_waits_for([&] { return turns.shared(); }, a);  // a third one waits
  }

  SUBCASE("lanes share in the order they asked") {
    GpuTurns turns(1, 1);
    Events events;
    auto first = turns.shared();
    std::vector<std::jthread> lanes;
    for (int i = 0; i < 4; ++i) {
      lanes.emplace_back([&, i] {
        auto turn = turns.shared();
        events.say(std::to_string(i));
      });
      std::this_thread::sleep_for(30ms);  // each asks after the one before
    }
    first.release();
    for (auto& lane : lanes) lane.join();
    CHECK(events.all() == std::vector<std::string>{"0", "1", "2", "3"});
  }

  SUBCASE("below the gather, others go on sharing; once it is reached every waiting lane is alone before any shares") {
    GpuTurns turns(SIZE_MAX, 2);
    Events events;
    auto first = turns.shared();
    std::jthread timing1([&] {
      auto turn = turns.alone();
      events.say("alone");
      std::this_thread::sleep_for(20ms);
    });
    std::this_thread::sleep_for(50ms);  // one lane waits to be alone: sharing goes on
    std::atomic<bool> shared_again{false};
    std::jthread cases1([&] {
      auto turn = turns.shared();
      shared_again = true;
      std::this_thread::sleep_for(50ms);
    });
    cases1.join();
    CHECK(shared_again.load());
    CHECK(events.all().empty());  // `first` still shares
    std::jthread timing2([&] {
      auto turn = turns.alone();
      events.say("alone");
      std::this_thread::sleep_for(20ms);
    });
    std::this_thread::sleep_for(50ms);  // two wait now: the gather is reached
    std::jthread cases2([&] {
      auto turn = turns.shared();
      events.say("shared");
    });
    std::this_thread::sleep_for(50ms);
    CHECK(events.all().empty());
    first.release();
    timing1.join();
    timing2.join();
    cases2.join();
    CHECK(events.all() == std::vector<std::string>{"alone", "alone", "shared"});
  }

  SUBCASE("with no gather, lanes asking to share go before a lane waiting alone, which comes once none shares") {
    GpuTurns turns(2, SIZE_MAX);
    Events events;
    auto first = turns.shared();
    std::jthread timing([&] {
      auto turn = turns.alone();
      events.say("alone");
    });
    std::this_thread::sleep_for(50ms);  // it waits for `first`
    {
      auto second = turns.shared();  // shares although a lane waits to be alone
      events.say("shared");
      CHECK(turns.sharing() == 2);
      first.release();
      std::this_thread::sleep_for(50ms);
      CHECK(events.all() == std::vector<std::string>{"shared"});  // `second` still shares
    }
    timing.join();
    CHECK(events.all() == std::vector<std::string>{"shared", "alone"});
  }

  SUBCASE("a lane waiting alone below the gather has its turn once nothing shares") {
    GpuTurns turns(SIZE_MAX, 4);
    auto sharing = turns.shared();
    check_waits_for([&] { return turns.alone(); }, sharing);
    auto after = turns.shared();  // the drain, if any, ended with it
    CHECK(after.held());
  }

  SUBCASE("the time is counted where it went: idle, shared (how many at once), winding down, alone") {
    GpuTurns turns(2, 1);
    std::this_thread::sleep_for(40ms);  // idle
    {
      auto a = turns.shared();
      auto b = turns.shared();
      std::this_thread::sleep_for(60ms);  // two share
      std::jthread timing([&] {
        auto turn = turns.alone();  // the first waiting alone stops the sharing: both wind down
        std::this_thread::sleep_for(50ms);
      });
      std::this_thread::sleep_for(40ms);
      a.release();
      b.release();
    }
    const GpuTurnTimes t = turns.times();
    CHECK(t.idle >= 0.035);
    CHECK(t.shared >= 0.095);
    CHECK(t.winding_down >= 0.035);
    CHECK(t.winding_down <= t.shared);
    CHECK(t.lane_seconds == doctest::Approx(2.0 * t.shared).epsilon(0.05));  // two shared all but a moment
    CHECK(t.alone >= 0.045);
    const GpuTurnTimes twice = t + t;
    CHECK(twice.alone == doctest::Approx(2.0 * t.alone));
    CHECK(twice.idle == doctest::Approx(2.0 * t.idle));
  }
}
