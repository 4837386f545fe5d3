"""Camera sources: one small interface over the Pi camera, USB webcams, recordings and plug-ins.

Every source gives ``Frame`` objects (a BGR ``uint8`` image, a timestamp in seconds and a running
index) through ``read()`` (the newest frame) or ``frames()`` (an iterator), and has an idempotent
``close()``; sources are context managers. A camera that disappears raises ``CameraError`` naming
the source; ``RetryingSource`` wraps any source so the caller never dies: it reopens with backoff
and reports ``status()`` while the camera is away. A replay that reaches its end raises
``EndOfStream`` from ``read()`` and ends ``frames()``.

``open_camera(spec)`` builds a source from a text spec: "picamera2", "picamera2:1", "usb:0",
"usb:/dev/video2", "rtsp://..." / "http://...", "file:/path/game.avi", "folder:/path/frames",
and any name registered with ``register_source`` (the simulated table registers "sim").
"""

from __future__ import annotations

import inspect
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

__all__ = [
    "Frame",
    "CameraError",
    "EndOfStream",
    "CameraSource",
    "Picamera2Source",
    "CropDetail",
    "OpenCVSource",
    "FolderSource",
    "RetryingSource",
    "open_camera",
    "register_source",
    "unregister_source",
    "registered_sources",
    "IMAGE_EXTENSIONS",
]

log = logging.getLogger(__name__)

IMAGE_EXTENSIONS = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})

# the Camera Module 3's sensor (Sony IMX708): picamera2's full-resolution main stream
CAMERA_MODULE_3 = (4608, 2592)


def sensor_detail_scale(frame_width: int, sensor_width: int = CAMERA_MODULE_3[0]) -> float:
    """Full-resolution pixels per frame pixel when the frame is a lores stream ``frame_width``
    wide over the whole field of a sensor ``sensor_width`` wide (what
    :class:`Picamera2Source` gives): the trays' pixels per board mm come from the sensor,
    whatever size the frame the board is read from has (a 1280-wide frame: 3.6, a 1640-wide
    one: 2.81)."""
    return max(1.0, sensor_width / frame_width)


class CameraError(RuntimeError):
    """The camera cannot be opened or stopped delivering frames. The message names the source."""


class EndOfStream(Exception):
    """A recording has no more frames (not an error: the replay is over)."""


@dataclass(frozen=True)
class Frame:
    """One camera image.

    ``image`` is an H x W x 3 ``uint8`` array in OpenCV's BGR order. ``timestamp`` is in
    seconds: wall-clock time (``time.time()``) for live cameras, the position in the
    recording for replays. ``index`` counts the frames this source delivered, from 0.
    """

    image: np.ndarray
    timestamp: float
    index: int
    # the same moment at the camera's full resolution, where the camera gives one: an object
    # with `scale` (detail px per image px along x and y) and `crop(x0, y0, x1, y1)` giving
    # that rectangle of it (detail px, BGR) or None (vision.tray.Detail)
    detail: Any = None


def _as_bgr(image: np.ndarray, source: str) -> np.ndarray:
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:  # XRGB8888 and friends: drop the padding byte
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise CameraError(f"{source}: unexpected image shape {image.shape}")


class CameraSource:
    """Base class of every source. Subclasses implement ``_grab()`` and ``_release()``.

    ``read()`` returns the newest frame; ``frames()`` iterates until the source is closed or a
    recording ends. ``read()`` and ``close()`` may be called from different threads.
    """

    name = "camera"

    def __init__(self) -> None:
        self._closed = False
        self._count = 0
        self._lock = threading.RLock()
        self._last_error: str | None = None

    # Subclass hooks ---------------------------------------------------------------------------

    def _grab(self) -> tuple[np.ndarray, float] | tuple[np.ndarray, float, Any]:
        """Return (BGR image, timestamp) of the newest frame, or (image, timestamp, detail)
        when the camera also gives it at full resolution; raise CameraError/EndOfStream."""
        raise NotImplementedError

    def want_detail(self, regions: list[tuple[int, int, int, int]] | None) -> None:
        """Say which rectangles of the image (image px: x0, y0, x1, y1) the next frames'
        full-resolution detail must hold, or None when no detail is needed (a camera that
        copies its full-resolution image only where it is read saves the rest)."""

    def _release(self) -> None:
        """Free the device. Called once, by close()."""

    # Public API -------------------------------------------------------------------------------

    def read(self) -> Frame:
        """The newest frame. Raises CameraError (device gone) or EndOfStream (replay over)."""
        with self._lock:
            if self._closed:
                raise CameraError(f"{self.name}: the source is closed")
            try:
                image, timestamp, *detail = self._grab()
            except CameraError as exc:
                self._last_error = str(exc)
                raise
            self._last_error = None
            frame = Frame(
                image=_as_bgr(image, self.name),
                timestamp=timestamp,
                index=self._count,
                detail=detail[0] if detail else None,
            )
            self._count += 1
            return frame

    def frames(self) -> Iterator[Frame]:
        """Frames until the source is closed or a recording ends; CameraError propagates."""
        while not self._closed:
            try:
                frame = self.read()
            except EndOfStream:
                return
            except CameraError:
                if self._closed:  # closed from another thread while reading
                    return
                raise
            yield frame

    def status(self) -> dict[str, Any]:
        """JSON-able health: {"ok", "source", "error", "frames"}."""
        return {
            "ok": not self._closed and self._last_error is None,
            "source": self.name,
            "error": "closed" if self._closed else self._last_error,
            "frames": self._count,
        }

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release the device. Safe to call more than once, and from another thread."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            try:
                self._release()
            except Exception:
                log.debug("%s: error while closing", self.name, exc_info=True)

    def __enter__(self) -> CameraSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}{' closed' if self._closed else ''}>"


def _accepts(function: Callable[..., Any], parameter: str) -> bool:
    try:
        return parameter in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


# -- Raspberry Pi camera ---------------------------------------------------------------------


class Picamera2Source(CameraSource):
    """The Raspberry Pi camera through picamera2 (from Raspberry Pi OS's apt, imported lazily).

    The main stream is "RGB888", which picamera2 delivers in BGR byte order, as OpenCV wants.
    With ``detail=True`` (the default) and a sensor finer than ``size``, the main stream is the
    sensor's full resolution and a "lores" stream of about ``size`` (with the sensor's aspect)
    is the frame the board is read from: the Pi's ISP scales it for free. The lores stream
    must be YUV420 on a Pi 4 (picamera2 refuses any other format there, and a lores stream
    larger than the main one), so it is converted to BGR here. Only the rectangles asked for
    by ``want_detail`` (the dice trays, while a roll is awaited) are copied from the main
    stream, as the frame's ``detail``.
    After ``warmup`` seconds of automatic exposure and white balance, both are switched off and
    the measured ExposureTime, AnalogueGain and ColourGains are set as fixed controls, so token
    colours stay put when a hand or a shadow passes (``controls`` fixes them to given values
    instead; ``lock_exposure=False`` leaves the automatics on). Each ``read()`` asks for a frame
    exposed after the call (``capture_request(flush=True)`` where picamera2 supports it, with
    ``queue=False`` in the configuration), never an old queued one.
    """

    def __init__(
        self,
        camera_num: int = 0,
        size: tuple[int, int] = (1640, 1232),
        *,
        warmup: float = 2.0,
        lock_exposure: bool = True,
        controls: dict[str, Any] | None = None,
        timeout: float = 3.0,
        sleep: Callable[[float], None] = time.sleep,
        detail: bool = True,
    ) -> None:
        super().__init__()
        self.name = f"picamera2:{camera_num}"
        self.camera_num = camera_num
        self.size = (int(size[0]), int(size[1]))
        self.detail_size: tuple[int, int] | None = None  # the main stream, when it is finer
        self.timeout = timeout
        self.locked_controls: dict[str, Any] = {}
        self._regions: list[tuple[int, int, int, int]] | None = None
        try:
            from picamera2 import Picamera2  # only on the Pi, from apt
        except ImportError as exc:
            raise CameraError(
                f"{self.name}: picamera2 is not installed ({exc}); on Raspberry Pi OS install "
                "python3-picamera2 with apt and create the venv with --system-site-packages"
            ) from exc
        try:
            self._cam = Picamera2(camera_num)
        except Exception as exc:
            raise CameraError(f"{self.name}: cannot open the camera: {exc}") from exc
        try:
            sensor = getattr(self._cam, "sensor_resolution", None) if detail else None
            if sensor and int(sensor[0]) > self.size[0]:
                self.detail_size = (int(sensor[0]), int(sensor[1]))
                self.size = _lores_size(self.size, self.detail_size)
                config = self._cam.create_video_configuration(
                    main={"size": self.detail_size, "format": "RGB888"},
                    lores={"size": self.size, "format": "YUV420"},
                    buffer_count=2,
                    queue=False,
                )
            else:
                config = self._cam.create_video_configuration(
                    main={"size": self.size, "format": "RGB888"}, buffer_count=2, queue=False
                )
            self._cam.configure(config)
            self._cam.start()
            self._flush = _accepts(self._cam.capture_request, "flush")
            if controls:
                self._cam.set_controls(dict(controls))
                self.locked_controls = dict(controls)
            elif lock_exposure:
                sleep(warmup)
                self.locked_controls = self._lock_exposure()
        except Exception as exc:
            self._release()
            raise CameraError(f"{self.name}: cannot start the camera: {exc}") from exc

    def _lock_exposure(self) -> dict[str, Any]:
        metadata = self._cam.capture_metadata()
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if metadata.get(key) is not None:
                controls[key] = metadata[key]
        self._cam.set_controls(controls)
        log.info("%s: exposure and white balance locked at %s", self.name, controls)
        return controls

    def _grab(self) -> tuple[np.ndarray, float]:
        try:
            if self._flush:
                job = self._cam.capture_request(wait=False, flush=True)
            else:
                job = self._cam.capture_request(wait=False)
            request = self._cam.wait(job, timeout=self.timeout)
        except Exception as exc:
            raise CameraError(
                f"{self.name}: no frame within {self.timeout:g} s ({type(exc).__name__}: {exc})"
            ) from exc
        try:
            if self.detail_size is None:
                return request.make_array("main"), time.time()
            image = _yuv420_to_bgr(request.make_array("lores"), *self.size)
            return image, time.time(), self._detail(request)
        except Exception as exc:
            raise CameraError(f"{self.name}: bad frame: {exc}") from exc
        finally:
            request.release()

    def want_detail(self, regions: list[tuple[int, int, int, int]] | None) -> None:
        self._regions = list(regions) if regions else None

    def _detail(self, request: Any) -> CropDetail | None:
        """The asked-for rectangles of the main stream (copied before the request goes
        back to the camera); None when nothing is asked."""
        regions = self._regions
        if not regions or self.detail_size is None:
            return None
        (mw, mh), (lw, lh) = self.detail_size, self.size
        scale = (mw / lw, mh / lh)
        stride = int(self._cam.stream_configuration("main")["stride"])
        rows = request.make_buffer("main").reshape(-1, stride)[:mh, : mw * 3]
        crops = {}
        for x0, y0, x1, y1 in regions:
            box = (
                max(0, int(x0 * scale[0])), max(0, int(y0 * scale[1])),
                min(mw, int(np.ceil(x1 * scale[0]))), min(mh, int(np.ceil(y1 * scale[1]))),
            )  # fmt: skip
            if box[2] > box[0] and box[3] > box[1]:
                part = rows[box[1] : box[3], box[0] * 3 : box[2] * 3]
                crops[box] = part.reshape(box[3] - box[1], box[2] - box[0], 3).copy()
        return CropDetail(scale, crops)

    def _release(self) -> None:
        cam = getattr(self, "_cam", None)
        if cam is None:
            return
        self._cam = None
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception:
                log.debug("%s: %s failed", self.name, step.__name__, exc_info=True)


class CropDetail:
    """Rectangles of a camera's full-resolution image (see ``Frame.detail``): ``crop`` gives
    any rectangle lying inside one of them."""

    def __init__(
        self, scale: tuple[float, float], crops: dict[tuple[int, int, int, int], np.ndarray]
    ) -> None:
        self.scale = scale
        self.crops = crops

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray | None:
        for (a0, b0, a1, b1), image in self.crops.items():
            if a0 <= x0 and b0 <= y0 and x1 <= a1 and y1 <= b1 and x1 > x0 and y1 > y0:
                return image[y0 - b0 : y1 - b0, x0 - a0 : x1 - a0]
        return None


def _lores_size(size: tuple[int, int], sensor: tuple[int, int]) -> tuple[int, int]:
    """About ``size``, with the sensor's aspect (the ISP scales the lores stream from the
    same field as the main one) and even sides (YUV420)."""
    width = int(size[0]) // 2 * 2
    return width, int(round(width * sensor[1] / sensor[0] / 2)) * 2


def _yuv420_to_bgr(array: np.ndarray, width: int, height: int) -> np.ndarray:
    """picamera2's YUV420 array ((height * 3/2) rows of ``stride`` bytes: the Y plane, then
    the U and V planes, each row holding half a stride) as a BGR image."""
    stride = array.shape[1]
    if stride != width:
        flat = array.reshape(-1)
        y = array[:height, :width]
        half, rows = stride // 2, height // 2
        start = height * stride
        u = flat[start : start + rows * half].reshape(rows, half)[:, : width // 2]
        v = flat[start + rows * half : start + 2 * rows * half].reshape(rows, half)
        v = v[:, : width // 2]
        array = np.concatenate([y.ravel(), u.ravel(), v.ravel()]).reshape(-1, width)
    return cv2.cvtColor(np.ascontiguousarray(array), cv2.COLOR_YUV2BGR_I420)


# -- USB webcams and network streams ---------------------------------------------------------


class OpenCVSource(CameraSource):
    """A ``cv2.VideoCapture`` device: a USB webcam index (0, 1, ...), a device path, or a URL.

    Webcams queue frames; a referee wants the newest. The buffer is set to one frame where the
    backend allows it, and each ``read()`` grabs repeatedly, up to ``max_drop`` extra times,
    until a grab had to wait for the camera (a fresh frame) rather than returning a buffered one
    at once. ``max_drop=0`` reads every frame in order.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = None,
        max_drop: int = 4,
        fresh_after: float = 0.004,
        api: int = cv2.CAP_ANY,
    ) -> None:
        super().__init__()
        self.device = device
        self.name = f"usb:{device}"
        self.max_drop = max(0, int(max_drop))
        self.fresh_after = fresh_after
        self._cap = cv2.VideoCapture(device, api)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"{self.name}: cannot open the video device")
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def _grab(self) -> tuple[np.ndarray, float]:
        cap = self._cap
        for _ in range(self.max_drop + 1):
            started = time.monotonic()
            if not cap.grab():
                raise CameraError(f"{self.name}: the camera stopped delivering frames")
            if time.monotonic() - started >= self.fresh_after:
                break  # this grab waited for the sensor: the frame is fresh
        ok, image = cap.retrieve()
        if not ok or image is None:
            raise CameraError(f"{self.name}: could not decode the frame")
        return image, time.time()

    def _release(self) -> None:
        self._cap.release()


# -- recordings ------------------------------------------------------------------------------


def _natural_key(path: Path) -> list[Any]:
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class FolderSource(CameraSource):
    """Replays a recorded game: a folder of images in natural name order (frame2 before
    frame10), a single image, or a video file.

    ``loop=True`` starts again after the last frame; otherwise ``read()`` raises
    ``EndOfStream``. An unreadable image is skipped: the stream goes on, the problem is logged
    naming the file, kept in ``skipped`` and listed in ``status()["skipped"]``; only when no
    image at all can be read does ``read()`` raise CameraError. Timestamps are ``index / fps``
    (``fps`` defaults to the video's own rate, or 10); ``realtime=True`` paces ``read()`` at
    that rate, as a live camera would.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        loop: bool = False,
        fps: float | None = None,
        realtime: bool = False,
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self.loop = loop
        self.realtime = realtime
        self.skipped: list[str] = []
        self._files: list[Path] = []
        self._pos = 0
        self._video: cv2.VideoCapture | None = None
        self._started: float | None = None
        if self.path.is_dir():
            self.name = f"folder:{self.path}"
            self._files = sorted(
                (p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_EXTENSIONS),
                key=_natural_key,
            )
            if not self._files:
                raise CameraError(f"{self.name}: no images ({', '.join(sorted(IMAGE_EXTENSIONS))})")
        elif self.path.is_file():
            self.name = f"file:{self.path}"
            if self.path.suffix.lower() in IMAGE_EXTENSIONS:
                self._files = [self.path]
            else:
                self._video = self._open_video()
                if fps is None:
                    fps = self._video.get(cv2.CAP_PROP_FPS) or None
        else:
            raise CameraError(f"{self.path}: no such file or folder")
        self.fps = float(fps) if fps and fps > 0 else 10.0

    def _open_video(self) -> cv2.VideoCapture:
        video = cv2.VideoCapture(str(self.path))
        if not video.isOpened():
            video.release()
            raise CameraError(f"{self.name}: cannot open as a video")
        return video

    def _grab(self) -> tuple[np.ndarray, float]:
        image = self._next_video() if self._video is not None else self._next_image()
        timestamp = self._count / self.fps
        if self.realtime:
            now = time.monotonic()
            if self._started is None:
                self._started = now - timestamp
            delay = self._started + timestamp - now
            if delay > 0:
                time.sleep(delay)
        return image, timestamp

    def _next_image(self) -> np.ndarray:
        misses = 0
        while True:
            if self._pos >= len(self._files):
                if not self.loop:
                    raise EndOfStream(self.name)
                self._pos = 0
            path = self._files[self._pos]
            self._pos += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                return image
            message = f"{self.name}: cannot read image {path.name}; skipped"
            log.warning(message)
            self.skipped.append(message)
            misses += 1
            if misses >= len(self._files):
                raise CameraError(f"{self.name}: none of the {len(self._files)} images is readable")

    def _next_video(self) -> np.ndarray:
        assert self._video is not None
        ok, image = self._video.read()
        if not ok and self.loop and self._count > 0:
            self._video.release()
            self._video = self._open_video()
            ok, image = self._video.read()
        if not ok or image is None:
            if self._count == 0:
                raise CameraError(f"{self.name}: the video has no readable frames")
            raise EndOfStream(self.name)
        return image

    def status(self) -> dict[str, Any]:
        """As CameraSource.status(), plus "skipped": the unreadable files met so far."""
        data = super().status()
        data["skipped"] = list(self.skipped[-20:])
        return data

    def _release(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None

    def __len__(self) -> int:
        """Number of frames in one pass (images, or the video's frame count)."""
        if self._video is not None:
            return int(self._video.get(cv2.CAP_PROP_FRAME_COUNT))
        return len(self._files)


# -- recovery --------------------------------------------------------------------------------


class RetryingSource(CameraSource):
    """Keeps a camera going: (re)opens it with ``opener()`` and backs off while it is away.

    ``frames()`` yields frames whenever the camera delivers and waits quietly (backoff from
    ``initial_delay`` doubling to ``max_delay``) while it cannot be opened or fails; it ends
    only on ``close()`` or when a replay reaches its end. ``read()`` returns None instead of
    raising while the camera is away. Any exception from the wrapped source counts as a
    failure; ``status()`` says {"ok": false, "error": "...", ...} meanwhile.
    """

    def __init__(
        self,
        opener: Callable[[], CameraSource],
        name: str = "camera",
        *,
        initial_delay: float = 0.5,
        max_delay: float = 10.0,
    ) -> None:
        super().__init__()
        self.name = name
        self._opener = opener
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self._source: CameraSource | None = None
        self._delay = 0.0
        self._next_attempt = 0.0
        self._failures = 0
        self._attempts = 0
        self._wake = threading.Event()

    def _fail(self, exc: BaseException) -> None:
        message = str(exc) or type(exc).__name__
        if self.name not in message:
            message = f"{self.name}: {message}"
        if self._last_error != message:
            log.warning("%s (retrying)", message)
        self._last_error = message
        self._failures += 1
        self._delay = (
            self.initial_delay if self._delay == 0 else min(self._delay * 2, self.max_delay)
        )
        self._next_attempt = time.monotonic() + self._delay
        if self._source is not None:
            source, self._source = self._source, None
            try:
                source.close()
            except Exception:
                log.debug("%s: close after failure failed", self.name, exc_info=True)

    def _try_read(self) -> Frame | None:
        """One attempt: open if needed and read. None while the camera is away."""
        with self._lock:
            if self._closed:
                return None
            if self._source is None:
                if time.monotonic() < self._next_attempt:
                    return None
                self._attempts += 1
                try:
                    self._source = self._opener()
                    self._source.want_detail(getattr(self, "_regions", None))
                except Exception as exc:
                    self._fail(exc)
                    return None
            try:
                inner = self._source.read()
            except EndOfStream:
                raise
            except Exception as exc:
                self._fail(exc)
                return None
            self._last_error = None
            self._delay = 0.0
            frame = Frame(inner.image, inner.timestamp, self._count, inner.detail)
            self._count += 1
            return frame

    def read(self) -> Frame | None:  # type: ignore[override]
        """The newest frame, or None while the camera is away (never raises CameraError)."""
        return self._try_read()

    def want_detail(self, regions: list[tuple[int, int, int, int]] | None) -> None:
        self._regions = regions
        if self._source is not None:
            self._source.want_detail(regions)

    def frames(self) -> Iterator[Frame]:
        while not self._closed:
            try:
                frame = self._try_read()
            except EndOfStream:
                return
            if frame is not None:
                yield frame
                continue
            wait = max(0.0, self._next_attempt - time.monotonic())
            self._wake.wait(wait if wait > 0 else 0.01)

    def status(self) -> dict[str, Any]:
        """{"ok", "source", "error", "frames", "failures", "attempts", "retry_in"}.

        Lock-free, so a web request never waits for a camera that is slowly (re)opening.
        """
        source, error, closed = self._source, self._last_error, self._closed
        away = source is None or error is not None
        retry_in = max(0.0, self._next_attempt - time.monotonic()) if away else None
        return {
            "ok": not closed and not away,
            "source": self.name,
            "error": "closed" if closed else error,
            "frames": self._count,
            "failures": self._failures,
            "attempts": self._attempts,
            "retry_in": None if closed else retry_in,
        }

    def close(self) -> None:
        self._closed = True
        self._wake.set()
        with self._lock:
            if self._source is not None:
                source, self._source = self._source, None
                source.close()


# -- the factory -----------------------------------------------------------------------------

SourceFactory = Callable[..., CameraSource]
_REGISTRY: dict[str, SourceFactory] = {}
_BUILTIN = ("picamera2", "usb", "file", "folder", "rtsp", "http", "https")


def register_source(name: str, factory: SourceFactory, *, replace: bool = False) -> None:
    """Make ``open_camera(name)`` / ``open_camera(f"{name}:{arg}")`` call ``factory(arg, **kw)``.

    ``arg`` is the text after the first colon ("" when there is none). The simulated table
    registers "sim" this way.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
        raise ValueError(f"source name must be lower-case letters, digits, - or _: {name!r}")
    if name in _BUILTIN:
        raise ValueError(f"{name!r} is a built-in camera source")
    if name in _REGISTRY and not replace and _REGISTRY[name] is not factory:
        raise ValueError(f"a camera source named {name!r} is already registered")
    _REGISTRY[name] = factory


def unregister_source(name: str) -> None:
    _REGISTRY.pop(name, None)


def registered_sources() -> list[str]:
    return sorted(_REGISTRY)


def open_camera(spec: str, *, retry: bool = False, **kw: Any) -> CameraSource:
    """Open the source named by ``spec`` (see the module docstring); ``kw`` go to its class.

    ``retry=True`` returns a ``RetryingSource`` that opens it lazily and keeps reopening it.
    """
    if retry:
        return RetryingSource(lambda: open_camera(spec, **kw), name=spec)
    scheme, _, arg = spec.partition(":")
    scheme = scheme.strip().lower()
    if scheme == "picamera2":
        return Picamera2Source(int(arg) if arg else 0, **kw)
    if scheme == "usb":
        if not arg:
            raise ValueError("usb camera spec needs a device: usb:0, usb:/dev/video2 or a URL")
        return OpenCVSource(int(arg) if arg.isdigit() else arg, **kw)
    if scheme in ("rtsp", "http", "https"):
        return OpenCVSource(spec, **kw)
    if scheme in ("file", "folder"):
        if not arg:
            raise ValueError(f"{scheme} spec needs a path: {scheme}:/path")
        path = Path(arg).expanduser()
        if scheme == "folder" and path.exists() and not path.is_dir():
            raise CameraError(f"folder:{path}: not a folder (use file: for a video)")
        if scheme == "file" and path.is_dir():
            raise CameraError(f"file:{path}: is a folder (use folder:)")
        return FolderSource(path, **kw)
    if scheme in _REGISTRY:
        return _REGISTRY[scheme](arg, **kw)
    known = sorted({"picamera2", "usb", "file", "folder", "rtsp", "http"} | set(_REGISTRY))
    hint = " (nothing has registered it yet)" if scheme == "sim" else ""
    raise ValueError(f"unknown camera source {spec!r}{hint}; known: {', '.join(known)}")
