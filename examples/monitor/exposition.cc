// SPDX-License-Identifier: BSD-3-Clause
#include "exposition.h"

#include <charconv>
#include <cmath>

namespace s2c::monitor {
namespace {

void AppendEscaped(std::string* out, const std::string& text, bool quote_too) {
  for (char c : text) {
    if (c == '\\') {
      *out += "\\\\";
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c == '"' && quote_too) {
      *out += "\\\"";
    } else {
      *out += c;
    }
  }
}

// name{label="value",...,extra="extra_value"} value
void AppendSample(std::string* out, const std::string& name,
                  const std::vector<prometheus::ClientMetric::Label>& labels, const char* extra,
                  const std::string& extra_value, double value) {
  *out += name;
  if (!labels.empty() || extra != nullptr) {
    *out += '{';
    const char* separator = "";
    for (const auto& label : labels) {
      *out += separator;
      *out += label.name + "=\"";
      AppendEscaped(out, label.value, true);
      *out += '"';
      separator = ",";
    }
    if (extra != nullptr) *out += separator + std::string(extra) + "=\"" + extra_value + "\"";
    *out += '}';
  }
  *out += ' ' + FormatValue(value) + '\n';
}

const char* TypeName(prometheus::MetricType type) {
  switch (type) {
    case prometheus::MetricType::Counter:
      return "counter";
    case prometheus::MetricType::Gauge:
      return "gauge";
    case prometheus::MetricType::Histogram:
      return "histogram";
    case prometheus::MetricType::Summary:
      return "summary";
    case prometheus::MetricType::Untyped:
      break;
  }
  return "untyped";
}

void AppendMetric(std::string* out, const prometheus::MetricFamily& family,
                  const prometheus::ClientMetric& metric) {
  const auto& labels = metric.label;
  switch (family.type) {
    case prometheus::MetricType::Counter:
      AppendSample(out, family.name, labels, nullptr, "", metric.counter.value);
      break;
    case prometheus::MetricType::Gauge:
      AppendSample(out, family.name, labels, nullptr, "", metric.gauge.value);
      break;
    case prometheus::MetricType::Histogram:
      for (const auto& bucket : metric.histogram.bucket) {
        AppendSample(out, family.name + "_bucket", labels, "le", FormatValue(bucket.upper_bound),
                     static_cast<double>(bucket.cumulative_count));
      }
      AppendSample(out, family.name + "_sum", labels, nullptr, "", metric.histogram.sample_sum);
      AppendSample(out, family.name + "_count", labels, nullptr, "",
                   static_cast<double>(metric.histogram.sample_count));
      break;
    case prometheus::MetricType::Summary:
      for (const auto& quantile : metric.summary.quantile) {
        AppendSample(out, family.name, labels, "quantile", FormatValue(quantile.quantile),
                     quantile.value);
      }
      AppendSample(out, family.name + "_sum", labels, nullptr, "", metric.summary.sample_sum);
      AppendSample(out, family.name + "_count", labels, nullptr, "",
                   static_cast<double>(metric.summary.sample_count));
      break;
    case prometheus::MetricType::Untyped:
      AppendSample(out, family.name, labels, nullptr, "", metric.untyped.value);
      break;
  }
}

}  // namespace

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string Exposition(const std::vector<prometheus::MetricFamily>& families) {
  std::string out;
  for (const auto& family : families) {
    if (family.metric.empty()) continue;
    out += "# HELP " + family.name + ' ';
    AppendEscaped(&out, family.help, false);
    out += "\n# TYPE " + family.name + ' ' + TypeName(family.type) + '\n';
    for (const auto& metric : family.metric) AppendMetric(&out, family, metric);
  }
  return out;
}

}  // namespace s2c::monitor
