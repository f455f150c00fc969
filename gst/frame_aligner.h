// SPDX-License-Identifier: BSD-3-Clause
// Automatic temporal alignment (align=auto), as pure logic: which distorted
// frame is each reference frame's partner, found from small luma thumbnails
// of both streams, followed through dropped and repeated frames. No
// GStreamer types, so it is unit-tested on its own; the element
// (frame_flow.cc) holds the buffers and asks it for one verdict at a time.
//
// Frames are numbered at each pad from 0 (after ref-start-frame and
// dist-start-frame), in arrival order; an offset o pairs reference frame i
// with distorted frame i + o. Scoring is not touched: a pair scored at
// offset o has the bits of the same two frames compared by hand.
#ifndef S2C_GST_FRAME_ALIGNER_H_
#define S2C_GST_FRAME_ALIGNER_H_

#include <array>
#include <cstdint>
#include <deque>

namespace s2c {

// A frame's luma as kThumbCols x kThumbRows block means, then normalised to
// mean 0 and standard deviation 1, so that a level or gain difference
// between the streams (or a reference read from RGB's green beside a
// distorted Y plane) does not count as a difference. `flat`: the frame's
// standard deviation is below the floor that makes its shape meaningful
// (black, a test card's flat field); it then votes for no offset.
constexpr int kThumbCols = 32;
constexpr int kThumbRows = 18;
struct Thumbnail {
  std::array<float, kThumbCols * kThumbRows> v{};
  bool flat = true;
};

// The thumbnail of one plane of samples: `data` points at the first
// sample's lowest byte, `row_stride` and `pixel_stride` are in bytes,
// `bytes_per_sample` 1 (8-bit) or 2 (little-endian, `depth` bits at the
// low end of the word shifted up by `shift`, as GstVideoFormatInfo
// describes them). Planes of at least kThumbCols x kThumbRows samples.
Thumbnail MakeThumbnail(const uint8_t* data, int width, int height, int row_stride,
                        int pixel_stride, int bytes_per_sample, int depth, int shift);

// Why an offset was (or could not be) decided, as the alignment message
// names it.
enum class AlignReason {
  kStart,          // the first decision of a segment
  kDrift,          // a change of more than one frame
  kDroppedFrame,   // the distorted stream lost a frame: the offset fell by one
  kRepeatedFrame,  // the distorted stream repeated a frame: the offset rose by one
  kFeedRestored,   // the first decision after Restart (feed lost and back, discontinuity)
  kUndecided,      // the window filled with no decision (flat or static content)
};
const char* AlignReasonName(AlignReason reason);  // "start", "dropped-frame", ...

struct AlignEvent {
  AlignReason reason = AlignReason::kStart;
  bool decided = false;       // false only for kUndecided
  int64_t offset_frames = 0;  // decided: the new offset; else the one assumed
  double confidence = 0.0;    // 0..1: 1 - best cost / second best, of the deciding frames
  uint64_t ref_index = 0;     // the first reference frame it applies to
};

struct AlignVerdict {
  enum class Kind {
    kPair,         // score ref_index with dist_index
    kRefUnpaired,  // the reference frame has no partner (window or stream ended)
  };
  Kind kind = Kind::kPair;
  uint64_t ref_index = 0;
  uint64_t dist_index = 0;  // kPair
  // kPair: scored while the offset was being (re)established, or against
  // the frame's own evidence; counted and flagged, not a trusted score.
  bool flagged = false;
};

enum class AlignMode {
  kAuto,   // search and follow the offset
  kIndex,  // offset 0 from the start frames: the n-th with the n-th
};

class FrameAligner {
 public:
  // `window`: offsets searched either way of the current one (align-window).
  FrameAligner(AlignMode mode, int window);

  // The next frame of each stream (its index is the count added so far).
  // kIndex ignores the thumbnails.
  void AddRef(const Thumbnail& t);
  void AddDist(const Thumbnail& t);
  // No more frames of that stream (EOS): verdicts no longer wait for it.
  void EndRef();
  void EndDist();
  // Forget the offset (feed lost and restored, a discontinuity): the next
  // decision is reported with `reason`.
  void Restart(AlignReason reason);

  // The verdict for the oldest reference frame that has none, once the
  // frames it needs are in; with `force` (a live deadline) from what is in
  // now. False: wait for more frames.
  bool Next(bool force, AlignVerdict* out);
  // Events since the last call, oldest first.
  bool TakeEvent(AlignEvent* out);

  // Distorted frames below this index can no longer be anyone's partner
  // (the element drops them, counted as unpaired).
  uint64_t OldestDistNeeded() const;
  // Frames of each stream the element may have to hold before a verdict:
  // the window either way plus the frames that confirm a decision.
  int FramesHeld() const;
  // The offset in effect and whether one has been decided since the start
  // or the last Restart.
  int64_t offset() const { return offset_; }
  bool decided() const { return decided_; }

 private:
  AlignMode mode_;
  int window_;
  int64_t offset_ = 0;
  bool decided_ = false;
  // Implementation state (thumbnails of the frames still in the window,
  // votes, pending events) is the implementation's to choose.
  std::deque<Thumbnail> ref_;
  std::deque<Thumbnail> dist_;
  std::deque<AlignEvent> events_;
};

}  // namespace s2c

#endif  // S2C_GST_FRAME_ALIGNER_H_
