"""`mbg`: the MARL-BattleGrounds command line (maps, play, replay, metrics, scenarios, train,
eval, bench, llm, rate, tournament, crossplay,
study)."""

import argparse
import importlib
import sys

# Each module registers its own subcommands; the list fixes the order of `mbg --help`.
COMMAND_MODULES = (
    "maps",
    "play",
    "replay",
    "metrics",
    "scenarios",
    "train",
    "bench",
    "llm",
    "rate",
    "tournament",
    "crossplay",
    "study",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every subcommand module registered."""
    parser = argparse.ArgumentParser(prog="mbg", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `mbg` console script; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, OSError) as error:  # bad input, or a file or folder that cannot be used
        print(f"mbg {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # files are written whole or not at all, so nothing is left half
        print(f"mbg {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
