"""The `boardref` command line (the contract in DESIGN.md)."""

from __future__ import annotations

import argparse
import json
import sys

import rules

NOT_YET = "not available in this version yet"


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
                print(
                    f"{result['game']}: {result['games_per_s']} games/s, "
                    f"{result['moves_per_s']} moves/s, {result['turns_per_s']} turns/s, "
                    f"{result['mean_moves_per_game']} moves/game"
                )
            if report.get("ludopy"):
                print(f"ludopy: {report['ludopy']['turns_per_s']} turns/s")
        return 0
    print(f"boardref bench {args.what}: {NOT_YET}", file=sys.stderr)
    return 2


def cmd_roll(args: argparse.Namespace) -> int:
    """A fair die from the operating system's randomness, exactly as the button rolls it."""
    from hardware.dice_rng import roll_die

    value = roll_die()
    print(json.dumps({"value": value}) if args.json else value)
    return 0


def not_yet(args: argparse.Namespace) -> int:
    print(f"boardref {args.command}: {NOT_YET}", file=sys.stderr)
    return 2


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
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.set_defaults(func=cmd_bench)

    roll = sub.add_parser("roll", help="roll the die as the button would")
    roll.add_argument("--json", action="store_true", help='print {"value": N}')
    roll.set_defaults(func=cmd_roll)

    for name, text in (
        ("demo", "whole pipeline on the simulated table, web page up"),
        ("serve", "the appliance: camera, GPIO, web page"),
        ("print-board", "printable board with corner markers"),
        ("vision", "read dice or a whole board from photos"),
    ):
        stub = sub.add_parser(name, help=f"{text} ({NOT_YET})")
        stub.add_argument("rest", nargs=argparse.REMAINDER)
        stub.set_defaults(func=not_yet)
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
