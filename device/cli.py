"""The `boardref` command line (the contract in DESIGN.md)."""

from __future__ import annotations

import argparse
import json
import sys

import rules


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
    if args.what == "vision":
        from .vision_cli import bench

        report = bench(args.frames, args.seed, progress=True)
        print(json.dumps(report, indent=2))
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
    from hardware.printable import write_board_pdf

    game = rules.get(args.game, players=args.players)
    path = write_board_pdf(game.board, args.out, paper=args.paper)
    print(f"boardref: wrote {path} ({game.title}, {args.paper}, true scale)")
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
    )


def cmd_serve(args: argparse.Namespace) -> int:
    """The appliance: camera, GPIO panel and web page, resuming the last game."""
    from .appliance import build, serve
    from .config import ConfigError, load
    from .session_key import SessionKeyError
    from .store import StoreError

    try:
        config = load(args.config)
        appliance = build(config)
    except (ConfigError, StoreError, SessionKeyError) as exc:
        print(f"boardref: {exc}", file=sys.stderr)
        return 2
    referee = appliance.referee
    if referee.resumed:
        print(f"boardref: {referee.resume_text()} (game {referee.game.name})")
    else:
        print(f"boardref: new game of {referee.game.title} for {referee.game.players} players")
    print(f"boardref: table page on http://{config.host}:{config.port}/", flush=True)
    serve(appliance, config.host, config.port, config.threads)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardref", description="A table referee for physical board games."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = sub.add_parser("games", help="list games, variants and house-rule options")
    games.add_argument("--json", action="store_true", help="print as JSON")
    games.set_defaults(func=cmd_games)

    bench = sub.add_parser("bench", help="benchmark figures as JSON on stdout")
    bench.add_argument("what", choices=["rules", "vision", "pipeline"])
    bench.add_argument("--game", help="only this game")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    bench.add_argument("--no-compare", action="store_true", help="skip the ludopy yardstick")
    bench.add_argument("--frames", type=int, default=20, help="vision: frames per board")
    bench.add_argument("--seed", type=int, default=0, help="seed for simulated frames")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.set_defaults(func=cmd_bench)

    roll = sub.add_parser("roll", help="roll the die as the button would")
    roll.add_argument("--json", action="store_true", help='print {"value": N} (or the state)')
    roll.add_argument("--url", help="a running appliance, e.g. http://boardref.local:8080")
    roll.set_defaults(func=cmd_roll)

    demo = sub.add_parser("demo", help="whole pipeline on the simulated table, web page up")
    demo.add_argument("--game", default="aggravation", help="which game (see `boardref games`)")
    demo.add_argument("--players", type=int, default=None, help="number of players")
    demo.add_argument("--host", default="127.0.0.1", help="address to serve the page on")
    demo.add_argument("--port", type=int, default=8080, help="web port (0: no web page)")
    demo.add_argument("--duration", type=float, default=0.0, help="stop after N s (0: never)")
    demo.add_argument("--pace", type=float, default=1.0, help="seconds per player action")
    demo.add_argument("--seed", type=int, default=0, help="seed of the scripted players")
    demo.add_argument("--json", action="store_true", help="print a JSON summary at the end")
    demo.set_defaults(func=cmd_demo)

    serve = sub.add_parser("serve", help="the appliance: camera, GPIO, web page")
    serve.add_argument("--config", default=None, help="TOML config file (default: defaults)")
    serve.set_defaults(func=cmd_serve)

    printer = sub.add_parser("print-board", help="printable board with corner markers (PDF)")
    printer.add_argument("--game", required=True, help="which game")
    printer.add_argument("--players", type=int, default=None, help="board for N players")
    printer.add_argument("--paper", choices=["A3", "A4"], default="A3", help="paper size")
    printer.add_argument("--out", required=True, help="PDF file to write")
    printer.set_defaults(func=cmd_print_board)

    vision = sub.add_parser("vision", help="read dice or a whole board from photos")
    vision.add_argument("action", choices=["dice", "read"])
    vision.add_argument("images", nargs="+", help="image files")
    vision.add_argument("--game", default="aggravation", help="read: which game's board")
    vision.add_argument("--players", type=int, default=None, help="read: players")
    vision.add_argument("--json", action="store_true", help="compact JSON")
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


if __name__ == "__main__":
    sys.exit(main())
