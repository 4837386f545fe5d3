"""Test boards built from the geometry API alone (the real games land on main later)."""

from __future__ import annotations

import math

from rules.geometry import Board, Region, Space

SEATS = ("red", "blue", "yellow", "green")


def cross_board(marker_ids=(40, 41, 42, 43), name="test-cross") -> Board:
    """A cross-shaped race board: a track of holes, 4 bases and 4 homes, a dice tray."""
    pitch, size = 16.0, 280.0
    c = size / 2
    spaces: list[Space] = []
    track = []
    base = [(-1, -(s + 2)) for s in range(5)] + [(0, -6)] + [(1, -(6 - s)) for s in range(5)]
    for arm in range(4):
        for gx, gy in base:
            for _ in range(arm):
                gx, gy = -gy, gx
            track.append((gx, gy))
    links = []
    for i, (gx, gy) in enumerate(track):
        spaces.append(
            Space(f"t{i}", "star" if i % 11 == 5 else "track", c + gx * pitch, c + gy * pitch)
        )
        if i:
            links.append((f"t{i - 1}", f"t{i}"))
    links.append((f"t{len(track) - 1}", "t0"))
    for seat in range(4):
        for k in range(4):  # home column toward the centre
            gx, gy = 0, -(5 - k)
            for _ in range(seat):
                gx, gy = -gy, gx
            spaces.append(Space(f"h{seat}{k}", "home", c + gx * pitch, c + gy * pitch, seat))
        for k in range(4):  # base: a 2x2 block in the quadrant
            bx, by = -4.3 + (k % 2) * 1.0, -4.3 + (k // 2) * 1.0
            for _ in range(seat):
                bx, by = -by, bx
            spaces.append(
                Space(
                    f"b{seat}{k}",
                    "base",
                    c + bx * pitch,
                    c + by * pitch,
                    seat,
                    label=f"{seat + 1}" if k == 0 else "",
                )
            )
    spaces.append(Space("centre", "centre", c, c))
    return Board(
        name=name,
        width=size,
        height=size,
        spaces=tuple(spaces),
        links=tuple(links),
        regions=(Region("dice tray", 176.0, 232.0, 64.0, 38.0),),
        hole_radius=5.0,
        token_radius=6.0,
        seat_colours=SEATS,
        marker_ids=marker_ids,
    )


def grid_board(marker_ids=(8, 9, 10, 11)) -> Board:
    """A square grid board (Playground-Battles-like), no dice tray."""
    n, pitch, margin = 8, 24.0, 46.0
    size = 2 * margin + (n - 1) * pitch
    spaces = tuple(
        Space(
            f"{chr(97 + col)}{row + 1}",
            "square",
            margin + col * pitch,
            margin + row * pitch,
            owner=0 if row == 0 else 1 if row == n - 1 else None,
        )
        for row in range(n)
        for col in range(n)
    )
    return Board(
        name="test-grid",
        width=size,
        height=size,
        spaces=spaces,
        hole_radius=10.0,
        token_radius=8.5,
        seat_colours=("orange", "purple"),
        marker_ids=marker_ids,
    )


def circle_board(marker_ids=(4, 5, 6, 7)) -> Board:
    """A 60-space concentric circle board."""
    size, c = 320.0, 160.0
    spaces, links = [], []
    for ring, (n, radius) in enumerate(((30, 120.0), (20, 85.0), (10, 50.0))):
        for k in range(n):
            a = 2 * math.pi * k / n
            spaces.append(
                Space(f"r{ring}s{k}", "track", c + radius * math.cos(a), c + radius * math.sin(a))
            )
            links.append((f"r{ring}s{k}", f"r{ring}s{(k + 1) % n}"))
    return Board(
        name="test-circle",
        width=size,
        height=size,
        spaces=tuple(spaces),
        links=tuple(links),
        hole_radius=5.0,
        token_radius=6.0,
        seat_colours=("white", "black", "red"),
        marker_ids=marker_ids,
    )


def game_boards() -> list[Board]:
    """The real boards of every registered game (their default player count)."""
    import rules

    return [rules.get(name).board for name in rules.names()]


def game_starts() -> dict[str, dict[str, str]]:
    """Board name -> the placement the camera sees at the start of that game."""
    import rules

    starts = {}
    for name in rules.names():
        game = rules.get(name)
        starts[game.board.name] = dict(game.placement(game.initial_state()))
    return starts
