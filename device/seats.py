"""The players' secret links (Playground Battles): one link per seat, who claimed it, and the
opening rock-paper-scissors hands chosen on the phones so far.

A seat's link is a random token in a URL (shown as a QR code on the table page); the first
browser to open it claims the seat. Links and claims are kept in the store, so a restart keeps
the phones in their seats. The referee holds its lock around every call here.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import rules
from rules.games.playground_battles import KINDS, Assign, Keep, Opening
from webui.table import TableError

from .store import Store, StoredSeat


class SeatError(TableError):
    """A player link that is unknown (404) or held by another phone (403)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def has_secrets(game: rules.Game) -> bool:
    """Whether the game hides information from some seats (it overrides `Game.view`)."""
    return type(game).view is not rules.Game.view


def opening_move(game: rules.Game, hands: tuple[str, ...]) -> Opening:
    """The opening rock-paper-scissors decided by the seats' hands (in seat order)."""
    a, b = (KINDS.index(h) for h in hands)
    winner = 0 if a == b else (0 if (a - b) % 3 == 1 else 1)
    return Opening(winner, game.colours[winner], hands)


def assign_move(game: rules.Game, state: Any, seat: int, identities: Any) -> Assign:
    """A seat's secret set-up as a legal move; TableError naming the broken rule otherwise
    (said only to the seat that sent it, never on the table page)."""
    clean = parse_identities(identities)
    if not has_secrets(game) or not 0 <= seat < len(game.colours):
        raise TableError("this game has no secret set-up")
    move = Assign(seat, game.colours[seat], tuple(sorted(clean)))
    if move not in game.legal_moves(state):
        verdict = game.explain(state, move)
        cited = ", ".join(c.id for c in verdict.clauses)
        raise TableError(f"{verdict.reason} [{cited}]")
    return move


def keep_move(game: rules.Game, state: Any, seat: int, stay: Any) -> Keep:
    """After a stalemate is broken: the seat's choice of which piece stays, as a legal move."""
    for move in game.legal_moves(state):
        if isinstance(move, Keep) and move.player == seat and move.stay == stay:
            return move
    raise TableError("there is no choice of piece for you to make now")


def parse_identities(identities: Any) -> list[tuple[str, str]]:
    """A seat's secret set-up as sent from its phone, {square: kind} or [[square, kind], ...],
    as (square, kind) pairs; TableError naming the expected shape if it is anything else."""
    if isinstance(identities, Mapping):
        pairs = list(identities.items())
    elif isinstance(identities, list):
        pairs = identities
    else:
        raise TableError('identities must be {"square": "rock" | "paper" | "scissors"}')
    clean = []
    for pair in pairs:
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or not all(isinstance(v, str) and len(v) <= 20 for v in pair)
        ):
            raise TableError("identities must pair a square with rock, paper or scissors")
        clean.append((pair[0], pair[1]))
    return clean


@dataclass(frozen=True)
class Seat:
    """One seat's secret link token and the browser that claimed it (None: unclaimed)."""

    token: str
    claim: str | None = None


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class SeatBook:
    """The seats of the game in progress: their links, claims and opening hands.

    Every change of a link or claim is written to the store first, so memory never holds more
    than a restart would find.
    """

    def __init__(self, store: Store | None) -> None:
        self._store = store
        self._game_id: int | None = None
        self._seats: list[Seat] = []
        self.hands: dict[int, str] = {}
        self.links = 0  # counts new links, so the table page knows to reload the QR codes

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)

    def open(self, game_id: int | None, game: rules.Game) -> None:
        """A fresh secret link for every seat of a game with hidden identities (else none)."""
        self._game_id = game_id
        self.hands = {}
        self.links += 1
        count = len(game.colours) if has_secrets(game) else 0
        self._seats = [Seat(secrets.token_urlsafe(24)) for _ in range(count)]
        if self._store is not None and self._seats and game_id is not None:
            rows = [StoredSeat(n, s.token, s.claim) for n, s in enumerate(self._seats)]
            self._store.save_seats(game_id, rows)

    def restore(self, game_id: int, game: rules.Game) -> None:
        """The links and claims stored with a resumed game, so the phones keep their seats;
        fresh links for a game stored without them (a database from before links were kept)."""
        stored = self._store.seats(game_id)
        every_seat = list(range(len(game.colours)))
        if not has_secrets(game) or [s.seat for s in stored] != every_seat:
            self.open(game_id, game)
            return
        self._game_id = game_id
        self.hands = {}
        self.links += 1
        self._seats = [Seat(s.token, s.claim) for s in stored]

    def _set(self, seat: int, token: str, claim: str | None) -> None:
        """Change a seat's link or claim: the store first, so memory never holds more."""
        if self._store is not None:
            self._store.save_seat(self._game_id, StoredSeat(seat, token, claim))
        self._seats[seat] = Seat(token, claim)

    def public(self, colours: tuple[str, ...] | list[str], assigned: Any) -> list[dict[str, Any]]:
        """What the table page may show of each seat (never a token or a claim)."""
        assigned = assigned or [False] * len(self._seats)
        return [
            {
                "seat": n,
                "colour": colours[n],
                "claimed": seat.claim is not None,
                "assigned": bool(assigned[n]),
                "hand_in": n in self.hands,
                "link": self.links,
            }
            for n, seat in enumerate(self._seats)
        ]

    def seat_of(self, token: Any) -> int | None:
        """The seat whose secret link carries `token`, or None (compared in constant time)."""
        if not isinstance(token, str) or not token:
            return None
        found = None
        for n, seat in enumerate(self._seats):
            if _same(seat.token, token):
                found = n
        return found

    def _known(self, token: Any) -> int:
        seat = self.seat_of(token)
        if seat is None:
            raise SeatError(404, "this player link is not valid for the game in progress")
        return seat

    def claim(
        self, token: Any, claimant: str, colours: list[str] | tuple[str, ...]
    ) -> tuple[int, bool]:
        """Claim the seat of `token` for `claimant` if it is free: (the seat, whether it was
        just claimed). SeatError if the link is unknown or another phone holds it."""
        seat = self._known(token)
        held = self._seats[seat].claim
        if held is None:
            self._set(seat, self._seats[seat].token, claimant)
            return seat, True
        if not _same(held, claimant):
            raise SeatError(
                403,
                f"{colours[seat]}'s link is already open on another phone; "
                "whoever has the table PIN can reset the seat on the table page",
            )
        return seat, False

    def claimed_by(self, token: Any, claimant: Any) -> int:
        """The seat of `token` if `claimant` holds it; SeatError (404/403) otherwise."""
        seat = self._known(token)
        held = self._seats[seat].claim
        if held is None or not isinstance(claimant, str) or not claimant:
            raise SeatError(403, "open the player link on your phone first")
        if not _same(held, claimant):
            raise SeatError(403, "this seat's link is open on another phone")
        return seat

    def join_token(self, seat: int) -> str | None:
        """The secret link token of an unclaimed seat (for its QR code), else None."""
        if not 0 <= seat < len(self._seats) or self._seats[seat].claim is not None:
            return None
        return self._seats[seat].token

    def reset(self, seat: int) -> None:
        """Free a seat: a new link (the old one stops working), shown again as a QR code."""
        if not 0 <= seat < len(self._seats):
            raise TableError(f"there is no seat {seat} with a player link in this game")
        self._set(seat, secrets.token_urlsafe(24), None)
        self.links += 1

    def put_hand(self, seat: int, hand: str, players: int) -> tuple[str, ...] | None:
        """Take a seat's opening hand; once every seat's is in, all the hands in seat order
        (and the book is emptied for the next opening), else None."""
        self.hands[seat] = hand
        if len(self.hands) < players:
            return None
        hands = tuple(self.hands[n] for n in range(players))
        self.hands = {}
        return hands
