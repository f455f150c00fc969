// SPDX-License-Identifier: BSD-3-Clause
#include "channel.h"

#include <algorithm>

#include "score_message.h"
#include "ssimulacra2cmp-meta.h"

namespace s2c::monitor {
namespace {

// Restarts after a failure wait 1 s, doubling to 30 s; a pipeline that ran
// a minute before it failed starts again from 1 s.
constexpr guint kFirstBackoffMs = 1000;
constexpr guint kLongestBackoffMs = 30000;
constexpr gint64 kBackoffResetUs = 60 * G_USEC_PER_SEC;


double Seconds(gint64 us) { return static_cast<double>(us) / G_USEC_PER_SEC; }

}  // namespace

Channel::Channel(ChannelPlan plan, Metrics* metrics, CudaContextShare* contexts)
    : plan_(std::move(plan)),
      metrics_(metrics, plan_.config.name),
      contexts_(contexts),
      backoff_ms_(kFirstBackoffMs) {}

Channel::~Channel() {
  if (restart_timer_ != 0) g_source_remove(restart_timer_);
  Stop();
  LogEvent(config().name, "stopped");
}

void Channel::Start() {
  std::string error;
  if (!Build(&error)) {
    Fail("could not build the pipeline", Details().Add("error", error), error);
    return;
  }
  started_us_ = g_get_monotonic_time();
  if (gst_element_set_state(pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    // The element that refused posted why.
    GstBus* bus = gst_element_get_bus(pipeline_);
    GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    gst_object_unref(bus);
    if (message != nullptr) {
      OnMessage(message);
      gst_message_unref(message);
    } else {
      Fail("the pipeline would not start", Details());
    }
  }
}

bool Channel::Build(std::string* error) {
  pipeline_ = MakeChannelPipeline(config(), error);
  if (pipeline_ == nullptr) return false;
  offset_decided_ = false;
  GstElement* cmp = gst_bin_get_by_name(GST_BIN(pipeline_), kElementName);
  plan_.Apply(cmp);
  for (int feed : {kReference, kDistorted}) {
    // The pipeline holds the bins as long as the channel refers to them.
    feed_bins_[feed] = gst_bin_get_by_name(GST_BIN(pipeline_), kFeedNames[feed]);
    gst_object_unref(feed_bins_[feed]);
    feeds_[feed].last_buffer_us = 0;
    feeds_[feed].lost_by_element = false;
    GstPad* pad = gst_element_get_static_pad(cmp, kSinkPads[feed]);
    gst_pad_add_probe(pad,
                      static_cast<GstPadProbeType>(GST_PAD_PROBE_TYPE_BUFFER |
                                                   GST_PAD_PROBE_TYPE_BUFFER_LIST),
                      &Channel::SinkProbe, &feeds_[feed], nullptr);
    gst_object_unref(pad);
  }
  GstPad* src = gst_element_get_static_pad(cmp, "src");
  gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, &Channel::SourceProbe, this, nullptr);
  gst_object_unref(src);
  gst_object_unref(cmp);
  contexts_->Offer(pipeline_);
  GstBus* bus = gst_element_get_bus(pipeline_);
  gst_bus_set_sync_handler(bus, &Channel::SyncCallback, this, nullptr);
  bus_watch_ = gst_bus_add_watch(bus, &Channel::BusCallback, this);
  gst_object_unref(bus);
  feed_timer_ = g_timeout_add(std::max<guint>(config().feed_timeout_ns / 4'000'000, 10),
                              [](gpointer self) -> gboolean {
                                static_cast<Channel*>(self)->CheckFeeds();
                                return G_SOURCE_CONTINUE;
                              },
                              this);
  return true;
}

void Channel::Stop() {
  if (feed_timer_ != 0) g_source_remove(feed_timer_);
  feed_timer_ = 0;
  if (pipeline_ != nullptr) {
    GstBus* bus = gst_element_get_bus(pipeline_);
    gst_bus_remove_watch(bus);
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
    gst_object_unref(bus);
    gst_clear_object(&pipeline_);
  }
  bus_watch_ = 0;
  feed_bins_[kReference] = feed_bins_[kDistorted] = nullptr;
  playing_ = false;
  for (int feed : {kReference, kDistorted}) SetFeedUp(feed, false, "pipeline stopped");
  SetAlarm(false, Details().Add("reason", "pipeline stopped"));
  metrics_.ScoreStale();
  metrics_.WindowStale();
  metrics_.AlignmentStale();
}

void Channel::Fail(const char* reason, Details details, const std::string& error) {
  last_failure_ = error.empty() ? reason : std::string(reason) + ": " + error;
  const gint64 now = g_get_monotonic_time();
  if (playing_ && now - started_us_ >= kBackoffResetUs) backoff_ms_ = kFirstBackoffMs;
  Stop();
  LogEvent(config().name, "failed",
           details.Add("reason", reason).Add("restart_in_s", backoff_ms_ / 1000.0));
  restart_timer_ = g_timeout_add(backoff_ms_,
                                 [](gpointer self) -> gboolean {
                                   static_cast<Channel*>(self)->Restart();
                                   return G_SOURCE_REMOVE;
                                 },
                                 this);
  backoff_ms_ = std::min(backoff_ms_ * 2, kLongestBackoffMs);
}

void Channel::Restart() {
  restart_timer_ = 0;
  ++restarts_;
  metrics_.CountRestart();
  LogEvent(config().name, "restart", Details().Add("restarts", restarts_));
  Start();
}

void Channel::CheckFeeds() {
  if (!playing_) return;
  const gint64 now = g_get_monotonic_time();
  const gint64 timeout_us = static_cast<gint64>(config().feed_timeout_ns / 1000);
  for (int feed : {kReference, kDistorted}) {
    const gint64 last = feeds_[feed].last_buffer_us.load(std::memory_order_relaxed);
    const bool up = plan_.element_watches_feeds ? last != 0 && !feeds_[feed].lost_by_element
                                                : last != 0 && now - last < timeout_us;
    SetFeedUp(feed, up, "no buffer within feed-timeout");
    const gint64 quiet_us = now - std::max(last, started_us_);
    if (!feeds_[feed].up && quiet_us >= static_cast<gint64>(config().restart_timeout_ns / 1000)) {
      Fail("feed lost for restart-timeout",
           Details().Add("feed", kFeedNames[feed]).Add("quiet_s", Seconds(quiet_us)));
      return;
    }
  }
}

void Channel::SetFeedUp(int feed, bool up, const char* why) {
  if (feeds_[feed].up == up) return;
  feeds_[feed].up = up;
  metrics_.SetFeedUp(feed == kReference, up);
  if (!up) metrics_.ScoreStale();
  Details details;
  details.Add("feed", kFeedNames[feed]);
  if (!up) details.Add("reason", why);
  LogEvent(config().name, up ? "feed-restored" : "feed-lost", details);
}

void Channel::SetAlarm(bool on, Details details) {
  if (alarm_ == on) return;
  alarm_ = on;
  metrics_.SetAlarm(on);
  LogEvent(config().name, on ? "alarm" : "alarm-cleared", details);
}

int Channel::FeedOf(GstObject* object) const {
  for (int feed : {kReference, kDistorted}) {
    GstObject* bin = GST_OBJECT(feed_bins_[feed]);
    if (bin != nullptr && (object == bin || gst_object_has_as_ancestor(object, bin))) return feed;
  }
  return -1;
}

void Channel::OnMessage(GstMessage* message) {
  switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_ERROR: {
      GError* error = nullptr;
      gchar* debug = nullptr;
      gst_message_parse_error(message, &error, &debug);
      gchar* source = gst_object_get_path_string(GST_MESSAGE_SRC(message));
      Details details;
      details.Add("error", error->message).Add("source", source);
      if (debug != nullptr) details.Add("debug", debug);
      const int feed = FeedOf(GST_MESSAGE_SRC(message));
      if (feed >= 0) {
        details.Add("feed", kFeedNames[feed]);
        SetFeedUp(feed, false, error->message);
      }
      const std::string text =
          (feed >= 0 ? std::string(kFeedNames[feed]) + " feed: " : std::string()) + error->message;
      g_free(source);
      g_free(debug);
      g_error_free(error);
      Fail("pipeline error", details, text);
      break;
    }
    case GST_MESSAGE_EOS:
      Fail("end of stream", Details());
      break;
    case GST_MESSAGE_WARNING: {
      GError* warning = nullptr;
      gchar* debug = nullptr;
      gst_message_parse_warning(message, &warning, &debug);
      gchar* source = gst_object_get_path_string(GST_MESSAGE_SRC(message));
      Details details;
      details.Add("warning", warning->message).Add("source", source);
      // The debug text is often the only specific part ("clock problem").
      if (debug != nullptr) details.Add("debug", debug);
      LogEvent(config().name, "warning", details);
      g_free(source);
      g_free(debug);
      g_error_free(warning);
      break;
    }
    case GST_MESSAGE_STATE_CHANGED: {
      GstState state;
      gst_message_parse_state_changed(message, nullptr, &state, nullptr);
      if (GST_MESSAGE_SRC(message) == GST_OBJECT(pipeline_) && state == GST_STATE_PLAYING &&
          !playing_) {
        playing_ = true;
        has_started_ = true;
        LogEvent(config().name, "started", Details().Add("restarts", restarts_));
      }
      break;
    }
    case GST_MESSAGE_ELEMENT:
      OnElementMessage(message);
      break;
    default:
      break;
  }
}

void Channel::OnElementMessage(GstMessage* message) {
  const GstStructure* s = gst_message_get_structure(message);
  switch (s2c::GetMessageType(s)) {
    case s2c::MessageType::kFrame: {
      s2c::FrameMessage frame;
      if (s2c::FrameMessage::FromStructure(s, &frame) &&
          (frame.metrics & s2c::kMetricSsimulacra2)) {
        metrics_.Score(frame.score);
      }
      break;
    }
    case s2c::MessageType::kThreshold:
    case s2c::MessageType::kThresholdCleared: {
      s2c::ThresholdMessage threshold;
      if (!s2c::ThresholdMessage::FromStructure(s, &threshold)) break;
      SetAlarm(!threshold.cleared, Details()
                                       .Add("score", threshold.score)
                                       .Add("threshold", threshold.threshold)
                                       .Add("frame_index", threshold.frame_index));
      break;
    }
    case s2c::MessageType::kFeed: {
      s2c::FeedMessage feed_message;
      if (!plan_.element_watches_feeds || !s2c::FeedMessage::FromStructure(s, &feed_message)) {
        break;
      }
      const int feed = feed_message.distorted ? kDistorted : kReference;
      feeds_[feed].lost_by_element = feed_message.lost;
      SetFeedUp(feed, !feed_message.lost, "no buffer within feed-timeout (the element's)");
      break;
    }
    case s2c::MessageType::kAlignment: {
      s2c::AlignmentMessage alignment;
      if (!s2c::AlignmentMessage::FromStructure(s, &alignment)) break;
      metrics_.SetAlignmentOffset(alignment.offset_frames);
      // The decided offsets after the first are realignments, as the
      // element counts them; a segment's first (after a flush too) has
      // reason "start".
      if (alignment.decided && alignment.reason != "start" && offset_decided_) {
        metrics_.CountRealignment();
      }
      offset_decided_ = offset_decided_ || alignment.decided;
      LogEvent(config().name, "alignment",
               Details()
                   .Add("offset_frames", alignment.offset_frames)
                   .Add("offset_ns", alignment.offset_ns)
                   .Add("reason", alignment.reason)
                   .Add("decided", alignment.decided)
                   .Add("confidence", alignment.confidence)
                   .Add("frame_index", alignment.frame_index));
      break;
    }
    case s2c::MessageType::kWindow: {
      s2c::WindowMessage window;
      if (s2c::WindowMessage::FromStructure(s, &window)) {
        metrics_.SetWindow(window.scored_share(), window.scores.mean, window.scores.min,
                           window.scores.p5);
      }
      break;
    }
    default:
      break;
  }
}

gboolean Channel::BusCallback(GstBus*, GstMessage* message, gpointer self) {
  static_cast<Channel*>(self)->OnMessage(message);
  // A failure removed this watch already (Stop); the value is then unused.
  return G_SOURCE_CONTINUE;
}

GstBusSyncReply Channel::SyncCallback(GstBus*, GstMessage* message, gpointer self) {
  static_cast<Channel*>(self)->contexts_->OnSyncMessage(message);
  return GST_BUS_PASS;
}

GstPadProbeReturn Channel::SinkProbe(GstPad*, GstPadProbeInfo*, gpointer feed) {
  static_cast<FeedWatch*>(feed)->last_buffer_us.store(g_get_monotonic_time(),
                                                      std::memory_order_relaxed);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn Channel::SourceProbe(GstPad*, GstPadProbeInfo* info, gpointer self) {
  // Scored reference buffers carry the score meta; the others left unscored.
  ChannelMetrics& metrics = static_cast<Channel*>(self)->metrics_;
  if (gst_buffer_get_custom_meta(GST_PAD_PROBE_INFO_BUFFER(info), SSIMULACRA2CMP_META_NAME)) {
    metrics.CountScored();
  } else {
    metrics.CountSkipped();
  }
  return GST_PAD_PROBE_OK;
}

}  // namespace s2c::monitor
