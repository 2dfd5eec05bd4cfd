"""`mbg` reports unusable files and folders in one line, checks `mbg play --out` before playing,
and answers Ctrl-C without a traceback."""

import pytest

from cli.main import main

PLAY = ["play", "--maps", "47", "--slots", "*=random", "--games", "2"]


def test_play_refuses_an_out_that_is_a_file_before_playing(tmp_path, capsys, no_work):
    target = tmp_path / "afile"
    target.write_text("keep me")
    assert main([*PLAY, "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"--out {target}: exists and is not a folder" in err
    assert len(err.strip().splitlines()) == 1
    assert target.read_text() == "keep me"


def test_play_refuses_an_out_inside_a_file_before_playing(tmp_path, capsys, no_work):
    (tmp_path / "afile").write_text("")
    assert main([*PLAY, "--out", str(tmp_path / "afile" / "sub")]) == 2
    assert f"{tmp_path / 'afile'} is a file, not a folder" in capsys.readouterr().err


def test_play_refuses_a_folder_with_replays_before_playing(tmp_path, capsys, no_work):
    (tmp_path / "game0000_map47_Awest.mbgr").write_bytes(b"old")
    assert main([*PLAY, "--out", str(tmp_path)]) == 2
    assert "already holds replays" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--horizon", "--score-threshold"])
def test_play_names_a_rule_option_out_of_range(option, capsys, no_work):
    assert main([*PLAY, option, "0"]) == 2
    field = option[2:].replace("-", "_")
    assert f"{option} 0: Config.{field}: 0 is out of range (allowed: 1 to 16,777,216)" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--maps", "47", "--team-a", "scripted:zz", "--team-b", "random"],
         "--team-a scripted:zz: scripted bot 'zz' does not exist"),
        (["play", "--maps", "47", "--team-a", "random", "--team-b", "scripted:zz"],
         "--team-b scripted:zz: scripted bot 'zz' does not exist"),
        (["play", "--maps", "47", "--team-a", "random", "--team-b", "foo"],
         "--team-b foo: unknown kind 'foo'; valid kinds: checkpoint:PATH[#greedy]"),
        (["play", "--maps", "47", "--team-a", "", "--team-b", "random"],
         "--team-a: is empty; give a System spec such as scripted:tactician"),
        (["play", "--maps", "47", "--slots", "A*=random,B*=checkpoint:none.msgpack"],
         "--slots: none.msgpack: no such policy file"),
        (["eval", "policies/released/ippo_v1.msgpack", "--vs", "scripted:zz", "--games", "2"],
         "--vs scripted:zz: scripted bot 'zz' does not exist"),
    ],
)  # fmt: skip
def test_a_system_that_cannot_be_built_names_its_option(argv, message, capsys, no_work):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "where", "command"),
    [
        (["eval", "policies/released/ippo_v1.msgpack", "--vs", "human", "--games", "2"],
         "--vs human", "mbg eval"),
        (["scenarios", "run", "--systems", "random", "human", "--scenarios", "1", "--games", "1"],
         "--systems human", "mbg scenarios run"),
    ],
)  # fmt: skip
def test_headless_commands_refuse_a_human_before_any_game(argv, where, command, tmp_path, capsys,
                                                         no_work):  # fmt: skip
    out = tmp_path / "out"
    assert main([*argv, "--out", str(out)] if argv[0] == "scenarios" else argv) == 2
    err = capsys.readouterr().err
    assert f"{where}: human slots need a window and {command} has none" in err
    assert not out.exists()


def test_scenarios_run_names_a_bad_later_system_before_the_first_plays(tmp_path, capsys,
                                                                       monkeypatch):  # fmt: skip
    monkeypatch.setattr("evaluation.scenario_run.run_all", lambda *a, **k: 1 / 0)
    out = tmp_path / "out"
    argv = ["scenarios", "run", "--systems", "random", "scripted:zz", "--scenarios", "1"]
    assert main([*argv, "--out", str(out)]) == 2
    assert "--systems scripted:zz: scripted bot 'zz' does not exist" in capsys.readouterr().err
    assert not out.exists()


def test_ctrl_c_ends_with_one_line_and_code_130(monkeypatch, capsys):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("cli.play._play", interrupt)
    assert main(PLAY) == 130
    assert capsys.readouterr().err.strip() == "mbg play: interrupted"


def test_a_folder_named_like_a_replay_is_skipped(tmp_path, capsys):
    (tmp_path / "sub.mbgr").mkdir()
    assert main(["replay", "info", str(tmp_path)]) == 2
    assert "no .mbgr files in this folder" in capsys.readouterr().err


def test_scenarios_run_refuses_no_games_and_leaves_no_folder(tmp_path, capsys):
    out = tmp_path / "scen"
    assert main(["scenarios", "run", "--systems", "random", "--scenarios", "1", "--games", "0",
                 "--out", str(out)]) == 2  # fmt: skip
    assert "--games 0: must be 1 or more" in capsys.readouterr().err
    assert main(["scenarios", "run", "--systems", "random", "--scenarios", "99",
                 "--out", str(out)]) == 2  # fmt: skip
    assert "scenario 99" in capsys.readouterr().err and not out.exists()
    for scenarios, said in (("1,1", "scenario 1 is named twice"), ("1,,2", "an empty entry")):
        assert main(["scenarios", "run", "--systems", "random", "--scenarios", scenarios,
                     "--out", str(out)]) == 2  # fmt: skip
        assert said in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize(
    "option, value, message",
    [("--depth", "0", "--depth 0: must be 1-5"), ("--depth", "-1", "--depth -1: must be 1-5"),
     ("--depth", "6", "--depth 6: must be 1-5"), ("--budget", "0", "--budget 0: must be 1")],
)  # fmt: skip
def test_scenarios_solve_refuses_a_depth_outside_the_horizon(option, value, message, capsys):
    assert main(["scenarios", "solve", "1", option, value]) == 2  # scenario 1: horizon 5
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("action", ["run", "challenge"])
def test_tournament_refuses_an_existing_leaderboard_file_before_any_game(
    action, tmp_path, capsys, no_work
):
    png = tmp_path / "board.png"
    png.write_bytes(b"keep me")
    who = (
        ["--entrants", "r=random", "b=random", "--out", str(tmp_path / "t")]
        if action == "run"
        else ["--field", str(tmp_path / "t"), "--challenger", "c=random"]
    )
    assert main(["tournament", action, *who, "--png", str(png)]) == 2
    assert f"--png {png}: already exists" in capsys.readouterr().err
    assert png.read_bytes() == b"keep me" and not (tmp_path / "t").exists()


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["scenarios", "run", "--systems", "random", "--scenarios", "1", "--out"], "--out"),
        (["train", "ippo", "--steps", "2048", "--out"], "--out"),
        (["replay", "export", "tests/fixtures/replays/v1_real_2v2_no_metrics.mbgr", "--to"],
         "--to"),
        (["tournament", "run", "--entrants", "a=random", "b=random", "--out"], "--out"),
    ],
)  # fmt: skip
def test_an_output_folder_that_is_a_file_is_named_with_its_option(argv, option, tmp_path,
                                                                  capsys, no_work):  # fmt: skip
    target = tmp_path / "afile"
    target.write_text("keep me")
    for where, said in ((target, "exists and is not a folder"),
                        (target / "sub", f"{target} is a file, not a folder")):  # fmt: skip
        assert main([*argv, str(where)]) == 2
        err = capsys.readouterr().err
        assert f"{option} {where}: {said}" in err, err
        assert "Errno" not in err and len(err.strip().splitlines()) == 1
    assert target.read_text() == "keep me"


def test_tournament_names_an_odd_games_per_pair_by_its_option(tmp_path, capsys):
    argv = ["tournament", "run", "--entrants", "a=random", "b=random", "--games-per-pair", "3"]
    assert main([*argv, "--out", str(tmp_path / "season")]) == 2
    assert "--games-per-pair 3: must be an even number, 2 or more" in capsys.readouterr().err
    assert not (tmp_path / "season").exists()


BATTLECLIENT = 'play them in the BattleClient: battleclient --map 47 --slots "'
HUMANS = "human slots need a window and mbg play has none (even with --headless)"


@pytest.mark.parametrize(
    ("who", "message"),
    [
        (["--team-a", "human", "--team-b", "random"],
         f'--team-a human: {HUMANS}; {BATTLECLIENT}A*=human,B*=random"'),
        (["--slots", "A0=human,*=random"],
         f"--slots A0=human,*=random (A0): {HUMANS}; "
         f'{BATTLECLIENT}A0=human,A1-A4=random,B*=random"'),
        (["--slots", "A9=random,*=random"],
         "--slots A9=random,*=random: bad slots 'A9' (use A0-A4, B0-B4, a range such as A1-A4, "
         "A*, B* or *)"),
        (["--slots", "A0"], "--slots A0: item 'A0' is not SLOTS=SPEC"),
        (["--slots", " "], "--slots: is empty; expected e.g. 'A*=scripted:tactician,B*=random'"),
    ],
)  # fmt: skip
def test_play_names_the_slot_option_at_fault(who, message, capsys, no_work):
    assert main(["play", "--maps", "47", *who]) == 2
    assert capsys.readouterr().err == f"mbg play: error: {message}\n"


def test_a_folder_given_as_a_policy_is_called_a_folder(tmp_path, capsys, no_work):
    argv = ["play", "--maps", "47", "--team-a", f"checkpoint:{tmp_path}", "--team-b", "random"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"mbg play: error: --team-a checkpoint:{tmp_path}: {tmp_path}: is a folder, not a policy "
        f"file; name one of its .msgpack files (slot spec checkpoint:{tmp_path})\n"
    )


@pytest.mark.parametrize(
    ("argv", "prog"),
    [
        (["play", "--slots", "A*=random,B*=random", "--bogus", "1"], "mbg play"),
        (["replay", "verify", "x.mbgr", "--nope"], "mbg replay verify"),
    ],
)
def test_an_unknown_option_is_named_with_its_commands_usage(capsys, argv, prog):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {prog} ")  # was `mbg`'s usage, naming no command
    unknown = " ".join(argv[argv.index(next(a for a in argv if a in ("--bogus", "--nope"))) :])
    assert err.endswith(f"{prog}: error: unrecognized arguments: {unknown}\n")
