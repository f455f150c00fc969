// SPDX-License-Identifier: BSD-3-Clause
// How the element reads colour and negotiates caps. Identical pictures
// score exactly 100 whatever container carried them and however it
// labelled them (the distorted stream is read with the reference's colour
// description), and each stream by its own with colorimetry-mode=
// per-stream; BT.2020 is converted, not read as sRGB. dist_sink offers the
// reference's size and frame rate, so that a videoscale or videorate before
// it converts; a videoconvert routes around what the pads refuse, whose
// queries agree with the CAPS event, and the HDR refusal names a fragment
// that works. Clips are made at test time with ffmpeg (libx264, libvpx).
// The C++ headers come first: gstcheck.h defines a macro named fail, which
// std::basic_ios has as a member.
#include <string>
#include <vector>

#include "pipeline_run.h"
#include "test_files.h"
#include "test_pipelines.h"

#include <gst/check/gstcheck.h>

using s2c_test::AssertBits;
using s2c_test::Contains;
using s2c_test::I420;
using s2c_test::RunPipeline;
using s2c_test::RunResult;
using s2c_test::SameBits;
using s2c_test::Source;
using s2c_test::TwoSources;

namespace {

// Runs ffmpeg quietly with `args`; fails the test with its output when it
// does not succeed.
void Ffmpeg(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"ffmpeg", "-loglevel", "error", "-y"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  gchar* err = nullptr;
  gint status = 0;
  GError* error = nullptr;
  const gboolean ran = g_spawn_sync(nullptr, const_cast<gchar**>(argv.data()), nullptr,
                                    G_SPAWN_SEARCH_PATH, nullptr, nullptr, nullptr, &err,
                                    &status, &error);
  fail_unless(ran && g_spawn_check_wait_status(status, nullptr), "ffmpeg %s failed: %s",
              args.back().c_str(), error != nullptr ? error->message : err);
  g_clear_error(&error);
  g_free(err);
}

// One picture sequence in six containers, every decode the same pixels.
// The H.264 stream (libx264, lossy) is stored as it is in .mp4 and .mkv,
// and in .ts with other colour labels in its VUI (h264_metadata rewrites
// the SPS only); its decode is dumped to .y4m and to raw .yuv, and encoded
// losslessly with VP9, labelled `relabel`, into .webm. `relabel` gives
// H.264's matrix, primaries and transfer code (table E-5): 1 BT.709, 6
// BT.601 (SMPTE 170M), whichever the size does not default to.
class Clips {
 public:
  Clips(int width, int height, int frames, int relabel)
      : dir_("colour"), width_(width), height_(height) {
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    const std::string code = std::to_string(relabel);
    const char* name = relabel == 1 ? "bt709" : "smpte170m";
    Ffmpeg({"-f", "lavfi", "-i", "testsrc2=size=" + size + ":rate=25", "-frames:v",
            std::to_string(frames), "-c:v", "libx264", "-pix_fmt", "yuv420p", Path("mp4")});
    Ffmpeg({"-i", Path("mp4"), "-c", "copy", Path("mkv")});
    Ffmpeg({"-i", Path("mp4"), "-c", "copy", "-bsf:v",
            "h264_metadata=colour_primaries=" + code + ":transfer_characteristics=" + code +
                ":matrix_coefficients=" + code,
            Path("ts")});
    Ffmpeg({"-i", Path("mp4"), "-pix_fmt", "yuv420p", Path("y4m")});
    Ffmpeg({"-i", Path("mp4"), "-f", "rawvideo", Path("yuv")});
    Ffmpeg({"-i", Path("y4m"), "-c:v", "libvpx-vp9", "-lossless", "1", "-colorspace", name,
            "-color_primaries", name, "-color_trc", name, Path("webm")});
  }

  std::string Path(const std::string& ext) const { return dir_ / ("clip." + ext); }

  // A pipeline fragment that decodes the clip in container `ext`.
  std::string Decode(const std::string& ext) const {
    if (ext == "yuv") {
      return "filesrc location=" + Path(ext) + " ! rawvideoparse format=i420 width=" +
             std::to_string(width_) + " height=" + std::to_string(height_) +
             " framerate=25/1";
    }
    return "filesrc location=" + Path(ext) + " ! decodebin";
  }

 private:
  s2c::test::TempDir dir_;
  int width_;
  int height_;
};

RunResult Compare(const Clips& clips, const std::string& ref, const std::string& dist,
                  const std::vector<std::string>& props = {}) {
  return RunPipeline(clips.Decode(ref) + " ! cmp.ref_sink " + clips.Decode(dist) +
                         " ! cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out",
                     props);
}

// The .mp4's decode against each other container's: exactly 100 for every
// frame; where the labels differ (the .ts and the .webm), a warning and the
// summary name what the distorted stream took from the reference.
void ExpectSamePicturesFromEveryContainer(int width, int height, int frames, int relabel,
                                          const char* adopted) {
  const Clips clips(width, height, frames, relabel);
  for (const char* dist : {"ts", "mkv", "y4m", "yuv", "webm"}) {
    const RunResult r = Compare(clips, "mp4", dist);
    fail_unless(r.errors.empty(), "%s: %s", dist, r.errors.empty() ? "" : r.errors[0].c_str());
    fail_unless_equals_int(r.frames.size(), frames);
    for (const s2c::FrameMessage& f : r.frames) {
      fail_unless(SameBits(f.score, 100.0), "%dx%d .mp4 vs .%s: frame %d scores %.17g", width,
                  height, dist, static_cast<int>(f.frame_index), f.score);
    }
    fail_unless_equals_int(r.summaries.size(), 1);
    const s2c::SummaryMessage& s = r.summaries[0];
    fail_unless(s.colorimetry_mode == "reference");
    const bool relabelled = std::string(dist) == "ts" || std::string(dist) == "webm";
    if (relabelled) {
      fail_unless(s.colorimetry_adopted.find(adopted) != std::string::npos,
                  ".%s: adopted \"%s\" lacks \"%s\"", dist, s.colorimetry_adopted.c_str(),
                  adopted);
      fail_unless(Contains(r.warnings, "colorimetry-mode=per-stream"), ".%s: no warning", dist);
    }
  }
}

GST_START_TEST(test_identical_pictures_score_100_from_any_container_sd) {
  // 720x576 defaults to BT.601; the .ts and .webm say BT.709.
  ExpectSamePicturesFromEveryContainer(720, 576, 2, 1, "matrix bt709 -> bt601");
}
GST_END_TEST;

GST_START_TEST(test_identical_pictures_score_100_from_any_container_hd) {
  // 1280x720 defaults to BT.709; the .ts and .webm say BT.601.
  ExpectSamePicturesFromEveryContainer(1280, 720, 1, 6, "matrix bt601 -> bt709");
}
GST_END_TEST;

GST_START_TEST(test_per_stream_reads_each_stream_by_its_own_caps) {
  const Clips clips(320, 240, 2, 1);
  const RunResult r = Compare(clips, "mp4", "ts", {"colorimetry-mode=per-stream"});
  fail_unless(r.errors.empty(), "%s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 2);
  for (const s2c::FrameMessage& f : r.frames) {
    fail_unless(f.score < 100.0, "BT.709 read as such against BT.601 scores %.17g", f.score);
  }
  fail_unless(r.summaries[0].colorimetry_mode == "per-stream");
  fail_unless(r.summaries[0].colorimetry_adopted.empty());
  fail_if(Contains(r.warnings, "colorimetry-mode"), "a warning with per-stream");
}
GST_END_TEST;

// Frame scores of a smpte-bars reference against a ball distorted stream,
// both RGB labelled `colorimetry`.
std::vector<double> RgbScores(const char* colorimetry) {
  const std::string caps = std::string("video/x-raw,format=RGB,width=64,height=48,"
                                       "framerate=25/1,colorimetry=") + colorimetry;
  const RunResult r = RunPipeline(TwoSources(Source(2, caps.c_str()),
                                             Source(2, caps.c_str(), "ball")));
  fail_unless(r.errors.empty(), "%s: %s", colorimetry,
              r.errors.empty() ? "" : r.errors[0].c_str());
  std::vector<double> scores;
  for (const s2c::FrameMessage& f : r.frames) scores.push_back(f.score);
  fail_unless_equals_int(scores.size(), 2);
  return scores;
}

GST_START_TEST(test_bt2020_is_converted_not_read_as_srgb) {
  const std::vector<double> srgb = RgbScores("sRGB");
  const std::vector<double> bt2020 = RgbScores("bt2020");
  const std::vector<double> bt2020_10 = RgbScores("bt2020-10");
  for (size_t i = 0; i < srgb.size(); ++i) {
    fail_if(SameBits(srgb[i], bt2020[i]), "frame %zu: BT.2020 scores as sRGB, %.17g", i,
            srgb[i]);
    // Both are SDR BT.2020: one conversion.
    AssertBits(bt2020_10[i], bt2020[i]);
  }
}
GST_END_TEST;

GST_START_TEST(test_videoscale_before_dist_sink_takes_the_reference_size) {
  const RunResult r = RunPipeline(
      TwoSources(Source(6, I420(25).c_str()),
                 Source(6, "video/x-raw,format=I420,width=32,height=24,framerate=25/1",
                        "ball") + " ! videoscale"));
  fail_unless(r.errors.empty(), "%s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.summaries.size(), 1);
  // A distorted branch that negotiated before the reference had caps
  // renegotiates; the frames it had already scaled (one in the pad's
  // queue, one waiting to enter it) are skipped.
  const s2c::SummaryMessage& s = r.summaries[0];
  fail_unless(s.scores.frames >= 4 && s.scores.frames + s.ref_skipped == 6,
              "%d scored, %d skipped", static_cast<int>(s.scores.frames),
              static_cast<int>(s.ref_skipped));
}
GST_END_TEST;

GST_START_TEST(test_videorate_before_dist_sink_takes_the_reference_rate) {
  const RunResult r = RunPipeline(
      TwoSources(Source(30, I420(25).c_str()), Source(36, I420(30).c_str(), "ball") +
                                                   " ! videorate"));
  fail_unless(r.errors.empty(), "%s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 30);
  fail_if(Contains(r.warnings, "fps"), "a frame-rate warning behind videorate");
}
GST_END_TEST;

// A videoconvert before the pad converts a format the pad refuses (the
// CAPS query's exclusions are test_caps_query_excludes_what_the_pad_refuses';
// a PQ stream needs videoconvert gamma-mode=remap on GStreamer 1.22, which
// test_hdr_refusal_names_a_fragment_that_works runs).
GST_START_TEST(test_videoconvert_routes_yuy2_to_a_format_the_pad_takes) {
  const RunResult r = RunPipeline(TwoSources(
      Source(3, I420(25).c_str()),
      Source(3, "video/x-raw,format=YUY2,width=64,height=48,framerate=25/1") +
          " ! videoconvert"));
  fail_unless(r.errors.empty(), "%s", r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 3);
}
GST_END_TEST;

// An element of its own with a bus, for asking its pads directly.
struct LoneElement {
  GstElement* element = gst_element_factory_make("ssimulacra2cmp", nullptr);
  GstBus* bus = gst_bus_new();
  GstPad* dist = nullptr;
  LoneElement() {
    gst_element_set_bus(element, bus);
    dist = gst_element_get_static_pad(element, "dist_sink");
  }
  ~LoneElement() {
    gst_object_unref(dist);
    gst_element_set_bus(element, nullptr);
    gst_object_unref(bus);
    gst_object_unref(element);
  }
  // The text of the next warning on the bus ("" when none).
  std::string Warning() {
    GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING);
    if (m == nullptr) return "";
    GError* error = nullptr;
    gst_message_parse_warning(m, &error, nullptr);
    const std::string text = error->message;
    g_error_free(error);
    gst_message_unref(m);
    return text;
  }
};

// What a CAPS query with `filter` answers on dist_sink.
std::string AnswerFor(LoneElement* e, const char* filter) {
  GstCaps* f = gst_caps_from_string(filter);
  GstCaps* caps = gst_pad_query_caps(e->dist, f);
  gchar* text = gst_caps_to_string(caps);
  const std::string answer = text;
  g_free(text);
  gst_caps_unref(caps);
  gst_caps_unref(f);
  return answer;
}

GST_START_TEST(test_caps_query_excludes_what_the_pad_refuses) {
  LoneElement e;
  // Nothing for an upstream that offers only these, and a warning why.
  fail_unless(AnswerFor(&e, "video/x-raw,interlace-mode=interleaved") == "EMPTY");
  fail_unless(e.Warning().find("insert deinterlace") != std::string::npos);
  fail_unless(AnswerFor(&e, "video/x-raw,format=I420,colorimetry=bt2100-pq") == "EMPTY");
  fail_unless(e.Warning().find("gamma-mode=remap") != std::string::npos);
  const std::string some = AnswerFor(&e, "video/x-raw,format=I420,colorimetry={bt2100-hlg,bt709}");
  fail_unless(some.find("colorimetry=(string)bt709") != std::string::npos, "%s", some.c_str());
  fail_unless(some.find("hlg") == std::string::npos, "%s", some.c_str());
  fail_unless(some.find("interlace-mode=(string)progressive") != std::string::npos);
}
GST_END_TEST;

// The fragment the PQ refusal names ("insert <fragment> before this pad"),
// put before both pads, negotiates and scores.
GST_START_TEST(test_hdr_refusal_names_a_fragment_that_works) {
  const char* pq = "video/x-raw,format=I420_10LE,width=64,height=48,framerate=25/1,"
                   "colorimetry=bt2100-pq";
  LoneElement e;
  GstCaps* caps = gst_caps_from_string(pq);
  fail_if(gst_pad_query_accept_caps(e.dist, caps), "PQ accepted");
  gst_caps_unref(caps);
  const std::string warning = e.Warning();
  const size_t from = warning.find("insert ");
  const size_t to = warning.find(" before this pad");
  fail_unless(from != std::string::npos && to != std::string::npos, "%s", warning.c_str());
  const std::string fragment = warning.substr(from + 7, to - from - 7);
  const RunResult r = RunPipeline(Source(2, pq) + " ! " + fragment +
                                  " ! tee name=t t. ! queue ! cmp.ref_sink t. ! queue ! "
                                  "cmp.dist_sink ssimulacra2cmp name=cmp ! fakesink name=out");
  fail_unless(r.errors.empty(), "%s: %s", fragment.c_str(),
              r.errors.empty() ? "" : r.errors[0].c_str());
  fail_unless_equals_int(r.frames.size(), 2);
  for (const s2c::FrameMessage& f : r.frames) AssertBits(f.score, 100.0);
}
GST_END_TEST;

Suite* colour_suite() {
  Suite* s = suite_create("ssimulacra2cmp-colour");
  TCase* tc = tcase_create("colour");
  tcase_set_timeout(tc, 240);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_identical_pictures_score_100_from_any_container_sd);
  tcase_add_test(tc, test_identical_pictures_score_100_from_any_container_hd);
  tcase_add_test(tc, test_per_stream_reads_each_stream_by_its_own_caps);
  tcase_add_test(tc, test_bt2020_is_converted_not_read_as_srgb);
  tcase_add_test(tc, test_videoscale_before_dist_sink_takes_the_reference_size);
  tcase_add_test(tc, test_videorate_before_dist_sink_takes_the_reference_rate);
  tcase_add_test(tc, test_videoconvert_routes_yuy2_to_a_format_the_pad_takes);
  tcase_add_test(tc, test_caps_query_excludes_what_the_pad_refuses);
  tcase_add_test(tc, test_hdr_refusal_names_a_fragment_that_works);
  return s;
}

}  // namespace

GST_CHECK_MAIN(colour)
