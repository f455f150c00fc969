// SPDX-License-Identifier: BSD-3-Clause
#include "results_output.h"

#include <cerrno>
#include <cstring>

#include "element_state.h"

namespace s2c {
namespace {

// Why a record was not written: the errno of the write, or, when the file
// was already complete, that EOS completed it (a seek back after EOS scores
// on, without the file).
const char* WhyNotWritten(bool completed, int error) {
  return completed ? "the file was completed at EOS" : g_strerror(error);
}

// A record that the file could not take (`what` names it). With
// results-write-failure=error an element error, and true: the stream
// stops. Otherwise one warning per run, and the caller counts the record
// lost.
bool StopsOnFailure(GstSsimulacra2Cmp* self, const std::string& what, const char* why) {
  ResultsOutputState* out = &self->priv->output;
  if (ReadSettings(self).results_write_failure == ResultsFailure::kError) {
    GST_ELEMENT_ERROR(self, RESOURCE, WRITE,
                      ("Could not write %s to the results file; stopping "
                       "(results-write-failure=error).",
                       what.c_str()),
                      ("%s", why));
    return true;
  }
  if (!out->warned_results) {
    out->warned_results = true;
    GST_ELEMENT_WARNING(self, RESOURCE, WRITE,
                        ("Could not write %s to the results file; scoring goes on, the "
                         "summary's results-lost counts the records not written, and this "
                         "warning is not repeated.",
                         what.c_str()),
                        ("%s", why));
  }
  return false;
}

// The segment's pairs scored per second of wall-clock time since it
// began, NaN while it has none: libvmaf's "fps".
double SegmentFps(ResultsOutputState* out, const SummaryMessage& m) {
  std::lock_guard<std::mutex> lock(out->results_lock);
  const double seconds = (g_get_monotonic_time() - out->results.started_us) / 1e6;
  const uint64_t frames = m.frames_scored();
  return frames > 0 && seconds > 0 ? static_cast<double>(frames) / seconds : ScoreSummary::kNone;
}

void CountLost(ResultsOutputState* out) {
  std::lock_guard<std::mutex> lock(out->results_lock);
  ++out->results.results_lost;
}

}  // namespace

bool OpenResults(GstSsimulacra2Cmp* self, const ElementSettings& s, const std::string& location) {
  ResultsOutputState* out = &self->priv->output;
  if (location.empty()) return true;
  switch (out->writer.Open(location, s.results_format, "ssimulacra2cmp " S2C_VERSION, s.metrics,
                           s.results_append)) {
    case RecordFile::OpenResult::kOk:
      break;
    case RecordFile::OpenResult::kCannotContinue:
      GST_ELEMENT_ERROR(self, RESOURCE, OPEN_WRITE,
                        ("Cannot append to the results file \"%s\": %s. It is left as it "
                         "was; give another results-location.",
                         location.c_str(), out->writer.why_not_continued().c_str()),
                        (nullptr));
      return false;
    case RecordFile::OpenResult::kInUse:
      GST_ELEMENT_ERROR(self, RESOURCE, BUSY,
                        ("The results file \"%s\" is being written by another ssimulacra2cmp "
                         "element (of this process or another); give each element its own "
                         "results-location.",
                         location.c_str()),
                        (nullptr));
      return false;
    case RecordFile::OpenResult::kFailed: {
      const int error = errno;
      GST_ELEMENT_ERROR(self, RESOURCE, OPEN_WRITE,
                        ("Could not open the results file \"%s\" for writing.", location.c_str()),
                        ("%s", g_strerror(error)));
      return false;
    }
  }
  if (!out->writer.WriteHeader() && StopsOnFailure(self, "the header", g_strerror(errno))) {
    out->writer.Close();
    return false;
  }
  return true;
}

GstFlowReturn WriteFrameResults(GstSsimulacra2Cmp* self, const FrameMessage& f) {
  ResultsOutputState* out = &self->priv->output;
  const bool completed = out->writer.finished();
  if (!out->writer.is_open() || out->writer.Write(f)) return GST_FLOW_OK;
  if (StopsOnFailure(self, "frame " + std::to_string(f.frame_index),
                     WhyNotWritten(completed, errno))) {
    return GST_FLOW_ERROR;
  }
  CountLost(out);
  return GST_FLOW_OK;
}

GstFlowReturn EndSegment(GstSsimulacra2Cmp* self, const char* reason) {
  ResultsOutputState* out = &self->priv->output;
  const bool flush = std::strcmp(reason, "flush") == 0;
  SummaryMessage summary = MakeSummary(out, reason);
  GstFlowReturn flow = GST_FLOW_OK;
  const bool completed = out->writer.finished();
  const double fps = SegmentFps(out, summary);
  if (out->writer.is_open() &&
      !(flush ? out->writer.EndSegment(summary, fps) : out->writer.Finish(summary, fps))) {
    if (StopsOnFailure(self, "the summary", WhyNotWritten(completed, errno))) {
      flow = GST_FLOW_ERROR;
    } else {
      CountLost(out);
      ++summary.results_lost;
    }
  }
  PostStructure(self, summary.ToStructure());
  if (flush) ResetSegment(self->priv, summary.segment + 1);
  return flow;
}

void CloseResults(GstSsimulacra2Cmp* self) {
  ResultsOutputState* out = &self->priv->output;
  if (out->writer.is_open() && !out->writer.finished()) {
    const SummaryMessage summary = MakeSummary(out, out->posted_error ? "error" : "stop");
    out->writer.Finish(summary, SegmentFps(out, summary));
  }
  out->writer.Close();
}

}  // namespace s2c
