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

import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import rules
from rules import Declare, Decline, Inference, Move, Pass, Roll, Verdict
from rules.games.playground_battles import KINDS, FirstPlayer, Opening
from webui.table import TableError

from .announcer import Announcer
from .faults import CAMERA_BACK, STORAGE_BACK, STORAGE_TEXT, Faults, StoragePaused
from .resume import resume
from .rulings import (
    NOTHING_CHANGED,
    board_fix,
    illegal_ruling,
    move_ruling,
    move_signal,
    move_spaces,
    notice,
    replayed_ruling,
    unclear_ruling,
    why_no_roll,
)
from .seats import SeatBook, SeatError, assign_move, has_secrets, keep_move, opening_move
from .store import StorageFault, Store
from .trays import Box, TrayDice, TrayWatch
from .views import history_entry, public_record, seat_view, table_snapshot

__all__ = ["Referee", "SeatError"]  # SeatError: what webui and tests catch

log = logging.getLogger(__name__)

BACKUP_EVERY = 50  # moves between rotating backups of the database (and at every new game)


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
        self._store = store
        self._game_id: int | None = None
        self._announcer = Announcer(panel, self._snapshot)
        self._roll_die = roll_die or (lambda: random.SystemRandom().randint(1, 6))
        self.pin = pin
        self.camera_dice = camera_dice
        self._frame_source = frame_source
        self._status_source = status_source
        self._waiting_fix = False  # an illegal ruling is held until the board is put right
        self.trays = TrayWatch()  # which tray dice were entered already, what was said of them
        self.resumed = False
        self.mode = "camera" if frame_source is not None else "manual"
        self.profile_saver: Callable[[dict[str, Any]], str] | None = None
        self.seats = SeatBook(store)  # hidden information: the players' secret links
        self.faults = Faults()  # storage that cannot save, a camera with no picture
        self._forced_pending = False  # forced moves left undone by a failed write
        if store is not None:
            self._resume_or_start()

    # --- Table protocol: reading ------------------------------------------------------------
    @property
    def game(self) -> rules.Game:
        return self._game

    @property
    def state(self) -> Any:
        return self._state

    @property
    def panel(self) -> Any:
        """The GPIO panel (LEDs, buzzer) the rulings are shown on, or None."""
        return self._announcer.panel

    @property
    def _ruling(self) -> dict[str, Any] | None:
        return self._announcer.ruling

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return self._snapshot()

    def _snapshot(self) -> dict[str, Any]:
        data = table_snapshot(
            self._game,
            self._state,
            ruling=self._ruling,
            moves=len(self._moves),
            waiting_fix=self._waiting_fix,
            mode=self.mode,
            seats=self.seats,
        )
        data["faults"] = self.faults.lines()
        data["paused"] = self.faults.paused
        return data | self._announcer.stamp()

    def history(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._history)

    def record(self) -> dict[str, Any]:
        """The game record. With hidden identities and the game still going, the public
        record: set-ups blanked (it does not replay until the game is over)."""
        with self._lock:
            return public_record(self._game, self._state, self._moves)

    def status(self) -> dict[str, Any]:
        extra = self._status_source() if self._status_source else {}
        panel = self.panel.status() if self.panel is not None else None
        return {
            "camera": extra.get("camera", {"ok": False, "source": "none", "error": None}),
            "panel": panel,
            "faults": self.faults.lines(),
            "storage": {"ok": not self.faults.paused, "error": self.faults.storage_detail},
        }

    def set_mode(self, mode: str) -> dict[str, Any]:
        """camera: moves come from the camera (manual moves need the PIN); manual: tapped."""
        if mode not in ("camera", "manual"):
            raise TableError(f"mode must be 'camera' or 'manual', not {mode!r}")
        with self._lock:
            self.mode = mode
            return self._announcer.publish_state()

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

    def seat_of(self, token: Any) -> int | None:
        """The seat whose secret link carries `token`, or None (compared in constant time)."""
        with self._lock:
            return self.seats.seat_of(token)

    def claim_seat(self, token: Any, claimant: str) -> int:
        """The first browser to open a seat's link claims it; afterwards only that one may."""
        with self._lock, self._saving():
            seat, claimed = self.seats.claim(token, claimant, self._game.colours)
            if claimed:
                self._announcer.publish_state()
            return seat

    def seat_claimed_by(self, token: Any, claimant: Any) -> int:
        """The seat of `token` if `claimant` holds it; SeatError (404/403) otherwise."""
        with self._lock:
            return self.seats.claimed_by(token, claimant)

    def join_token(self, seat: int) -> str | None:
        """The secret link token of an unclaimed seat (for its QR code), else None."""
        with self._lock:
            return self.seats.join_token(seat)

    def reset_seat(self, seat: int) -> dict[str, Any]:
        """Free a seat: a new link (the old one stops working), shown again as a QR code."""
        with self._lock, self._saving():
            self.seats.reset(seat)
            return self._announcer.publish_state()

    def seat_state(self, seat: int) -> dict[str, Any]:
        """What seat `seat` may know: its own pieces' identities, the public rest."""
        with self._lock:
            game, state, hands = self._game, self._state, self.seats.hands
            return seat_view(game, state, seat, hands, self._ruling, len(self._moves))

    def seat_assign(self, seat: int, identities: Any, source: str = "phone") -> dict[str, Any]:
        """A seat's secret set-up: {square: kind} or [[square, kind], ...]. A refusal names
        the rule to the one who sent it, and is not shown on the table page."""
        with self._lock:
            self._play(assign_move(self._game, self._state, seat, identities), source)
            return self.seat_state(seat)

    def seat_hand(self, seat: int, hand: Any) -> dict[str, Any]:
        """A seat's secret hand in the opening rock-paper-scissors; resolved when both are in."""
        if hand not in KINDS:
            raise TableError("a hand is rock, paper or scissors")
        with self._lock:
            game = self._game
            if not self.secret or self._state.phase != "opening":
                raise TableError("the opening rock-paper-scissors is not being played now")
            hands = self.seats.put_hand(seat, hand, len(game.colours))
            if hands is None:
                self._announcer.publish_state()
                return self.seat_state(seat)
            self._play(opening_move(game, hands), "phone")
            return self.seat_state(seat)

    def seat_keep(self, seat: int, stay: Any) -> dict[str, Any]:
        """After breaking a stalemate: which of the seat's two pieces stays."""
        with self._lock:
            self._play(keep_move(self._game, self._state, seat, stay), "phone")
            return self.seat_state(seat)

    # --- subscribers -------------------------------------------------------------------------
    def subscribe(self) -> queue.Queue:
        with self._lock:
            return self._announcer.subscribe()

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            self._announcer.unsubscribe(q)

    # --- Table protocol: changing the game --------------------------------------------------
    def roll(self, source: str = "web", value: int | None = None) -> dict[str, Any]:
        """Roll the die as the button does (or take the value a camera read from the tray)."""
        with self._lock:
            if not self._can_roll():
                raise TableError(why_no_roll(self._game, self._state))
            if value is None:
                self._announcer.light("show_rolling")
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
        self._forced_after(source)

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
                self._play(parsed, "manual")
            else:
                verdict = self._game.explain(self._state, parsed)
                self._rule_illegal(verdict, spaces=move_spaces(parsed), source="manual", hold=False)
            return self._ruling or {}

    def undo(self) -> dict[str, Any]:
        """Take back the last applied move (a roll included); the log keeps both events."""
        with self._lock:
            if not self._moves:
                raise TableError("nothing to undo: no move has been made in this game")
            undone = self._moves[-1]
            self._save("undo", undone.to_json())  # the store first: an unsaved undo is none
            self._moves.pop()
            self._history.pop()
            self.seats.hands = {}
            self._state = self._game.replay(self._moves)
            undone_text = str(undone)
            self._waiting_fix = False
            self.trays.told = set()
            self._set_ruling(notice("undo", f"undone: {undone_text}"))
            self._announcer.light("clear")
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
            seen_dice = TrayDice.read(dice, dice_owners, dice_boxes)
            if hand:
                self.trays.hand_seen()
                return None
            self.trays.rearm(seen_dice)
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
                    self._announcer.light("clear")
                    return self._ruling
            if seen == expected:
                if not (dice and self.camera_dice and self._can_roll()):
                    return None
                return self._enter_tray_throws(seen_dice)
            inference = self._game.infer(self._state, placement)
            try:
                return self._rule_inference(inference, placement)
            except StoragePaused:
                return None  # nothing applied; the camera shows the move again next frame

    def _rule_inference(
        self, inference: Inference, seen: Mapping[str, str]
    ) -> dict[str, Any] | None:
        if inference.kind == "legal":
            self._waiting_fix = False
            self._play(inference.move, "camera")
            return self._ruling
        if inference.kind == "illegal":
            return self._rule_illegal(
                inference.verdict, spaces=inference.spaces, source="camera", hold=True, seen=seen
            )
        if inference.reason == "nothing has moved yet":
            return None
        return self._rule_unclear(inference.reason, inference.spaces)

    # --- internals -----------------------------------------------------------------------------
    def _enter_tray_throws(self, seen: TrayDice) -> dict[str, Any] | None:
        """Enter the new throws the camera sees in the trays (see `TrayWatch.enter`)."""
        self._decline_for_next_throw(seen)
        entered, said = self.trays.enter(
            self._game, self._state, seen, self._rolling_seats, self._roll_as
        )
        if said is not None:
            self._set_ruling(said)
        return self._ruling if entered or said is not None else None

    def _decline_for_next_throw(self, seen: TrayDice) -> None:
        """After a 6 the player may roll again or not (MANJI-4.6, MANIP-2.2). A new die in the
        next seat's own tray says the player let the extra roll go: the camera enters the
        decline, then that throw. (A die in a shared tray stays the extra roll.)"""
        legal = self._game.legal_moves(self._state)
        decline = next((m for m in legal if isinstance(m, Decline)), None)
        if decline is None:
            return
        nxt = (decline.player + 1) % self._game.players
        throws, _ignored = self.trays.throws(seen, [nxt], self._state.to_move)
        if any(tray == nxt for _seat, _value, tray in throws):
            self._play(decline, "camera")

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

    def _apply(
        self,
        move: Move,
        source: str,
        kind: str | None = None,
        text: str | None = None,
        notes: list[dict[str, Any]] | tuple = (),
    ) -> None:
        """Store a legal move, then apply and announce it; `notes`: the referee's own effects
        to add. A move counts once stored: when the store fails, nothing changes
        (StoragePaused) and the table says it is paused."""
        game, before = self._game, self._state
        verdict = game.announce(before, move)
        after = game.apply(before, move)
        self._save("move", move.to_json(), source)  # every identity too; it stays on the Pi
        self._state = after
        self._moves.append(move)
        if self._store is not None and len(self._moves) % BACKUP_EVERY == 0:
            self._store.backup()
        ruling = move_ruling(game, before, self._state, move, verdict, source, kind, text, notes)
        if isinstance(move, Opening | FirstPlayer):
            self.seats.hands = {}
        self._history.append(self._history_entry(move, ruling))
        self._set_ruling(ruling)
        self._announcer.light(move_signal(ruling))

    def _play(self, move: Move, source: str) -> None:
        """Apply a legal move, then every forced move after it."""
        self._apply(move, source)
        self._forced_after(source)

    def _forced_after(self, source: str) -> None:
        """The forced moves after a stored move. The move stands even when one of them cannot
        be stored yet: they follow once storage works (see `check_faults`)."""
        try:
            self._auto_forced(source)
        except StoragePaused:
            self._forced_pending = True

    def _history_entry(self, move: Move, ruling: dict[str, Any]) -> dict[str, Any]:
        """The history row for a move just applied: public move, ruling, position after it."""
        return history_entry(self._game, self._state, len(self._moves), move, ruling)

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

    def _rule_illegal(
        self,
        verdict: Verdict | None,
        spaces: tuple[str, ...],
        source: str,
        hold: bool,
        seen: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        fix, steps = board_fix(self._game, self._state, seen) if hold else (NOTHING_CHANGED, [])
        ruling = illegal_ruling(verdict, spaces, source, fix, steps)
        if not self._announcer.is_standing(ruling):
            try:
                self._save("ruling", ruling, source)
            except StoragePaused:
                pass  # a ruling changes nothing: said even when the log cannot keep it
            self._set_ruling(ruling)
        if hold:
            self._waiting_fix = True
            self._announcer.light("show_illegal")
        return ruling

    def _rule_unclear(self, reason: str, spaces: tuple[str, ...]) -> dict[str, Any] | None:
        ruling = unclear_ruling(reason, spaces)
        if self._announcer.is_standing(ruling):
            return None
        self._set_ruling(ruling)
        if not self._waiting_fix:
            self._announcer.light("show_unclear")
        return ruling

    def _set_ruling(self, ruling: dict[str, Any]) -> None:
        self._announcer.stand(ruling, len(self._moves))

    def _start(self, game: rules.Game, at_start: bool = False) -> None:
        """A new game: its row stored first (a full disk leaves the old game as it was). At
        start-up there is no old game: the new one then waits for storage in memory, and its
        row is written with its first move (see `_save`)."""
        if self._store is not None:
            try:
                with self._saving():
                    self._game_id = self._store.new_game(
                        game.name, game.players, dict(game.options)
                    )
            except StoragePaused:
                if not at_start:
                    raise
                self._game_id = None
            else:
                self._store.backup()
        self._game = game
        self._state = game.initial_state()
        self._moves = []
        self._history = []
        self._waiting_fix = False
        self.trays = TrayWatch()
        try:
            with self._saving():
                self.seats.open(self._game_id, game)
        except StoragePaused:
            pass  # the links work until a restart; the table says storage is failing
        self._set_ruling(notice("new", f"new game of {game.title}"))
        self._announcer.light("clear")
        self._forced_after("referee")

    def _resume_or_start(self) -> None:
        """Resume the stored game up to its last good move (`device.resume`), telling what was
        repaired on the way; a new game when none is stored or the stored one cannot be used."""
        repaired = self._store.recovery
        resumed = resume(self._store, self._game)
        if resumed is None or resumed.game_id is None:
            self._start(resumed.game if resumed else self._game, at_start=True)
            said = "; ".join(t for t in (repaired, resumed.problem if resumed else "") if t)
            if said:
                self.resumed = True
                self._set_ruling(notice("resumed", said))
            return
        game = resumed.game
        self._game = game
        self._game_id = resumed.game_id
        try:
            with self._saving():
                self.seats.restore(resumed.game_id, game)
        except StoragePaused:
            pass  # fresh links could not be kept: they work until a restart
        self._state = game.initial_state()
        for move, verdict, after in resumed.steps:
            self._state = after
            self._moves.append(move)
            self._history.append(self._history_entry(move, replayed_ruling(verdict, move)))
        self.resumed = True
        text = f"resumed {game.title} after {len(resumed.steps)} moves"
        text = "; ".join(t for t in (text, repaired, resumed.problem) if t)
        if not (repaired or resumed.problem):
            self._store.backup()  # the last good database
        self._announcer.ruling = notice("resumed", text) | {
            "at": time.time(),
            "moves": len(self._moves),
        }

    def resume_text(self) -> str:
        return self._ruling["text"] if self.resumed and self._ruling else ""

    # --- faults: storage that cannot save, a camera with no picture ---------------------------
    def _save(self, kind: str, payload: dict[str, Any], source: str = "") -> None:
        """Write one event to the log (nothing without a store)."""
        if self._store is not None:
            with self._saving():
                if self._game_id is None:  # a game started while storage failed: its row first
                    game = self._game
                    self._game_id = self._store.new_game(
                        game.name, game.players, dict(game.options)
                    )
                self._store.append(self._game_id, kind, payload, source)

    @contextmanager
    def _saving(self) -> Iterator[None]:
        """Around every write: a failed one pauses the table and raises StoragePaused (the
        caller changes nothing); one that works after a failure ends the pause."""
        try:
            yield
        except StorageFault as exc:
            self._storage_failed(str(exc))
            raise StoragePaused() from None
        if self.faults.paused and self._store is not None and not self._store.failing:
            self._storage_back()

    def _storage_failed(self, detail: str) -> None:
        if self.faults.paused:
            self.faults.storage_detail = detail
            return
        log.error("storage: %s — the game is paused", detail)
        self.faults.storage_since, self.faults.storage_detail = time.time(), detail
        self._set_ruling(notice("paused", STORAGE_TEXT))
        self._announcer.light("show_unclear")

    def _storage_back(self) -> None:
        log.warning("storage works again")
        self.faults.storage_since, self.faults.storage_detail = None, ""
        self._set_ruling(notice("storage", STORAGE_BACK))
        self._announcer.light("show_unclear" if self.faults.any() else "clear")

    def check_faults(self) -> None:
        """The appliance's watchdog, every few seconds: while paused, try one small write (so
        play resumes by itself when storage works again), then the forced moves a failed write
        left undone; keep the amber light on while a fault stands."""
        with self._lock:
            if self.faults.paused and self._store is not None:
                try:
                    with self._saving():
                        self._store.probe()
                except StoragePaused:
                    return
            if self._forced_pending:
                self._forced_pending = False
                self._forced_after("referee")
            panel = self.panel
            if self.faults.any() and panel is not None and not panel.status().get("pattern"):
                self._announcer.light("show_unclear")

    def camera_silent(self, since: float) -> None:
        """The camera gave no frame since `since` (wall clock): show it, light amber."""
        with self._lock:
            self.faults.camera_since = since
            self._announcer.light("show_unclear")
            self._announcer.publish_state()

    def camera_back(self) -> None:
        """Frames again: say so (unless an illegal ruling stands, which stays in view)."""
        with self._lock:
            self.faults.camera_since = None
            if self._waiting_fix:
                self._announcer.publish_state()
                return
            self._set_ruling(notice("camera", CAMERA_BACK))
            self._announcer.light("show_unclear" if self.faults.any() else "clear")

    def backup_download(self) -> tuple[str, bytes]:
        """(file name, bytes) of the game database for the setup page's download."""
        if self._store is None:
            raise TableError("this table keeps no game database")
        with self._lock:
            return self._store.download()
