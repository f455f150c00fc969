// SPDX-License-Identifier: BSD-3-Clause
// Automatic temporal alignment (frame_aligner.h; the rule is D88 in
// docs/decisions.md).
#include "frame_aligner.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace s2c {
namespace {

// Samples of a block: about kSamplesAcross columns by kSamplesDown rows on
// a regular grid (every pixel of planes under 512 x 144; about 100,000 of
// a 1080p plane).
constexpr int kSamplesAcross = 16;
constexpr int kSamplesDown = 8;
// A frame whose block means spread less than this share of full scale
// (standard deviation) is flat.
constexpr double kFlatFloor = 0.005;

// Frames whose votes confirm an offset (the frame and the next two).
constexpr int kConfirm = 3;
// A vote is confident when its best cost is at most kRatio times the next
// best and below it by at least kMinGap (mean absolute difference of
// normalised thumbnails: 0 for the same picture, about 1.1 for unrelated
// ones).
constexpr float kRatio = 0.5f;
constexpr float kMinGap = 0.01f;
// A pair without its own confirming vote is flagged when its cost exceeds
// kImplausible times the median of the last kAgreedCosts confirmed pairs'.
constexpr float kImplausible = 3.0f;
constexpr size_t kAgreedCosts = 8;

template <int kBytes>
uint32_t Sample(const uint8_t* p, int shift, uint32_t mask) {
  if (kBytes == 1) return (static_cast<uint32_t>(p[0]) >> shift) & mask;
  return ((static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8) >> shift) & mask;
}

// The sampled positions along one side: every `step`-th from step / 2,
// with the block of each; a block that none falls in (a side shorter than
// the grid) takes the position at its centre.
struct Positions {
  std::vector<int> at, block;
};
Positions Sampled(int size, int step, int blocks) {
  Positions p;
  int next_block = 0;
  for (int x = step / 2; x < size; x += step) {
    const int b = static_cast<int>(static_cast<int64_t>(x) * blocks / size);
    for (; next_block < b; ++next_block) {
      p.at.push_back(
          static_cast<int>((2 * static_cast<int64_t>(next_block) + 1) * size / (2 * blocks)));
      p.block.push_back(next_block);
    }
    p.at.push_back(x);
    p.block.push_back(b);
    next_block = b + 1;
  }
  for (; next_block < blocks; ++next_block) {
    p.at.push_back(
        static_cast<int>((2 * static_cast<int64_t>(next_block) + 1) * size / (2 * blocks)));
    p.block.push_back(next_block);
  }
  return p;
}

// The sums of the samples of each block and their counts.
template <int kBytes>
void SumBlocks(const uint8_t* data, int width, int height, int row_stride, int pixel_stride,
               int shift, uint32_t mask, uint64_t* sums, uint32_t* counts) {
  const Positions cols =
      Sampled(width, std::max(1, width / (kThumbCols * kSamplesAcross)), kThumbCols);
  const Positions rows =
      Sampled(height, std::max(1, height / (kThumbRows * kSamplesDown)), kThumbRows);
  std::vector<ptrdiff_t> col_offset(cols.at.size());
  uint32_t cols_in[kThumbCols] = {}, rows_in[kThumbRows] = {};
  for (size_t i = 0; i < cols.at.size(); ++i) {
    col_offset[i] = static_cast<ptrdiff_t>(cols.at[i]) * pixel_stride;
    ++cols_in[cols.block[i]];
  }
  for (size_t r = 0; r < rows.at.size(); ++r) {
    ++rows_in[rows.block[r]];
    const uint8_t* row = data + static_cast<ptrdiff_t>(rows.at[r]) * row_stride;
    uint64_t* block_sums = sums + rows.block[r] * kThumbCols;
    for (size_t i = 0; i < col_offset.size(); ++i) {
      block_sums[cols.block[i]] += Sample<kBytes>(row + col_offset[i], shift, mask);
    }
  }
  for (int r = 0; r < kThumbRows; ++r) {
    for (int c = 0; c < kThumbCols; ++c) counts[r * kThumbCols + c] = rows_in[r] * cols_in[c];
  }
}

}  // namespace

Thumbnail MakeThumbnail(const uint8_t* data, int width, int height, int row_stride,
                        int pixel_stride, int bytes_per_sample, int depth, int shift) {
  constexpr int kBlocks = kThumbCols * kThumbRows;
  uint64_t sums[kBlocks] = {};
  uint32_t counts[kBlocks] = {};
  const uint32_t mask = depth >= 32 ? 0xffffffffu : (1u << depth) - 1u;
  if (bytes_per_sample == 1) {
    SumBlocks<1>(data, width, height, row_stride, pixel_stride, shift, mask, sums, counts);
  } else {
    SumBlocks<2>(data, width, height, row_stride, pixel_stride, shift, mask, sums, counts);
  }
  // In doubles from integer sums, so that the same picture at another bit
  // depth (its samples times a power of two) gives the same floats.
  double means[kBlocks];
  double total = 0.0;
  for (int b = 0; b < kBlocks; ++b) {
    means[b] = static_cast<double>(sums[b]) / counts[b];
    total += means[b];
  }
  const double mean = total / kBlocks;
  double squares = 0.0;
  for (int b = 0; b < kBlocks; ++b) squares += (means[b] - mean) * (means[b] - mean);
  const double deviation = std::sqrt(squares / kBlocks);
  Thumbnail t;
  t.flat = deviation < kFlatFloor * mask;
  if (t.flat) return t;  // its values stay 0
  for (int b = 0; b < kBlocks; ++b) {
    t.v[b] = static_cast<float>((means[b] - mean) / deviation);
  }
  return t;
}

const char* AlignReasonName(AlignReason reason) {
  switch (reason) {
    case AlignReason::kStart: return "start";
    case AlignReason::kDrift: return "drift";
    case AlignReason::kDroppedFrame: return "dropped-frame";
    case AlignReason::kRepeatedFrame: return "repeated-frame";
    case AlignReason::kFeedRestored: return "feed-restored";
    case AlignReason::kUndecided: return "undecided";
  }
  return "unknown";
}

FrameAligner::FrameAligner(AlignMode mode, int window) : mode_(mode), window_(window) {}

void FrameAligner::AddRef(const Thumbnail& t) {
  ++ref_count_;
  if (mode_ == AlignMode::kAuto) {
    RefFrame frame;
    frame.thumb = t;
    ref_.push_back(frame);
  }
}

void FrameAligner::AddDist(const Thumbnail& t) {
  ++dist_count_;
  if (mode_ == AlignMode::kAuto) dist_.push_back(t);
}

void FrameAligner::EndRef() { ref_ended_ = true; }
void FrameAligner::EndDist() { dist_ended_ = true; }

void FrameAligner::Restart(AlignReason reason) {
  decided_ = false;
  first_reason_ = reason;
  undecided_reported_ = false;
  agreed_costs_.clear();
}

bool FrameAligner::TakeEvent(AlignEvent* out) {
  if (events_.empty()) return false;
  *out = events_.front();
  events_.pop_front();
  return true;
}

int FrameAligner::FramesHeld() const {
  if (mode_ == AlignMode::kIndex) return 1;
  return 2 * window_ + kConfirm + 1;
}

uint64_t FrameAligner::OldestDistNeeded() const {
  if (mode_ == AlignMode::kIndex) return static_cast<uint64_t>(next_ref_);
  const int64_t oldest = std::max({int64_t{0}, last_trusted_ + 1, next_ref_ + offset_ - window_});
  return static_cast<uint64_t>(oldest);
}

bool FrameAligner::Next(bool force, AlignVerdict* out) {
  if (next_ref_ >= ref_count_) return false;
  return mode_ == AlignMode::kIndex ? NextIndex(force, out) : NextAuto(force, out);
}

bool FrameAligner::NextIndex(bool force, AlignVerdict* out) {
  const int64_t i = next_ref_;
  if (i >= dist_count_ && !dist_ended_ && !force) return false;
  Emit(i, i < dist_count_, false, out);
  return true;
}

float FrameAligner::Cost(const Thumbnail& ref, int64_t dist_index) const {
  const Thumbnail& d = dist_[static_cast<size_t>(dist_index - dist_base_)];
  float sum = 0.0f;
  for (size_t b = 0; b < ref.v.size(); ++b) sum += std::fabs(ref.v[b] - d.v[b]);
  return sum / static_cast<float>(ref.v.size());
}

// Candidates: distorted frames within the window of the offset in effect
// that exist (not before the first, nor before the thumbnails kept, nor
// after the end). A flat frame, or one with fewer than two candidates,
// does not vote; forced, neither does one whose candidates are not all in.
FrameAligner::Vote FrameAligner::VoteOf(int64_t k, bool force) {
  Vote vote;
  if (k >= ref_count_) {
    if (!ref_ended_ && !force) vote.state = Vote::State::kWait;
    return vote;
  }
  RefFrame& frame = ref_[static_cast<size_t>(k - next_ref_)];
  if (frame.vote_final && frame.vote_centre == offset_) return frame.vote;
  const int64_t lo = std::max({int64_t{0}, dist_base_, k + offset_ - window_});
  int64_t hi = k + offset_ + window_;
  if (hi >= dist_count_) {
    if (!dist_ended_) {
      if (!force) vote.state = Vote::State::kWait;
      return vote;
    }
    hi = dist_count_ - 1;
  }
  if (!frame.thumb.flat && hi > lo) {
    vote.state = Vote::State::kVote;
    vote.best = vote.second = INFINITY;
    for (int64_t j = lo; j <= hi; ++j) {
      const float cost = Cost(frame.thumb, j);
      if (cost < vote.best) {
        vote.second = vote.best;
        vote.best = cost;
        vote.offset = j - k;
      } else if (cost < vote.second) {
        vote.second = cost;
      }
    }
    vote.confident = vote.best <= kRatio * vote.second && vote.second - vote.best >= kMinGap;
  }
  frame.vote_final = true;
  frame.vote_centre = offset_;
  frame.vote = vote;
  return vote;
}

FrameAligner::Adoption FrameAligner::AdoptionAt(int64_t k, bool force, int64_t* offset,
                                                double* confidence) {
  bool waiting = false, have = false;
  int64_t voted = 0;
  double sum = 0.0;
  for (int64_t m = k; m < k + kConfirm; ++m) {
    const Vote v = VoteOf(m, force);
    if (v.state == Vote::State::kWait) {
      waiting = true;
      continue;
    }
    if (v.state == Vote::State::kNone || !v.confident) return Adoption::kNo;
    if (have && v.offset != voted) return Adoption::kNo;
    have = true;
    voted = v.offset;
    sum += 1.0 - v.best / v.second;
  }
  if (waiting) return Adoption::kWait;
  if (decided_ && voted == offset_) return Adoption::kNo;
  *offset = voted;
  *confidence = sum / kConfirm;
  return Adoption::kYes;
}

FrameAligner::Adoption FrameAligner::SearchDecision(bool force, int64_t* offset, double* confidence,
                                                    int64_t* at) {
  // The search stops where its votes would need more than FramesHeld()
  // frames of either stream: the reference from the oldest waiting, the
  // distorted from the oldest still needed.
  const int64_t held = FramesHeld();
  const int64_t last_by_ref = next_ref_ + held - kConfirm;
  const int64_t last_by_dist =
      static_cast<int64_t>(OldestDistNeeded()) + held - kConfirm - offset_ - window_;
  const int64_t last = std::min(last_by_ref, last_by_dist);
  for (int64_t k = next_ref_; k <= last; ++k) {
    const Adoption a = AdoptionAt(k, force, offset, confidence);
    if (a != Adoption::kNo) {
      *at = k;
      return a;
    }
  }
  return Adoption::kNo;
}

void FrameAligner::Adopt(int64_t offset, AlignReason reason, double confidence) {
  AlignEvent e;
  e.reason = reason;
  e.decided = true;
  e.offset_frames = offset;
  e.confidence = confidence;
  e.ref_index = static_cast<uint64_t>(next_ref_);
  events_.push_back(e);
  offset_ = offset;
  decided_ = true;
  undecided_reported_ = false;
}

bool FrameAligner::ReleaseUndecided(bool force, AlignVerdict* out) {
  const int64_t partner = next_ref_ + offset_;
  if (partner >= dist_count_ && !dist_ended_ && !force) return false;
  if (!undecided_reported_) {
    AlignEvent e;
    e.reason = AlignReason::kUndecided;
    e.offset_frames = offset_;
    e.ref_index = static_cast<uint64_t>(next_ref_);
    events_.push_back(e);
    undecided_reported_ = true;
  }
  Emit(partner, partner >= 0 && partner > last_trusted_ && partner < dist_count_, true, out);
  return true;
}

bool FrameAligner::Implausible(float cost) const {
  if (agreed_costs_.empty()) return false;
  std::vector<float> costs(agreed_costs_.begin(), agreed_costs_.end());
  std::nth_element(costs.begin(), costs.begin() + costs.size() / 2, costs.end());
  return cost > kImplausible * costs[costs.size() / 2];
}

bool FrameAligner::NextAuto(bool force, AlignVerdict* out) {
  const int64_t i = next_ref_;
  int64_t offset = 0;
  double confidence = 0.0;
  // The frame's own vote, around the offset in effect before any change
  // at this frame: the evidence that decides or confirms it.
  Vote own;
  if (!decided_) {
    int64_t at = 0;
    const Adoption a = SearchDecision(force, &offset, &confidence, &at);
    if (a == Adoption::kWait) return false;
    if (a == Adoption::kNo) return ReleaseUndecided(force, out);
    own = VoteOf(i, force);  // the search has it
    Adopt(offset, first_reason_, confidence);
    first_reason_ = AlignReason::kStart;
    decided_at_ = at;
  } else {
    own = VoteOf(i, force);
    if (own.state == Vote::State::kWait) return false;
    if (i > decided_at_) {
      const Adoption a = AdoptionAt(i, force, &offset, &confidence);
      if (a == Adoption::kWait) return false;
      if (a == Adoption::kYes) {
        const int64_t change = offset - offset_;
        Adopt(offset,
              change == -1  ? AlignReason::kDroppedFrame
              : change == 1 ? AlignReason::kRepeatedFrame
                            : AlignReason::kDrift,
              confidence);
        changed_at_ = i;
      }
    }
  }
  const int64_t partner = i + offset_;
  if (partner >= dist_count_ && !dist_ended_ && !force) return false;
  // The next frame's change, seen one frame ahead: a frame just before a
  // change is where the distorted stream lost or repeated one.
  bool change_next = false;
  int64_t next_offset = 0;
  if (i >= decided_at_) {
    const Adoption a = AdoptionAt(i + 1, force, &next_offset, &confidence);
    if (a == Adoption::kWait) return false;
    change_next = a == Adoption::kYes;
  }
  const bool confident = own.state == Vote::State::kVote && own.confident;
  const bool agrees = confident && own.offset == offset_;
  // A distorted frame pairs unflagged at most once, and after the last
  // unflagged pair's (a flagged pair's may pair again). Where the next
  // frame's new offset claims this frame's partner (the offset falls: a
  // frame was lost), of the two the one of higher cost has none.
  const Thumbnail& thumb = ref_.front().thumb;
  bool paired = partner >= 0 && partner > last_trusted_ && partner < dist_count_;
  const int64_t claimed = i + 1 + next_offset;
  if (paired && change_next && claimed <= partner) {
    paired = Cost(thumb, partner) <= Cost(ref_[1].thumb, claimed);
  }
  bool flagged;
  if (i < decided_at_) {
    flagged = !agrees;  // before the votes that decided the offset
  } else {
    const bool at_change = changed_at_ == i || change_next;
    flagged = (confident && !agrees) || (!confident && at_change) ||
              (paired && !agrees && !thumb.flat && Implausible(Cost(thumb, partner)));
  }
  if (paired && agrees) {
    agreed_costs_.push_back(own.best);
    if (agreed_costs_.size() > kAgreedCosts) agreed_costs_.pop_front();
  }
  Emit(partner, paired, flagged, out);
  return true;
}

void FrameAligner::Emit(int64_t partner, bool paired, bool flagged, AlignVerdict* out) {
  *out = AlignVerdict();
  out->ref_index = static_cast<uint64_t>(next_ref_);
  if (paired) {
    out->kind = AlignVerdict::Kind::kPair;
    out->dist_index = static_cast<uint64_t>(partner);
    out->flagged = flagged;
    if (!flagged) last_trusted_ = partner;
  } else {
    out->kind = AlignVerdict::Kind::kRefUnpaired;
  }
  ++next_ref_;
  if (mode_ == AlignMode::kIndex) return;
  ref_.pop_front();
  // Thumbnails of distorted frames that no vote can reach any more: below
  // the window of the window (an offset adopted at its edge re-centres the
  // next votes there).
  const int64_t keep = std::min(dist_count_, next_ref_ + offset_ - 2 * int64_t{window_});
  while (dist_base_ < keep) {
    dist_.pop_front();
    ++dist_base_;
  }
}

}  // namespace s2c
