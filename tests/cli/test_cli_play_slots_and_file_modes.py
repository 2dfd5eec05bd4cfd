"""`mbg` as a newcomer meets it: human and llm slots in `mbg play`, replay info/verify
over folders with bad files, and the mode of PNG and metrics files."""

import os
import stat

import pytest

from cli.main import main
from evaluation.replay import write_replay
from fileio import ordinary_temp_file
from policies import slotspec
from tests.helpers.replays import synthetic_replay


@pytest.fixture
def never_plays(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("games were played")

    monkeypatch.setattr("cli.play._play", fail)


@pytest.mark.parametrize("headless", [[], ["--headless"]])
def test_play_refuses_human_slots_in_one_line(capsys, never_plays, headless):
    argv = ["play", "--maps", "47", "--slots", "A0=human,A1-A4=scripted:kiter,B*=random"]
    assert main(argv + headless) == 2
    err = capsys.readouterr().err
    assert err == (
        "mbg play: error: --slots A0=human,A1-A4=scripted:kiter,B*=random (A0): human slots "
        "need a window and mbg play has none (even with "
        '--headless); play them in the BattleClient: battleclient --map 47 --slots "A0=human,'
        'A1-A4=scripted:kiter,B*=random"\n'
    )


def test_llm_is_advertised_and_a_bad_llm_spec_is_one_line(capsys, never_plays):
    assert "llm:CONFIG.json|MODEL@URL" in slotspec.valid_kinds()
    assert main(["play", "--maps", "47", "--slots", "A*=llm:gpt,B*=random"]) == 2
    err = capsys.readouterr().err
    assert "'llm:gpt' is neither llm:CONFIG.json nor llm:MODEL@URL" in err
    assert err.rstrip().endswith("(slots A0, A1, A2, A3, A4)") and len(err.splitlines()) == 1
    with pytest.raises(ValueError) as error:
        slotspec.parse_slots("A*=dragon,B*=random")
    assert "unknown kind 'dragon'" in str(error.value)
    assert "llm:CONFIG.json|MODEL@URL" in str(error.value)


def test_play_usage_names_only_usable_kinds(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "scripted:NAME" in out and "llm:CONFIG.json" in out and "human" in out


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """A folder of two good replays with a broken and a truncated one between them."""
    root = tmp_path_factory.mktemp("mixed")
    write_replay(root / "a_good.mbgr", synthetic_replay(ticks=6, seed=0))
    (root / "b_broken.mbgr").write_bytes(b"nope")
    data = (root / "a_good.mbgr").read_bytes()
    (root / "c_cut.mbgr").write_bytes(data[: len(data) // 2])
    write_replay(root / "d_good.mbgr", synthetic_replay(ticks=6, seed=1))
    return root


def test_replay_info_goes_through_every_file(mixed, capsys):
    code = main(["replay", "info", str(mixed), str(mixed / "absent.mbgr")])
    out, err = capsys.readouterr()
    assert code == 2  # bad input, as every refusal in cli.main
    assert f"== {mixed / 'a_good.mbgr'}" in out and f"== {mixed / 'd_good.mbgr'}" in out
    lines = err.strip().splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(f"mbg replay info: {mixed / 'b_broken.mbgr'}: file: not a replay")
    assert lines[1].startswith(f"mbg replay info: {mixed / 'c_cut.mbgr'}: ")
    assert lines[2] == f"mbg replay info: {mixed / 'absent.mbgr'}: no such file or folder"
    assert lines[3] == "mbg replay info: 3 of 5 could not be read"


def test_replay_verify_goes_through_every_file(mixed, capsys, monkeypatch):
    # Re-simulation itself is tested in tests/evaluation; here, what verify does with each file.
    monkeypatch.setattr(
        "evaluation.replay_verify.verify", lambda r, systems: [] if r.ticks == 6 else ["x"]
    )
    code = main(["replay", "verify", str(mixed)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out.splitlines() == [
        f"{mixed / 'a_good.mbgr'}: ok, header and 6 ticks reproduce; "
        "header.seeds and systems not checked (--systems re-runs them)",
        f"{mixed / 'd_good.mbgr'}: ok, header and 6 ticks reproduce; "
        "header.seeds and systems not checked (--systems re-runs them)",
    ]
    assert [line.split(": ")[1] for line in err.splitlines()[:2]] == [
        str(mixed / "b_broken.mbgr"),
        str(mixed / "c_cut.mbgr"),
    ]
    assert err.splitlines()[2] == "mbg replay verify: 2 of 4 could not be read"


@pytest.mark.parametrize(
    ("files", "code", "summary"),
    [
        (["a_good.mbgr", "d_good.mbgr"], 1, "1 of 2 did not pass"),
        (["a_good.mbgr", "b_broken.mbgr", "d_good.mbgr"], 2,
         "1 of 3 could not be read; 1 of 3 did not pass"),
    ],
)  # fmt: skip
def test_replay_verify_exits_1_for_a_replay_that_differs_and_2_for_one_it_cannot_read(
    mixed, capsys, monkeypatch, files, code, summary
):
    differs = ["tick 3 differs (states.pos)"]
    monkeypatch.setattr(
        "evaluation.replay_verify.verify",
        lambda r, systems: differs if r.header["seeds"]["game"] else [],
    )
    assert main(["replay", "verify", *(str(mixed / f) for f in files)]) == code
    out, err = capsys.readouterr()
    assert f"{mixed / 'd_good.mbgr'}: tick 3 differs (states.pos)" in out.splitlines()
    assert err.splitlines()[-1] == f"mbg replay verify: {summary}"


def test_replay_info_of_good_files_exits_0(mixed, capsys):
    assert main(["replay", "info", "--json", str(mixed / "a_good.mbgr")]) == 0
    assert capsys.readouterr().err == ""


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield 0o640
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_new_files_get_the_usual_mode(tmp_path, capsys, umask_027):
    fd, temp = ordinary_temp_file(tmp_path, ".x.")
    os.close(fd)
    assert mode(temp) == umask_027
    png = tmp_path / "keep.png"
    assert main(["maps", "show", "47", "--png", str(png), "--scale", "4"]) == 0
    assert mode(png) == umask_027
    table = tmp_path / "catalog.csv"
    assert main(["metrics", "--catalog", "--format", "csv", "--out", str(table)]) == 0
    assert mode(table) == umask_027
    os.umask(0o002)
    atlas = tmp_path / "atlas.png"
    assert main(["maps", "atlas", "--maps", "47", "--png", str(atlas)]) == 0
    assert mode(atlas) == 0o664
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [
        os.path.basename(temp)
    ]


def test_replay_info_reads_as_text_for_a_person():
    from cli.replay import readable_facts

    facts = {
        "map": {"id": 12, "name": "Open Arena", "split": "train"},
        "roster": [1, 2, 3, 4, 5, 2, 2, 0, 0, 0],
        "team_sizes": [5, 2],
        "systems": ["scripted:kiter"] * 5 + ["random", "human", "", "", ""],
        "spawn_end": 1,
        "seeds": {"root": 0, "game": 3},
        "outcome": 1,
        "outcome_name": "A wins",
        "score": [20, 10],
        "deaths": [10, 19],
        "ticks": 119,
    }
    assert readable_facts(facts) == {
        "map": "12 Open Arena (train)",
        "roster": "MWHRP / WW---",
        "team_sizes": "5v2",
        "systems": "A: scripted:kiter x5 / B: random, human, -, -, -",
        "spawn_end": "Team A east",
        "seeds": "root 0, game 3",
        "outcome": "A wins (1)",
        "score": "A 20 - B 10",
        "deaths": "A 10, B 19",
        "ticks": 119,
    }


def test_play_warns_when_an_llm_system_never_got_a_legal_reply(capsys, monkeypatch):
    import polars as pl

    # Two 4-tick games of five LLM agents against an endpoint that is down (the figures
    # `mbg play` gave for llm:m@http://127.0.0.1:1/v1), and a team B that plays fine
    rows = [
        dict(game=g, map_id=0, spawn_end=g, outcome=3, winner="draw", ticks=4, score_a=0, score_b=0,
             A_llm_decisions=20, A_llm_calls=0, A_llm_legal_replies=0, A_llm_fallbacks=20,
             B_llm_decisions=20, B_llm_calls=20, B_llm_legal_replies=20, B_llm_fallbacks=0)
        for g in (0, 1)
    ]  # fmt: skip
    monkeypatch.setattr("cli.play._play", lambda *a: (pl.DataFrame(rows), []))
    url = "http://127.0.0.1:1/v1"
    slots = f"A*=llm:m@{url},B*=llm:m@{url}"
    assert main(["play", "--maps", "0", "--slots", slots, "--games", "2", "--json"]) == 0
    err = capsys.readouterr().err
    assert err.count("warning") == 1
    assert (
        "mbg play: warning: team A's LLM agents: no call was answered (is the endpoint up, "
        "and the model name right?); all 40 decisions played the fallback no-op"
    ) in err
