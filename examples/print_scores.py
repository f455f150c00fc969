#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""print_scores.py [FRAMES]: the Python (PyGObject) twin of print-scores.c.

Scores a test pattern against a JPEG-degraded copy of itself and reads every
score twice: from the bus (element message "ssimulacra2cmp", type "frame")
and from the "Ssimulacra2CmpMeta" custom meta on the buffers the element sends
downstream (a pad probe on its src pad). Checks that both agree to the bit.
Needs python3-gi and gir1.2-gstreamer-1.0; no module from this project.
From a build tree: GST_PLUGIN_PATH=<builddir>/gst examples/print_scores.py
"""
import struct
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

META_NAME = "Ssimulacra2CmpMeta"

# The degraded branch is fed RGB: jpegenc given limited-range YUV stores those
# bytes unchanged while jpegdec labels the result full range, which would score
# a range error instead of the compression.
PIPELINE = (
    "videotestsrc num-buffers={frames} pattern=smpte horizontal-speed=2 "
    "! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 ! tee name=t "
    "t. ! queue ! cmp.ref_sink "
    "t. ! queue ! jpegenc quality=20 ! jpegdec ! cmp.dist_sink "
    "ssimulacra2cmp name=cmp ! fakesink"
)


def bits(score):
    """The double's bit pattern: the element promises the same double twice."""
    return struct.pack("<d", score)


def main():
    Gst.init(None)
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    try:
        pipeline = Gst.parse_launch(PIPELINE.format(frames=frames))
    except gi.repository.GLib.Error as e:
        print(f"print_scores.py: {e.message}\n(is GST_PLUGIN_PATH set to <builddir>/gst?)",
              file=sys.stderr)
        return 1

    from_meta = []
    lock = threading.Lock()  # the probe runs on a streaming thread

    def on_output_buffer(pad, info):
        meta = info.get_buffer().get_custom_meta(META_NAME)
        if meta is None:  # a reference frame that found no partner
            return Gst.PadProbeReturn.OK
        s = meta.get_structure()
        index, score = s.get_uint64("frame-index")[1], s.get_double("score")[1]
        print(f"meta frame {index} score {score:.8f}", flush=True)
        with lock:
            from_meta.append((index, bits(score)))
        return Gst.PadProbeReturn.OK

    cmp = pipeline.get_by_name("cmp")
    cmp.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_output_buffer)

    from_bus = []
    rc = 0
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        msg = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE,
            Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print(f"print_scores.py: error from {msg.src.get_name()}: {err.message}\n"
                  f"  ({debug})", file=sys.stderr)
            rc = 1
            break
        if msg.type == Gst.MessageType.EOS:  # the summary was posted before it
            break
        s = msg.get_structure()
        if not s.has_name("ssimulacra2cmp"):
            continue
        if s.get_string("type") == "frame":
            index, score = s.get_uint64("frame-index")[1], s.get_double("score")[1]
            print(f"bus  frame {index} score {score:.8f}", flush=True)
            from_bus.append((index, bits(score)))
        elif s.get_string("type") == "summary":
            print(s.to_string(), flush=True)
    pipeline.set_state(Gst.State.NULL)  # no probe runs after this

    if rc == 0 and not from_bus:
        print("print_scores.py: no frame was scored", file=sys.stderr)
        rc = 1
    if rc == 0 and from_bus != from_meta:
        print(f"print_scores.py: bus and meta differ:\n  bus  {from_bus}\n  meta {from_meta}",
              file=sys.stderr)
        rc = 1
    if rc == 0:
        print(f"bus and meta agree on all {len(from_bus)} scores")
    return rc


if __name__ == "__main__":
    sys.exit(main())
