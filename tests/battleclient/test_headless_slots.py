"""`battleclient --headless` refuses a human slot from the slot spec alone, before building."""

import pytest

from battleclient import session
from battleclient.app import main
from battleclient.headless import human_slots


def test_human_slots_reads_the_spec_text():
    assert human_slots("A0=human,*=random") == [0]
    assert human_slots("A*=random,B1-B2=human,B*=scripted:kiter") == [6, 7]
    assert human_slots("*=random") == []
    with pytest.raises(ValueError, match="unknown kind 'warp'"):
        human_slots("A*=warp,B*=random")


def test_a_human_slot_is_refused_before_the_game_is_built(monkeypatch, capsys):
    def never(*args, **kwargs):
        raise AssertionError("the game was built before the slots were checked")

    monkeypatch.setattr(session, "GameSession", never)
    assert main(["--headless", "--slots", "A0=human,*=random", "--map", "47"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("battleclient: --headless plays machine slots only; A0 is human ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--slots", "A9=random"],
         "battleclient: --slots A9=random: bad slots 'A9' (use A0-A4, "
         "B0-B4, a range such as A1-A4, A*, B* or *)"),
        (["--slots", " "], "battleclient: --slots: is empty; e.g. 'A*=human,B*=scripted:kiter'"),
        (["--roster", "MQ"],
         "battleclient: --roster MQ: roster 'MQ': unknown class letter 'Q' "
         "(use one of MWHRP or -)"),
    ],
)  # fmt: skip
def test_a_bad_slots_or_roster_names_its_option(argv, message, monkeypatch, capsys):
    def never(*args, **kwargs):
        raise AssertionError("the game was built before the options were checked")

    monkeypatch.setattr(session, "GameSession", never)
    assert main(["--headless", *argv, "--map", "47"]) == 2
    assert capsys.readouterr().err.strip() == message
