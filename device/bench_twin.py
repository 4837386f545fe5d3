"""`boardref bench vision --twin`: the board reader on the independent photo-like table.

Every photo of hardware.phototwin is written as a JPEG and read alone through exactly what
`boardref vision read` runs (device.vision_cli.read_board), so the figures are those a user would
get from the command. The reader was never developed or tuned on these photos, unlike
hardware.phototable's; figures here are the stand-in for the held-out set of issue 14.

Per game and per condition set: spaces right, tokens read (occupied spaces read as the right
colour), unclear, confidently wrong (a piece read as empty or as another colour, or a colour read
where there is none, without being unclear), boards perfect, ms per frame.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import rules
from hardware.phototwin import CONDITION_SETS
from hardware.phototwin.scene import OPT_IN_SETS
from rules.palette import UNKNOWN

from .vision_cli import read_board

# plain, each condition alone, the all at once, everything at once
DEFAULT_SETS = tuple(name for name in CONDITION_SETS if name not in OPT_IN_SETS)


def judge(game: rules.game.Game | Any, truth: dict, reading: dict) -> dict[str, Any]:
    """Compare one reading with the truth: counts and the misses space by space."""
    n = Counter()
    misses = []
    spaces = reading.get("spaces") or {}
    hidden_by_hand = set(truth.get("hidden_by_hand", ()))
    for space in game.board.spaces:
        want = truth["placement"].get(space.id)
        got = spaces.get(space.id, {}).get("colour", UNKNOWN) if reading["located"] else UNKNOWN
        hidden = space.id in hidden_by_hand
        n["spaces"] += 1
        n["tokens"] += want is not None
        n["hidden_by_hand"] += hidden
        if got == want:
            n["right"] += 1
            n["right_hidden"] += hidden
            n["tokens_read"] += want is not None
            continue
        if got == UNKNOWN:
            kind = "unclear " + ("piece" if want is not None else "empty space")
            n["unclear"] += 1
        elif want is None:
            kind = "colour where there is none"
            n["wrong"] += 1
        elif got is None:
            kind = "piece read as empty"
            n["wrong"] += 1
        else:
            kind = "piece read as another colour"
            n["wrong"] += 1
        n["under_hand_missed"] += hidden
        misses.append(
            {"space": space.id, "truth": want, "read": got, "kind": kind, "under_hand": hidden}
        )
    n["frames"] = 1
    seen = len(reading.get("markers") or ()) if reading["located"] else 0
    n[f"markers_{seen}"] = 1  # how many corner markers the reader found
    n["wrong_few_markers"] = n["wrong"] if seen < 4 else 0
    n["perfect"] = int(n["right"] == n["spaces"])
    n["unlocated"] = int(not reading["located"])
    n["hand_frames"] = int(truth["hand"])
    n["hand_flagged"] = int(truth["hand"] and bool(reading.get("hand")))
    return {"counts": n, "misses": misses}


def figures(n: Counter, ms: list[float]) -> dict[str, Any]:
    spaces = max(1, n["spaces"])
    return {
        "frames": n["frames"],
        "spaces_right_pct": round(100 * n["right"] / spaces, 2),
        "tokens_read_pct": round(100 * n["tokens_read"] / max(1, n["tokens"]), 2),
        "unclear_pct": round(100 * n["unclear"] / spaces, 2),
        "confidently_wrong": n["wrong"],
        "boards_perfect_pct": round(100 * n["perfect"] / max(1, n["frames"]), 1),
        "unlocated_frames": n["unlocated"],
        "hand_frames": n["hand_frames"],
        "hand_frames_flagged": n["hand_flagged"],
        # misses on spaces a hand hides from the camera: unclear is the only right answer there
        "misses_under_hand": n["under_hand_missed"],
        # ... so the spaces in view (no hand over their middle) read right, apart
        "spaces_in_view_right_pct": round(
            100 * (n["right"] - n["right_hidden"]) / max(1, n["spaces"] - n["hidden_by_hand"]), 2
        ),
        # frames by corner markers found (0 = board not located); confidently wrong spaces
        # on frames located from fewer than all four
        "frames_by_markers_found": {k: n[f"markers_{k}"] for k in range(5) if n[f"markers_{k}"]},
        "confidently_wrong_with_markers_missing": n["wrong_few_markers"],
        "ms_per_frame": round(sum(ms) / len(ms), 2) if ms else None,
        "counts": {
            k: n[k]
            for k in (
                "spaces",
                "right",
                "unclear",
                "wrong",
                "tokens",
                "tokens_read",
                "perfect",
                "frames",
                "hidden_by_hand",
            )
        },
    }


def run(
    frames: int,
    seed: int,
    sets: tuple[str, ...] = DEFAULT_SETS,
    games: tuple[str, ...] | None = None,
    save: str | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Read `frames` photos per game and condition set, photo k being (seed, k)."""
    from hardware.phototwin import render

    names = tuple(games or rules.names())
    started = time.perf_counter()
    report: dict[str, Any] = {
        "benchmark": "vision-twin",
        "data": "hardware.phototwin (independent generator; the reader was not tuned on it)",
        "seed": seed,
        "frames_per_game_and_set": frames,
        "per_set": {},
        "per_game": {},
    }
    total, total_ms = Counter(), []
    per_game = {g: (Counter(), []) for g in names}
    kinds: Counter = Counter()
    examples: dict[str, dict] = {}
    render_s = 0.0
    with tempfile.TemporaryDirectory(prefix="boardref-twin-") as tmp:
        for set_name in sets:
            set_n, set_ms = Counter(), []
            report["per_set"][set_name] = {"per_game": {}}
            for game_name in names:
                game = rules.get(game_name)
                g_n, g_ms = Counter(), []
                for k in range(frames):
                    t0 = time.perf_counter()
                    jpeg, truth = render(game_name, seed, k, set_name)
                    render_s += time.perf_counter() - t0
                    path = Path(tmp) / f"{game_name}-{set_name}-{k}.jpg"
                    path.write_bytes(jpeg)
                    reading = read_board(game_name, str(path))
                    verdict = judge(game, truth, reading)
                    g_n.update(verdict["counts"])
                    if reading["located"]:
                        g_ms.append(float(reading["timings_ms"].get("total", 0.0)))
                    for miss in verdict["misses"]:
                        key = f"{game_name} | {set_name} | {miss['kind']}"
                        kinds[key] += 1
                        if key not in examples:
                            examples[key] = {"seed": seed, "index": k, **miss}
                            if save:
                                _save(save, key, jpeg, truth, reading)
                    if progress:
                        print(
                            f"\rtwin: {set_name} {game_name} {k + 1}/{frames}   ",
                            end="",
                            file=sys.stderr,
                            flush=True,
                        )
                report["per_set"][set_name]["per_game"][game_name] = figures(g_n, g_ms)
                set_n.update(g_n)
                set_ms += g_ms
                per_game[game_name][0].update(g_n)
                per_game[game_name][1].extend(g_ms)
            report["per_set"][set_name].update(figures(set_n, set_ms))
            total.update(set_n)
            total_ms += set_ms
    if progress:
        print(file=sys.stderr)
    report["per_game"] = {g: figures(n, ms) for g, (n, ms) in per_game.items()}
    report["overall"] = figures(total, total_ms)
    report["miss_kinds"] = dict(kinds.most_common())
    report["miss_examples"] = examples
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["render_seconds"] = round(render_s, 1)
    return report


def _save(folder: str, key: str, jpeg: bytes, truth: dict, reading: dict) -> None:
    """A missed photo, its truth and what the reader said, for a person to look at."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    stem = "_".join(part.strip().replace(" ", "-") for part in key.split("|"))
    stem = f"{stem}_s{truth['seed']}_i{truth['index']}"
    (out / f"{stem}.jpg").write_bytes(jpeg)
    (out / f"{stem}.truth.json").write_text(json.dumps(truth, indent=1))
    (out / f"{stem}.read.json").write_text(json.dumps(reading, indent=1))
