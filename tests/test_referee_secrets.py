"""The referee with hidden identities (Playground Battles): seat links, set-ups, the opening
on the phones, battle rulings and panel patterns, a resumed game (links and claims kept from the
database); all public output redacted."""

from __future__ import annotations

import json
import random

import pytest

import rules
from device.referee import Referee, SeatError
from device.store import Store
from rules import Step
from tests.test_referee import FakePanel
from webui.table import TableError

RED_KINDS = ["rock", "paper", "scissors"] * 3 + ["rock"]
BLUE_KINDS = ["paper"] * 8 + ["rock", "scissors"]
RED = {f"{c}1": k for c, k in zip("abcdefghij", RED_KINDS, strict=True)}
BLUE = {f"{c}8": k for c, k in zip("abcdefghij", BLUE_KINDS, strict=True)}


def make(store: Store | None = None) -> Referee:
    rng = random.Random(4)
    return Referee(
        rules.get("playground-battles"),
        store=store or Store(":memory:"),
        panel=FakePanel(),
        roll_die=lambda: rng.randrange(6) + 1,
    )


def set_up(ref: Referee) -> None:
    ref.seat_assign(0, RED)
    ref.seat_assign(1, dict(BLUE))
    ref.seat_hand(0, "rock")
    ref.seat_hand(1, "scissors")


def test_links_claims_and_resets():
    ref = make()
    assert ref.secret
    a, b = (ref.join_token(n) for n in (0, 1))
    assert a != b and len(a) >= 32
    assert ref.claim_seat(a, "phone-1") == 0
    assert ref.claim_seat(a, "phone-1") == 0
    assert ref.join_token(0) is None
    with pytest.raises(SeatError) as exc:
        ref.claim_seat(a, "phone-2")
    assert exc.value.status == 403
    with pytest.raises(SeatError) as exc:
        ref.seat_claimed_by("nope", "phone-1")
    assert exc.value.status == 404
    ref.reset_seat(0)
    assert ref.seat_of(a) is None and ref.join_token(0) not in (None, a)
    ref.new_game("playground-battles", 2, {})
    assert ref.seat_of(b) is None


def test_set_up_refusals_name_the_rule_and_publish_nothing():
    ref = make()
    feed = ref.subscribe()
    with pytest.raises(TableError, match="PB-1.2"):
        ref.seat_assign(0, {sq: "rock" for sq in RED})
    with pytest.raises(TableError, match="PB-1.4"):
        ref.seat_assign(0, {"a1": "rock"})
    with pytest.raises(TableError):
        ref.seat_assign(0, "rock everywhere")
    assert feed.empty()  # a refused set-up is told to its sender only
    ref.seat_assign(0, RED)
    with pytest.raises(TableError, match="already"):
        ref.seat_assign(0, RED)
    snap = ref.snapshot()
    assert snap["legal"] == [] and snap["seats"][0]["assigned"] is True
    text = json.dumps([snap, ref.history(), ref.record()])
    assert not any(f'["{sq}", "{k}"]' in text for sq, k in RED.items())
    assert all(p["identity"] is None for p in snap["state"]["pieces"])


def test_opening_on_the_phones_ties_then_resolves():
    ref = make()
    ref.seat_assign(0, RED)
    ref.seat_assign(1, BLUE)
    with pytest.raises(TableError):
        ref.seat_hand(0, "lizard")
    ref.seat_hand(0, "paper")
    assert ref.snapshot()["seats"][0]["hand_in"] and ref.seat_state(1)["my_hand"] is None
    ref.seat_hand(1, "paper")
    assert ref.state.phase == "opening" and "tie" in ref.snapshot()["ruling"]["text"]
    ref.seat_hand(1, "rock")
    ref.seat_hand(0, "paper")
    assert ref.state.phase == "roll" and ref.state.to_move == 0


def test_battles_are_announced_with_their_result_and_the_reveal_pattern():
    ref = make()
    set_up(ref)
    game, rng = ref.game, random.Random(1)
    seen = set()
    for _ in range(2000):
        state = ref.state
        if state.phase == "over" or {"won", "stalemate"} <= seen:
            break
        if state.phase == "roll":
            ref.roll("button")
            continue
        if state.phase == "keep":
            ref.seat_keep(state.actor, "rescuer")
            continue
        steps = [m for m in game.legal_moves(state) if isinstance(m, Step)]
        placement = game.placement(state)
        attacks = [m for m in steps if placement.get(m.to) not in (None, game.colours[state.actor])]
        quiet = [m for m in steps if not m.to.endswith("base")] or steps
        calls = len(ref.panel.calls)
        ruling = ref.manual_move(rng.choice(attacks or quiet).to_json())
        battle = ruling.get("battle")
        if not battle:
            continue
        seen.add(battle["result"])
        assert not any(e["kind"] == "battle" for e in ruling["effects"])
        new_calls = ref.panel.calls[calls:]
        if battle["result"] in ("won", "lost"):
            assert battle["attacker_identity"] and battle["defender_identity"]
            assert "beats" in ruling["text"] and "show_extra_turn" in new_calls
        if battle["result"] == "stalemate":
            assert battle["attacker_identity"] is None and battle["defender_identity"] is None
            assert not any(k in ruling["text"] for k in ("rock", "paper", "scissors"))
    assert {"won", "stalemate"} <= seen


def test_a_resumed_game_keeps_its_history_public_and_its_links_and_claims(tmp_path):
    db = tmp_path / "g.sqlite3"
    ref = make(Store(db))
    red, blue = ref.join_token(0), ref.join_token(1)
    assert ref.claim_seat(red, "phone-red") == 0
    set_up(ref)
    ref.roll("button")
    again = Referee(rules.get("aggravation", players=4), store=Store(db), panel=FakePanel())
    assert again.resumed and again.game.name == "playground-battles"
    assert again.state == ref.state  # the store kept every identity...
    feed = again.subscribe()
    # the phone that held red's link still does; nobody else may take it
    assert again.seat_claimed_by(red, "phone-red") == 0
    assert again.seat_state(0)["view"]["pieces"] == ref.seat_state(0)["view"]["pieces"]
    with pytest.raises(SeatError) as exc:
        again.claim_seat(red, "phone-blue")
    assert exc.value.status == 403
    with pytest.raises(SeatError):
        again.seat_claimed_by(blue, "phone-red")  # blue's link is not red's phone's
    assert again.join_token(0) is None and again.join_token(1) == blue  # blue's QR: same link
    assert again.claim_seat(blue, "phone-blue") == 1
    seats = again.snapshot()["seats"]
    assert [s["claimed"] for s in seats] == [True, True]
    # ...nobody else sees them, nor the links, nor the phones' ids
    step = next(m for m in again.game.legal_moves(again.state) if isinstance(m, Step))
    again.manual_move(step.to_json())
    published = []
    while not feed.empty():
        published.append(feed.get_nowait())
    assert {kind for kind, _ in published} == {"state", "ruling"}
    text = json.dumps([again.history(), again.snapshot(), again.record(), published])
    assert '"a1", "rock"' not in text and '["a1", "rock"]' not in text
    for secret in (red, blue, "phone-red", "phone-blue"):
        assert secret not in text
    log = json.dumps(Store(db).events(again._game_id))
    assert not any(secret in log for secret in (red, blue, "phone-red", "phone-blue"))


def test_a_claim_and_a_reset_after_a_restart_are_kept(tmp_path):
    db = tmp_path / "g.sqlite3"
    ref = make(Store(db))
    red = ref.join_token(0)
    ref.claim_seat(red, "phone-red")
    again = Referee(rules.get("playground-battles"), store=Store(db))
    again.reset_seat(0)
    fresh = again.join_token(0)
    assert fresh not in (None, red)
    third = Referee(rules.get("playground-battles"), store=Store(db))
    assert third.seat_of(red) is None and third.join_token(0) == fresh
    assert third.claim_seat(fresh, "phone-new") == 0
    fourth = Referee(rules.get("playground-battles"), store=Store(db))
    assert fourth.seat_claimed_by(fresh, "phone-new") == 0
    with pytest.raises(SeatError):
        fourth.claim_seat(fresh, "phone-red")


def test_a_new_game_after_a_restart_has_new_links_that_are_kept(tmp_path):
    db = tmp_path / "g.sqlite3"
    ref = make(Store(db))
    old = [ref.join_token(n) for n in (0, 1)]
    ref.new_game("playground-battles", 2, {})
    new = [ref.join_token(n) for n in (0, 1)]
    assert not set(old) & set(new)
    again = Referee(rules.get("playground-battles"), store=Store(db))
    assert [again.join_token(n) for n in (0, 1)] == new
    assert again.seat_of(old[0]) is None
    again.new_game("aggravation", 2, {})
    last = Referee(rules.get("playground-battles"), store=Store(db))
    assert last.game.name == "aggravation" and not last.secret and last.join_token(0) is None


def test_undo_forgets_chosen_hands():
    ref = make()
    ref.seat_assign(0, RED)
    ref.seat_assign(1, BLUE)
    ref.seat_hand(0, "rock")
    ref.undo()
    assert ref.state.phase == "setup" and not ref.snapshot()["seats"][0]["hand_in"]
