"""Everything that varies between photos, drawn from a seed: camera, light, table, paper, pieces,
hand, sensor. Each aspect has its own random stream keyed by (seed, index, game, aspect), so
switching one condition on changes only that aspect: the same (seed, index) shows the same
pieces on the same spaces under every condition, which makes per-condition figures comparable.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

import rules
from rules.geometry import Board

from . import colours as tone
from .camera import Camera, place_camera
from .pieces import PIECE_KIND, Piece
from .props import Hand, Table, body_shadow, hand_over, table
from .tiles import Tile, printed_at, tiles_for

# The issue's conditions, one by one; "hands" is the issue's "now and then a hand" (one photo in
# five) used in the mixed sets, "hand" puts a hand in every photo.
ISSUE_CONDITIONS = (
    "tilt",
    "lens",
    "light",
    "white_balance",
    "noise",
    "defocus",
    "jpeg",
    "paper_tint",
    "off_centre",
    "hand",
)
# What real photos add beyond the issue's list.
EXTRA_CONDITIONS = ("curl", "glare", "perspective", "tiles", "shadow")
CONDITIONS = ISSUE_CONDITIONS + EXTRA_CONDITIONS
CONDITION_SETS: dict[str, tuple[str, ...]] = {
    "plain": (),
    **{name: (name,) for name in CONDITIONS},
    "issue14": tuple(c for c in ISSUE_CONDITIONS if c != "hand") + ("hands",),
    "all": tuple(c for c in CONDITIONS if c != "hand") + ("hands",),
    # the issue's conditions with each game's start position: a seat's holes full of its own
    # pieces, which the random placements never draw
    "start": tuple(c for c in ISSUE_CONDITIONS if c != "hand") + ("hands", "start"),
    # the issue's conditions (no hand) and glare off the paper: of what real photos add, the
    # condition that cost the reader most
    "issue14_glare": tuple(c for c in ISSUE_CONDITIONS if c != "hand") + ("glare",),
}
OPT_IN_SETS = ("start", "issue14_glare")  # sets a bench runs only when asked for
PLACEMENT_OPTIONS = ("hands", "start")  # set members that are no photo condition
WIDTH, HEIGHT = 1280, 960
_ASPECTS = {
    "placement": 1,
    "pieces": 2,
    "camera": 3,
    "light": 4,
    "table": 5,
    "paper": 6,
    "hand": 7,
    "sensor": 8,
    "curl": 9,
    "noise": 10,
    "body": 11,
    "dice": 12,
}


@dataclass(frozen=True)
class Light:
    """A lamp (point light) plus the room's ambient light, in the table frame."""

    lamp: np.ndarray  # position (x, y, up) mm
    lamp_rgb: np.ndarray
    lamp_radius_deg: float  # angular radius seen from the table: shadow softness
    key: float  # lamp irradiance on a surface facing it (at the board's middle)
    ambient: float
    ambient_rgb: np.ndarray
    gradient: np.ndarray  # relative change of ambient per mm along x and y
    spot_centre: np.ndarray  # (x, y): where a spotlight's cone is brightest
    spot_sigma: float  # mm; inf = no spot falloff
    spot_floor: float  # share of the lamp light left far outside the spot
    exposure: float  # 1 = the camera exposes paper as it should; 0.6..1.2 under "light"
    sheen: float  # glossy paper's specular strength (0: matte)
    sheen_power: float
    # a player leaning over the table: a big soft shadow (x, y, half-length, half-width mm,
    # angle, blur mm, share of the lamp's light it takes), or None
    body_shadow: tuple[float, float, float, float, float, float, float] | None = None


@dataclass(frozen=True)
class Paper:
    tint: np.ndarray  # multiplies the printed reflectance
    print_matrix: np.ndarray  # the printer's colour rendering (3x3 near identity)
    curl_waves: tuple[
        tuple[float, float, float, float], ...
    ]  # (amplitude, angle, wavelength, phase)
    edge_lift: tuple[float, float, float, float]  # mm at the left, top, right, bottom edges
    edge_width: float
    tiles: tuple[Tile, ...] = ()  # A4 sheets taped together (empty: one flawless sheet)


@dataclass(frozen=True)
class Sensor:
    wb_gains: np.ndarray  # multiplies linear R, G, B (a warm or cool cast)
    noise: float  # read-noise sigma at full scale; shot noise scales with it
    blur_sigma: float  # px, defocus (plus the lens's own softness)
    sharpen: float  # the camera's own unsharp mask
    jpeg_quality: int
    vignette: float = 0.0  # light lost in the corners (share), after the ISP's lens shading
    fringe: float = 0.0  # lateral chromatic aberration: red magnified by this, blue shrunk


@dataclass(frozen=True)
class Scene:
    game: str
    board: Board
    conditions: tuple[str, ...]
    camera: Camera
    light: Light
    table: Table
    paper: Paper
    pieces: tuple[Piece, ...]
    placement: dict[str, str]
    hand: Hand | None
    sensor: Sensor
    meta: dict = field(default_factory=dict)
    dice: tuple = ()  # dice lying on the table (hardware.phototwin.dice.Die), drawn as pieces


def stream(seed: int, index: int, game: str, aspect: str) -> np.random.Generator:
    """The random stream of one aspect of one photo."""
    game_key = sum((k + 1) * ord(c) for k, c in enumerate(game))
    return np.random.default_rng([int(seed), int(index), game_key, _ASPECTS[aspect]])


def resolve(conditions) -> tuple[str, ...]:
    """A condition set's name or an iterable of condition names -> a sorted tuple of names."""
    if isinstance(conditions, str):
        if conditions not in CONDITION_SETS:
            raise ValueError(f"unknown condition set {conditions!r}; known: {list(CONDITION_SETS)}")
        conditions = CONDITION_SETS[conditions]
    names = tuple(sorted(set(conditions)))
    unknown = [c for c in names if c not in CONDITIONS and c not in PLACEMENT_OPTIONS]
    if unknown:
        raise ValueError(
            f"unknown conditions {unknown}; known: {list(CONDITIONS + PLACEMENT_OPTIONS)}"
        )
    return names


def sample(
    game_name: str, seed: int, index: int, conditions, size: tuple[int, int] = (WIDTH, HEIGHT)
) -> Scene:
    """Draw one photo's scene, photographed at ``size`` (pixels; the same framing at any)."""
    on = resolve(conditions)
    game = _game(game_name)
    board = game.board
    placement = _placement(game, stream(seed, index, game_name, "placement"))
    if "start" in on:  # (drawn all the same: every other aspect stays the photo's own)
        placement = dict(game.placement(game.initial_state()))
    paper = _paper(board, stream(seed, index, game_name, "paper"), on)
    pieces = _pieces(
        game_name,
        board,
        placement,
        paper,
        stream(seed, index, game_name, "pieces"),
        "off_centre" in on,
    )
    camera = _camera(board, stream(seed, index, game_name, "camera"), on, size)
    light = _light(board, camera, stream(seed, index, game_name, "light"), on)
    if "shadow" in on:
        light = replace(
            light, body_shadow=body_shadow(board, stream(seed, index, game_name, "body"))
        )
    hand_rng = stream(seed, index, game_name, "hand")
    wants_hand = "hand" in on or ("hands" in on and hand_rng.random() < 0.2)
    hand = hand_over(board, hand_rng) if wants_hand else None
    return Scene(
        game=game_name,
        board=board,
        conditions=on,
        camera=camera,
        light=light,
        table=table(stream(seed, index, game_name, "table")),
        paper=paper,
        pieces=pieces,
        placement=placement,
        hand=hand,
        sensor=_sensor(stream(seed, index, game_name, "sensor"), on),
        meta={"seed": int(seed), "index": int(index)},
    )


@lru_cache(maxsize=8)
def _game(name: str):
    """The game with its usual players (building one can take half a second: keep it)."""
    return rules.get(name)


def _placement(game, rng: np.random.Generator) -> dict[str, str]:
    """Any mix of empty and occupied spaces in the game's colours; where the board lets two
    pieces share a space (a battle), now and then both colours."""
    colours = list(game.colours)
    density = rng.uniform(0.05, 0.6)
    placement = {}
    for space in game.board.spaces:
        if rng.random() < density:
            placement[space.id] = colours[int(rng.integers(len(colours)))]
            if game.board.shared_spaces and rng.random() < 0.05:
                placement[space.id] = "+".join(colours)
    return placement


def spacing(board: Board) -> float:
    """The typical distance between neighbouring spaces (median nearest neighbour)."""
    pts = np.array([(s.x, s.y) for s in board.spaces])
    dist = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    np.fill_diagonal(dist, np.inf)
    return float(np.median(dist.min(1)))


def curl_height(paper: Paper, board: Board, x, y):
    """Height (mm) of the paper above the table at board point(s) x, y: waves and lifted edges."""
    h = np.zeros(np.broadcast(x, y).shape, np.float32)
    for amp, angle, wavelength, phase in paper.curl_waves:
        s = x * np.cos(angle) + y * np.sin(angle)
        h = h + amp * 0.5 * (1 + np.sin(2 * np.pi * s / wavelength + phase))
    w = paper.edge_width
    left, top, right, bottom = paper.edge_lift
    for lift, dist in ((left, x), (top, y), (right, board.width - x), (bottom, board.height - y)):
        if lift > 0:
            h = h + lift * np.clip(1 - dist / w, 0, 1) ** 2
    return h


def _paper(board: Board, rng: np.random.Generator, on) -> Paper:
    # every value is drawn whatever the conditions, so one condition never shifts another's draw
    white = rng.uniform(0.86, 0.92)
    tint = white * (1 + rng.uniform(-0.07, 0.07, 3))  # cream, grey, recycled, bluish-white
    if rng.random() < 0.5:
        tint = tint * np.array([1.02, 1.0, 0.93])
    if "paper_tint" not in on:
        tint = np.full(3, white)
    matrix = np.eye(3) + rng.normal(0, 0.03, (3, 3))
    waves = tuple(
        (rng.uniform(0.5, 3.0), rng.uniform(0, np.pi), rng.uniform(80, 260), rng.uniform(0, 6.3))
        for _ in range(2)
    )
    lift = tuple(float(rng.uniform(0, 8)) if rng.random() < 0.5 else 0.0 for _ in range(4))
    width = float(rng.uniform(25, 60))
    if "curl" not in on:
        waves, lift = (), (0.0, 0.0, 0.0, 0.0)
    sheets = tiles_for(board, rng) if "tiles" in on else ()
    return Paper(tint.astype(np.float32), matrix.astype(np.float32), waves, lift, width, sheets)


def _pieces(
    game_name: str,
    board: Board,
    placement: dict[str, str],
    paper: Paper,
    rng: np.random.Generator,
    off_centre: bool,
) -> tuple[Piece, ...]:
    kind = PIECE_KIND[game_name]
    sets: dict[str, np.ndarray] = {}
    milks: dict[str, float] = {}
    reach = spacing(board) / 4 if off_centre and kind != "marble" else 1.0
    pieces: list[Piece] = []
    for space_id, colour in sorted(placement.items()):
        space = board.space(space_id)
        home_x, home_y = printed_at(paper.tiles, space.x, space.y)
        names = colour.split("+")
        for k, name in enumerate(names):
            if name not in sets:
                sets[name] = tone.set_colour(name, rng)
                milks[name] = float(rng.uniform(0.2, 0.8))
            if kind == "marble":  # coloured glass is deeper than plastic of the same name
                albedo = np.clip(tone.token_colour(sets[name], rng) ** 0.8, 0, 1)
            else:
                albedo = tone.token_colour(sets[name], rng)
            r = reach * np.sqrt(rng.random())
            angle = rng.uniform(0, 2 * np.pi)
            x, y = home_x + r * np.cos(angle), home_y + r * np.sin(angle)
            if k == 0:
                pair_x, pair_y = x, y
            size = board.token_radius * (0.97 if kind != "marble" else 1.0)
            yaw = rng.normal(0, 0.2) if kind == "stand" else rng.uniform(0, 2 * np.pi)
            if len(names) == 2:  # a battle: both stands on the square, face to face
                # put down as one pair, their feet side by side: two feet never share the
                # same ground, so the second stand keeps the first one's place on the square
                size *= 0.8
                x, y = pair_x, pair_y + (k - 0.5) * 1.0 * size
                yaw = rng.normal(0, 0.1)
            z = float(curl_height(paper, board, np.float32(x), np.float32(y)))
            pieces.append(
                Piece(
                    space_id,
                    name,
                    kind,
                    float(x),
                    float(y),
                    z,
                    float(size),
                    float(yaw),
                    albedo.astype(np.float32),
                    int(rng.random() < 0.2),
                    milks[name],
                )
            )
    return tuple(_apart(pieces, board, paper.tiles))


def _apart(pieces: list[Piece], board: Board, tiles: tuple[Tile, ...]) -> list[Piece]:
    """Two pieces cannot overlap: a piece pushed into its neighbour slides back towards its own
    space centre (a hand would not put it through the other one)."""
    out = list(pieces)
    for _ in range(6):
        moved = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a.space != b.space and np.hypot(a.x - b.x, a.y - b.y) < a.size + b.size + 0.3:
                    for piece in (a, b):
                        _towards_home(out, piece, board, tiles)
                    moved = True
        if not moved:
            break
    return out


def _towards_home(out: list[Piece], piece: Piece, board: Board, tiles: tuple[Tile, ...]) -> None:
    """Slide the piece halfway home; a battle's other stand slides with it (its foot stands
    against this one's, so the pair moves as one)."""
    space = board.space(piece.space)
    hx, hy = printed_at(tiles, space.x, space.y)
    dx, dy = (hx - piece.x) / 2, (hy - piece.y) / 2
    for k, other in enumerate(out):
        if other.space == piece.space:
            out[k] = replace(other, x=other.x + dx, y=other.y + dy)


def _camera(
    board: Board, rng: np.random.Generator, on: tuple[str, ...], size: tuple[int, int]
) -> Camera:
    fov = rng.uniform(55, 72) if "perspective" in on else rng.uniform(28, 38)
    tilt = rng.uniform(0, 12) if "tilt" in on else 0.0
    k1 = float(rng.uniform(-0.05, 0.05)) if "lens" in on else 0.0
    tilt_az, roll = rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi)
    fill = rng.uniform(0.6, 0.85)
    centre = (rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75))
    return place_camera(
        board.width, board.height, size[0], size[1], fov, tilt, tilt_az, roll, fill, centre, k1
    )


def _light(board: Board, camera: Camera, rng: np.random.Generator, on) -> Light:
    middle = np.array([board.width / 2, board.height / 2, 0.0])
    uneven = "light" in on
    elevation = np.radians(rng.uniform(50, 80))
    azimuth = rng.uniform(0, 2 * np.pi)
    distance = rng.uniform(700, 1300) if uneven else rng.uniform(2500, 3500)
    lamp_dir = np.array(
        [
            np.cos(elevation) * np.cos(azimuth),
            np.cos(elevation) * np.sin(azimuth),
            np.sin(elevation),
        ]
    )
    lamp = middle + distance * lamp_dir
    sheen, power = 0.0, 1.0
    if "glare" in on:
        # glossy paper mirrors the lamp towards the camera somewhere on the board: put the lamp
        # where the mirror image of the camera's ray through that point leads
        point = middle + np.array(
            [rng.uniform(-0.3, 0.3) * board.width, rng.uniform(-0.3, 0.3) * board.height, 0]
        )
        ray = point - camera.centre_t
        ray = ray / np.linalg.norm(ray)
        mirrored = np.array([ray[0], ray[1], -ray[2]])
        lamp = point + mirrored * rng.uniform(600, 1500)
        sheen, power = rng.uniform(0.5, 1.5), rng.uniform(80, 300)
    warm = np.array([1.0, 0.93, 0.82]) if rng.random() < 0.5 else np.array([1.0, 1.0, 1.0])
    sky = np.array([0.95, 0.98, 1.04])
    grad = rng.normal(0, 1, 2)
    grad = grad / np.linalg.norm(grad) * rng.uniform(0.0, 0.6) / max(board.width, board.height)
    return Light(
        lamp=lamp,
        lamp_rgb=(warm if uneven else np.ones(3)).astype(np.float32),
        lamp_radius_deg=float(rng.uniform(1.5, 5.0)),
        key=float(rng.uniform(0.55, 0.75)),
        ambient=float(rng.uniform(0.25, 0.45)),
        ambient_rgb=(sky if uneven else np.ones(3)).astype(np.float32),
        gradient=grad if uneven else np.zeros(2),
        spot_centre=middle[:2] + rng.normal(0, 80, 2),
        spot_sigma=float(rng.uniform(110, 280)) if uneven else float("inf"),
        spot_floor=float(rng.uniform(0.35, 0.8)),
        exposure=float(rng.uniform(0.6, 1.2)) if uneven else 1.0,
        sheen=float(sheen),
        sheen_power=float(power),
    )


def _sensor(rng: np.random.Generator, on) -> Sensor:
    # every value is drawn whatever the conditions, so one condition never shifts another's draw
    cast = rng.uniform(0.05, 0.15) * (1 if rng.random() < 0.5 else -1)
    green = rng.uniform(-0.03, 0.03)
    noise, blur = rng.uniform(0.012, 0.03), rng.uniform(0.4, 1.2)
    sharpen, quality = rng.uniform(0.2, 0.6), int(rng.integers(70, 91))
    lens = "lens" in on
    vignette = rng.uniform(0.15, 0.35) if lens else rng.uniform(0.03, 0.12)
    fringe = rng.uniform(0.0005, 0.0015) * (1 if rng.random() < 0.5 else -1)
    gains = [1 + cast, 1 + green, 1 - cast] if "white_balance" in on else [1.0, 1.0, 1.0]
    return Sensor(
        wb_gains=np.array(gains, np.float32),
        noise=float(noise) if "noise" in on else 0.003,
        blur_sigma=float(blur) if "defocus" in on else 0.35,
        sharpen=float(sharpen),
        jpeg_quality=quality if "jpeg" in on else 95,
        vignette=float(vignette),
        fringe=float(fringe) if lens else 0.0,
    )
