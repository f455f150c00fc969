// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element's state (ElementState) and the small helpers
// (element_state.cc) that its files share: gstssimulacra2cmp.cc (the GObject
// and GstAggregator wiring: properties, caps, events, queries, start and
// stop), frame_flow.cc (the streaming path: pairing by running time),
// align_flow.cc (pairing by alignment), output_queue.cc (scoring, sending
// buffers out in order) and link_watch.cc (unlinked pads).
#ifndef S2C_GST_ELEMENT_STATE_H_
#define S2C_GST_ELEMENT_STATE_H_

#include <gst/video/video.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "alarm.h"
#include "backend.h"
#include "colour_interpretation.h"
#include "coverage.h"
#include "element_settings.h"
#include "frame_aligner.h"
#include "gstssimulacra2cmp.h"
#include "pairing.h"
#include "results_writer.h"
#include "score_message.h"
#include "sink_caps.h"
#include "stats.h"
#include "video_desc.h"
#include "window_summary.h"

namespace s2c {

// What becomes of one reference buffer on its way out (output_queue.h).
enum class PairState {
  kUnscored,  // leaves as it is: unpaired, late, skipped
  kWaiting,   // paired, waiting for room on the backend
  kScoring,   // on the backend, both frames mapped until its result is collected
  kScored,    // its score is in `frame`, waiting for its turn to leave
};

// One reference buffer on its way out, in output order.
struct Pending {
  PairState state = PairState::kUnscored;
  GstBuffer* ref = nullptr;
  bool gap = false;  // kUnscored: `ref` is a GAP event's empty buffer
  // kUnscored: before ref-start-frame, left out on purpose: it counts in no
  // window and no coverage.
  bool excluded = false;
  GstBuffer* dist = nullptr;  // kWaiting: the partner, not mapped yet
  GstVideoFrame ref_frame = {};   // kScoring
  GstVideoFrame dist_frame = {};  // kScoring
  uint64_t tag = 0;
  GstClockTime started_at = GST_CLOCK_TIME_NONE;  // live: running time at submission
  FrameMessage frame;  // what the frame message will say (the score once kScored)
};

enum PadIndex { kRef = 0, kDist = 1 };

inline const char* const kPadNames[2] = {"ref_sink", "dist_sink"};

struct PadFormat {
  bool known = false;
  GstVideoInfo info = {};
  FrameDesc own;   // as the pad's caps describe it
  FrameDesc desc;  // as it is read (colour_interpretation.h): what is scored
  bool cuda_memory = false;
};

// The distorted branch following the reference's size and frame rate
// (pad_caps.h).
struct DistFollow {
  // Streaming thread: it was asked to renegotiate to the reference's size
  // (rate), which it said it can produce; cleared when its next caps
  // arrive, or when its CAPS query shows that it cannot after all. Until
  // then the pairs of two sizes are skipped.
  bool size = false;
  bool rate = false;
  // Set by dist_sink's CAPS query, in the upstream's thread: a query since
  // the reference's caps left the reference's size (rate) out.
  std::atomic<bool> refuses_size{false};
  std::atomic<bool> refuses_rate{false};
};

// Per-segment results, read by the application through properties.
struct Results {
  uint64_t segment = 0;      // 0 from start, one more after each flush
  gint64 started_us = 0;     // g_get_monotonic_time() when it began, for fps
  ScoreStats stats;       // SSIMULACRA 2's scores
  ScoreStats ssim_stats;  // SSIM's combined raw values
  uint64_t ref_unpaired = 0;
  uint64_t dist_unpaired = 0;
  uint64_t ref_late = 0;
  uint64_t ref_skipped = 0;
  uint64_t ref_overdue = 0;
  uint64_t ref_gaps = 0;
  uint64_t results_lost = 0;
  uint64_t align_flagged = 0;  // pairs scored flagged (FrameMessage::align_flagged)
  uint64_t realignments = 0;   // decided alignments after the segment's first
  // Pairs made at each offset (frames), in the order the offsets were first
  // seen (SummaryMessage::offsets).
  std::vector<std::pair<int64_t, uint64_t>> offsets;
  double last_score = std::numeric_limits<double>::quiet_NaN();
};

// The feed watch (feed_watch.h), under its own lock: the sink pads' probes,
// the clock's thread and state changes touch it.
struct FeedWatchState {
  std::mutex lock;
  bool armed = false;        // in PLAYING, with a feed-timeout
  GstClock* clock = nullptr;  // a reference while armed
  GstClockTime timeout = 0;
  GstClockTime last[2] = {0, 0};  // clock time of each pad's last buffer
  bool lost[2] = {false, false};
  GstClockID id = nullptr;  // the next check
};

// A frame taken from its pad by align_flow.cc: a reference frame waiting
// for its verdict, or a distorted frame that a reference frame may still
// need.
struct HeldFrame {
  GstBuffer* buffer = nullptr;
  bool gap = false;  // reference: a GAP event's buffer, which leaves in its place
  bool excluded = false;  // reference: before ref-start-frame, leaves unscored in its place
  GstClockTime running_time = GST_CLOCK_TIME_NONE;
  uint64_t index = 0;   // at its pad, from 0 after its start frame (not for gaps)
  bool paired = false;  // distorted: scored with a reference frame
};

// Pairing by alignment (align_flow.h), per segment; the pads' frame counts
// in every align mode.
struct AlignState {
  std::unique_ptr<FrameAligner> aligner;  // align other than off
  std::deque<HeldFrame> held[2];          // [PadIndex], oldest first
  // Frames (gaps aside) that reached each pad in the segment, its start
  // frames included.
  uint64_t arrived[2] = {0, 0};
  bool ended[2] = {false, false};  // the aligner was told that the pad is at EOS
  bool decided = false;  // an offset was decided in the segment: the next is a realignment
  // A discontinuity or a restored feed: the aligner restarts before the
  // verdict of reference frame `restart_at`, the first the break can
  // concern (the aligner restarts from its oldest frame without one).
  bool restart_pending = false;
  uint64_t restart_at = 0;
  // The buffer that brought a lost feed back, set by the feed watch as it
  // reaches the pad (feed_watch.h), ahead of the buffers still queued at
  // the pad from before the loss. Compared with the buffers taken, never
  // dereferenced: the alignment restarts at that buffer, not at whichever
  // buffer is taken next (restore_next: it was a gap or a start frame, the
  // pad's next frame restarts it).
  std::atomic<GstBuffer*> restored_by[2] = {{nullptr}, {nullptr}};
  bool restore_next[2] = {false, false};
};

// Everything the element keeps between calls.
struct ElementState {
  ElementSettings settings;  // object lock
  ElementStrings strings;  // object lock
  // Object lock. From Start to Stop: the settings Start took are in effect,
  // and those that only Start reads refuse to change (SetProperty).
  bool started = false;
  // Object lock: the seqnum of the last FLUSH_START on each sink pad; a
  // flush on both (a seek) abandons the pairs on the backend at once.
  guint32 flush_start_seqnum[2] = {GST_SEQNUM_INVALID, GST_SEQNUM_INVALID};

  // Streaming state: the source pad task, start/stop and flush touch it,
  // never at the same time (the base class stops the task around flush).
  std::unique_ptr<Backend> backend;
  bool backend_is_cuda = false;
  // The backend's DeviceBytes after its last Configure or Submit, for the
  // device-memory property, which the application reads from its own
  // thread; 0 without a backend.
  std::atomic<uint64_t> device_bytes{0};
  // PairsInFlight when the element last warned that the backend keeps
  // fewer pairs than max-in-flight (0: no warning since start).
  int warned_pairs = 0;
  // The backend's, set at start; written under results_lock.
  unsigned metrics = kMetricSsimulacra2;
  int configured_width = 0;
  int configured_height = 0;
  PadFormat format[2];
  // With SSIM among the metrics: CheckSsimFormats of the two pads' formats,
  // set when caps change (ok until both pads have caps).
  Status ssim_formats;
  GstCaps* ref_caps = nullptr;
  bool negotiation_failed = false;
  bool paired_any = false;  // since start
  std::deque<Pending> pending;
  // Live: pairs whose reference went out unscored at its deadline while the
  // backend was still scoring them. Older than every pair in `pending`;
  // their frames stay mapped until the backend is done with them.
  std::deque<Pending> abandoned;
  // The aggregator's latency as the streaming path last read it (NONE: not
  // live), for get_next_time, which runs under the lock that reading takes.
  GstClockTime live_latency = GST_CLOCK_TIME_NONE;
  // Live: the backend's recent time per pair (0 until a first result) and
  // the running time of the last result, for starting only pairs that can
  // be scored in time (output_queue.cc).
  GstClockTime pair_time = 0;
  GstClockTime last_result_at = GST_CLOCK_TIME_NONE;
  uint64_t next_tag = 0;
  uint64_t frame_index = 0;
  AlignState align;
  ThresholdAlarm alarm;  // SSIMULACRA 2's threshold (alarm.h)
  WindowSummary window;  // summary-interval (window_summary.h)
  CoverageWatch coverage;  // min-coverage (coverage.h)
  // The pairing tolerance in effect for the last decision, for the
  // coverage message.
  int64_t pairing_tolerance = kAutoPairingTolerance;
  // The reference's frame period measured where its caps state no
  // framerate (RefFramePeriod); since start or the last flush.
  FramePeriod ref_period;
  bool warned_dist_ended = false;
  bool warned_rates = false;
  bool warned_results = false;  // since start: one warning for a failing file
  // Live: the two pads' frame sizes differ (a resolution change has reached
  // one of them); pairs are skipped, with one warning, until they agree.
  bool sizes_differ = false;
  bool aspects_differ = false;  // pixel-aspect-ratio: one warning per change
  DistFollow dist_follow;
  // The colour description the distorted stream last took from the
  // reference, as warned (one warning per change).
  std::string warned_colour;
  // Object lock: the reference's size and rate, which dist_sink's CAPS
  // query offers (from the reference's caps until stop), and each pad's
  // last refusal in an ACCEPT_CAPS query, warned once.
  bool followed_known = false;
  FollowedFormat followed;
  std::string refused_caps[2];
  ResultsWriter writer;
  // Since start: the element posted an error (the results file's last
  // summary says so). Set from whichever thread posts.
  std::atomic<bool> posted_error{false};
  GstClockID link_watch = nullptr;  // link_watch.h; start and stop only
  FeedWatchState feed;

  std::mutex results_lock;  // guards `results` against property reads
  Results results;
  // The label in effect since start (the label property, else the
  // element's name): results_lock, which the stats property takes.
  std::string label;
  // results_lock: colorimetry-mode since start, and what the distorted
  // stream's reading took from the reference's (DistReading::adopted),
  // for the summaries.
  ColorimetryMode colorimetry_mode = ColorimetryMode::kReference;
  std::string colorimetry_adopted;
};

// The settings as they are now (the object lock held for the copy).
ElementSettings ReadSettings(GstSsimulacra2Cmp* self);

inline GstAggregator* Agg(GstSsimulacra2Cmp* self) { return GST_AGGREGATOR(self); }

// Whether the pipeline is live (GstAggregator knows a latency only then).
// Takes the aggregator's source lock: never from get_next_time.
bool IsLive(GstSsimulacra2Cmp* self);

// The pairs the element keeps on the backend at most: max-in-flight, or
// fewer where the backend has room for fewer (Backend::Capacity: a CUDA
// backend fitted to device-memory-limit). Streaming thread only.
int PairsInFlight(GstSsimulacra2Cmp* self);

// Sets the aggregator's latency from the frames on the backend, the
// reference's framerate, dist-offset and the pairing tolerance; a change
// posts a LATENCY message.
void UpdateLatency(GstSsimulacra2Cmp* self);

// The reference's frame period (ns): from its negotiated framerate, else
// as measured (FramePeriod); 0 while unknown.
int64_t RefFramePeriod(const ElementState* p);

// The pairing tolerance in effect (PairingTolerance) at RefFramePeriod.
int64_t CurrentPairingTolerance(const ElementState* p, const ElementSettings& s, bool live);

// Posts an element message with structure s (taken).
void PostStructure(GstSsimulacra2Cmp* self, GstStructure* s);

// The message origin now: the label and the UTC time (score_message.h).
MessageOrigin Origin(ElementState* p);

// The segment's summary so far.
SummaryMessage MakeSummary(ElementState* p, const char* reason);

// Segment number `segment` begins: statistics, counters, frame index,
// alignment and alarm from zero.
void ResetSegment(ElementState* p, uint64_t segment);

// Releases the frames held for alignment and forgets the aligner and the
// pads' frame counts: a new segment, or stop.
void ResetAlignment(AlignState* a);

}  // namespace s2c

#endif  // S2C_GST_ELEMENT_STATE_H_
