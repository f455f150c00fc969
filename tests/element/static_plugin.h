// SPDX-License-Identifier: BSD-3-Clause
// The plugin built into a test binary, as GStreamer's static builds do: the
// element's own code (gst/element/: s2c_element and plugin.cc) with, in
// place of gst/element/backend_factory.cc, a factory whose CPU backend can
// be made slower per pair (delayed_backend.h). The live tests use it to
// overload the element without a test hook in the installed plugin
// (docs/decisions.md, D33).
#ifndef S2C_TESTS_STATIC_PLUGIN_H_
#define S2C_TESTS_STATIC_PLUGIN_H_

namespace s2c_test {

// Registers the static plugin ("ssimulacra2cmp"); call once, after
// gst_check_init. The test must not load the built plugin as well
// (GST_PLUGIN_PATH unset): both register the same types.
void RegisterStaticPlugin();

// Elements started from now on score `delay_ms` slower per pair, one pair at
// a time, for their first `pairs` pairs (all when negative); 0: the CPU
// backend's own speed. The backend is always the CPU's: backend=cuda fails
// to start.
void SetPairDelay(double delay_ms, long pairs = -1);

}  // namespace s2c_test

#endif  // S2C_TESTS_STATIC_PLUGIN_H_
