"""The rules core: boards, states, moves, legality, explanations, inference. No I/O."""

from .clauses import Clause, Effect, Inference, Outcome, Verdict
from .errors import (
    IllegalMoveError,
    OptionError,
    PlayerCountError,
    RecordError,
    RulesError,
    UnknownGameError,
)
from .game import Game
from .geometry import Board, Region, Space
from .moves import Declare, Decline, Move, Pass, Roll, Step, move_from_json
from .options import Option
from .palette import PALETTE, UNKNOWN
from .registry import game_class, get, names
from .rng import SeededChooser, playout

__all__ = [
    "PALETTE",
    "UNKNOWN",
    "Board",
    "Clause",
    "Declare",
    "Decline",
    "Effect",
    "Game",
    "IllegalMoveError",
    "Inference",
    "Move",
    "Option",
    "OptionError",
    "Outcome",
    "Pass",
    "PlayerCountError",
    "RecordError",
    "Region",
    "Roll",
    "RulesError",
    "SeededChooser",
    "Space",
    "Step",
    "UnknownGameError",
    "Verdict",
    "game_class",
    "get",
    "move_from_json",
    "names",
    "playout",
]
