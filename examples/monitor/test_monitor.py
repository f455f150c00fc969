#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ssimulacra2cmp-monitor end to end: channels fed over RTP on 127.0.0.1 by
gst-launch-1.0 senders, /metrics scraped over HTTP.

- every channel's ssimulacra2cmp_score is exactly a score the element wrote
  to the channel's results file;
- a killed sender takes its feed down (feed_up 0, from the element's feed
  message), the channel restarts, and the other channels keep scoring;
- ssimulacra2cmp_coverage holds the scored share of the last window;
- SIGHUP after a channel is added to the file starts it and leaves the
  others running.

Usage: test_monitor.py MONITOR (GST_PLUGIN_PATH must find the element).
Every wait polls for its condition, with limits meant for a loaded runner.
"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

WIDTH, HEIGHT, FPS = 64, 64, 10
RTP_CAPS = ('application/x-rtp,media=(string)video,clock-rate=(int)90000,'
            'encoding-name=(string)RAW,sampling=(string)YCbCr-4:2:0,depth=(string)8,'
            f'width=(string){WIDTH},height=(string){HEIGHT},payload=(int)96')
WAIT_S = 90  # the longest wait for any one condition
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def sender(port, pattern, motion):
    """A live RTP raw-video sender to 127.0.0.1:port."""
    return subprocess.Popen(
        ['gst-launch-1.0', '-q', 'videotestsrc', 'is-live=true', f'pattern={pattern}', f'motion={motion}',
         '!', f'video/x-raw,format=I420,width={WIDTH},height={HEIGHT},framerate={FPS}/1',
         '!', 'rtpvrawpay', '!', 'udpsink', 'host=127.0.0.1', f'port={port}'],
        stdout=subprocess.DEVNULL)


def receiver(port):
    return (f'udpsrc address=127.0.0.1 port={port} caps="{RTP_CAPS}" ! rtpvrawdepay ! '
            'videoconvert ! capsfilter caps=video/x-raw,format=I420')


class Channel:
    def __init__(self, name, workdir, ref_pattern='ball', dist_pattern='ball'):
        self.name = name
        self.ports = (free_udp_port(), free_udp_port())
        self.results = os.path.join(workdir, name + '.jsonl')
        self.senders = [sender(self.ports[0], ref_pattern, 'sweep'),
                        sender(self.ports[1], dist_pattern, 'wavy')]

    def config(self):
        # The two balls move apart and together again: scores vary.
        return (f'[channel {self.name}]\n'
                f'reference = {receiver(self.ports[0])}\n'
                f'distorted = {receiver(self.ports[1])}\n'
                'pairing-tolerance = 50ms\n'
                'threshold = 30\n'
                'feed-timeout = 1s\n'
                'restart-timeout = 3s\n'
                'summary-interval = 1s\n'
                f'results-location = {self.results}\n\n')

    def file_scores(self):
        scores = set()
        try:
            with open(self.results) as f:
                for line in f:
                    if line.endswith('\n') and '"ssimulacra2":' in line and 'frameNum' in line:
                        scores.add(json.loads(line)['ssimulacra2'])
        except FileNotFoundError:
            pass
        return scores

    def stop(self):
        for p in self.senders:
            if p.poll() is None:
                p.kill()
            p.wait()


class Monitor:
    def __init__(self, program, config_path):
        self.events = []
        self.lock = threading.Lock()
        self.process = subprocess.Popen(
            [program, '--config', config_path, '--listen', '127.0.0.1:0'],
            stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        listening = self.wait_event(lambda e: e['event'] == 'listening')
        self.url = f'http://127.0.0.1:{listening["details"]["port"]}'

    def _read(self):
        for line in self.process.stdout:
            event = json.loads(line)  # every line is one JSON object
            for key in ('time', 'channel', 'event', 'details'):
                assert key in event, line
            with self.lock:
                self.events.append(event)

    def wait_event(self, match, since=0):
        def found():
            with self.lock:
                return next((e for e in self.events[since:] if match(e)), None)
        return wait_for(found, 'a monitor event')

    def event_count(self):
        with self.lock:
            return len(self.events)

    def get(self, path):
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, ''

    def metrics(self):
        """{(name, channel, feed): value} of every sample."""
        status, text = self.get('/metrics')
        assert status == 200, status
        samples = {}
        for line in text.splitlines():
            if line.startswith('#'):
                continue
            m = SAMPLE.match(line)
            assert m, line
            labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or ''))
            key = (m.group(1), labels.get('channel'), labels.get('feed') or labels.get('le'))
            samples[key] = float(m.group(3))
        return samples

    def value(self, name, channel, feed=None):
        return self.metrics().get((name, channel, feed))

    def stop(self):
        """SIGTERM, and the monitor exits with status 0; else the assertion
        says how it exited and its last events."""
        self.process.send_signal(signal.SIGTERM)
        try:
            rc = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        how = f'signal {signal.Signals(-rc).name}' if rc < 0 else f'status {rc}'
        with self.lock:
            last = self.events[-10:]
        assert rc == 0, f'the monitor exited with {how} after SIGTERM; its last events: {last}'


def wait_for(condition, what, timeout=WAIT_S):
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f'timed out after {timeout} s waiting for {what}')
        time.sleep(0.2)


def check_exact_score(monitor, channel, distinct=5):
    """Scraped `distinct` times with different values, the channel's score
    gauge is each time a score the element wrote, bit for bit (the file
    may lag the bus by a moment, so each value is waited for there)."""
    seen = set()
    while len(seen) < distinct:
        score = wait_for(lambda: monitor.value('ssimulacra2cmp_score', channel.name),
                         f'{channel.name}: a score')
        if score in seen or score != score:
            time.sleep(0.1)
            continue
        seen.add(score)
        wait_for(lambda: score in channel.file_scores(),
                 f'{channel.name}: the scraped score {score!r} in {channel.results}', timeout=20)


def scored(monitor, name):
    return monitor.value('ssimulacra2cmp_frames_scored_total', name) or 0


def main():
    program = sys.argv[1]
    workdir = tempfile.mkdtemp(prefix='s2c-monitor-')
    config_path = os.path.join(workdir, 'channels.conf')
    channels = [Channel('a', workdir), Channel('b', workdir, 'ball', 'smpte'),
                Channel('c', workdir)]
    added = None
    monitor = None
    try:
        with open(config_path, 'w') as f:
            f.write(''.join(c.config() for c in channels))
        monitor = Monitor(program, config_path)
        assert monitor.get('/healthz')[0] == 200
        wait_for(lambda: monitor.get('/readyz')[0] == 200, '/readyz 200')

        for c in channels:
            wait_for(lambda: scored(monitor, c.name) >= 5, f'{c.name}: 5 frames scored')
            check_exact_score(monitor, c)
            for feed in ('reference', 'distorted'):
                assert monitor.value('ssimulacra2cmp_feed_up', c.name, feed) == 1
            assert monitor.value('ssimulacra2cmp_channel_restarts_total', c.name) == 0
            assert ('ssimulacra2cmp_score_distribution_bucket', c.name, '+Inf') in monitor.metrics()
            assert ('ssimulacra2cmp_frames_skipped_total', c.name, None) in monitor.metrics()
            assert ('ssimulacra2cmp_alarm', c.name, None) in monitor.metrics()
            wait_for(lambda: 0 < (monitor.value('ssimulacra2cmp_coverage', c.name) or 0) <= 1,
                     f'{c.name}: the coverage of a window')
        # Scores that vary, so that "equal to one of them" says something.
        assert len(channels[0].file_scores()) > 1, channels[0].file_scores()

        # Channel a loses its distorted feed.
        channels[0].senders[1].kill()
        wait_for(lambda: monitor.value('ssimulacra2cmp_feed_up', 'a', 'distorted') == 0,
                 'a: distorted feed_up 0')
        # The element said so (its feed message), live on the pipeline's clock.
        monitor.wait_event(lambda e: e['channel'] == 'a' and e['event'] == 'feed-lost' and
                           e['details'].get('feed') == 'distorted' and
                           "the element's" in e['details'].get('reason', ''))
        assert monitor.value('ssimulacra2cmp_feed_up', 'a', 'reference') == 1
        wait_for(lambda: monitor.value('ssimulacra2cmp_channel_restarts_total', 'a') >= 1,
                 'a: a restart counted')
        monitor.wait_event(lambda e: e['channel'] == 'a' and e['event'] == 'restart')
        before = {c.name: scored(monitor, c.name) for c in channels[1:]}
        for c in channels[1:]:
            wait_for(lambda: scored(monitor, c.name) >= before[c.name] + 5,
                     f'{c.name}: still scoring after a lost its feed')
            check_exact_score(monitor, c)
            assert monitor.value('ssimulacra2cmp_channel_restarts_total', c.name) == 0

        # A channel added to the file starts on SIGHUP; b and c run on.
        added = Channel('d', workdir)
        with open(config_path, 'a') as f:
            f.write(added.config())
        mark = monitor.event_count()
        monitor.process.send_signal(signal.SIGHUP)
        monitor.wait_event(lambda e: e['event'] == 'config-loaded', since=mark)
        wait_for(lambda: scored(monitor, 'd') >= 5, 'd: 5 frames scored after SIGHUP')
        check_exact_score(monitor, added)
        with monitor.lock:
            interrupted = [e for e in monitor.events[mark:]
                           if e['channel'] in ('b', 'c') and e['event'] in ('started', 'stopped')]
        assert not interrupted, interrupted

        monitor.stop()
        monitor = None
        print('ok: 3 channels exact, a lost feed restarted its channel alone, SIGHUP added one')
        return 0
    finally:
        if monitor is not None:
            monitor.process.kill()
            monitor.process.wait()
        for c in channels + ([added] if added else []):
            c.stop()


if __name__ == '__main__':
    sys.exit(main())
