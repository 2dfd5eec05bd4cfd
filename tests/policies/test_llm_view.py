"""The LLM text view (policies/llm_view.py), reply parsing, configs and `mbg llm prompt`.

The view is built from one observer's observation only: what that agent could not see (a hidden
enemy's position or health) never changes its prompt, while what it sees does.
"""

import functools
import json

import jax
import numpy as np
import pytest

import engine
from engine.types import Config
from evaluation.match import initial_state, schedule
from policies import llm_view as V
from policies.llm_config import from_mapping, load_config, parse_spec
from policies.system import to_host

CONFIG = Config(horizon=3)
NO_OP_ONLY = (np.eye(9, dtype=bool)[0], np.eye(11, 2, dtype=bool))
observe = jax.jit(engine.observe, static_argnums=0)  # eager observation costs seconds


@functools.cache
def tick0_state():
    return initial_state(CONFIG, schedule(47, ["MWHRP"], games=1)[0])


def tick0_obs():
    return to_host(observe(CONFIG, tick0_state()))


def _prompt(state, slot=0):
    return V.prompt_text(V.messages(to_host(observe(CONFIG, state)), slot, V.ViewOptions()))


def test_prompt_is_blind_to_what_the_agent_cannot_see():
    state = tick0_state()
    before = _prompt(state)
    assert not np.asarray(state.seen)[:5, 9].any()  # B4 starts hidden from all of Team A
    hidden = state.replace(
        pos=state.pos.at[9].set(np.array([16.0, 4.0], np.float32)),
        health=state.health.at[9].set(11.0),
    )
    assert _prompt(hidden) == before
    assert _prompt(hidden, slot=9) != _prompt(state, slot=9)  # B4's own view did change
    hurt_ally = state.replace(health=state.health.at[1].set(50.0))  # A1 is seen by A0
    assert _prompt(hurt_ally) != before and "health 50/200" in _prompt(hurt_ally)


def test_view_holds_the_own_row_rules_map_choices_and_instruction():
    obs = tick0_obs()
    chat = V.messages(obs, 0, V.ViewOptions())
    assert [m["role"] for m in chat] == ["system", "user"]
    system, user = chat[0]["content"], chat[1]["content"]
    assert "Mage (80 hp, speed 1, sight 6): Basic 13 damage to an enemy within 3" in system
    assert system.count("- pillar") + system.count("- wall") == 13  # map 47's obstacles
    assert "You are ally0 (A0, Mage)." in user
    assert "You: at (1.50, 1.50); health 80/80" in user
    assert "- enemy4 (B4): not in sight (alive)" in user
    assert "Legal moves (id name): 0 Stay, 1 N, 2 S, 3 E, 4 W, 5 NE, 6 NW, 7 SE, 8 SW" in user
    assert '- "target": 0, "ultimate": 1: Burst (no target)' in user  # a Mage may Burst
    assert user.endswith("Do not explain.")
    custom = V.messages(obs, 0, V.ViewOptions(system_prompt="Be bold."))[0]["content"]
    assert custom.startswith("Be bold.\n\nObstacles:")


def test_previous_actions_show_for_the_rows_shown():
    obs = tick0_obs()
    prev = np.array(obs.prev_action)
    prev[0, 1] = [3, 7, 1]  # ally1 (A1) charged enemy1 last tick, seen by A0
    obs = obs.replace(prev_action=prev)
    text = V.view_text(obs, 0)
    assert "- ally1 (A1, Warrior) moved E, Ultimate on enemy1 (B1)" in text
    assert "enemy1 (B1)" in text and "Last tick's actions" in text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ('{"move": 5, "target": 0, "ultimate": 0}', (5, 0, 0)),
        ('{"move": "nw", "target": "none"}', (6, 0, 0)),
        ('<think>E is best</think>\n```json\n{"move": "3", "target": 0, "ultimate": true}\n```',
         (3, 0, 1)),
        ('Sure! {"move": 0, "target": 0, "ultimate": 0} Good luck.', (0, 0, 0)),
    ],
)  # fmt: skip
def test_parse_reply_accepts_ids_names_and_wrapping(text, action):
    pair = np.zeros((11, 2), bool)
    pair[0] = True
    assert V.parse_reply(text, np.ones(9, bool), pair) == action


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("<think>only thoughts", "empty"),
        ("move north", "not a JSON object"),
        ('{"target": 0}', "no 'move' field"),
        ('{"move": 9, "target": 0}', "outside 0-8"),
        ('{"move": "up", "target": 0}', "not an id 0-8 or a name"),
        ('{"move": 1, "target": 0}', "move 1 (N) is not legal"),
        ('{"move": 0, "target": 6, "ultimate": 0}', "target 6 with ultimate 0 is not a legal"),
    ],
)
def test_parse_reply_says_what_was_wrong(text, why):
    with pytest.raises(V.ReplyError, match=why.replace("(", r"\(").replace(")", r"\)")):
        V.parse_reply(text, *NO_OP_ONLY)


def test_team_reply_names_each_bad_entry():
    masks = {0: NO_OP_ONLY, 1: NO_OP_ONLY}
    found, problems = V.parse_team_reply('{"A0": {"move": 0, "target": 0}}', (0, 1), masks)
    assert found == {0: (0, 0, 0)} and problems == {1: "A1: the reply has no entry 'A1'"}


def test_configs_name_file_field_and_value(tmp_path):
    assert parse_spec("qwen3@http://127.0.0.1:8000/v1").model == "qwen3"
    with pytest.raises(ValueError, match="neither llm:CONFIG.json nor llm:MODEL@URL"):
        parse_spec("qwen3")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"model": "m", "base_url": "http://x/v1", "per": "squad"}))
    with pytest.raises(ValueError, match=r"bad.json.*field 'per': 'squad' is not one of"):
        load_config(bad)
    with pytest.raises(ValueError, match="unknown field 'temprature'"):
        from_mapping({"model": "m", "base_url": "http://x", "temprature": 1})
    with pytest.raises(ValueError, match="environment variable"):
        from_mapping({"model": "m", "base_url": "http://x", "api_key": "sk-1"})
    with pytest.raises(ValueError, match="field 'base_url': 'x' is not an http"):
        from_mapping({"model": "m", "base_url": "x"})
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="broken.json.*not valid JSON"):
        load_config(tmp_path / "broken.json")
    prompt = tmp_path / "system.txt"
    prompt.write_text("Custom rules.")
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps({"model": "m", "base_url": "http://x", "system_prompt_file": "system.txt"})
    )
    assert load_config(good).system_prompt() == "Custom rules."


def test_slot_spec_accepts_the_llm_kind():
    from policies.slotspec import parse_slots, resolve_slots

    specs = parse_slots("A0=llm:m@http://127.0.0.1:9/v1,*=random")
    lineup = resolve_slots(specs, np.array([1, 2, 3, 4, 5] * 2))
    assert lineup.owner_of(0).host and lineup.owner_of(0).name == "llm:m@http://127.0.0.1:9/v1"
    with pytest.raises(ValueError, match="slots A0"):
        resolve_slots(parse_slots("A0=llm:nothing,*=random"), np.array([1, 2, 3, 4, 5] * 2))


def test_mbg_llm_prompt_prints_the_prompt_of_a_replayed_tick(tmp_path, capsys):
    from cli.main import main
    from evaluation.record import record_games
    from evaluation.replay import write_replay
    from policies.slotspec import resolve_slots

    setups = schedule(47, ["MWHRP"], games=1)
    _, (replay,) = record_games(resolve_slots("*=random", setups[0].roster), setups, CONFIG)
    path = write_replay(tmp_path / "g.mbgr", replay)
    assert main(["llm", "prompt", "--replay", str(path), "--slot", "B1", "--tick", "2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("### system\n") and "\n### user\nTick 2 (1 left)" in text
    assert "You are ally1 (B1, Warrior)." in text
    assert main(["llm", "prompt", "--map", "47", "--slot", "A0", "--json"]) == 0
    chat = json.loads(capsys.readouterr().out)
    default = Config()  # the command's rules without --replay: 300 ticks
    obs = to_host(observe(default, initial_state(default, setups[0])))
    assert chat == V.messages(obs, 0, V.ViewOptions())
    assert main(["llm", "prompt", "--map", "47", "--slot", "A0", "--tick", "4"]) == 2
    assert "need --replay" in capsys.readouterr().err
    for option, value in (("--map", "12"), ("--roster", "MW/MW"), ("--spawn-end", "1")):
        argv = ["llm", "prompt", "--replay", str(path), "--slot", "B1", option, value]
        assert main(argv) == 2  # the replay's own game: the option would be ignored
        assert f"{option} goes without --replay (a replay has its own)" in capsys.readouterr().err


def test_team_prompt_holds_each_agents_view_and_a_keyed_reply_shape():
    text = V.team_user_text(tick0_obs(), (0, 1), V.ViewOptions())
    assert text.index("## Agent A0\nTick 0") < text.index("## Agent A1\nTick 0")
    assert text.count("Legal moves (id name):") == 2
    assert '{"A0": {"move": ..., "target": ..., "ultimate": ...}, "A1": {' in text
    assert text.endswith("(one entry per agent), using a legal move and one legal combat choice "
                         "from the lists. Do not explain.")  # fmt: skip
