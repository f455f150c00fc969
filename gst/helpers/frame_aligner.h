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
//
// The rule (docs/decisions.md, D88 and D89). The cost of pairing reference
// frame i with distorted frame j is the mean absolute difference of their
// thumbnails. Frame i votes for the offset of least cost among the
// distorted frames within `window` of the offset in effect (0 before the
// first decision, the last one after a Restart); the vote is confident
// when that cost is at most half the next least and below it by 0.01.
// Flat frames, and frames whose candidates are not all in when forced, do
// not vote. An offset is adopted at frame i when frames i, i+1 and i+2 all
// vote for it confidently: the first decision of a segment
// (kStart, or Restart's reason) applies from the oldest frame waiting, a
// change from i (kDroppedFrame -1, kRepeatedFrame +1, kDrift else).
// Before the first decision reference frames wait while the frames held
// could still show one; otherwise the oldest leaves at the assumed offset,
// flagged, with one kUndecided event per undecided stretch.
// A verdict looks one frame ahead (a change at i+1). A pair is flagged
// when the frame's own confident vote contradicts the offset (a
// transient), when it has no confident vote and sits at a change, when it
// precedes the votes that made the first decision without confirming it,
// or when, without a confirming vote, its cost exceeds 3 times the median
// of the last 8 confirmed pairs' (no good partner). A reference frame is
// unpaired when its partner is before the first distorted frame, after the
// last (at the end, or forced), not after the last unflagged pair's, or
// claimed at a lower cost by the next frame's new offset (the frame whose
// partner the distorted stream lost). Without `force` the verdicts depend
// only on the two streams, not on the order in which their frames arrive.
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
// describes them). The block means are of a regular subset of samples,
// about 16 x 8 a block (every sample of planes under 512 x 144); a plane
// smaller than the grid repeats its samples. Flat: a standard deviation of
// the block means under 0.5 % of full scale; a flat thumbnail's values
// are 0.
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
  // (the element drops them, counted as unpaired): those up to the last
  // unflagged pair's, and those beyond the window below the oldest
  // reference frame waiting. kIndex: the oldest reference frame waiting.
  uint64_t OldestDistNeeded() const;
  // Frames of each stream the element may have to hold before a verdict:
  // the window either way plus the frames that confirm a decision and the
  // one seen ahead, 2 x window + 4 (kIndex: 1). Reference frames from the
  // oldest without a verdict, distorted ones from OldestDistNeeded(); with
  // no more than that held of either stream a verdict always comes
  // (Next without force never waits for a frame beyond them).
  int FramesHeld() const;
  // The offset in effect and whether one has been decided since the start
  // or the last Restart.
  int64_t offset() const { return offset_; }
  bool decided() const { return decided_; }

 private:
  // A reference frame's choice among the distorted frames within `window_`
  // of a centre offset. kWait: a candidate (or the frame) is not in yet.
  struct Vote {
    enum class State { kWait, kNone, kVote } state = State::kNone;
    int64_t offset = 0;  // kVote: the offset of least cost
    float best = 0.0f;   // kVote: that cost, and the next least
    float second = 0.0f;
    bool confident = false;
  };
  struct RefFrame {
    Thumbnail thumb;
    // The vote around `vote_centre`, once all its candidates were in.
    bool vote_final = false;
    int64_t vote_centre = 0;
    Vote vote;
  };
  // Whether frames k, k+1 and k+2 all confidently vote for one offset
  // that is not the one in effect (or for any, before the first decision).
  enum class Adoption { kWait, kNo, kYes };

  bool NextIndex(bool force, AlignVerdict* out);
  bool NextAuto(bool force, AlignVerdict* out);
  // Before the first decision: the earliest frame from the oldest that
  // confirms an offset, within the frames held.
  Adoption SearchDecision(bool force, int64_t* offset, double* confidence, int64_t* at);
  bool ReleaseUndecided(bool force, AlignVerdict* out);
  Vote VoteOf(int64_t k, bool force);
  Adoption AdoptionAt(int64_t k, bool force, int64_t* offset, double* confidence);
  float Cost(const Thumbnail& ref, int64_t dist_index) const;
  bool Implausible(float cost) const;
  void Adopt(int64_t offset, AlignReason reason, double confidence);
  void Emit(int64_t partner, bool paired, bool flagged, AlignVerdict* out);

  AlignMode mode_;
  int window_;
  int64_t offset_ = 0;
  bool decided_ = false;
  AlignReason first_reason_ = AlignReason::kStart;  // of the next first decision
  bool undecided_reported_ = false;                 // one kUndecided event per undecided stretch
  int64_t decided_at_ = 0;                          // the frame whose votes made the first decision
  int64_t changed_at_ = -1;                         // the frame a later change applies from
  int64_t ref_count_ = 0, dist_count_ = 0;          // frames added
  bool ref_ended_ = false, dist_ended_ = false;
  int64_t next_ref_ = 0;       // the oldest reference frame without a verdict: ref_.front()
  int64_t dist_base_ = 0;      // the index of dist_.front()
  int64_t last_trusted_ = -1;  // the distorted partner of the last unflagged pair
  std::deque<RefFrame> ref_;
  std::deque<Thumbnail> dist_;
  std::deque<float> agreed_costs_;  // the last pairs' costs that their own vote confirmed
  std::deque<AlignEvent> events_;
};

}  // namespace s2c

#endif  // S2C_GST_FRAME_ALIGNER_H_
