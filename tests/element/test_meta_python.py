#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# The meta and the frame message read from Python through GObject
# introspection alone, with no header or module of ours: after videoconvert,
# each buffer's Ssimulacra2CmpMeta carries the score of its frame message.
# PyGObject and GStreamer's typelib are required (python3-gi,
# gir1.2-gstreamer-1.0): without them the test fails.
import os
import sys

import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)
backend = os.environ.get("S2C_TEST_BACKEND") or "cpu"
pipeline = Gst.parse_launch(
    "videotestsrc num-buffers=4 ! video/x-raw,format=I420,width=64,height=48 ! cmp.ref_sink "
    "videotestsrc num-buffers=4 pattern=ball ! video/x-raw,format=I420,width=64,height=48 ! "
    "cmp.dist_sink ssimulacra2cmp name=cmp backend=%s ! videoconvert ! "
    "video/x-raw,format=RGBA ! appsink name=out sync=false" % backend)
sink = pipeline.get_by_name("out")
bus = pipeline.get_bus()
pipeline.set_state(Gst.State.PLAYING)
metas = []
for _ in range(4):
    sample = sink.emit("pull-sample")
    meta = sample.get_buffer().get_custom_meta("Ssimulacra2CmpMeta")
    if meta is None:
        print("FAIL: a buffer without Ssimulacra2CmpMeta")
        sys.exit(1)
    s = meta.get_structure()
    metas.append((s.get_uint64("frame-index")[1], s.get_double("score")[1]))
scores = []
while True:
    msg = bus.timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.ELEMENT |
                                 Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if msg is None or msg.type != Gst.MessageType.ELEMENT:
        break
    s = msg.get_structure()
    if s.get_name() == "ssimulacra2cmp" and s.get_string("type") == "frame":
        scores.append((s.get_uint64("frame-index")[1], s.get_double("score")[1]))
pipeline.set_state(Gst.State.NULL)
# Python floats are the C doubles: equality here is equality of bits.
if metas != scores:
    print("FAIL: metas %r, messages %r" % (metas, scores))
    sys.exit(1)
print("ok: %d buffers, meta == frame message: %r" % (len(metas), metas))
