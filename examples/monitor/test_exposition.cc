// SPDX-License-Identifier: BSD-3-Clause
// The exposition gives back every double exactly, in Prometheus's format.
#include <cstdlib>
#include <limits>
#include <string>

#include "check.h"
#include "exposition.h"
#include "monitor_metrics.h"

namespace {

using s2c::monitor::FormatValue;

void TestValuesReadBackExactly() {
  const double values[] = {0.1 + 0.2, 81.742907355891759, -140.32133919, 100.0, 0.0, 5e-324,
                           1.7976931348623157e308, 17.37731364};
  for (double value : values) {
    const std::string text = FormatValue(value);
    S2C_CHECK_SAME(std::strtod(text.c_str(), nullptr), value, "printed as %s", text.c_str());
  }
  S2C_CHECK(FormatValue(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  S2C_CHECK(FormatValue(std::numeric_limits<double>::infinity()) == "+Inf");
  S2C_CHECK(FormatValue(-std::numeric_limits<double>::infinity()) == "-Inf");
  S2C_CHECK(FormatValue(3.0) == "3");
}

void TestChannelSeries() {
  s2c::monitor::Metrics metrics;
  {
    s2c::monitor::ChannelMetrics channel(&metrics, "a \"quoted\" name");
    channel.Score(0.1 + 0.2);
    channel.CountScored();
    channel.Score(95.5);
    channel.CountScored();
    channel.SetFeedUp(true, true);
    channel.SetWindow(0.9, 88.25, 0.1 + 0.2, 41.5);
    const std::string text = s2c::monitor::Exposition(metrics.registry().Collect());
    for (const char* line : {
             "# TYPE ssimulacra2cmp_score gauge\n",
             "ssimulacra2cmp_score{channel=\"a \\\"quoted\\\" name\"} 95.5\n",
             "ssimulacra2cmp_frames_scored_total{channel=\"a \\\"quoted\\\" name\"} 2\n",
             "ssimulacra2cmp_feed_up{channel=\"a \\\"quoted\\\" name\",feed=\"reference\"} 1\n",
             "ssimulacra2cmp_feed_up{channel=\"a \\\"quoted\\\" name\",feed=\"distorted\"} 0\n",
             "ssimulacra2cmp_score_distribution_bucket{channel=\"a \\\"quoted\\\" name\",le=\"0\"} 0\n",
             "ssimulacra2cmp_score_distribution_bucket{channel=\"a \\\"quoted\\\" name\",le=\"10\"} 1\n",
             "ssimulacra2cmp_score_distribution_bucket{channel=\"a \\\"quoted\\\" name\",le=\"+Inf\"} 2\n",
             "ssimulacra2cmp_score_distribution_sum{channel=\"a \\\"quoted\\\" name\"} 95.8\n",
             "ssimulacra2cmp_score_distribution_count{channel=\"a \\\"quoted\\\" name\"} 2\n",
             "# TYPE ssimulacra2cmp_coverage_ratio gauge\n",
             "ssimulacra2cmp_coverage_ratio{channel=\"a \\\"quoted\\\" name\"} 0.9\n",
             "ssimulacra2cmp_window_score_mean{channel=\"a \\\"quoted\\\" name\"} 88.25\n",
             "ssimulacra2cmp_window_score_min{channel=\"a \\\"quoted\\\" name\"} 0.30000000000000004\n",
             "ssimulacra2cmp_window_score_p5{channel=\"a \\\"quoted\\\" name\"} 41.5\n"}) {
      S2C_CHECK(text.find(line) != std::string::npos, "no line %s in\n%s", line, text.c_str());
    }
    // Before an alignment message the offset is not known; then it is the
    // last message's, negative too.
    const std::string label = "{channel=\"a \\\"quoted\\\" name\"} ";
    for (const std::string& line : {"ssimulacra2cmp_alignment_offset_frames" + label + "NaN\n",
                                   "ssimulacra2cmp_realignments_total" + label + "0\n"}) {
      S2C_CHECK(text.find(line) != std::string::npos, "no line %s in\n%s", line.c_str(),
                text.c_str());
    }
    channel.SetAlignmentOffset(3);
    channel.SetAlignmentOffset(-2);
    channel.CountRealignment();
    const std::string aligned = s2c::monitor::Exposition(metrics.registry().Collect());
    for (const std::string& line : {
             std::string("# TYPE ssimulacra2cmp_alignment_offset_frames gauge\n"),
             "ssimulacra2cmp_alignment_offset_frames" + label + "-2\n",
             std::string("# TYPE ssimulacra2cmp_realignments_total counter\n"),
             "ssimulacra2cmp_realignments_total" + label + "1\n"}) {
      S2C_CHECK(aligned.find(line) != std::string::npos, "no line %s in\n%s", line.c_str(),
                aligned.c_str());
    }
    channel.ScoreStale();
    channel.WindowStale();
    channel.AlignmentStale();
    const std::string stale = s2c::monitor::Exposition(metrics.registry().Collect());
    for (const char* name : {"score", "coverage_ratio", "window_score_mean", "window_score_min",
                             "window_score_p5", "alignment_offset_frames"}) {
      const std::string line =
          "ssimulacra2cmp_" + std::string(name) + "{channel=\"a \\\"quoted\\\" name\"} NaN\n";
      S2C_CHECK(stale.find(line) != std::string::npos, "no line %s in\n%s", line.c_str(),
                stale.c_str());
    }
  }
  // A channel removed from the configuration leaves no series behind.
  S2C_CHECK(s2c::monitor::Exposition(metrics.registry().Collect()).empty());
}

}  // namespace

int main() {
  TestValuesReadBackExactly();
  TestChannelSeries();
  return s2c::test::Finish();
}
