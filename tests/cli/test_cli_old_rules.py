"""Readers that use a replay's recording without re-simulating it (`mbg metrics`, `mbg replay
info`, `mbg replay export`) name the rules version a replay of other rules was recorded under
and the one this engine runs, as `mbg replay verify` does (evaluation.replay_verify)."""

import io

import polars as pl

from cli.main import main
from engine import constants as C

OLD_RULES = "tests/fixtures/replays/v1_rules1_real_2v2_no_metrics.mbgr"
CURRENT = "tests/fixtures/replays/v1_real_2v2_no_metrics.mbgr"
BOTH = (
    "recorded under rules version 1 (written 'marl-battlegrounds 0.1.0'); "
    f"this engine runs rules version {C.RULES_VERSION}"
)


def test_metrics_of_an_old_rules_replay_name_both_rules_versions(capsys):
    assert main(["metrics", OLD_RULES, CURRENT, "--level", "priority", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert err == (
        f"mbg metrics: warning: {OLD_RULES}: {BOTH}: its metrics are computed from its "
        "recorded states and events, not re-simulated (RULES.md 8 lists the changes)\n"
    )  # one line, for the old replay only
    games = pl.read_csv(io.StringIO(out))["game"].unique().sort().to_list()
    assert games == sorted([OLD_RULES, CURRENT])  # still measured


def test_replay_info_says_the_rules_version_is_not_this_engines(capsys):
    assert main(["replay", "info", OLD_RULES, CURRENT]) == 0
    lines = [line.split(None, 1) for line in capsys.readouterr().out.splitlines()]
    shown = [value for key, value in (line for line in lines if len(line) == 2)
             if key == "rules_version"]  # fmt: skip
    assert shown == [
        "rules version 1 (written 'marl-battlegrounds 0.1.0'); this engine runs rules version "
        f"{C.RULES_VERSION}: facts as recorded; mbg replay verify cannot re-simulate it",
        C.RULES_VERSION,
    ]


def test_a_video_of_an_old_rules_replay_names_both_rules_versions(tmp_path, capsys):
    fast = ["--size", "320x180", "--fps", "4", "--no-animation", "--from", "38"]
    assert main(["replay", "export", OLD_RULES, "--to", str(tmp_path), *fast]) == 0
    err = capsys.readouterr().err
    assert (
        f"mbg replay export: warning: {OLD_RULES}: {BOTH}: the video shows its recorded states, "
        "not re-simulated (RULES.md 8 lists the changes)\n"
    ) in err
    assert [p.suffix for p in tmp_path.iterdir()] == [".gif"]
