"""The `boardref` command line (the contract in DESIGN.md)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import socket
import sys

import rules

from .network import PortInUse


def cmd_games(args: argparse.Namespace) -> int:
    """List games, their player counts, options (house rules) and clause counts."""
    catalogue = []
    for name in rules.names():
        cls = rules.game_class(name)
        game = cls(cls.default_players)
        catalogue.append(
            {
                "name": name,
                "title": cls.title,
                "players": list(cls.player_counts),
                "options": [o.to_json() for o in cls.option_specs],
                "clauses": len(cls.clause_list),
                "interpretations": sum(c.interpretation for c in cls.clause_list),
                "colours": list(game.colours),
            }
        )
    if args.json:
        print(json.dumps(catalogue, indent=2))
        return 0
    for entry in catalogue:
        players = "/".join(str(n) for n in entry["players"])
        print(
            f"{entry['name']:<20} {entry['title']} ({players} players, "
            f"{entry['clauses']} rule clauses)"
        )
        for option in entry["options"]:
            choices = ", ".join(repr(c) for c in option["choices"])
            print(f"    --option {option['name']}={option['default']!r}  [{choices}]")
            print(f"        {option['help']}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.what == "rules":
        from .bench_rules import run

        names = [args.game] if args.game else rules.names()
        for name in names:
            rules.game_class(name)  # fail early with a clear message for a bad name
        report = run(names, args.seconds, compare=not args.no_compare)
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            for result in report["results"]:
                ratio = result.get("playout_rate_vs_ludopy")
                print(
                    f"{result['game']}: {result['games_per_s']} games/s, "
                    f"{result['moves_per_s']} moves/s, {result['turns_per_s']} turns/s, "
                    f"{result['mean_moves_per_game']} moves/game; playouts "
                    f"{result['playout']['moves_per_s']} moves/s"
                    + (f", {ratio}x ludopy" if ratio is not None else "")
                )
        return 0
    if args.what == "coach":
        from .bench_coach import run as run_coach

        names = [args.game] if args.game else rules.names()
        for name in names:
            rules.game_class(name)  # fail early with a clear message for a bad name
        print(json.dumps(run_coach(names), indent=2))
        return 0
    if args.what == "vision":
        from .vision_cli import BENCH_PARTS, OPT_IN_PARTS, bench, stress

        if args.twin:
            from .bench_twin import DEFAULT_SETS
            from .bench_twin import run as run_twin

            sets = tuple(args.sets.split(",")) if args.sets else DEFAULT_SETS
            games = (args.game,) if args.game else None
            report = run_twin(args.frames, args.seed, sets, games, args.save)
        elif args.stress:
            report = stress(args.frames, args.seed, progress=True)
        else:
            parts = tuple(args.parts.split(",")) if args.parts else BENCH_PARTS
            unknown = sorted(set(parts) - set(BENCH_PARTS) - set(OPT_IN_PARTS))
            if unknown:
                print(f"boardref bench vision: unknown --parts {unknown}", file=sys.stderr)
                return 2
            report = bench(
                args.frames, args.seed, progress=True, parts=parts, game=args.game,
                repeats=args.repeats, detail_scale=args.detail_scale,
            )  # fmt: skip
        print(json.dumps(report, indent=2))
        return 0
    if args.what == "reliability":
        from .bench_reliability import run as run_reliability

        print(json.dumps(run_reliability(args.kills, args.requests, args.seed), indent=2))
        return 0
    from .bench_pipeline import run as run_pipeline

    report = run_pipeline(args.game or "aggravation", args.seconds, args.seed)
    print(json.dumps(report, indent=2))
    return 0


def cmd_vision(args: argparse.Namespace) -> int:
    from .vision_cli import dice, read_board

    if args.action == "dice":
        out, failures = dice(args.images)
        print(json.dumps(out, indent=None if args.json else 2))
        return 1 if failures else 0
    if len(args.images) != 1:
        print("boardref vision read: give exactly one image", file=sys.stderr)
        return 2
    try:
        result = read_board(args.game, args.images[0], args.players)
    except ValueError as exc:
        print(f"boardref vision read: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=None if args.json else 2))
    return 0


def cmd_print_board(args: argparse.Namespace) -> int:
    from hardware.printable import layout_for, write_board_pdf

    game = rules.get(args.game, players=args.players)
    path = write_board_pdf(game.board, args.out, paper=args.paper, labels=args.labels)
    layout = layout_for(game.board, args.paper)
    print(f"boardref: wrote {path}: {layout.describe(game.title, args.paper)}")
    return 0


def cmd_roll(args: argparse.Namespace) -> int:
    """A fair die from the operating system's randomness, exactly as the button rolls it;
    with --url, the running appliance rolls for the table (as its button does)."""
    if args.url:
        from .remote import RemoteError, roll

        try:
            state = roll(args.url)
        except RemoteError as exc:
            print(f"boardref roll: {exc}", file=sys.stderr)
            return 1
        ruling = state.get("ruling") or {}
        print(json.dumps(state) if args.json else ruling.get("text", state.get("dice")))
        return 0
    from hardware.dice_rng import roll_die

    value = roll_die()
    print(json.dumps({"value": value}) if args.json else value)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """The whole pipeline on the simulated table with scripted players; the page stays up."""
    from .demo import run_demo

    return run_demo(
        game=args.game,
        players=args.players,
        host=args.host,
        port=args.port,
        duration=args.duration,
        pace=args.pace,
        seed=args.seed,
        json_summary=args.json,
        camera_moves=args.moves,
        voice=args.voice,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    """The appliance: camera, GPIO panel and web page, resuming the last game."""
    from .appliance import build, serve
    from .config import ConfigError, load
    from .network import MDNS_NAME, page_addresses, tell_addresses
    from .session_key import SessionKeyError
    from .store import StoreError

    try:
        config = load(args.config)
        if args.host is not None or args.port is not None:
            config = dataclasses.replace(
                config,
                host=config.host if args.host is None else args.host,
                port=config.port if args.port is None else args.port,
            )
        appliance = build(config)
    except (ConfigError, StoreError, SessionKeyError) as exc:
        print(f"boardref: {exc}", file=sys.stderr)
        return 2
    referee = appliance.referee
    if referee.resumed:
        print(f"boardref: {referee.resume_text()} (game {referee.game.name})")
    else:
        print(f"boardref: new game of {referee.game.title} for {referee.game.players} players")

    def ready() -> None:
        tell_addresses(
            page_addresses(config.host, config.port),
            qr=sys.stdout.isatty(),  # a terminal (not the service's journal): a QR code too
            out=sys.stdout,
            prefix="boardref",
        )
        if socket.gethostname() + ".local" == MDNS_NAME:
            port = "" if config.port == 80 else f":{config.port}"
            print(f"boardref: or by name: http://{MDNS_NAME}{port}/")
        sys.stdout.flush()

    serve(appliance, config.host, config.port, config.threads, ready=ready)
    return 0


GAME_NAMES = ", ".join(rules.names())


class _ShowDefaults(argparse.HelpFormatter):
    """Help that names each option's default, unless it has none or the help already says."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        unset = action.default is None or action.default is False  # (0 is a real default)
        if not unset and action.default is not argparse.SUPPRESS and "default" not in text:
            text += " (default: %(default)s)"
        return text


def _sub(sub, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    """A subcommand whose --help shows a description and every option's default."""
    return sub.add_parser(
        name, help=summary, description=description, formatter_class=_ShowDefaults
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardref",
        description="A table referee for physical board games. "
        "`boardref COMMAND --help` describes each command.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = _sub(
        sub,
        "games",
        "list games, variants and house-rule options",
        "List every game the referee knows: player counts, rule clauses and the house-rule "
        "options with their defaults and choices.",
    )
    games.add_argument("--json", action="store_true", help="print as JSON")
    games.set_defaults(func=cmd_games)

    bench = _sub(
        sub,
        "bench",
        "benchmark figures as JSON on stdout",
        "Measure speed and accuracy; figures as JSON on stdout, progress on stderr. rules: "
        "random playouts per game; vision: simulated frames and dice photos; pipeline: the "
        "appliance's loop on the simulated table.",
    )
    bench.add_argument(
        "what",
        choices=["rules", "vision", "pipeline", "coach", "reliability"],
        help="what to measure",
    )
    bench.add_argument("--game", help=f"only this game ({GAME_NAMES})")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    bench.add_argument("--no-compare", action="store_true", help="skip the ludopy yardstick")
    bench.add_argument("--frames", type=int, default=20, help="vision: frames per board")
    bench.add_argument("--seed", type=int, default=0, help="seed for simulated frames")
    bench.add_argument(
        "--stress", action="store_true",
        help="vision: the board reader on photo-like frames, condition by condition",
    )  # fmt: skip
    bench.add_argument(
        "--twin", action="store_true",
        help="vision: the board reader on the independent photo-like table "
        "(hardware.phototwin), each photo read alone as `vision read` does",
    )  # fmt: skip
    bench.add_argument(
        "--sets", default=None,
        help="vision --twin: comma-separated condition sets (default: plain, each condition "
        "alone, issue14 and all; on request: start, issue14_glare)",
    )  # fmt: skip
    bench.add_argument("--save", default=None, help="vision --twin: save a missed photo of each "
                       "kind (photo, truth, reading) in this folder")  # fmt: skip
    bench.add_argument(
        "--parts", default=None,
        help="vision: comma-separated parts to run (simulated, simulated_dice, "
        "demo_world_dice, drawn_dice_sweep, real_dice; default: all; and on request "
        "twin_dice: real dice in the photo-like twin's trays)",
    )  # fmt: skip
    bench.add_argument(
        "--repeats", type=int, default=1,
        help="vision simulated, simulated_dice: time every read this many times, keep the fastest",
    )  # fmt: skip
    bench.add_argument(
        "--detail-scale", type=float, default=None,
        help="vision simulated_dice, twin_dice: full-resolution pixels per frame pixel "
        "(default: the Camera Module 3's, 4608 across the frame's field; 2 was the old model)",
    )  # fmt: skip
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument("--kills", type=int, default=10, help="reliability: kill -9s to survive")
    bench.add_argument(
        "--requests", type=int, default=400, help="reliability: malformed requests to send"
    )
    bench.set_defaults(func=cmd_bench)

    roll = _sub(
        sub,
        "roll",
        "roll the die as the button would",
        "Roll a fair die from the operating system's randomness, exactly as the table's button "
        "does. With --url, the running appliance rolls for the table.",
    )
    roll.add_argument("--json", action="store_true", help='print {"value": N} (or the state)')
    roll.add_argument("--url", help="a running appliance, e.g. http://boardref.local:8080")
    roll.set_defaults(func=cmd_roll)

    demo = _sub(
        sub,
        "demo",
        "whole pipeline on the simulated table, web page up",
        "Scripted players play on a simulated table; the simulated camera, the readers and "
        "the referee run as on the Pi. Open the printed address in a browser, or scan the QR "
        "code with a phone on the same network. Each ruling is printed as it happens; Ctrl-C "
        "stops and prints a summary.",
    )
    demo.add_argument("--game", default="aggravation", help=f"which game: {GAME_NAMES}")
    demo.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of players (default: the game's usual number)",
    )
    demo.add_argument(
        "--host",
        default="0.0.0.0",
        help="address to listen on (0.0.0.0: "
        "phones on the network can open the page; 127.0.0.1: this computer only)",
    )
    demo.add_argument("--port", type=int, default=8080, help="web port (0: no web page)")
    demo.add_argument("--voice", action="store_true", help="speak the rulings (espeak-ng from apt)")
    demo.add_argument("--duration", type=float, default=0.0, help="stop after N s (0: never)")
    demo.add_argument("--pace", type=float, default=1.0, help="seconds per player action")
    demo.add_argument("--seed", type=int, default=0, help="seed of the scripted players")
    demo.add_argument(
        "--json",
        action="store_true",
        help="print a JSON summary at the end (the rulings then go to stderr)",
    )
    demo.add_argument(
        "--moves",
        type=int,
        default=0,
        help="stop once N moves were ruled from camera frames (the players wait for the camera "
        "up to a minute a move; --duration still bounds the run)",
    )
    demo.set_defaults(func=cmd_demo)

    serve = _sub(
        sub,
        "serve",
        "the appliance: camera, GPIO, web page",
        "Run the referee: camera, GPIO panel and the table's web page, resuming the last "
        "game. Listens on the network so the phones at the table can open the page.",
    )
    serve.add_argument(
        "--config",
        default=None,
        help="TOML config file (default: built-in settings; see docs/configuration.md)",
    )
    serve.add_argument(
        "--host",
        default=None,
        help="address to listen on (overrides the config's web.host, 0.0.0.0 by default)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=None,
        help="web port (overrides the config's web.port, 8080 by default)",
    )
    serve.set_defaults(func=cmd_serve)

    printer = _sub(
        sub,
        "print-board",
        "printable board with corner markers (PDF)",
        "Write a game's board as a PDF at true scale, with its ArUco corner markers and a "
        "100 mm scale bar. A board larger than the paper is tiled over several sheets with "
        "overlap and crop marks.",
    )
    printer.add_argument("--game", required=True, help=f"which game: {GAME_NAMES}")
    printer.add_argument(
        "--players",
        type=int,
        default=None,
        help="board for N players (default: the game's usual number)",
    )
    printer.add_argument("--paper", choices=["A3", "A4"], default="A3", help="paper size")
    printer.add_argument("--out", required=True, help="PDF file to write")
    printer.add_argument(
        "--labels",
        action="store_true",
        help="print each space's id small "
        "beside it (the ids in the referee's texts and the page's labels)",
    )
    printer.set_defaults(func=cmd_print_board)

    vision = _sub(
        sub,
        "vision",
        "read dice or a whole board from photos",
        "Run the camera readers on photos: `vision dice` reads dice, `vision read` reads a "
        "whole board. `boardref vision dice --help` and `boardref vision read --help` say more.",
    )
    readers = vision.add_subparsers(dest="action", required=True, metavar="READER")
    dice = _sub(
        readers,
        "dice",
        "dice values and boxes per image",
        "Read every die in each photo: its value and its box in pixels, as JSON per image "
        "(a file that cannot be read is named, and the others are still read).",
    )
    dice.add_argument("images", nargs="+", metavar="IMAGE", help="photo files")
    dice.add_argument("--json", action="store_true", help="compact JSON")
    read = _sub(
        readers,
        "read",
        "per-space colours + dice for one photo",
        "Find a game's board in one photo by its corner markers and read every space (empty "
        "or a token's colour) and the dice in the tray, as JSON.",
    )
    read.add_argument("images", nargs=1, metavar="IMAGE", help="one photo of the board")
    read.add_argument("--game", default="aggravation", help=f"which game's board: {GAME_NAMES}")
    read.add_argument(
        "--players", type=int, default=None, help="players (default: the game's usual number)"
    )
    read.add_argument("--json", action="store_true", help="compact JSON")
    vision.set_defaults(func=cmd_vision)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except rules.RulesError as exc:
        print(f"boardref: {exc}", file=sys.stderr)
        return 2
    except PortInUse as exc:
        print(f"boardref: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`boardref vision dice *.jpg | head`): stop quietly. Point
        # stdout at /dev/null so the interpreter's last flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
