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


def _innermost(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)command parser that `argv` names ("mbg replay verify": verify's), so that an
    unknown option is reported with that command's usage, not `mbg`'s."""
    for token in argv:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if actions and token in actions[0].choices:
            parser = actions[0].choices[token]
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `mbg` console script; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # argparse would name them under `mbg`'s usage; exits 2
        _innermost(parser, argv).error(f"unrecognized arguments: {' '.join(unknown)}")
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
