"""Every `--seed` option is checked against evaluation.seeds' range before any work."""

import pytest

from cli.main import main


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--maps", "47", "--slots", "*=random", "--seed", "4294967296"],
        ["tournament", "run", "--entrants", "a=random", "b=random", "--seed", "-1",
         "--out", "{out}"],
        ["tournament", "challenge", "--field", "{out}", "--challenger", "c=random", "--seed",
         "2147483648"],
        ["crossplay", "run", "--teams", "a=random", "--opponents", "b=random", "--seed", "-5",
         "--out", "{out}"],
        ["eval", "nothing.msgpack", "--vs", "random", "--seed", "99999999999"],
        ["train", "ippo", "--seed", "-2", "--out", "{out}"],
    ],
)  # fmt: skip
def test_every_seed_option_is_refused_before_any_work(argv, tmp_path, capsys, no_work):
    out = tmp_path / "out"
    assert main([part.format(out=out) for part in argv]) == 2
    err = capsys.readouterr().err
    assert "--seed " in err and "must be 0 to 2147483647" in err
    assert not out.exists()  # no folder, manifest or run was started
