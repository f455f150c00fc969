// SPDX-License-Identifier: BSD-3-Clause
// Prometheus's text exposition format (version 0.0.4) of a registry, with
// every value in the shortest form that reads back as the same double.
// prometheus-cpp's own TextSerializer prints 16 significant digits, which
// does not: 0.1 + 0.2 comes out as 0.3, and a score the element posted
// would reach Prometheus as a neighbouring double.
#ifndef S2C_MONITOR_EXPOSITION_H_
#define S2C_MONITOR_EXPOSITION_H_

#include <prometheus/metric_family.h>

#include <string>
#include <vector>

namespace s2c::monitor {

// The shortest decimal that parses back to `value`; NaN, +Inf, -Inf as
// Prometheus spells them.
std::string FormatValue(double value);

std::string Exposition(const std::vector<prometheus::MetricFamily>& families);

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_EXPOSITION_H_
