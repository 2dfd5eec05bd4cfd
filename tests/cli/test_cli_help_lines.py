"""`mbg --help` names every action of a command group (the scenarios line lacked validate)."""

import argparse

import pytest

from cli.main import build_parser, main


def _actions(parser: argparse.ArgumentParser, command: str) -> list[str]:
    group = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub = group.choices[command]
    inner = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction))
    return list(inner.choices)


def test_top_level_help_names_every_scenarios_action(capsys):
    actions = _actions(build_parser(), "scenarios")
    assert actions == ["list", "validate", "verify", "solve", "run"]
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the line
    assert "scenarios endgame scenarios: list, validate, verify, solve, run" in out
