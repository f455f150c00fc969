// SPDX-License-Identifier: BSD-3-Clause
// Unlinked sink pads. The aggregator waits for data on both sink pads, so a
// pad nobody links would hang the pipeline without a word (non-live: in
// PREROLLING for ever). A pad may be linked after the element goes to
// PAUSED (decodebin's pads appear once it has found its input's type), so
// the check comes `link-timeout` later, from the system clock's thread, and
// an unlinked pad is then an element error naming it.
#ifndef S2C_GST_LINK_WATCH_H_
#define S2C_GST_LINK_WATCH_H_

#include "gstssimulacra2cmp.h"

namespace s2c {

// Arms the check (timeout 0: none). Called when the element starts.
void StartLinkWatch(GstSsimulacra2Cmp* self, GstClockTime timeout);

// Cancels a check that has not run yet. Called when the element stops.
void StopLinkWatch(GstSsimulacra2Cmp* self);

}  // namespace s2c

#endif  // S2C_GST_LINK_WATCH_H_
