"""The command line contract: games, roll and bench rules print what scripts rely on."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from device.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_every_game_with_options(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    games = {g["name"]: g for g in json.loads(out)}
    assert "aggravation" in games
    agg = games["aggravation"]
    assert agg["players"] == [2, 3, 4, 5, 6]
    assert {o["name"] for o in agg["options"]} >= {"opening", "play", "extra_turn_after_pass"}


def test_roll_prints_a_die_value(capsys):
    seen = set()
    for _ in range(60):
        code, out, _ = run(capsys, "roll", "--json")
        assert code == 0
        seen.add(json.loads(out)["value"])
    assert seen <= {1, 2, 3, 4, 5, 6} and len(seen) >= 4


def test_bench_rules_prints_figures_as_json(capsys):
    code, out, _ = run(
        capsys,
        "bench",
        "rules",
        "--game",
        "aggravation",
        "--seconds",
        "0.2",
        "--no-compare",
        "--json",
    )
    assert code == 0
    result = json.loads(out)["results"][0]
    assert result["game"] == "aggravation" and result["games"] >= 1
    assert result["moves_per_s"] > 0 and result["games_per_s"] > 0
    assert result["mean_moves_per_game"] > 50  # a real game takes many moves


def test_unknown_game_is_a_clear_error(capsys):
    code, _, err = run(capsys, "bench", "rules", "--game", "chess", "--json")
    assert code == 2 and "unknown game 'chess'" in err


def test_help_lists_every_contract_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("games", "demo", "serve", "roll", "print-board", "vision", "bench"):
        assert command in out


def test_roll_url_asks_a_running_appliance(capsys):
    """`boardref roll --url` rolls on the appliance exactly as its button does."""
    from tests.fake_table import FakeTable
    from tests.live_server import start
    from webui import create_app
    from webui.serve import make_server

    table = FakeTable(pin="1234", seed=3, options={"opening": "first-seat"})
    server = make_server(create_app({"SECRET_KEY": "t"}, table=table), port=0, threads=4)
    start(server)
    try:
        url = f"http://127.0.0.1:{server.effective_port}"
        code, out, _ = run(capsys, "roll", "--url", url, "--json")
        assert code == 0
        assert json.loads(out)["moves"] >= 1 and table.rolls_from == ["web"]
        code, _, err = run(capsys, "roll", "--url", "http://127.0.0.1:1")
        assert code == 1 and "cannot reach the appliance" in err
    finally:
        server.close()


def test_vision_dice_reads_real_photos_and_names_bad_files(capsys, tmp_path):
    from pathlib import Path

    photo = sorted((Path(__file__).parent / "data" / "dice").glob("*.jpg"))[0]
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8 not really a jpeg")
    missing = tmp_path / "missing.jpg"
    code, out, err = run(capsys, "vision", "dice", str(photo), str(corrupt), str(missing), "--json")
    assert code == 1  # some files could not be read
    result = json.loads(out)
    dice = result[str(photo)]
    assert dice and all({"value", "x", "y", "w", "h"} <= set(d) for d in dice)
    assert "not an image" in result[str(corrupt)]["error"]
    assert str(missing) in err and str(corrupt) in err


def help_text(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # as read, whatever the line breaks


def test_every_subcommand_describes_itself_and_shows_its_defaults(capsys):
    demo = help_text(capsys, "demo")
    assert "Scripted players play on a simulated table" in demo
    assert "(default: aggravation)" in demo and "(default: 8080)" in demo
    for name in rules.names():  # --game names the games it accepts
        assert name in demo
    dice, read = help_text(capsys, "vision", "dice"), help_text(capsys, "vision", "read")
    assert dice != read
    assert "Read every die" in dice and "--game" not in dice
    assert "whole board" not in dice and "corner markers" in read and "--game" in read
    assert "(default: A3)" in help_text(capsys, "print-board")


def test_a_taken_port_is_one_line_naming_the_port_and_the_option(capsys, tmp_path):
    config = tmp_path / "boardref.toml"
    config.write_text(
        f'[camera]\nsource = "sim"\n[data]\ndatabase = "{tmp_path / "games.sqlite3"}"\n'
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["demo", "--host", "127.0.0.1", "--port", str(port), "--duration", "1"])
        serve = ["serve", "--config", str(config), "--host", "127.0.0.1", "--port", str(port)]
        serve_code = main(serve)
    err = capsys.readouterr().err
    assert code == 2 and serve_code == 2
    lines = [line for line in err.splitlines() if line.startswith("boardref:")]
    assert (
        lines
        == [
            f"boardref: cannot listen on 127.0.0.1:{port} (another program is using it); "
            "choose another with --port"
        ]
        * 2
    )
    assert "Traceback" not in err


def test_output_into_a_closed_pipe_is_no_traceback():
    """`boardref games | head -1`: the reader leaves early; boardref stops without a trace."""
    child = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "games"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[1],
    )
    child.stdout.close()  # nobody reads: the first write meets a broken pipe
    err = child.stderr.read().decode()
    child.wait(timeout=60)
    child.stderr.close()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert child.returncode == 1
