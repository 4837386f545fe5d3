"""Camera sources: recordings on disk, cv2.VideoCapture, picamera2 (faked), retrying, factory."""

from __future__ import annotations

import logging
import sys
import threading
import time
import types

import cv2
import numpy as np
import pytest

from hardware.cameras import (
    CAMERA_MODULE_3,
    CameraError,
    CameraSource,
    EndOfStream,
    FolderSource,
    Frame,
    OpenCVSource,
    Picamera2Source,
    RetryingSource,
    open_camera,
    register_source,
    registered_sources,
    sensor_detail_scale,
    unregister_source,
)

# -- helpers -------------------------------------------------------------------------------------


def solid(value: int, shape=(48, 64)) -> np.ndarray:
    return np.full((*shape, 3), value, np.uint8)


def level(frame: Frame) -> int:
    return int(round(float(frame.image.mean())))


@pytest.fixture
def image_folder(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    for n in (1, 2, 10):
        assert cv2.imwrite(str(folder / f"frame{n}.png"), solid(n * 10))
    (folder / "frame3.png").write_bytes(b"this is not a png at all")
    (folder / "notes.txt").write_text("ignored")
    return folder


@pytest.fixture
def video(tmp_path):
    """A 10-frame MJPG .avi at 10 fps; frame i is a flat grey of 20 * i."""
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG .avi")
    for i in range(10):
        writer.write(solid(20 * i))
    writer.release()
    return path


def video_index(frame: Frame) -> int:
    return int(round(frame.image.mean() / 20))


# -- FolderSource --------------------------------------------------------------------------------


def test_folder_replays_in_natural_order_and_skips_a_corrupt_file(image_folder, caplog):
    with caplog.at_level(logging.WARNING, logger="hardware.cameras"):
        with FolderSource(image_folder) as source:
            frames = list(source.frames())
            status = source.status()
    assert [level(f) for f in frames] == [10, 20, 100]  # frame3.png skipped, .txt ignored
    assert [f.index for f in frames] == [0, 1, 2]
    assert all(f.image.shape == (48, 64, 3) and f.image.dtype == np.uint8 for f in frames)
    assert [f.timestamp for f in frames] == [0.0, 0.1, 0.2]  # default 10 fps
    assert len(source.skipped) == 1 and "frame3.png" in source.skipped[0]
    assert "frame3.png" in caplog.text
    assert status["ok"] is True and "frame3.png" in status["skipped"][0]


def test_folder_stops_or_loops(image_folder):
    with FolderSource(image_folder) as once:
        for _ in range(3):
            once.read()
        with pytest.raises(EndOfStream):
            once.read()
    with FolderSource(image_folder, loop=True, fps=2) as looping:
        frames = [looping.read() for _ in range(7)]
    assert [level(f) for f in frames] == [10, 20, 100, 10, 20, 100, 10]
    assert [f.index for f in frames] == list(range(7))
    assert frames[-1].timestamp == 3.0


def test_folder_with_only_unreadable_images_is_an_error(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"junk")
    (tmp_path / "b.jpg").write_bytes(b"")
    with FolderSource(tmp_path, loop=True) as source:
        with pytest.raises(CameraError, match="none of the 2 images"):
            source.read()


def test_folder_errors_name_the_path(tmp_path):
    with pytest.raises(CameraError, match="no images"):
        FolderSource(tmp_path)
    with pytest.raises(CameraError, match="missing"):
        FolderSource(tmp_path / "missing")


def test_single_image_file(tmp_path):
    path = tmp_path / "board.jpg"
    cv2.imwrite(str(path), solid(77))
    with open_camera(f"file:{path}") as source:
        frame = source.read()
        assert abs(level(frame) - 77) <= 1
        with pytest.raises(EndOfStream):
            source.read()


def test_video_file_replay(video):
    with FolderSource(video) as source:
        assert len(source) == 10
        frames = list(source)
    assert [video_index(f) for f in frames] == list(range(10))
    assert frames[3].timestamp == pytest.approx(0.3)  # the video's own 10 fps
    with FolderSource(video, loop=True) as looping:
        got = [video_index(looping.read()) for _ in range(13)]
    assert got == list(range(10)) + [0, 1, 2]


def test_realtime_replay_is_paced(image_folder):
    with FolderSource(image_folder, fps=50, realtime=True) as source:
        t0 = time.monotonic()
        list(source)
    assert time.monotonic() - t0 >= 0.035  # three frames at 50 fps span 40 ms


def test_read_after_close_and_close_twice(image_folder):
    source = FolderSource(image_folder)
    source.close()
    source.close()
    assert source.closed and source.status()["ok"] is False
    with pytest.raises(CameraError, match="closed"):
        source.read()
    assert list(source.frames()) == []


# -- OpenCVSource --------------------------------------------------------------------------------


def test_videocapture_reads_every_frame_without_dropping(video):
    with OpenCVSource(str(video), max_drop=0) as source:
        got = [video_index(source.read()) for _ in range(10)]
        assert got == list(range(10))
        with pytest.raises(CameraError, match=r"usb:.*game\.avi.*stopped delivering"):
            source.read()
        assert source.status()["ok"] is False


def test_videocapture_drops_stale_buffered_frames(video):
    # Grabs from a file never wait for a sensor, so every read counts as stale and skips
    # max_drop frames, exactly as a webcam's buffered backlog would be skipped.
    with OpenCVSource(str(video), max_drop=2, fresh_after=1.0) as source:
        got = [video_index(source.read()) for _ in range(3)]
    assert got == [2, 5, 8]


def test_videocapture_fresh_grab_stops_dropping(video):
    with OpenCVSource(str(video), max_drop=5, fresh_after=0.0) as source:
        assert [video_index(source.read()) for _ in range(3)] == [0, 1, 2]


def test_videocapture_missing_device_names_it(tmp_path):
    with pytest.raises(CameraError, match="usb:.*nothere.avi"):
        OpenCVSource(str(tmp_path / "nothere.avi"))


# -- Picamera2Source with a fake picamera2 module -------------------------------------------------


class FakeRequest:
    def __init__(self, cam, image):
        self.cam = cam
        self.image = image

    def make_array(self, name):
        assert name == "main"
        return self.image

    def release(self):
        self.cam.released += 1


class FakePicamera2:
    made: list[FakePicamera2] = []
    fail_open = False
    channels = 3

    def __init__(self, camera_num=0):
        if FakePicamera2.fail_open:
            raise RuntimeError("Camera(s) not found")
        self.camera_num = camera_num
        self.config_kw = None
        self.configured = None
        self.started = False
        self.controls = []
        self.flushes = []
        self.released = 0
        self.stopped = 0
        self.closed = 0
        self.dead = False
        self.n = 0
        FakePicamera2.made.append(self)

    def create_video_configuration(self, **kw):
        self.config_kw = kw
        return {"use_case": "video", **kw}

    def configure(self, config):
        self.configured = config

    def start(self):
        self.started = True

    def stop(self):
        self.stopped += 1

    def close(self):
        self.closed += 1

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300}

    def set_controls(self, controls):
        self.controls.append(dict(controls))

    def capture_request(self, wait=None, signal_function=None, flush=None):
        assert wait is False
        self.flushes.append(flush)
        return "job"

    def wait(self, job, timeout=None):
        assert job == "job" and timeout is not None
        if self.dead:
            raise TimeoutError("no frame")
        self.n += 1
        image = np.zeros((4, 6, self.channels), np.uint8)
        image[..., 0] = 200  # byte 0 is blue in RGB888: must stay in channel 0 (BGR)
        image[..., 2] = self.n
        return FakeRequest(self, image)


class OldFakePicamera2(FakePicamera2):
    """A picamera2 without capture_request(flush=...)."""

    def capture_request(self, wait=None, signal_function=None):
        self.flushes.append("n/a")
        return "job"


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.made = []
    FakePicamera2.fail_open = False
    FakePicamera2.channels = 3
    return module


def test_picamera2_configures_rgb888_and_locks_exposure(fake_picamera2):
    sleeps = []
    with Picamera2Source(size=(640, 480), warmup=1.5, sleep=sleeps.append) as source:
        cam = FakePicamera2.made[0]
        assert cam.config_kw["main"] == {"size": (640, 480), "format": "RGB888"}
        assert cam.config_kw["queue"] is False
        assert cam.started
        assert sleeps == [1.5]  # warm-up before measuring
        assert cam.controls == [
            {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": 12000,
                "AnalogueGain": 2.5,
                "ColourGains": (1.8, 1.4),
            }
        ]
        assert source.locked_controls == cam.controls[0]
        a, b = source.read(), source.read()
    assert cam.flushes == [True, True]  # a frame exposed after the call, not a queued one
    assert cam.released == 2
    assert (a.index, b.index) == (0, 1)
    assert a.image.shape == (4, 6, 3)
    assert a.image[0, 0, 0] == 200 and a.image[0, 0, 2] == 1 and b.image[0, 0, 2] == 2
    assert cam.stopped == 1 and cam.closed == 1


def test_picamera2_fixed_controls_and_no_lock(fake_picamera2):
    with Picamera2Source(controls={"ExposureTime": 5000}, sleep=lambda s: None):
        assert FakePicamera2.made[0].controls == [{"ExposureTime": 5000}]
    with Picamera2Source(lock_exposure=False, sleep=pytest.fail):
        assert FakePicamera2.made[1].controls == []


def test_picamera2_xrgb_is_cut_to_three_channels(fake_picamera2):
    FakePicamera2.channels = 4
    with Picamera2Source(sleep=lambda s: None) as source:
        frame = source.read()
    assert frame.image.shape == (4, 6, 3) and frame.image.flags["C_CONTIGUOUS"]


def test_picamera2_without_flush_support(fake_picamera2, monkeypatch):
    monkeypatch.setattr(fake_picamera2, "Picamera2", OldFakePicamera2)
    with Picamera2Source(sleep=lambda s: None) as source:
        source.read()
        assert FakePicamera2.made[0].flushes == ["n/a"]


def test_picamera2_camera_gone_is_a_camera_error(fake_picamera2):
    with Picamera2Source(camera_num=1, sleep=lambda s: None) as source:
        source.read()
        FakePicamera2.made[0].dead = True
        with pytest.raises(CameraError, match="picamera2:1.*no frame"):
            source.read()
        assert "picamera2:1" in source.status()["error"]


def test_picamera2_open_failures(fake_picamera2, monkeypatch):
    FakePicamera2.fail_open = True
    with pytest.raises(CameraError, match="picamera2:0: cannot open.*not found"):
        Picamera2Source(sleep=lambda s: None)
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as off the Pi
    with pytest.raises(CameraError, match="not installed.*apt"):
        Picamera2Source()


def test_picamera2_close_twice(fake_picamera2):
    source = Picamera2Source(sleep=lambda s: None)
    source.close()
    source.close()
    assert FakePicamera2.made[0].closed == 1


class CameraModule3(FakePicamera2):
    sensor_resolution = CAMERA_MODULE_3


@pytest.mark.parametrize("width", [1280, 1640])
def test_the_benches_detail_is_what_picamera2_gives_from_a_camera_module_3(fake_picamera2, width):
    """The tray benches cut the dice from sensor_detail_scale times the frame's pixels:
    the main stream of the sensor's whole field beside a lores frame of that width."""
    fake_picamera2.Picamera2 = CameraModule3
    with Picamera2Source(size=(width, width * 3 // 4), sleep=lambda s: None) as source:
        assert source.detail_size == CAMERA_MODULE_3
        assert source.size[0] == width
        for main, lores in zip(source.detail_size, source.size, strict=True):
            assert main / lores == pytest.approx(sensor_detail_scale(width), rel=2e-3)


# -- RetryingSource ------------------------------------------------------------------------------


class FakeSource(CameraSource):
    """Delivers ``frames`` frames, then fails (or ends, when ``end``)."""

    def __init__(self, name, first, frames, end=False):
        super().__init__()
        self.name = name
        self.value = first
        self.left = frames
        self.end = end

    def _grab(self):
        if self.left <= 0:
            if self.end:
                raise EndOfStream(self.name)
            raise CameraError(f"{self.name}: unplugged")
        self.left -= 1
        self.value += 1
        return solid(self.value, (2, 2)), float(self.value)


class Opener:
    def __init__(self, plan):
        self.plan = list(plan)
        self.calls = 0
        self.made = []

    def __call__(self):
        self.calls += 1
        step = self.plan.pop(0)
        if isinstance(step, BaseException):
            raise step
        self.made.append(step)
        return step


def test_retrying_recovers_after_two_failed_opens():
    opener = Opener(
        [
            CameraError("cam: not found"),
            OSError("device busy"),  # anything the opener raises counts as a failure
            FakeSource("cam", 0, 3, end=True),
        ]
    )
    source = RetryingSource(opener, "cam", initial_delay=0.001, max_delay=0.004)
    frames = list(source.frames())
    assert [level(f) for f in frames] == [1, 2, 3]
    assert [f.index for f in frames] == [0, 1, 2]
    assert opener.calls == 3
    status = source.status()
    assert status["failures"] == 2 and status["attempts"] == 3 and status["frames"] == 3
    source.close()
    source.close()
    assert opener.made[0].closed


def test_retrying_reports_while_away_and_respects_backoff():
    opener = Opener([CameraError("cam: not found"), FakeSource("cam", 0, 5)])
    source = RetryingSource(opener, "cam", initial_delay=0.05, max_delay=1.0)
    assert source.read() is None  # first attempt fails; no exception reaches the caller
    status = source.status()
    assert status["ok"] is False and status["error"] == "cam: not found"
    assert 0 < status["retry_in"] <= 0.05
    assert source.read() is None  # too early: no new attempt
    assert opener.calls == 1
    deadline = time.monotonic() + 2
    frame = None
    while frame is None and time.monotonic() < deadline:
        frame = source.read()
        time.sleep(0.005)
    assert frame is not None and level(frame) == 1
    assert source.status()["ok"] is True and source.status()["error"] is None
    source.close()


def test_retrying_reopens_a_camera_that_fails_mid_stream():
    first, second = FakeSource("cam", 0, 2), FakeSource("cam", 100, 2, end=True)
    opener = Opener([first, second])
    with RetryingSource(opener, "cam", initial_delay=0.001) as source:
        got = [(f.index, level(f)) for f in source.frames()]
    assert got == [(0, 1), (1, 2), (2, 101), (3, 102)]
    assert first.closed  # the failed camera was released before reopening


def test_retrying_close_from_another_thread_ends_frames():
    opener = Opener([CameraError("cam: gone")] * 100)
    source = RetryingSource(opener, "cam", initial_delay=30, max_delay=30)
    got = []
    thread = threading.Thread(target=lambda: got.extend(source.frames()))
    thread.start()
    deadline = time.monotonic() + 2
    while opener.calls == 0 and time.monotonic() < deadline:
        time.sleep(0.002)
    source.close()
    thread.join(timeout=2)
    assert not thread.is_alive() and got == []
    assert source.status()["error"] == "closed"


def test_retrying_backoff_doubles_up_to_max():
    opener = Opener([CameraError("cam: gone")] * 10)
    source = RetryingSource(opener, "cam", initial_delay=0.01, max_delay=0.03)
    retry = []
    for _ in range(4):
        source._next_attempt = 0  # let every read attempt at once
        source.read()
        retry.append(source.status()["retry_in"])
    assert retry[0] <= 0.01 < retry[1] <= 0.02 < retry[2] <= 0.03
    assert retry[3] > 0.02  # capped at max_delay, not 0.08
    source.close()


# -- the factory ---------------------------------------------------------------------------------


@pytest.fixture
def clean_registry():
    before = set(registered_sources())
    yield
    for name in set(registered_sources()) - before:
        unregister_source(name)


def test_open_camera_builtin_specs(image_folder, video, fake_picamera2):
    with open_camera(f"folder:{image_folder}") as s:
        assert isinstance(s, FolderSource) and s.name == f"folder:{image_folder}"
    with open_camera(f"file:{video}", loop=True) as s:
        assert isinstance(s, FolderSource) and s.loop
    with open_camera(f"usb:{video}", max_drop=0) as s:
        assert isinstance(s, OpenCVSource) and video_index(s.read()) == 0
    with open_camera("picamera2:1", sleep=lambda s: None) as s:
        assert isinstance(s, Picamera2Source) and FakePicamera2.made[-1].camera_num == 1
    with pytest.raises(CameraError, match="is a folder"):
        open_camera(f"file:{image_folder}")
    with pytest.raises(CameraError, match="not a folder"):
        open_camera(f"folder:{video}")


def test_open_camera_bad_specs():
    with pytest.raises(ValueError, match="unknown camera source 'bogus:1'"):
        open_camera("bogus:1")
    with pytest.raises(ValueError, match="needs a device"):
        open_camera("usb:")


def test_sim_is_looked_up_in_the_registry(clean_registry):
    if "sim" not in registered_sources():
        with pytest.raises(ValueError, match="sim.*nothing has registered it"):
            open_camera("sim")
    calls = []

    def factory(arg, **kw):
        calls.append((arg, kw))
        return FakeSource("sim", 0, 1)

    register_source("sim", factory, replace=True)
    with open_camera("sim:aggravation", seed=3) as s:
        assert level(s.read()) == 1
    open_camera("sim").close()
    assert calls == [("aggravation", {"seed": 3}), ("", {})]
    with pytest.raises(ValueError, match="already registered"):
        register_source("sim", lambda arg: None)
    with pytest.raises(ValueError, match="built-in"):
        register_source("usb", factory)


def test_open_camera_with_retry_never_raises(tmp_path):
    source = open_camera(f"folder:{tmp_path / 'later'}", retry=True, loop=True)
    assert isinstance(source, RetryingSource)
    assert source.read() is None
    assert "later" in source.status()["error"]
    (tmp_path / "later").mkdir()
    cv2.imwrite(str(tmp_path / "later" / "a.png"), solid(5))
    source._next_attempt = 0  # skip the backoff wait
    assert level(source.read()) == 5
    source.close()
