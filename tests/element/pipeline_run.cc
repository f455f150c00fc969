// SPDX-License-Identifier: BSD-3-Clause
#include "pipeline_run.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace s2c_test {

namespace {

void OnHandoff(GstElement*, GstBuffer* buffer, GstPad*, gpointer data) {
  auto* result = static_cast<RunResult*>(data);
  OutBuffer out;
  out.pts = GST_BUFFER_PTS(buffer);
  out.arrival =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  out.has_meta = s2c::GetScoreMeta(buffer, &out.meta);
  result->out.push_back(out);
}

std::string ErrorText(GstMessage* message, bool warning) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  if (warning) {
    gst_message_parse_warning(message, &error, &debug);
  } else {
    gst_message_parse_error(message, &error, &debug);
  }
  std::string text = error != nullptr ? error->message : "";
  g_clear_error(&error);
  g_free(debug);
  return text;
}

}  // namespace

const char* TestBackend() {
  const char* backend = std::getenv("S2C_TEST_BACKEND");
  return backend != nullptr && *backend != '\0' ? backend : "cpu";
}

bool Collect(GstMessage* message, RunResult* result) {
  switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_EOS:
      result->eos = true;
      return true;
    case GST_MESSAGE_ERROR:
      result->errors.push_back(ErrorText(message, false));
      return true;
    case GST_MESSAGE_WARNING:
      result->warnings.push_back(ErrorText(message, true));
      return false;
    case GST_MESSAGE_ELEMENT: {
      const GstStructure* s = gst_message_get_structure(message);
      switch (s2c::GetMessageType(s)) {
        case s2c::MessageType::kFrame: {
          s2c::FrameMessage f;
          if (s2c::FrameMessage::FromStructure(s, &f)) result->frames.push_back(f);
          break;
        }
        case s2c::MessageType::kSummary: {
          s2c::SummaryMessage m;
          if (s2c::SummaryMessage::FromStructure(s, &m)) result->summaries.push_back(m);
          break;
        }
        case s2c::MessageType::kThreshold:
        case s2c::MessageType::kThresholdCleared: {
          s2c::ThresholdMessage t;
          if (s2c::ThresholdMessage::FromStructure(s, &t)) result->alarms.push_back(t);
          break;
        }
        case s2c::MessageType::kFeed: {
          s2c::FeedMessage feed;
          if (s2c::FeedMessage::FromStructure(s, &feed)) result->feeds.push_back(feed);
          break;
        }
        case s2c::MessageType::kWindow: {
          s2c::WindowMessage window;
          if (s2c::WindowMessage::FromStructure(s, &window)) result->windows.push_back(window);
          break;
        }
        case s2c::MessageType::kCoverage: {
          s2c::CoverageMessage coverage;
          if (s2c::CoverageMessage::FromStructure(s, &coverage)) {
            result->coverage.push_back(coverage);
          }
          break;
        }
        case s2c::MessageType::kAlignment: {
          s2c::AlignmentMessage alignment;
          if (s2c::AlignmentMessage::FromStructure(s, &alignment)) {
            result->alignments.push_back(alignment);
          }
          break;
        }
        case s2c::MessageType::kUnknown:
          break;
      }
      return false;
    }
    default:
      return false;
  }
}

RunResult RunPipeline(const std::string& description,
                      const std::vector<std::string>& props,
                      const std::function<void(GstElement*)>& prepare,
                      const Watch& watch) {
  RunResult result;
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (pipeline == nullptr || error != nullptr) {
    result.errors.push_back(std::string("parse: ") + (error ? error->message : "?"));
    g_clear_error(&error);
    if (pipeline != nullptr) gst_object_unref(pipeline);
    return result;
  }
  GstElement* cmp = gst_bin_get_by_name(GST_BIN(pipeline), "cmp");
  GstElement* out = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  gst_util_set_object_arg(G_OBJECT(cmp), "backend", TestBackend());
  for (const std::string& prop : props) {
    const size_t eq = prop.find('=');
    gst_util_set_object_arg(G_OBJECT(cmp), prop.substr(0, eq).c_str(),
                            prop.substr(eq + 1).c_str());
  }
  if (out != nullptr) {
    // The sink keeps the sync of the description (fakesink's default: off).
    g_object_set(out, "signal-handoffs", TRUE, nullptr);
    g_signal_connect(out, "handoff", G_CALLBACK(OnHandoff), &result);
  }
  if (prepare) prepare(pipeline);
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (;;) {
    GstMessage* message = gst_bus_timed_pop(bus, 60 * GST_SECOND);
    if (message == nullptr) {
      result.errors.push_back("timeout: no EOS within 60 s");
      break;
    }
    const bool done = Collect(message, &result);
    gst_message_unref(message);
    if (done || (watch && watch(pipeline, result))) break;
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_clear_object(&out);
  gst_clear_object(&cmp);
  gst_object_unref(pipeline);
  return result;
}

}  // namespace s2c_test
