// SPDX-License-Identifier: BSD-3-Clause
// Plugin entry point: registers the element and the score meta. Loads on a
// machine without a GPU; the CUDA backend is only looked for when an element
// starts.
#include <gst/gst.h>

#include "gstssimulacra2cmp.h"
#include "score_meta.h"

static gboolean PluginInit(GstPlugin* plugin) {
  s2c::RegisterScoreMeta();
  return GST_ELEMENT_REGISTER(ssimulacra2cmp, plugin);
}

// The package's name, and its origin as GStreamer's own plugins take it:
// the meson option package-origin, a URL its packager sets ("Unknown
// package origin" otherwise; the project has no public home of its own).
#define PACKAGE "ssimulacra2cmp"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, ssimulacra2cmp,
                  "SSIMULACRA 2.1 video comparison, exact on CPU and CUDA",
                  PluginInit, S2C_VERSION, "BSD", PACKAGE, S2C_PACKAGE_ORIGIN)
