// SPDX-License-Identifier: BSD-3-Clause
// One channel: its pipeline (the two feeds into an ssimulacra2cmp, out to a
// fakesink), its bus watch on the process's main loop, its metrics, and the
// restart of its pipeline, with exponential backoff, when it fails.
//
// Feed state: a pad probe on each of the element's sink pads notes when a
// buffer last came, and a feed is up from its first buffer. Then, where the
// element watches the feeds itself (ChannelPlan::element_watches_feeds),
// its feed messages take the feed down ("lost") and up ("restored");
// otherwise the feed is up while a buffer came within feed-timeout. A feed
// down for restart-timeout restarts the channel (a source that lost its
// peer reconnects only when restarted). An error from inside a feed's bin
// takes that feed down at once.
#ifndef S2C_MONITOR_CHANNEL_H_
#define S2C_MONITOR_CHANNEL_H_

#include <gst/gst.h>

#include <array>
#include <atomic>
#include <string>

#include "channel_plan.h"
#include "cuda_context_share.h"
#include "event_log.h"
#include "monitor_metrics.h"

namespace s2c::monitor {

class Channel {
 public:
  Channel(ChannelPlan plan, Metrics* metrics, CudaContextShare* contexts);
  // Stops the pipeline; the channel's series leave the metrics.
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Builds and plays the pipeline (once; restarts are the channel's own).
  void Start();
  const ChannelConfig& config() const { return plan_.config; }
  // Whether the pipeline has reached PLAYING at least once.
  bool has_started() const { return has_started_; }
  // Why the pipeline last failed ("pipeline error: …"), "" before a failure.
  const std::string& last_failure() const { return last_failure_; }

 private:
  enum FeedIndex { kReference = 0, kDistorted = 1 };
  struct FeedWatch {
    // Monotonic time of the last buffer (µs), 0 before the first since the
    // pipeline started; written by the streaming thread.
    std::atomic<gint64> last_buffer_us{0};
    bool up = false;
    bool lost_by_element = false;  // since the element's last feed message
  };

  bool Build(std::string* error);
  // Tears the pipeline down (main thread): feeds down, alarm over.
  void Stop();
  // Stop, log why (`reason`, and the error's text where there is one), and
  // restart after the backoff.
  void Fail(const char* reason, Details details, const std::string& error = "");
  void Restart();
  // The feed watch, a few times per feed-timeout.
  void CheckFeeds();
  void SetFeedUp(int feed, bool up, const char* why);
  void SetAlarm(bool on, Details details);
  void OnMessage(GstMessage* message);
  void OnElementMessage(GstMessage* message);
  // Which feed's bin `object` is in, or -1.
  int FeedOf(GstObject* object) const;

  static gboolean BusCallback(GstBus* bus, GstMessage* message, gpointer self);
  static GstBusSyncReply SyncCallback(GstBus* bus, GstMessage* message, gpointer self);
  static GstPadProbeReturn SinkProbe(GstPad* pad, GstPadProbeInfo* info, gpointer feed);
  static GstPadProbeReturn SourceProbe(GstPad* pad, GstPadProbeInfo* info, gpointer self);

  const ChannelPlan plan_;
  ChannelMetrics metrics_;
  CudaContextShare* contexts_;

  GstElement* pipeline_ = nullptr;
  GstElement* feed_bins_[2] = {nullptr, nullptr};
  guint bus_watch_ = 0;
  guint feed_timer_ = 0;
  guint restart_timer_ = 0;
  gint64 started_us_ = 0;  // when the pipeline last started
  bool playing_ = false;
  bool has_started_ = false;
  bool alarm_ = false;
  bool offset_decided_ = false;  // an alignment message decided an offset in this run
  guint backoff_ms_;
  uint64_t restarts_ = 0;
  std::string last_failure_;
  std::array<FeedWatch, 2> feeds_;
};

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_CHANNEL_H_
