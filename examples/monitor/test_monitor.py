#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ssimulacra2cmp-monitor end to end: channels fed over RTP on 127.0.0.1 by
gst-launch-1.0 senders, and from files made here by real encoders (VP8 in
WebM through matroskademux, H.264 in MPEG-TS through tsdemux, H.264 in MP4
through decodebin), /metrics scraped over HTTP.

- every RTP channel's ssimulacra2cmp_score is exactly a score the element
  wrote to the channel's results file;
- the file channels score every frame, and each restart at the file's end
  appends a segment to the results file, the earlier ones kept;
- a killed sender takes its feed down (feed_up 0, from the element's feed
  message), the channel restarts, and the other channels keep scoring; its
  results file keeps what it held, the stopped segment's summary included;
- ssimulacra2cmp_coverage_ratio and the window gauges hold the last window;
- SIGHUP after a channel is added to the file starts it, a changed channel
  starts again appending to its results file, and the others run on;
- a channel that never starts is named in /readyz; HEAD /metrics is 200;
- feeds of two sizes are reported as such, not as an overload;
- a second monitor on the port in use exits with status 2 and says why;
- a channel with align = auto, align-window and dist-start-frame (a file
  against itself two frames on) finds the offset -2
  (ssimulacra2cmp_alignment_offset_frames, an alignment event), counts no
  realignment, and scores every pair it does not flag exactly 100.

Usage: test_monitor.py MONITOR (GST_PLUGIN_PATH must find the element).
Every wait polls for its condition, with limits meant for a loaded runner.
With S2C_TEST_BACKEND set (cuda on the GPU machine: tests/gpu/
run-device-suite.sh), every channel takes that backend, and with cuda the
channels must share one CUDA context, however often they restart. An
H.264 decoder and an AAC encoder other than libav's are taken where libav
is not installed (a GStreamer bundle without it).
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
FILE_FRAMES = 30  # each file feed: 160x120 at 10 fps
RTP_CAPS = ('application/x-rtp,media=(string)video,clock-rate=(int)90000,'
            'encoding-name=(string)RAW,sampling=(string)YCbCr-4:2:0,depth=(string)8,'
            f'width=(string){WIDTH},height=(string){HEIGHT},payload=(int)96')
WAIT_S = 90  # the longest wait for any one condition
BACKEND = os.environ.get('S2C_TEST_BACKEND')
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


def has_element(name):
    return subprocess.run(['gst-inspect-1.0', '--exists', name]).returncode == 0


H264_DECODER = 'avdec_h264' if has_element('avdec_h264') else 'openh264dec'


def with_backend(config):
    """The channels' configuration, each channel on BACKEND when it is set."""
    if not BACKEND:
        return config
    return re.sub(r'^(\[channel [^\]]+\]\n)', rf'\1backend = {BACKEND}\n', config, flags=re.M)


def receiver(port, jitter_buffer=False):
    """A feed from an RTP sender, with a jitter buffer's latency or none."""
    buffer = 'rtpjitterbuffer latency=100 ! ' if jitter_buffer else ''
    return (f'udpsrc address=127.0.0.1 port={port} caps="{RTP_CAPS}" ! {buffer}rtpvrawdepay ! '
            'videoconvert ! capsfilter caps=video/x-raw,format=I420')


def records(path):
    """The results file's records (jsonl), in file order."""
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.endswith('\n')]
    except FileNotFoundError:
        return []


def summaries(path):
    return [r['summary'] for r in records(path) if 'summary' in r]


def encode(workdir):
    """The file feeds, made by real encoders: the raw reference in Matroska,
    and its VP8/WebM, H.264/MPEG-TS and H.264/MP4 encodes (the MP4 with an
    AAC track too)."""
    frames = (f'videotestsrc num-buffers={FILE_FRAMES} pattern=ball motion=sweep ! '
              'video/x-raw,format=I420,width=160,height=120,framerate=10/1')
    encodes = {'ref.mkv': 'matroskamux',
               'dist.webm': 'vp8enc deadline=1 ! webmmux',
               'dist.ts': 'x264enc speed-preset=ultrafast ! mpegtsmux',
               'dist.mp4': 'x264enc speed-preset=ultrafast ! mp4mux name=mux'}
    aac = 'avenc_aac' if has_element('avenc_aac') else 'voaacenc'
    audio = (f'audiotestsrc num-buffers={FILE_FRAMES} samplesperbuffer=4410 ! {aac} ! mux.')
    for name, encoder in encodes.items():
        path = os.path.join(workdir, name)
        subprocess.run(['gst-launch-1.0', '-q', *f'{frames} ! {encoder} ! filesink'.split(),
                        f'location={path}', *(audio.split() if 'mux name=mux' in encoder else [])],
                       check=True)
    return {name: os.path.join(workdir, name) for name in encodes}


class FileChannel:
    """A channel fed from files: it ends at EOS and restarts, each run a
    segment of its own in the results file."""
    def __init__(self, name, workdir, reference, distorted, settings=''):
        self.name = name
        self.results = os.path.join(workdir, name + '.jsonl')
        self.reference, self.distorted = reference, distorted
        self.settings = settings  # more keys, a line each

    def config(self):
        return (f'[channel {self.name}]\n'
                f'reference = {self.reference}\n'
                f'distorted = {self.distorted}\n'
                f'{self.settings}'
                f'results-location = {self.results}\n\n')


class Channel:
    def __init__(self, name, workdir, ref_pattern='ball', dist_pattern='ball',
                 jitter_buffer=False):
        self.name = name
        self.jitter_buffer = jitter_buffer
        self.ports = (free_udp_port(), free_udp_port())
        self.results = os.path.join(workdir, name + '.jsonl')
        self.senders = [sender(self.ports[0], ref_pattern, 'sweep'),
                        sender(self.ports[1], dist_pattern, 'wavy')]

    def config(self, threshold=30):
        # The two balls move apart and together again: scores vary.
        return (f'[channel {self.name}]\n'
                f'reference = {receiver(self.ports[0])}\n'
                f'distorted = {receiver(self.ports[1], self.jitter_buffer)}\n'
                'pairing-tolerance = 50ms\n'
                f'threshold = {threshold}\n'
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
        # With CUDA, the element's log names the context each backend runs in.
        env = dict(os.environ, GST_DEBUG='ssimulacra2cmp:4') if BACKEND == 'cuda' else None
        self.log = tempfile.TemporaryFile(mode='w+')
        self.process = subprocess.Popen(
            [program, '--config', config_path, '--listen', '127.0.0.1:0'],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
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

    def get(self, path, method='GET'):
        request = urllib.request.Request(self.url + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

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


def check_kept(path, before, what):
    """The results file still begins with `before` (its earlier records)
    and goes on with a new segment."""
    with open(path) as f:
        text = f.read()
    assert text.startswith(before), f'{what}: the earlier records of {path} went'
    last = max(r['segment'] for r in records(path) if 'frameNum' in r)
    return last


def check_file_channel(monitor, channel):
    """A file channel scored every frame of its first run, restarted at the
    file's end, and its second run appended segment 1 after segment 0."""
    wait_for(lambda: any(s['segment'] == 1 and s['reason'] == 'eos'
                         for s in summaries(channel.results)),
             f'{channel.name}: a second run to the end of its files')
    runs = records(channel.results)
    first = [r for r in runs if r.get('segment') == 0]
    assert len(first) == FILE_FRAMES, f'{channel.name}: {len(first)} frames in segment 0'
    assert runs[FILE_FRAMES]['summary']['segment'] == 0, runs[FILE_FRAMES]
    assert runs[FILE_FRAMES]['summary']['reason'] == 'eos', runs[FILE_FRAMES]
    assert runs[FILE_FRAMES + 1] == {**runs[0], 'segment': 1, 'utc': runs[FILE_FRAMES + 1]['utc']}, \
        'the second run is not the first again'
    assert monitor.value('ssimulacra2cmp_channel_restarts_total', channel.name) >= 1


def check_aligned_channel(monitor, channel):
    """A file against itself from its third frame: distorted frame N is
    reference frame N + 2, found as offset -2, each pair the frame with
    itself."""
    wait_for(lambda: monitor.value('ssimulacra2cmp_alignment_offset_frames', channel.name) == -2,
             f'{channel.name}: offset -2')
    event = monitor.wait_event(lambda e: e['channel'] == channel.name and
                               e['event'] == 'alignment' and e['details']['decided'])
    assert event['details']['offset_frames'] == -2 and event['details']['reason'] == 'start', event
    wait_for(lambda: any(s['segment'] == 0 for s in summaries(channel.results)),
             f'{channel.name}: the end of its first run')
    first = [r for r in records(channel.results) if r.get('segment') == 0 and 'frameNum' in r]
    trusted = [r for r in first if not r['alignFlagged']]
    assert len(trusted) >= FILE_FRAMES - 2 - 3, first  # at most 3 flagged at the start
    assert all(r['ssimulacra2'] == 100.0 for r in trusted), trusted
    assert monitor.value('ssimulacra2cmp_realignments_total', channel.name) == 0


def check_port_in_use(program, config_path, url):
    """A second monitor on the first one's port."""
    address = url.split('//')[1]
    run = subprocess.run([program, '--config', config_path, '--listen', address],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, f'status {run.returncode}: {run.stderr}'
    assert f'cannot listen on {address}: Address already in use' in run.stderr, run.stderr


def main():
    program = sys.argv[1]
    workdir = tempfile.mkdtemp(prefix='s2c-monitor-')
    config_path = os.path.join(workdir, 'channels.conf')
    files = encode(workdir)
    to_i420 = 'videoconvert ! video/x-raw,format=I420'  # bare caps at the end, as gst-launch takes
    reference = f'filesrc location={files["ref.mkv"]} ! matroskademux ! {to_i420}'
    file_channels = [
        FileChannel('webm', workdir, reference,
                    f'filesrc location={files["dist.webm"]} ! matroskademux ! vp8dec ! {to_i420}'),
        FileChannel('ts', workdir, reference,
                    f'filesrc location={files["dist.ts"]} ! tsdemux ! h264parse ! {H264_DECODER}'),
        FileChannel('mp4', workdir, f'uridecodebin uri=file://{files["ref.mkv"]}',
                    f'filesrc location={files["dist.mp4"]} ! decodebin')]
    # At the files' rate (identity syncs to the clock), so that the channel
    # runs for seconds: its offset gauge is NaN while it is down, and a file
    # scored as fast as the GPU can is down again within milliseconds.
    paced = f'{reference} ! identity sync=true'
    aligned = FileChannel('aligned', workdir, paced, paced,
                          'align = auto\nalign-window = 4\ndist-start-frame = 2\n')
    live = 'videotestsrc is-live=true ! video/x-raw,format=I420,framerate=10/1,'
    sizes = ('[channel sizes]\n'
             f'reference = {live}width=320,height=240\n'
             f'distorted = {live}width=160,height=120\n'
             'summary-interval = 1s\n\n')
    # a's distorted feed has a jitter buffer's latency, its reference none:
    # the element runs live all the same, and sees the feed go.
    channels = [Channel('a', workdir, jitter_buffer=True), Channel('b', workdir, 'ball', 'smpte'),
                Channel('c', workdir)]
    added = None
    monitor = None
    try:
        with open(config_path, 'w') as f:
            f.write(with_backend(''.join(c.config() for c in channels + file_channels) + sizes +
                                 aligned.config()))
        monitor = Monitor(program, config_path)
        assert monitor.get('/healthz')[0] == 200
        wait_for(lambda: monitor.get('/readyz')[0] == 200, '/readyz 200')
        status, body = monitor.get('/metrics', 'HEAD')
        assert status == 200 and body == '', (status, body)
        check_port_in_use(program, config_path, monitor.url)

        for c in channels:
            wait_for(lambda: scored(monitor, c.name) >= 5, f'{c.name}: 5 frames scored')
            check_exact_score(monitor, c)
            for feed in ('reference', 'distorted'):
                assert monitor.value('ssimulacra2cmp_feed_up', c.name, feed) == 1
            assert monitor.value('ssimulacra2cmp_channel_restarts_total', c.name) == 0
            assert ('ssimulacra2cmp_score_distribution_bucket', c.name, '+Inf') in monitor.metrics()
            assert ('ssimulacra2cmp_frames_skipped_total', c.name, None) in monitor.metrics()
            assert ('ssimulacra2cmp_alarm', c.name, None) in monitor.metrics()
            wait_for(lambda: 0 < (monitor.value('ssimulacra2cmp_coverage_ratio', c.name) or 0) <= 1,
                     f'{c.name}: the coverage of a window')
            # The window's statistics: numbers, in order.
            wait_for(lambda: monitor.value('ssimulacra2cmp_window_score_min', c.name) ==
                     monitor.value('ssimulacra2cmp_window_score_min', c.name),
                     f'{c.name}: a window with scores')
            low, p5, mean = (monitor.value(f'ssimulacra2cmp_window_score_{s}', c.name)
                             for s in ('min', 'p5', 'mean'))
            assert low <= p5 <= mean, (low, p5, mean)
        # Scores that vary, so that "equal to one of them" says something.
        assert len(channels[0].file_scores()) > 1, channels[0].file_scores()

        # Demuxed and decoded files: every frame, run after run.
        for c in file_channels:
            check_file_channel(monitor, c)
        check_aligned_channel(monitor, aligned)

        # Two sizes are reported as such (the element's coverage warning).
        warning = monitor.wait_event(lambda e: e['channel'] == 'sizes' and e['event'] == 'warning'
                                     and 'pairs were skipped' in e['details']['warning'])
        assert 'the reference is 320x240 but the distorted stream is 160x120' in \
            warning['details']['warning'], warning
        with monitor.lock:
            overloaded = [e for e in monitor.events if e['channel'] == 'sizes' and
                          'overloaded' in json.dumps(e)]
        assert not overloaded, overloaded

        # Channel a loses its distorted feed; its file keeps what it held.
        a_before = open(channels[0].results).read()
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
        # The stopped segment's summary, after its frames, and the restarted
        # pipeline's file opened after it.
        wait_for(lambda: any(s['segment'] == 0 and s['reason'] == 'stop'
                             for s in summaries(channels[0].results)), 'a: the summary of segment 0')
        monitor.wait_event(lambda e: e['channel'] == 'a' and e['event'] == 'started' and
                           e['details']['restarts'] >= 1)
        check_kept(channels[0].results, a_before, 'a after its restart')
        before = {c.name: scored(monitor, c.name) for c in channels[1:]}
        for c in channels[1:]:
            wait_for(lambda: scored(monitor, c.name) >= before[c.name] + 5,
                     f'{c.name}: still scoring after a lost its feed')
            check_exact_score(monitor, c)
            assert monitor.value('ssimulacra2cmp_channel_restarts_total', c.name) == 0

        # SIGHUP: d added, b changed, a channel that never starts; c runs on.
        added = Channel('d', workdir)
        b = channels[1]
        b_before = open(b.results).read()
        never = ('[channel never]\n'
                 f'reference = filesrc location={workdir}/missing.mkv ! matroskademux ! videoconvert\n'
                 f'distorted = {live}width=160,height=120\n\n')
        with open(config_path, 'w') as f:
            f.write(with_backend(''.join(c.config(threshold=31 if c is b else 30) for c in channels) +
                                 ''.join(c.config() for c in file_channels) + sizes +
                                 aligned.config() + added.config() + never))
        mark = monitor.event_count()
        monitor.process.send_signal(signal.SIGHUP)
        monitor.wait_event(lambda e: e['event'] == 'config-loaded', since=mark)
        wait_for(lambda: scored(monitor, 'd') >= 5, 'd: 5 frames scored after SIGHUP')
        check_exact_score(monitor, added)
        # b stopped (its summary written) and started again after it.
        monitor.wait_event(lambda e: e['channel'] == 'b' and e['event'] == 'started', since=mark)
        wait_for(lambda: scored(monitor, 'b') >= 5, 'b: 5 frames scored after SIGHUP')
        assert summaries(b.results)[-1]['reason'] == 'stop', summaries(b.results)
        wait_for(lambda: check_kept(b.results, b_before, 'b after SIGHUP') >= 1,
                 'b: frames of its next segment')
        with monitor.lock:
            interrupted = [e for e in monitor.events[mark:]
                           if e['channel'] == 'c' and e['event'] in ('started', 'stopped')]
        assert not interrupted, interrupted
        # /readyz names the channel that does not start, and why.
        wait_for(lambda: monitor.get('/readyz')[1].startswith('channels not started: never ('),
                 '/readyz naming the channel never started alone')
        status, body = monitor.get('/readyz')
        assert status == 503 and 'reference feed' in body, (status, body)

        monitor.stop()
        if BACKEND == 'cuda':
            monitor.log.seek(0)
            contexts = set(re.findall(r'CUDA context (0x[0-9a-f]+), device', monitor.log.read()))
            assert len(contexts) == 1, f'the channels ran in CUDA contexts {contexts}, not one'
        monitor = None
        print('ok: RTP channels exact; webm, ts and mp4 files demuxed and decoded, each restart '
              'appended; a lost feed restarted its channel alone, its file kept; SIGHUP added, '
              'changed (file kept) and named the one that never starts; sizes, HEAD, port')
        return 0
    finally:
        if monitor is not None:  # a check failed: what the monitor said, to tell why
            monitor.process.kill()
            monitor.process.wait()
            with monitor.lock:
                print('the monitor\'s last events:', *monitor.events[-30:], sep='\n')
            monitor.log.seek(0)
            print('the end of its log:', *monitor.log.read().splitlines()[-60:], sep='\n')
        for c in channels + ([added] if added else []):
            c.stop()


if __name__ == '__main__':
    sys.exit(main())
