// SPDX-License-Identifier: BSD-3-Clause
// The rule by which a device memory limit sets the pairs in flight
// (src/device_memory_budget.h): as many as fit, at most max_in_flight, and
// a clear error when not one pair fits.
#include <cstdint>
#include <string>

#include "check.h"
#include "device_memory_budget.h"

namespace {

constexpr size_t kMiB = size_t{1} << 20;

int Fit(size_t per_pair, size_t limit, int max_in_flight) {
  int pairs = -1;
  const s2c::Status st = s2c::FitPairsInFlight(per_pair, limit, max_in_flight, 64, 48, &pairs);
  S2C_CHECK(st.ok(), "per pair %zu, limit %zu, max %d: %s", per_pair, limit, max_in_flight,
            st.message().c_str());
  return pairs;
}

void TestFits() {
  const size_t pair = 100 * kMiB + 12345;
  S2C_CHECK(Fit(pair, 0, 3) == 3, "no limit: max_in_flight");
  S2C_CHECK(Fit(pair, pair, 4) == 1, "a limit of exactly one pair");
  S2C_CHECK(Fit(pair, 2 * pair + pair / 2, 4) == 2, "2.5 pairs' worth: 2");
  S2C_CHECK(Fit(pair, 3 * pair - 1, 8) == 2, "one byte short of 3 pairs: 2");
  S2C_CHECK(Fit(pair, 10 * pair, 3) == 3, "room for 10, max_in_flight 3: 3");
  S2C_CHECK(Fit(pair, SIZE_MAX, 64) == 64, "the largest limit: max_in_flight");
  S2C_CHECK(Fit(0, 1, 5) == 5, "pairs that take no device memory: max_in_flight");
}

void TestTooSmall() {
  int pairs = 7;
  const size_t pair = 150 * kMiB + 1;  // 151 MiB rounded up
  const size_t limit = 150 * kMiB;
  const s2c::Status st = s2c::FitPairsInFlight(pair, limit, 2, 1920, 1080, &pairs);
  S2C_CHECK(st.code() == s2c::StatusCode::kOutOfMemory, "code %d, expected kOutOfMemory",
            static_cast<int>(st.code()));
  S2C_CHECK(pairs == 7, "a refusal changed the pairs to %d", pairs);
  const std::string& m = st.message();
  for (const char* part : {"1920x1080", "151 MiB", "limit of 150 MiB"}) {
    S2C_CHECK(m.find(part) != std::string::npos, "\"%s\" not in \"%s\"", part, m.c_str());
  }
  S2C_CHECK(!s2c::FitPairsInFlight(pair, 1, 1, 1920, 1080, &pairs).ok(),
            "a limit of 1 byte accepted");
}

}  // namespace

int main() {
  TestFits();
  TestTooSmall();
  return s2c::test::Finish();
}
