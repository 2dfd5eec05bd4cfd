"""Slot specs: grammar, errors that list the valid kinds, and the kind registry."""

import numpy as np
import pytest

from policies import slotspec
from policies.slotspec import parse_slots, register_kind, resolve_slots, slot_name, team_spec
from policies.system import as_system


def test_issue_example_assigns_every_slot():
    specs = parse_slots("A0=human,A1-A4=scripted:tactician,B*=checkpoint:path/to/file")
    assert specs == ("human",) + ("scripted:tactician",) * 4 + ("checkpoint:path/to/file",) * 5


def test_short_ranges_whole_map_and_spaces():
    assert parse_slots("* = random") == ("random",) * 10
    specs = parse_slots("A1-3=random, B4=scripted:kiter")
    assert specs[1:4] == ("random",) * 3 and specs[9] == "scripted:kiter"
    assert specs[0] == specs[4] == specs[5] == ""


def test_spec_argument_may_contain_commas():
    specs = parse_slots("A*=checkpoint:runs/a,b=1.msgpack,B*=random")
    assert specs[:5] == ("checkpoint:runs/a,b=1.msgpack",) * 5
    assert specs[5:] == ("random",) * 5


def test_team_spec():
    assert parse_slots(team_spec("random", "scripted:brawler"))[5] == "scripted:brawler"


def test_wildcards_fill_only_the_slots_still_unassigned():
    assert parse_slots("A0=human,*=random") == ("human",) + ("random",) * 9
    specs = parse_slots("B2=scripted:kiter,B*=random,A1-A4=human,A*=scripted:brawler")
    assert specs == ("scripted:brawler",) + ("human",) * 4 + ("random",) * 2 + (
        "scripted:kiter",
        "random",
        "random",
    )
    assert parse_slots("A*=human,*=random") == ("human",) * 5 + ("random",) * 5


@pytest.mark.parametrize(
    "text, words",
    [
        ("A0=dragon", ["unknown kind 'dragon'", "random", "scripted:NAME", "checkpoint:PATH"]),
        ("C0=random", ["bad slots 'C0'"]),
        ("A5=random", ["bad slots 'A5'"]),
        ("A3-1=random", ["empty range"]),
        ("A1-B2=random", ["bad slots"]),
        ("A*=random,A2=random", ["slot A2 is assigned twice"]),
        ("A0=human,A0-A2=random,*=random", ["slot A0 is assigned twice"]),
        ("A*=human,A*=random", ["A*=random fills no slot"]),
        ("A1-A4=human,A0=random,*=random,B*=random", ["B*=random fills no slot"]),
        ("A0", ["is not SLOTS=SPEC"]),
        ("", ["slot spec is empty"]),
    ],
)
def test_bad_specs_name_the_problem(text, words):
    with pytest.raises(ValueError) as error:
        parse_slots(text)
    for word in words:
        assert word in str(error.value)


def test_unknown_kind_lists_the_scripted_bots():
    with pytest.raises(ValueError, match=r"scripted:NAME \(brawler, kiter, tactician\)"):
        parse_slots("B*=nope")


def test_unknown_bot_name_lists_the_bots():
    with pytest.raises(ValueError, match="choose one of brawler, kiter, tactician"):
        resolve_slots("*=scripted:wizard")


def test_random_takes_no_argument():
    with pytest.raises(ValueError, match="takes no argument"):
        resolve_slots("*=random:3")


def test_slot_names():
    assert [slot_name(s) for s in (0, 4, 5, 9)] == ["A0", "A4", "B0", "B4"]


def test_same_spec_shares_one_system_and_factory_gets_its_slots():
    calls = []

    def factory(arg, slots):
        calls.append((arg, slots))
        return as_system(lambda o, m, c, k: (None, c), host=True, name=f"probe:{arg}")

    register_kind("probe", factory, "probe:ARG")
    try:
        lineup = resolve_slots("A0=probe:x,A1-A4=random,B0=probe:x,B1-B4=probe:y")
        assert calls == [("x", (0, 5)), ("y", (6, 7, 8, 9))]
        assert len(lineup.systems) == 3
        assert lineup.owners.sum(axis=1).tolist() == [2, 4, 4]
        assert lineup.owner_of(5) is lineup.owner_of(0)
        assert not lineup.all_jax
        assert "probe:ARG" in ", ".join(slotspec.valid_kinds())
    finally:
        slotspec._REGISTRY.pop("probe")
        slotspec.USAGE.pop("probe")


def test_roster_drops_empty_slots_and_requires_active_ones():
    roster = np.array([1, 2, 0, 0, 0, 3, 0, 0, 0, 0])
    lineup = resolve_slots("*=random", roster)
    assert lineup.specs == ("random", "random", "", "", "", "random", "", "", "", "")
    with pytest.raises(ValueError, match="active slots B0 have no System"):
        resolve_slots("A*=random", roster)


def test_provided_kind_without_module_says_so(monkeypatch):
    monkeypatch.setitem(slotspec.PROVIDERS, "human", "policies.no_such_module_for_tests")
    monkeypatch.delitem(slotspec._REGISTRY, "human", raising=False)
    with pytest.raises(ValueError, match="the human kind is not available in this version"):
        resolve_slots("*=human")
    assert not any(kind.startswith("human") for kind in slotspec.valid_kinds())


def test_equal_specs_give_equal_lineups():
    # Systems are cached per spec, so a match compiled for one lineup serves the other.
    one = resolve_slots("A*=scripted:kiter,B*=random")
    two = resolve_slots("A*=scripted:kiter,B*=random")
    assert one == two and hash(one) == hash(two)
    assert one != resolve_slots("A*=random,B*=scripted:kiter")


@pytest.mark.parametrize(
    "text, message",
    [
        ("A0=random,A9=random", "'A9' is not a slot; slots are A0-A4 and B0-B4"),
        ("A0=random,C1=scripted:kiter", "'C1' is not a slot"),
        ("A0=random;B*=random", "separate items with ',' (not ';')"),
    ],
)
def test_a_mistyped_item_is_named_not_read_as_a_kind(text, message):
    with pytest.raises(ValueError) as error:
        parse_slots(text)
    assert message in str(error.value)
    assert "unknown kind" not in str(error.value)


def test_a_mistyped_slot_after_a_bot_is_named_too():
    with pytest.raises(ValueError, match="'B9' is not a slot"):
        parse_slots("A*=scripted:brawler,B9=random")


@pytest.mark.parametrize("spec", ["", "  "])
def test_an_empty_system_is_named_as_empty(spec):
    from policies.slotspec import check_system

    with pytest.raises(ValueError, match=r"^--systems: empty; give a System such as "):
        check_system(spec, f"--systems {spec}")
