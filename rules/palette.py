"""Token colours by name.

The vision layer reports colours by these names, the rules core compares them with a seat's
colour, and the renderer and web page draw them with these RGB values. Each colour also has a
letter so that the diagram is readable without colour vision.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TokenColour:
    name: str
    rgb: tuple[int, int, int]
    letter: str


PALETTE: dict[str, TokenColour] = {
    c.name: c
    for c in (
        TokenColour("red", (214, 40, 40), "R"),
        TokenColour("blue", (30, 90, 200), "B"),
        TokenColour("yellow", (245, 200, 30), "Y"),
        TokenColour("green", (40, 160, 70), "G"),
        TokenColour("purple", (130, 60, 170), "P"),
        TokenColour("orange", (245, 130, 30), "O"),
        TokenColour("white", (240, 240, 235), "W"),
        TokenColour("black", (30, 30, 30), "K"),
    )
}

UNKNOWN = "?"  # a placement value meaning "the camera cannot tell what is on this space"
