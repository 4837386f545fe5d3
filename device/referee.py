"""The referee: a state machine driven by observations of the board and by die rolls.

await roll (button, web page, or a die read in the tray) -> await move -> the board settles ->
`game.infer` -> ruling: legal (apply, announce effects), illegal (announce the clause and wait
until the board shows the position again), unclear (say which spaces, wait). Passes and other
forced moves are announced without waiting for the board.

It implements `webui.table.Table`. Every public method takes the lock for a short time and
never waits on the camera, the GPIO or a web client: rulings are handed to subscribers through
queues, and the GPIO panel's patterns run on their own threads.
"""

from __future__ import annotations

import hmac
import logging
import queue
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import rules
from rules import Declare, Inference, Move, Pass, Roll, Verdict
from rules.games.playground_battles import KINDS, Assign, FirstPlayer, Keep, Opening
from webui.table import TableError

from .store import Store, StoredSeat

log = logging.getLogger(__name__)

MAX_SUBSCRIBERS_QUEUE = 100


class Referee:
    """One table: the game, its position, its history and the people watching it."""

    def __init__(
        self,
        game: rules.Game,
        *,
        store: Store | None = None,
        panel: Any = None,
        roll_die: Callable[[], int] | None = None,
        pin: str = "",
        camera_dice: bool = True,
        frame_source: Callable[[], bytes | None] | None = None,
        status_source: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self._lock = threading.RLock()
        self._game = game
        self._state = game.initial_state()
        self._moves: list[Move] = []
        self._history: list[dict[str, Any]] = []
        self._ruling: dict[str, Any] | None = None
        self._subscribers: list[queue.Queue] = []
        self._store = store
        self._game_id: int | None = None
        self.panel = panel
        self._roll_die = roll_die or (lambda: random.SystemRandom().randint(1, 6))
        self.pin = pin
        self.camera_dice = camera_dice
        self._frame_source = frame_source
        self._status_source = status_source
        self._waiting_fix = False  # an illegal ruling is held until the board is put right
        # Trays (by owner seat; None: a shared tray) whose die was entered as a roll: the tray
        # counts again only on evidence of a new throw (see `_rearm_trays`).
        self._spent_trays: dict[int | None, _Spent] = {}
        self._told: set[tuple[int, str]] = set()  # (seat, why) of dice already said not to count
        self.resumed = False
        self.mode = "camera" if frame_source is not None else "manual"
        self.profile_saver: Callable[[dict[str, Any]], str] | None = None
        # Hidden information (Playground Battles): one secret link per seat, who claimed it,
        # and the opening hands chosen on the phones so far.
        self._seats: list[dict[str, Any]] = []
        self._hands: dict[int, str] = {}
        self._links = 0  # counts new links, so the table page knows to reload the QR codes
        if store is not None:
            self._resume_or_start()

    # --- Table protocol: reading ------------------------------------------------------------
    @property
    def game(self) -> rules.Game:
        return self._game

    @property
    def state(self) -> Any:
        return self._state

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return self._snapshot()

    def _snapshot(self) -> dict[str, Any]:
        game, state = self._game, self._state
        outcome = game.outcome(state)
        legal = [] if outcome else game.legal_moves(state)
        secret = has_secrets(game)
        if secret and state.phase == "setup":
            legal = []  # sample set-ups for random playouts, nobody's entry: never shown
        data = {
            "game": game.name,
            "title": game.title,
            "players": game.players,
            "options": dict(game.options),
            "colours": list(game.colours),
            "to_move": state.to_move,
            "to_move_colour": game.colours[state.to_move],
            "actor": getattr(state, "actor", state.to_move),
            "phase": state.phase,
            "dice": getattr(state, "dice", 0),
            "placement": game.placement(state),
            "ruling": self._ruling,
            "moves": len(self._moves),
            "legal": [game.public_move(m, None) | {"text": str(m)} for m in legal],
            "outcome": outcome.to_json() if outcome else None,
            "waiting_fix": self._waiting_fix,
            "mode": self.mode,
            "state": game.view(state, None) if secret else game.state_to_json(state),
        }
        if secret:
            data["seats"] = self._seats_public()
        return data

    def history(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._history)

    def record(self) -> dict[str, Any]:
        """The game record. With hidden identities and the game still going, the public
        record: set-ups blanked (it does not replay until the game is over)."""
        with self._lock:
            game = self._game
            record = game.record(self._moves)
            if has_secrets(game) and game.outcome(self._state) is None:
                record["moves"] = [game.public_move(m, None) for m in self._moves]
                record["redacted"] = True
                record["note"] = (
                    "the players' secret set-ups are blanked while the game is in progress; "
                    "the full record is here once the game is over"
                )
            return record

    def status(self) -> dict[str, Any]:
        extra = self._status_source() if self._status_source else {}
        panel = self.panel.status() if self.panel is not None else None
        return {
            "camera": extra.get("camera", {"ok": False, "source": "none", "error": None}),
            "panel": panel,
        }

    def set_mode(self, mode: str) -> dict[str, Any]:
        """camera: moves come from the camera (manual moves need the PIN); manual: tapped."""
        if mode not in ("camera", "manual"):
            raise TableError(f"mode must be 'camera' or 'manual', not {mode!r}")
        with self._lock:
            self.mode = mode
            self._publish("state", self._snapshot())
            return self._snapshot()

    def save_profile(self, profile: dict[str, Any]) -> str:
        """Store a commercial board's clicked hole positions (a board profile)."""
        if self.profile_saver is None:
            raise TableError("this table has no place to save board profiles")
        return self.profile_saver(profile)

    def frame_jpeg(self) -> bytes | None:
        return self._frame_source() if self._frame_source else None

    # --- hidden information: the players' secret links -----------------------------------------
    @property
    def secret(self) -> bool:
        """Whether the game in progress has hidden identities (players join on their phones)."""
        return has_secrets(self._game)

    def _new_seats(self) -> None:
        """A fresh secret link for every seat (a new game), kept in the store."""
        self._hands = {}
        self._links += 1
        self._seats = (
            [{"token": secrets.token_urlsafe(24), "claim": None} for _ in self._game.colours]
            if has_secrets(self._game)
            else []
        )
        if self._store is not None and self._seats:
            rows = [StoredSeat(n, s["token"], s["claim"]) for n, s in enumerate(self._seats)]
            self._store.save_seats(self._game_id, rows)

    def _restore_seats(self) -> None:
        """The links and claims stored with the resumed game, so the phones keep their seats;
        fresh links for a game stored without them (a database from before links were kept)."""
        stored = self._store.seats(self._game_id)
        every_seat = list(range(len(self._game.colours)))
        if not has_secrets(self._game) or [s.seat for s in stored] != every_seat:
            self._new_seats()
            return
        self._hands = {}
        self._links += 1
        self._seats = [{"token": s.token, "claim": s.claim} for s in stored]

    def _set_seat(self, seat: int, token: str, claim: str | None) -> None:
        """Change a seat's link or claim: the store first, so memory never holds more."""
        if self._store is not None:
            self._store.save_seat(self._game_id, StoredSeat(seat, token, claim))
        self._seats[seat] = {"token": token, "claim": claim}

    def _seats_public(self) -> list[dict[str, Any]]:
        view = self._game.view(self._state, None)
        assigned = view.get("assigned") or [False] * len(self._seats)
        return [
            {
                "seat": n,
                "colour": self._game.colours[n],
                "claimed": seat["claim"] is not None,
                "assigned": bool(assigned[n]),
                "hand_in": n in self._hands,
                "link": self._links,
            }
            for n, seat in enumerate(self._seats)
        ]

    def seat_of(self, token: Any) -> int | None:
        """The seat whose secret link carries `token`, or None (compared in constant time)."""
        if not isinstance(token, str) or not token:
            return None
        with self._lock:
            found = None
            for n, seat in enumerate(self._seats):
                if hmac.compare_digest(seat["token"].encode(), token.encode()):
                    found = n
            return found

    def claim_seat(self, token: Any, claimant: str) -> int:
        """The first browser to open a seat's link claims it; afterwards only that one may."""
        with self._lock:
            seat = self.seat_of(token)
            if seat is None:
                raise SeatError(404, "this player link is not valid for the game in progress")
            held = self._seats[seat]["claim"]
            if held is None:
                self._set_seat(seat, self._seats[seat]["token"], claimant)
                self._publish("state", self._snapshot())
            elif not hmac.compare_digest(held.encode(), claimant.encode()):
                raise SeatError(
                    403,
                    f"{self._game.colours[seat]}'s link is already open on another phone; "
                    "whoever has the table PIN can reset the seat on the table page",
                )
            return seat

    def seat_claimed_by(self, token: Any, claimant: Any) -> int:
        """The seat of `token` if `claimant` holds it; SeatError (404/403) otherwise."""
        with self._lock:
            seat = self.seat_of(token)
            if seat is None:
                raise SeatError(404, "this player link is not valid for the game in progress")
            held = self._seats[seat]["claim"]
            if held is None or not isinstance(claimant, str) or not claimant:
                raise SeatError(403, "open the player link on your phone first")
            if not hmac.compare_digest(held.encode(), claimant.encode()):
                raise SeatError(403, "this seat's link is open on another phone")
            return seat

    def join_token(self, seat: int) -> str | None:
        """The secret link token of an unclaimed seat (for its QR code), else None."""
        with self._lock:
            if not 0 <= seat < len(self._seats) or self._seats[seat]["claim"] is not None:
                return None
            return self._seats[seat]["token"]

    def reset_seat(self, seat: int) -> dict[str, Any]:
        """Free a seat: a new link (the old one stops working), shown again as a QR code."""
        with self._lock:
            if not 0 <= seat < len(self._seats):
                raise TableError(f"there is no seat {seat} with a player link in this game")
            self._set_seat(seat, secrets.token_urlsafe(24), None)
            self._links += 1
            self._publish("state", self._snapshot())
            return self._snapshot()

    def seat_state(self, seat: int) -> dict[str, Any]:
        """What seat `seat` may know: its own pieces' identities, the public rest."""
        with self._lock:
            game, state = self._game, self._state
            view = game.view(state, seat)
            legal = game.legal_moves(state) if game.outcome(state) is None else []
            return {
                "seat": seat,
                "colour": game.colours[seat],
                "colours": list(game.colours),
                "game": game.name,
                "title": game.title,
                "view": view,
                "back_row": self._back_row(seat),
                "my_hand": self._hands.get(seat),
                "hands_in": [n in self._hands for n in range(len(game.colours))],
                "keep": [
                    game.public_move(m, seat)
                    for m in legal
                    if isinstance(m, Keep) and m.player == seat
                ],
                "ruling": self._ruling,
                "moves": len(self._moves),
            }

    def _back_row(self, seat: int) -> list[str]:
        if self._state.phase != "setup":
            return []
        return [
            p["space"] for p in self._game.view(self._state, seat)["pieces"] if p["seat"] == seat
        ]

    def seat_assign(self, seat: int, identities: Any, source: str = "phone") -> dict[str, Any]:
        """A seat's secret set-up: {square: kind} or [[square, kind], ...]. A refusal names
        the rule to the one who sent it, and is not shown on the table page."""
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
        with self._lock:
            game = self._game
            if not self.secret or not 0 <= seat < len(game.colours):
                raise TableError("this game has no secret set-up")
            move = Assign(seat, game.colours[seat], tuple(sorted(clean)))
            if move not in game.legal_moves(self._state):
                verdict = game.explain(self._state, move)
                cited = ", ".join(c.id for c in verdict.clauses)
                raise TableError(f"{verdict.reason} [{cited}]")
            self._apply(move, source)
            self._auto_forced(source)
            return self.seat_state(seat)

    def seat_hand(self, seat: int, hand: Any) -> dict[str, Any]:
        """A seat's secret hand in the opening rock-paper-scissors; resolved when both are in."""
        if hand not in KINDS:
            raise TableError("a hand is rock, paper or scissors")
        with self._lock:
            game = self._game
            if not self.secret or self._state.phase != "opening":
                raise TableError("the opening rock-paper-scissors is not being played now")
            self._hands[seat] = hand
            if len(self._hands) < len(game.colours):
                self._publish("state", self._snapshot())
                return self.seat_state(seat)
            hands = tuple(self._hands[n] for n in range(len(game.colours)))
            self._hands = {}
            a, b = (KINDS.index(h) for h in hands)
            winner = 0 if a == b else (0 if (a - b) % 3 == 1 else 1)
            move = Opening(winner, game.colours[winner], hands)
            self._apply(move, "phone")
            self._auto_forced("phone")
            return self.seat_state(seat)

    def seat_keep(self, seat: int, stay: Any) -> dict[str, Any]:
        """After breaking a stalemate: which of the seat's two pieces stays."""
        with self._lock:
            moves = [
                m
                for m in self._game.legal_moves(self._state)
                if isinstance(m, Keep) and m.player == seat and m.stay == stay
            ]
            if not moves:
                raise TableError("there is no choice of piece for you to make now")
            self._apply(moves[0], "phone")
            self._auto_forced("phone")
            return self.seat_state(seat)

    # --- subscribers -------------------------------------------------------------------------
    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(MAX_SUBSCRIBERS_QUEUE)
        with self._lock:
            self._subscribers.append(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            if q in self._subscribers:
                self._subscribers.remove(q)

    def _publish(self, kind: str, payload: dict[str, Any]) -> None:
        for q in list(self._subscribers):
            try:
                q.put_nowait((kind, payload))
            except queue.Full:  # a stalled client: drop its oldest news, never block
                try:
                    q.get_nowait()
                    q.put_nowait((kind, payload))
                except (queue.Empty, queue.Full):
                    pass

    # --- Table protocol: changing the game --------------------------------------------------
    def roll(self, source: str = "web", value: int | None = None) -> dict[str, Any]:
        """Roll the die as the button does (or take the value a camera read from the tray)."""
        with self._lock:
            if not self._can_roll():
                raise TableError(self._why_no_roll())
            if value is None:
                self._light("show_rolling")
                value = self._roll_die()
            self._roll_as(self._state.to_move, value, source)
            return self._snapshot()

    def _roll_as(
        self, seat: int, value: int, source: str, notes: list[dict[str, Any]] | tuple = ()
    ) -> None:
        """Enter `seat`'s throw: the one path of the button, the page and every camera die."""
        rolls = [m for m in self._game.legal_moves(self._state) if isinstance(m, Roll)]
        move = next((m for m in rolls if m.player == seat and m.value == value), None)
        if move is None:
            raise TableError(f"a die cannot show {value!r}; allowed: 1 to 6")
        text = f"{move.colour} rolled {value}"
        self._apply(move, source, kind="roll", text=text, notes=notes)
        self._auto_forced(source)

    def manual_move(self, move: Mapping[str, Any]) -> dict[str, Any]:
        """A move entered on the page: checked exactly as a move seen by the camera."""
        try:
            parsed = self._game.move_from_json(dict(move))
        except (rules.RecordError, TypeError, ValueError) as exc:
            raise TableError(f"bad move: {exc}") from None
        with self._lock:
            if isinstance(parsed, Roll):
                raise TableError("use /api/roll to roll the die")
            if parsed in self._game.legal_moves(self._state):
                self._apply(parsed, "manual")
                self._auto_forced("manual")
            else:
                verdict = self._game.explain(self._state, parsed)
                self._rule_illegal(
                    verdict, spaces=_move_spaces(parsed), source="manual", hold=False
                )
            return self._ruling or {}

    def undo(self) -> dict[str, Any]:
        """Take back the last applied move (a roll included); the log keeps both events."""
        with self._lock:
            if not self._moves:
                raise TableError("nothing to undo: no move has been made in this game")
            undone = self._moves.pop()
            self._history.pop()
            self._hands = {}
            self._state = self._game.replay(self._moves)
            if self._store is not None:
                self._store.append(self._game_id, "undo", undone.to_json())
            undone_text = str(undone)
            self._waiting_fix = False
            self._told = set()
            self._set_ruling(notice("undo", f"undone: {undone_text}"))
            self._light("clear")
            return self._snapshot()

    def new_game(self, game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
        try:
            new = rules.get(game, players=players, options=options or {})
        except rules.RulesError as exc:
            raise TableError(str(exc)) from None
        with self._lock:
            self._start(new)
            return self._snapshot()

    # --- the camera side ---------------------------------------------------------------------
    def observe(
        self,
        placement: Mapping[str, str] | None,
        *,
        dice: list[int] | None = None,
        dice_owners: list[int | None] | None = None,
        dice_boxes: list[Box | None] | None = None,
        hand: bool = False,
        unclear: tuple[str, ...] = (),
        reason: str = "",
    ) -> dict[str, Any] | None:
        """A stable reading of the board. Returns the ruling it caused, if any.

        `dice_owners[i]` is the seat whose tray die i lies in (None: a shared tray). A die in
        a shared tray is the throw of the seat to roll; a die in a seat's own tray is that
        seat's throw, entered when the seat may roll now (in the roll-off, everyone still to
        roll may: each seen throw is entered, in seat order). `dice_boxes[i]`: die i's box
        (x, y, w, h) in the frame, if known: a die seen elsewhere in its tray is a new throw.
        """
        with self._lock:
            values = list(dice or [])
            owners = list(dice_owners) if dice_owners is not None else [None] * len(values)
            boxes = list(dice_boxes) if dice_boxes is not None else [None] * len(values)
            if hand:
                for spent in self._spent_trays.values():
                    spent.hand = True
                return None
            self._rearm_trays(values, owners, boxes)
            if placement is None or unclear:
                if unclear:
                    return self._rule_unclear(
                        reason or "cannot read " + ", ".join(unclear), tuple(unclear)
                    )
                return None
            expected = self._game.canonical(self._game.placement(self._state))
            seen = self._game.canonical(placement)
            if self._waiting_fix:
                if seen == expected:
                    self._waiting_fix = False
                    self._set_ruling(notice("restored", "board put right; carry on"))
                    self._light("clear")
                    return self._ruling
            if seen == expected:
                if not (dice and self.camera_dice and self._can_roll()):
                    return None
                return self._enter_tray_throws(values, owners, boxes)
            inference = self._game.infer(self._state, placement)
            return self._rule_inference(inference, placement)

    def _rule_inference(
        self, inference: Inference, seen: Mapping[str, str]
    ) -> dict[str, Any] | None:
        if inference.kind == "legal":
            self._waiting_fix = False
            self._apply(inference.move, "camera")
            self._auto_forced("camera")
            return self._ruling
        if inference.kind == "illegal":
            return self._rule_illegal(
                inference.verdict, spaces=inference.spaces, source="camera", hold=True, seen=seen
            )
        if inference.reason == "nothing has moved yet":
            return None
        return self._rule_unclear(inference.reason, inference.spaces)

    # --- internals -----------------------------------------------------------------------------
    def _rearm_trays(
        self, dice: list[int], owners: list[int | None], boxes: list[Box | None]
    ) -> None:
        """A spent tray counts again only on evidence of a new throw: none of the dice that lay
        in it when its roll was entered is still there. A die is still there unless the tray
        is seen without it, or it is seen elsewhere (its centre moved by more than half its
        size: a throw almost never lands on the same spot), or it shows another face and a
        hand was seen since (a die does not turn over by itself). A hand passing over an
        unmoved die showing the same face re-arms nothing."""
        for tray, spent in list(self._spent_trays.items()):
            if not any(spent.still_there(v, b) for v, b in _in_tray(tray, dice, owners, boxes)):
                del self._spent_trays[tray]

    def _enter_tray_throws(
        self, dice: list[int], owners: list[int | None], boxes: list[Box | None]
    ) -> dict | None:
        """Enter every new throw the camera sees of a seat that may roll now, in seat order,
        each as a single roll is; say once that the other new dice do not count, and once
        (after a hand was seen) that a die already entered is not a new throw."""
        throws, ignored = self._tray_throws(dice, owners)
        notes = self._ignored_notes(ignored)
        stale = self._stale_notes()
        entered = False
        for n, (seat, value, tray) in enumerate(throws):
            if seat not in self._rolling_seats():  # a roll-off never refuses a seat still in
                log.warning("%s may no longer roll; its die is not entered", seat)
                break
            self._spent_trays[tray] = _Spent(_in_tray(tray, dice, owners, boxes))
            last = n == len(throws) - 1
            self._roll_as(seat, value, "camera", notes=notes + stale if last else ())
            entered = True
        if (notes or stale) and not entered:
            text = stale[0]["text"] if stale and not notes else (
                "only the dice of players still to roll count")  # fmt: skip
            self._set_ruling(notice("ignored", text) | {"effects": notes + stale})
        return self._ruling if entered or notes or stale else None

    def _stale_notes(self) -> list[dict[str, Any]]:
        """Effects saying, once per entered die, that the die still lying in the tray of a
        seat to roll was entered already: said only after a hand was seen over the board
        (someone reached out, and the die they may have meant to throw did not move)."""
        notes = []
        for seat in self._rolling_seats():
            for tray in (seat, None) if seat == self._state.to_move else (seat,):
                spent = self._spent_trays.get(tray)
                if spent is None or not spent.hand or spent.told:
                    continue
                spent.told = True
                whose = "the tray" if tray is None else f"{self._game.colours[seat]}'s tray"
                text = (f"the die in {whose} was counted already and has not moved: pick up the "
                        "die and throw it again, or press the button")  # fmt: skip
                notes.append(_ignored_effect(seat, text))
        return notes

    def _tray_throws(
        self, dice: list[int], owners: list[int | None]
    ) -> tuple[list[tuple[int, int, int | None]], list[tuple[int, int]]]:
        """(throws to enter as (seat, value, tray), new dice of seats that may not roll as
        (seat, value)), both in seat order. A spent tray is skipped; one die per seat counts."""
        rolling, to_move = self._rolling_seats(), self._state.to_move
        throws: dict[int, tuple[int, int, int | None]] = {}
        ignored: dict[int, tuple[int, int]] = {}
        for value, tray in zip(dice, owners, strict=False):
            if tray in self._spent_trays:
                continue
            seat = to_move if tray is None else tray
            if seat in rolling:
                throws.setdefault(seat, (seat, value, tray))
            else:
                ignored.setdefault(seat, (seat, value))
        return [throws[s] for s in sorted(throws)], [ignored[s] for s in sorted(ignored)]

    def _ignored_notes(self, ignored: list[tuple[int, int]]) -> list[dict[str, Any]]:
        """Effects saying why dice seen in the roll-off do not count, each said once. A die
        showing the roll its seat has in this round is the die that made it: nothing to say."""
        rolloff = getattr(self._state, "rolloff", ())
        if not rolloff:
            return []  # in play a die left in another player's tray is nothing to mention
        state, notes = self._state, []
        for seat, value in ignored:
            if rolloff[seat] == value:
                continue
            colour = self._game.colours[seat]
            verdict = self._game.explain(state, Roll(seat, colour, value))
            if verdict.legal or (seat, verdict.reason) in self._told:
                continue
            self._told.add((seat, verdict.reason))
            clause = verdict.clauses[0].id if verdict.clauses else ""
            text = f"the die in {colour}'s tray does not count: {verdict.reason}"
            notes.append(_ignored_effect(seat, text, clause))
        return notes

    def _rolling_seats(self) -> list[int]:
        """The seats that may roll now, in seat order (several only in a roll-off)."""
        legal = self._game.legal_moves(self._state)
        return sorted({m.player for m in legal if isinstance(m, Roll)})

    def _can_roll(self) -> bool:
        return bool(self._rolling_seats())

    def awaiting_roll(self) -> bool:
        """True while a die read in the tray would be used (the camera reads dice only then)."""
        with self._lock:
            return self.camera_dice and self._can_roll()

    def _why_no_roll(self) -> str:
        phase = self._state.phase
        if phase == "over":
            return "the game is over; start a new game to roll again"
        colour = self._game.colours[getattr(self._state, "actor", self._state.to_move)]
        return f"not the time to roll: waiting for {colour} to {phase}"

    def _apply(
        self,
        move: Move,
        source: str,
        kind: str | None = None,
        text: str | None = None,
        notes: list[dict[str, Any]] | tuple = (),
    ) -> None:
        """Apply a legal move and announce it; `notes`: the referee's own effects to add."""
        game, before = self._game, self._state
        verdict = game.announce(before, move)
        self._state = game.apply(before, move)
        self._moves.append(move)
        if self._store is not None:  # the store keeps every identity; it stays on the Pi
            self._store.append(self._game_id, "move", move.to_json(), source)
        public = game.public_move(move, None)
        effects = [e.to_json() for e in verdict.effects] + list(notes)
        kinds = {e["kind"] for e in effects}
        ruling_kind = kind or (
            "win" if "win" in kinds else "pass" if isinstance(move, Pass) else "legal"
        )
        ruling = {
            "kind": ruling_kind,
            "text": text or _sentence(verdict, move),
            "move": public,
            "move_text": str(move),
            "clauses": [c.to_json() for c in verdict.clauses],
            "effects": effects,
            "spaces": list(_move_spaces(move)),
            "fix": self._fix_for_captures(verdict),
            "source": source,
        }
        battle = _battle(game, before, self._state, kinds)
        if battle is not None:  # the result replaces "the referee decides"
            ruling["battle"] = battle
            ruling["effects"] = [e for e in effects if e["kind"] != "battle"]
            ruling["text"] = text or verdict.reason
        if isinstance(move, Opening | FirstPlayer):
            self._hands = {}
        self._history.append(self._history_entry(move, ruling))
        self._set_ruling(ruling)
        self._signal(ruling_kind, kinds, battle)

    def _history_entry(self, move: Move, ruling: dict[str, Any]) -> dict[str, Any]:
        """The history row for a move just applied: public move, ruling, position after it."""
        state = self._state
        return {
            "n": len(self._moves),
            "move": self._game.public_move(move, None),
            "text": str(move),
            "ruling": ruling,
            "placement": self._game.placement(state),
            "to_move": state.to_move,
            "phase": state.phase,
            "dice": getattr(state, "dice", 0),
        }

    def _auto_forced(self, source: str) -> None:
        """Apply passes (and single forced declarations) at once: nothing to wait for."""
        for _ in range(64):
            if self._game.outcome(self._state) is not None:
                return
            legal = self._game.legal_moves(self._state)
            if len(legal) == 1 and isinstance(legal[0], Pass | Declare):
                self._apply(legal[0], source)
                continue
            return

    def _signal(
        self, kind: str, effect_kinds: set[str], battle: dict[str, Any] | None = None
    ) -> None:
        if kind == "win":
            self._light("show_win")
        elif battle is not None and battle.get("result") in ("won", "lost", "rescued"):
            self._light("show_extra_turn")  # a battle decided and revealed: the fanfare
        elif "extra_turn" in effect_kinds:
            self._light("show_extra_turn")
        elif kind in ("legal", "pass"):
            self._light("show_legal")

    def _light(self, pattern: str) -> None:
        """Show a pattern on the GPIO panel; a panel failure never stops the referee."""
        if self.panel is None:
            return
        try:
            getattr(self.panel, pattern)()
        except Exception as exc:  # a closed or broken panel: the page still shows the ruling
            log.warning("panel %s failed: %s", pattern, exc)

    def _rule_illegal(
        self,
        verdict: Verdict | None,
        spaces: tuple[str, ...],
        source: str,
        hold: bool,
        seen: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        clauses = [c.to_json() for c in verdict.clauses] if verdict else []
        reason = verdict.reason if verdict else "that move is not allowed"
        ruling = {
            "kind": "illegal",
            "text": reason,
            "clauses": clauses,
            "effects": [],
            "spaces": list(spaces),
            "fix": self._fix_text(seen)
            if hold
            else "nothing was changed: make a legal move instead",
            "source": source,
        }
        if not self._is_current(ruling):
            if self._store is not None:
                self._store.append(self._game_id, "ruling", ruling, source)
            self._set_ruling(ruling)
        if hold:
            self._waiting_fix = True
            self._light("show_illegal")
        return ruling

    def _is_current(self, ruling: dict[str, Any]) -> bool:
        """The same ruling as the one standing (ignoring when it was made)."""
        current = self._ruling or {}
        return {k: v for k, v in current.items() if k not in ("at", "moves")} == ruling

    def _rule_unclear(self, reason: str, spaces: tuple[str, ...]) -> dict[str, Any] | None:
        ruling = {
            "kind": "unclear",
            "text": reason,
            "clauses": [],
            "effects": [],
            "spaces": list(spaces),
            "fix": "waiting for a clear view of the board",
        }
        if self._is_current(ruling):
            return None
        self._set_ruling(ruling)
        if not self._waiting_fix:
            self._light("show_unclear")
        return ruling

    def _fix_text(self, seen: Mapping[str, str] | None) -> str:
        """What to do to put the board back, from the difference with the expected position."""
        expected = self._game.placement(self._state)
        seen = seen or {}
        steps = [
            f"take the {colour} token off {space}"
            for space, colour in sorted(seen.items())
            if expected.get(space) != colour
        ]
        steps += [
            f"put the {colour} token back on {space}"
            for space, colour in sorted(expected.items())
            if seen.get(space) != colour
        ]
        if not steps:
            return "put the board back as it was, then make a legal move"
        return "; ".join(steps[:6]) + ", then make a legal move"

    def _fix_for_captures(self, verdict: Verdict) -> str:
        colours = self._game.colours
        return "; ".join(
            f"put the captured {colours[e.player]} token back in its base"
            for e in verdict.effects
            if e.kind == "capture" and e.player is not None
        )

    def _set_ruling(self, ruling: dict[str, Any]) -> None:
        ruling = dict(ruling, at=time.time(), moves=len(self._moves))
        self._ruling = ruling
        self._publish("ruling", ruling)
        self._publish("state", self._snapshot())

    def _start(self, game: rules.Game) -> None:
        self._game = game
        self._state = game.initial_state()
        self._moves = []
        self._history = []
        self._waiting_fix = False
        self._spent_trays, self._told = {}, set()
        if self._store is not None:
            self._game_id = self._store.new_game(game.name, game.players, dict(game.options))
        self._new_seats()
        self._set_ruling(notice("new", f"new game of {game.title}"))
        self._light("clear")
        self._auto_forced("referee")

    def _resume_or_start(self) -> None:
        stored = self._store.latest()
        if stored is None:
            self._start(self._game)
            return
        game = rules.get(stored.name, players=stored.players, options=stored.options)
        moves = [game.move_from_json(m) for m in stored.moves]
        self._game = game
        self._game_id = stored.id
        self._state = game.initial_state()
        self._restore_seats()
        for move in moves:
            verdict = game.announce(self._state, move)
            self._state = game.apply(self._state, move)
            self._moves.append(move)
            ruling = {
                "kind": "legal",
                "text": _sentence(verdict, move),
                "clauses": [c.to_json() for c in verdict.clauses],
                "effects": [e.to_json() for e in verdict.effects],
            }
            self._history.append(self._history_entry(move, ruling))
        self.resumed = True
        self._ruling = notice("resumed", f"resumed {game.title} after {len(moves)} moves")
        self._ruling.update(at=time.time(), moves=len(moves))

    def resume_text(self) -> str:
        return self._ruling["text"] if self.resumed and self._ruling else ""


class SeatError(TableError):
    """A player link that is unknown (404) or held by another phone (403)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def has_secrets(game: rules.Game) -> bool:
    """Whether the game hides information from some seats (it overrides `Game.view`)."""
    return type(game).view is not rules.Game.view


def _battle(
    game: rules.Game, before: Any, after: Any, effect_kinds: set[str]
) -> dict[str, Any] | None:
    """The battle a move just decided, as the public table may know it, or None."""
    if not has_secrets(game) or not effect_kinds & {"capture", "stalemate"}:
        return None
    if getattr(before, "phase", "") != "move":
        return None
    battle = game.view(after, None).get("battle")
    if not battle:
        return None
    colours = game.colours
    battle = dict(battle)
    battle["attacker_colour"] = colours[battle["attacker"]]
    battle["defender_colour"] = colours[1 - battle["attacker"]]
    return battle


Box = tuple[int, int, int, int]  # a die's box in the frame: x, y, w, h (pixels)


def die_moved(a: Box, b: Box) -> bool:
    """True when the centres of two boxes of a die lie more than half the die's size apart."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    dx, dy = (bx + bw / 2) - (ax + aw / 2), (by + bh / 2) - (ay + ah / 2)
    size = (aw + ah + bw + bh) / 4
    return dx * dx + dy * dy > (size / 2) ** 2


@dataclass
class _Spent:
    """A tray whose die was entered as a roll: the dice lying in it then (value, box or None),
    whether a hand was seen over the board since, and whether the table was told it waits."""

    dice: list[tuple[int, Box | None]]
    hand: bool = False
    told: bool = False

    def still_there(self, value: int, box: Box | None) -> bool:
        """Whether a die seen in the tray may be one of the dice lying there then."""
        for old_value, old_box in self.dice:
            moved = box is not None and old_box is not None and die_moved(old_box, box)
            if not moved and (value == old_value or not self.hand):
                return True
        return False


def _in_tray(
    tray: int | None, dice: list[int], owners: list[int | None], boxes: list[Box | None]
) -> list[tuple[int, Box | None]]:
    """The dice (value, box) seen in one tray (an owner seat, or None for a shared tray)."""
    return [(v, b) for v, o, b in zip(dice, owners, boxes, strict=False) if o == tray]


def _ignored_effect(seat: int, text: str, clause: str = "") -> dict[str, Any]:
    """An effect of the referee's own: a die seen in `seat`'s tray that is not entered."""
    return {"kind": "ignored", "clause": clause, "text": text, "space": None, "player": seat}


def notice(kind: str, text: str) -> dict[str, Any]:
    """A ruling that only tells the table something (undo, restored, new game...)."""
    return {"kind": kind, "text": text, "clauses": [], "effects": [], "spaces": [], "fix": ""}


def _sentence(verdict: Verdict, move: Move) -> str:
    parts = [verdict.reason or str(move)]
    parts += [e.text for e in verdict.effects]
    return "; ".join(parts)


def _move_spaces(move: Move) -> tuple[str, ...]:
    frm, to = getattr(move, "frm", None), getattr(move, "to", None)
    return tuple(s for s in (frm, to) if s)
