// SPDX-License-Identifier: BSD-3-Clause
#include "link_watch.h"

#include <string>

#include "element_state.h"

namespace s2c {
namespace {

gboolean CheckLinks(GstClock* /*clock*/, GstClockTime /*time*/, GstClockID /*id*/,
                    gpointer data) {
  GstSsimulacra2Cmp* self = GST_SSIMULACRA2_CMP(data);
  std::string unlinked;
  for (GstAggregatorPad* pad : self->pads) {
    if (gst_pad_is_linked(GST_PAD(pad))) continue;
    if (!unlinked.empty()) unlinked += " and ";
    unlinked += GST_PAD_NAME(pad);
  }
  if (unlinked.empty()) return TRUE;
  const std::string name = GST_ELEMENT_NAME(self);
  GST_ELEMENT_ERROR(self, CORE, PAD,
                    ("%s of %s is not linked, so no frame pair can be scored. Link both "
                     "sink pads, e.g. \"... ! %s.ref_sink  ... ! %s.dist_sink\" in "
                     "gst-launch-1.0; raise link-timeout if the pad is linked later on "
                     "purpose.",
                     unlinked.c_str(), name.c_str(), name.c_str(), name.c_str()),
                    ("still unlinked %.1f s after going to PAUSED (link-timeout)",
                     static_cast<double>(ReadSettings(self).link_timeout) / GST_SECOND));
  return TRUE;
}

}  // namespace

void StartLinkWatch(GstSsimulacra2Cmp* self, GstClockTime timeout) {
  StopLinkWatch(self);
  if (timeout == 0) return;
  GstClock* clock = gst_system_clock_obtain();
  GstClockID id = gst_clock_new_single_shot_id(clock, gst_clock_get_time(clock) + timeout);
  gst_object_unref(clock);
  // The callback holds the element until it has run or been unscheduled.
  gst_clock_id_wait_async(id, CheckLinks, gst_object_ref(self), gst_object_unref);
  self->priv->link_watch = id;
}

void StopLinkWatch(GstSsimulacra2Cmp* self) {
  GstClockID id = self->priv->link_watch;
  if (id == nullptr) return;
  gst_clock_id_unschedule(id);
  gst_clock_id_unref(id);
  self->priv->link_watch = nullptr;
}

}  // namespace s2c
