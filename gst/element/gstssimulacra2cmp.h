// SPDX-License-Identifier: BSD-3-Clause
// The ssimulacra2cmp element: scores each distorted frame against the
// reference frame of the same running time with SSIMULACRA 2.1 and passes
// the reference stream through with the score attached. docs/element.md is
// its reference.
#ifndef GST_SSIMULACRA2_CMP_H_
#define GST_SSIMULACRA2_CMP_H_

#include <gst/base/gstaggregator.h>
#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_SSIMULACRA2_CMP (gst_ssimulacra2_cmp_get_type())
G_DECLARE_FINAL_TYPE(GstSsimulacra2Cmp, gst_ssimulacra2_cmp, GST,
                     SSIMULACRA2_CMP, GstAggregator)

GST_ELEMENT_REGISTER_DECLARE(ssimulacra2cmp);

G_END_DECLS

namespace s2c {
struct ElementState;  // element_state.h

// The sink pads, as the instance's `pads` holds them.
enum PadIndex { kRef = 0, kDist = 1 };

inline const char* const kPadNames[2] = {"ref_sink", "dist_sink"};
}  // namespace s2c

// The instance: the aggregator, its two sink pads, and everything else the
// element keeps in its state (element_state.h), which the element's files
// share through this pointer.
struct _GstSsimulacra2Cmp {
  GstAggregator parent;
  GstAggregatorPad* pads[2];  // [PadIndex]: ref_sink, dist_sink
  s2c::ElementState* priv;
};

#endif  // GST_SSIMULACRA2_CMP_H_
