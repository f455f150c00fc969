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

#endif  // GST_SSIMULACRA2_CMP_H_
