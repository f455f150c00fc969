// SPDX-License-Identifier: BSD-3-Clause
// The monitor's configuration: what it reads, and errors that say what is
// wrong and where.
#include <string>

#include "check.h"
#include "config.h"

namespace {

using s2c::monitor::MonitorConfig;

constexpr char kGood[] = R"(
[channel one]
reference = videotestsrc
distorted = videotestsrc pattern=ball
threshold = 55.5
metrics = ssimulacra2+ssim
restart-timeout = 1.5s

[channel two]
reference = videotestsrc
distorted = videotestsrc
feed-timeout = 500ms
)";

void TestGood() {
  MonitorConfig config;
  std::string error;
  if (!S2C_CHECK(s2c::monitor::ParseConfig(kGood, "good.conf", &config, &error), "%s",
                 error.c_str())) {
    return;
  }
  if (!S2C_CHECK(config.channels.size() == 2)) return;
  const auto& one = config.channels[0];
  S2C_CHECK(one.name == "one" && one.distorted == "videotestsrc pattern=ball");
  S2C_CHECK(one.restart_timeout_ns == 1'500'000'000u && one.feed_timeout_ns == 2'000'000'000u);
  S2C_CHECK(one.element_properties.size() == 2 && one.element_properties[0].first == "threshold" &&
            one.element_properties[0].second == "55.5" &&
            one.element_properties[1].second == "ssimulacra2+ssim");
  S2C_CHECK(config.channels[1].feed_timeout_ns == 500'000'000u);
  S2C_CHECK(config.channels[1].element_properties.empty());
  S2C_CHECK(config.channels[0] != config.channels[1]);
}

// `text` is refused with an error that holds each of `needles`.
void ExpectError(const char* text, std::initializer_list<const char*> needles) {
  MonitorConfig config;
  std::string error;
  if (!S2C_CHECK(!s2c::monitor::ParseConfig(text, "bad.conf", &config, &error),
                 "accepted:\n%s", text)) {
    return;
  }
  for (const char* needle : needles) {
    S2C_CHECK(error.find(needle) != std::string::npos, "error \"%s\" lacks \"%s\"",
              error.c_str(), needle);
  }
  S2C_CHECK(config.channels.empty(), "a refused file changed the configuration");
}

void TestErrors() {
  ExpectError("[channel a]\ndistorted = videotestsrc\n",
              {"bad.conf", "[channel a]", "reference", "missing"});
  ExpectError("[channel a]\nreference = videotestsrc\n", {"distorted", "missing"});
  ExpectError("[channel a]\nreference =\ndistorted = videotestsrc\n", {"reference", "empty"});
  ExpectError("[channel a]\nreference = x\ndistorted = y\nthreshold = 5O\n",
              {"[channel a] threshold", "\"5O\"", "not a number"});
  ExpectError("[channel a]\nreference = x\ndistorted = y\nthreshold = 101\n",
              {"threshold", "up to 100"});
  ExpectError("[channel a]\nreference = x\ndistorted = y\nfeed-timeout = 2\n",
              {"feed-timeout", "\"2\"", "unit"});
  ExpectError("[channel a]\nreference = x\ndistorted = y\nrestart-timeout = -1s\n",
              {"restart-timeout"});
  ExpectError("[channel a]\nreference = x\ndistorted = y\nfeed-timeout = 0ms\n",
              {"feed-timeout"});
  ExpectError("[channels a]\nreference = x\ndistorted = y\n", {"[channels a]", "not a channel"});
  ExpectError("[channel ]\nreference = x\ndistorted = y\n", {"no name"});
  ExpectError("[channel a\nreference = x\n", {"bad.conf"});
}

void TestDurations() {
  uint64_t ns = 0;
  S2C_CHECK(s2c::monitor::ParseDuration("2s", &ns) && ns == 2'000'000'000u);
  S2C_CHECK(s2c::monitor::ParseDuration("0.25s", &ns) && ns == 250'000'000u);
  S2C_CHECK(s2c::monitor::ParseDuration("40ms", &ns) && ns == 40'000'000u);
  S2C_CHECK(s2c::monitor::ParseDuration("7us", &ns) && ns == 7'000u);
  S2C_CHECK(s2c::monitor::ParseDuration("9ns", &ns) && ns == 9u);
  for (const char* bad : {"", "2", "s", "ms", "2 s", "2m", "inf s", "1e300s", "nans"}) {
    S2C_CHECK(!s2c::monitor::ParseDuration(bad, &ns), "\"%s\" accepted", bad);
  }
}

void TestLoadMissingFile() {
  MonitorConfig config;
  std::string error;
  S2C_CHECK(!s2c::monitor::LoadConfig("/nonexistent/monitor.conf", &config, &error) &&
                error.find("/nonexistent/monitor.conf") != std::string::npos,
            "%s", error.c_str());
}

}  // namespace

int main() {
  TestGood();
  TestErrors();
  TestDurations();
  TestLoadMissingFile();
  return s2c::test::Finish();
}
