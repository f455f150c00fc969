// SPDX-License-Identifier: BSD-3-Clause
#include "compare_report.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "compare_signals.h"

GST_DEBUG_CATEGORY_STATIC(compare_debug);
#define GST_CAT_DEFAULT compare_debug

static const char kElementName[] = "ssimulacra2cmp";

// H:MM:SS.mmm to the nearest millisecond (as --start and --end compare),
// or "none" for an untimestamped buffer.
static void PrintTime(guint64 t) {
  if (t == GST_CLOCK_TIME_NONE) {
    fputs("none", stdout);
    return;
  }
  const guint64 ms = (t + GST_MSECOND / 2) / GST_MSECOND;
  printf("%" G_GUINT64_FORMAT ":%02u:%02u.%03u", ms / 3600000,
         (unsigned)(ms / 60000 % 60), (unsigned)(ms / 1000 % 60),
         (unsigned)(ms % 1000));
}

guint64 GetU64(const GstStructure* s, const char* field, guint64 fallback) {
  guint64 v = fallback;
  if (s != NULL) gst_structure_get_uint64(s, field, &v);
  return v;
}

// A frame's values with 8 decimals: " score S" (SSIMULACRA 2) and
// " ssim R" (SSIM, combined raw), whichever the message has; with `named`
// false the values alone.
static void PrintValues(const GstStructure* s, gboolean named) {
  static const char* const kFields[] = {"score", "ssim"};
  const char* sep = named ? " " : "";
  for (size_t i = 0; i < G_N_ELEMENTS(kFields); ++i) {
    double v = 0.0;
    if (!gst_structure_get_double(s, kFields[i], &v)) continue;
    if (named) {
      printf("%s%s %.8f", sep, kFields[i], v);
    } else {
      printf("%s%.8f", sep, v);
    }
    sep = " ";
  }
}

static void OnFrame(const GstStructure* s, Report* report) {
  double score = NAN;  // SSIMULACRA 2's, which --threshold watches
  gst_structure_get_double(s, "score", &score);
  if (report->frames_scored++ == 0) report->first_frame = gst_structure_copy(s);
  if (score < report->threshold) ++report->below_threshold;  // false for NaN
  if (!report->text || !report->frames) return;
  printf("frame %" G_GUINT64_FORMAT, GetU64(s, "frame-index", GST_CLOCK_TIME_NONE));
  if (report->aligned) {
    printf(" dist %" G_GUINT64_FORMAT, GetU64(s, "dist-frame-index", GST_CLOCK_TIME_NONE));
  }
  // The reference's running time: the time --start and --end select by.
  fputs(" time ", stdout);
  PrintTime(GetU64(s, "running-time", GST_CLOCK_TIME_NONE));
  PrintValues(s, TRUE);
  gboolean flagged = FALSE;
  if (gst_structure_get_boolean(s, "align-flagged", &flagged) && flagged) fputs(" flagged", stdout);
  putchar('\n');
}

// "\rframes N  F fps  ETA M:SS" from the pipeline's position and duration;
// the ETA is left out when the duration is unknown.
static void PrintProgress(GstElement* pipeline, const Report* report, gint64 started_us) {
  const double elapsed = (g_get_monotonic_time() - started_us) / 1e6;
  gint64 position = -1, duration = -1;
  gst_element_query_position(pipeline, GST_FORMAT_TIME, &position);
  gst_element_query_duration(pipeline, GST_FORMAT_TIME, &duration);
  fprintf(stderr, "\r\033[Kframes %" G_GUINT64_FORMAT "  %.1f fps", report->frames_scored,
          elapsed > 0 ? report->frames_scored / elapsed : 0.0);
  if (position > 0 && duration > position && elapsed > 0) {
    const double left = (double)(duration - position) / position * elapsed;
    fprintf(stderr, "  ETA %d:%02d", (int)(left / 60), (int)fmod(left, 60));
  }
  fflush(stderr);
}

// A problem with the results file: the element goes on without the line.
static gboolean IsWriteProblem(const GError* err) {
  return err->domain == GST_RESOURCE_ERROR &&
         (err->code == GST_RESOURCE_ERROR_WRITE || err->code == GST_RESOURCE_ERROR_CLOSE ||
          err->code == GST_RESOURCE_ERROR_SYNC || err->code == GST_RESOURCE_ERROR_NO_SPACE_LEFT);
}

// An error or warning, printed with the input it comes from when it comes
// from one. TRUE for an error.
static gboolean OnProblem(GstMessage* msg, Report* report) {
  const gboolean error = GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR;
  GError* err = NULL;
  gchar* debug = NULL;
  if (error) {
    gst_message_parse_error(msg, &err, &debug);
  } else {
    gst_message_parse_warning(msg, &err, &debug);
  }
  const gboolean from_element = GST_MESSAGE_SRC(msg) == GST_OBJECT(report->element);
  // backend=auto without a usable CUDA device: the CPU scores the same
  // bits, so the fallback is no news for a run that did not ask for CUDA.
  if (from_element && !error && report->quiet_fallback &&
      g_error_matches(err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND)) {
    GST_INFO("%s (%s)", err->message, debug != NULL ? debug : "");
    g_clear_error(&err);
    g_free(debug);
    return FALSE;
  }
  const char* kind = error ? "error" : "warning";
  const Branch* input = BranchOf(GST_MESSAGE_SRC(msg), report->inputs, 2);
  if (input != NULL) {
    fprintf(stderr, "ssimulacra2cmp-compare: %s in the %s input \"%s\": %s\n", kind,
            input->role, input->location, err->message);
  } else {
    fprintf(stderr, "ssimulacra2cmp-compare: %s from %s: %s\n", kind,
            GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)), err->message);
  }
  if (debug != NULL) fprintf(stderr, "  (%s)\n", debug);
  if (from_element && !error && IsWriteProblem(err)) report->write_failed = TRUE;
  // The element's size mismatch names videoscale; this tool has --scale.
  if (from_element && error && !report->scaling &&
      g_error_matches(err, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT)) {
    fprintf(stderr, "  (--scale scales the distorted input to the reference's size)\n");
  }
  g_clear_error(&err);
  g_free(debug);
  return error;
}

// Ends one sink pad's input here (a thread of the element's pool: the pad
// takes the EOS once its upstream is out of its chain function).
static void EndPad(GstElement* element, gpointer pad_name) {
  GstPad* pad = gst_element_get_static_pad(element, pad_name);
  gst_pad_send_event(pad, gst_event_new_eos());
  gst_object_unref(pad);
}

// A stop signal: both inputs end where they are, so that the run ends as at
// the end of its inputs, with the summary and a complete results file.
static void Stop(Report* report, int sig) {
  report->stop_signal = sig;
  if (report->progress) fputs("\r\033[K", stderr);
  fprintf(stderr, "ssimulacra2cmp-compare: stopped by %s: the inputs end here "
                  "(once more: stop at once)\n",
          sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : g_strsignal(sig));
  gst_element_call_async(report->element, EndPad, (gpointer) "ref_sink", NULL);
  gst_element_call_async(report->element, EndPad, (gpointer) "dist_sink", NULL);
}

int RunAndCollect(GstElement* pipeline, Report* report) {
  GST_DEBUG_CATEGORY_INIT(compare_debug, "ssimulacra2cmp-compare", 0, "ssimulacra2cmp-compare");
  GstBus* bus = gst_element_get_bus(pipeline);
  SetStopTarget(bus);
  int rc = kExitOk;
  const gint64 started_us = g_get_monotonic_time();
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    rc = kExitFailed;  // the error message on the bus says why
  }
  for (gboolean done = FALSE; !done;) {
    const GstClockTime wait =
        rc != kExitOk ? 0 : report->progress ? 250 * GST_MSECOND : GST_CLOCK_TIME_NONE;
    GstMessage* msg = gst_bus_timed_pop_filtered(
        bus, wait,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT |
            GST_MESSAGE_APPLICATION);
    if (report->progress) PrintProgress(pipeline, report, started_us);
    if (msg == NULL) {
      if (rc != kExitOk) break;
      continue;
    }
    switch (GST_MESSAGE_TYPE(msg)) {
      case GST_MESSAGE_ELEMENT: {
        const GstStructure* s = gst_message_get_structure(msg);
        const char* type = gst_structure_get_string(s, "type");
        if (!gst_structure_has_name(s, kElementName) || type == NULL) break;
        if (strcmp(type, "frame") == 0) OnFrame(s, report);
        if (strcmp(type, "summary") == 0) {
          if (report->summary != NULL) gst_structure_free(report->summary);
          report->summary = gst_structure_copy(s);
        }
        break;
      }
      case GST_MESSAGE_WARNING:
      case GST_MESSAGE_ERROR:
        if (report->progress) fputs("\r\033[K", stderr);
        if (OnProblem(msg, report)) {
          rc = kExitFailed;
          done = TRUE;
        }
        break;
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      case GST_MESSAGE_APPLICATION:
        if (StopSignalOf(msg) != 0) Stop(report, StopSignalOf(msg));
        break;
      default:
        break;
    }
    gst_message_unref(msg);
  }
  if (report->progress) fputs("\r\033[K", stderr);
  SetStopTarget(NULL);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  return rc;
}

// "summary name value ..." on one line: counts as integers, scores with the
// per-frame lines' 8 decimals, and the offsets --align auto saw
// ("0:25,-1:34": offset, then the pairs scored at it) when it saw any.
static gboolean PrintTextField(GQuark field, const GValue* value, gpointer user_data) {
  (void)user_data;
  const char* name = g_quark_to_string(field);
  if (strcmp(name, "type") == 0 || strcmp(name, "reason") == 0) return TRUE;
  if (G_VALUE_HOLDS_DOUBLE(value)) {
    printf(" %s %.8f", name, g_value_get_double(value));
  } else if (G_VALUE_HOLDS_UINT64(value)) {
    printf(" %s %" G_GUINT64_FORMAT, name, g_value_get_uint64(value));
  } else if (strcmp(name, "offsets") == 0 && G_VALUE_HOLDS_STRING(value) &&
             g_value_get_string(value) != NULL && g_value_get_string(value)[0] != '\0') {
    printf(" %s %s", name, g_value_get_string(value));
  }
  return TRUE;
}

void PrintResult(const Report* report) {
  if (!report->text || report->summary == NULL) return;
  const gboolean two_pictures = report->inputs[0].decoded == 1 && report->inputs[1].decoded == 1;
  if (two_pictures && report->frames_scored == 1 && !report->frames) {
    PrintValues(report->first_frame, FALSE);
    putchar('\n');
    return;
  }
  fputs("summary", stdout);
  gst_structure_foreach(report->summary, PrintTextField, NULL);
  putchar('\n');
}

gboolean ResultsIncomplete(const Report* report, const char* location) {
  const guint64 lost = GetU64(report->summary, "results-lost", 0);
  if (lost == 0 && !report->write_failed) return FALSE;
  if (location != NULL) {
    fprintf(stderr, "ssimulacra2cmp-compare: the results file \"%s\" is incomplete", location);
  } else {
    fputs("ssimulacra2cmp-compare: the results on standard output are incomplete", stderr);
  }
  if (lost > 0) fprintf(stderr, ": %" G_GUINT64_FORMAT " records were not written", lost);
  fputc('\n', stderr);
  return TRUE;
}

gboolean TextIncomplete(void) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return FALSE;
  fprintf(stderr, "ssimulacra2cmp-compare: the text on standard output is incomplete%s%s\n",
          errno != 0 ? ": " : "", errno != 0 ? g_strerror(errno) : "");
  return TRUE;
}

guint64 UnscoredFrames(const Report* report) {
  /* The summary's counters of frames that went unscored (a GAP event,
   * ref-gaps, is not a frame). */
  static const char* const kUnscored[] = {"ref-unpaired", "dist-unpaired", "ref-late",
                                          "ref-skipped", "ref-overdue"};
  guint64 n = 0;
  for (size_t i = 0; report->summary != NULL && i < G_N_ELEMENTS(kUnscored); ++i) {
    guint64 count = 0;
    if (gst_structure_get_uint64(report->summary, kUnscored[i], &count)) n += count;
  }
  return n;
}

void ClearReport(Report* report) {
  if (report->summary != NULL) gst_structure_free(report->summary);
  if (report->first_frame != NULL) gst_structure_free(report->first_frame);
  report->summary = report->first_frame = NULL;
}
