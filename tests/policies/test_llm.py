"""The llm System against the loopback Chat Completions test server (tests/helpers/chat_server).

Every scripted reply gives its documented behaviour (policies/llm.py): legal replies play, an
illegal or malformed reply gets one corrective re-prompt then the no-op fallback with its reason
in the replay, 429 and 5xx are retried with backoff, a server that never answers costs the
decision budget and no more. All games use one short Config so the engine step compiles once.
"""

import json
import threading
import time

import numpy as np
import pytest

from engine.types import Config
from evaluation.match import play_match, schedule
from evaluation.record import record_games, verify_replay
from evaluation.replay import read_replay, write_replay
from policies.slotspec import resolve_slots
from tests.helpers.chat_server import ChatServer

CONFIG = Config(horizon=3)
TICKS = 3
TEAM_A = slice(0, 5)


@pytest.fixture(scope="module")
def server():
    with ChatServer(slow_s=30.0) as running:
        yield running


def _config_file(tmp_path, server, model, **fields):
    values = {"model": model, "base_url": server.url, "backoff_s": 0.01, **fields}
    path = tmp_path / f"{model}.json"
    path.write_text(json.dumps(values))
    return path


def _play(spec_a: str, games: int = 1, **kwargs):
    setups = schedule(47, ["MWHRP"], games=games)
    lineup = resolve_slots(f"A*={spec_a},B*=random", setups[0].roster)
    results, replays = record_games(lineup, setups, CONFIG, **kwargs)
    return results.to_dicts(), replays


def _overlap(requests) -> int:
    """The most requests in flight at one moment."""
    edges = sorted([(r["start"], 1) for r in requests] + [(r["end"], -1) for r in requests])
    level = best = 0
    for _, step in edges:
        level += step
        best = max(best, level)
    return best


def test_legal_replies_play_and_are_counted(server):
    rows, replays = _play(f"llm:legal@{server.url}")
    row, replay = rows[0], replays[0]
    decisions = 5 * TICKS  # five agents, each with choices every tick (nobody dies in 3 ticks)
    assert row["llm_decisions"] == decisions and row["llm_calls"] == decisions
    assert row["llm_legal_rate"] == 1.0 and row["llm_fallbacks"] == 0 and row["llm_retries"] == 0
    assert row["llm_tokens_in"] > 0 and row["llm_tokens_out"] > 0
    assert 0 < row["llm_latency_p50_s"] <= row["llm_latency_p90_s"] <= row["llm_latency_p99_s"]
    # the server answers the last legal move listed: SW (8) at tick 0, when all nine are legal
    assert replay.events["accepted"][0, TEAM_A, 0].tolist() == [8] * 5
    assert not replay.events["fallback"].any()
    assert replay.decisions == []  # nothing failed and prompts are not kept by default


@pytest.mark.parametrize(
    ("model", "reason"),
    [
        ("illegal", "target 10 with ultimate 1 is not a legal combat choice"),
        ("malformed", "not a JSON object"),
        ("empty", "the reply was empty"),
    ],
)
def test_bad_replies_get_one_reprompt_then_the_recorded_fallback(server, model, reason):
    rows, replays = _play(f"llm:{model}@{server.url}")
    row, replay = rows[0], replays[0]
    decisions = 5 * TICKS
    assert row["llm_calls"] == 2 * decisions and row["llm_reprompts"] == decisions
    assert row["llm_fallbacks"] == decisions and row["llm_legal_rate"] == 0.0
    assert replay.events["fallback"][:, TEAM_A].all() and not replay.events["fallback"][:, 5:].any()
    assert (replay.events["submitted"][:, TEAM_A] == 0).all()  # the no-op, RULES 3.5
    assert len(replay.decisions) == decisions
    assert {d["status"] for d in replay.decisions} == {"fallback"}
    assert all(reason in d["reason"] for d in replay.decisions)
    corrective = [r for r in server.requests if r["model"] == model and r["messages"] == 4]
    assert corrective and "could not be used" in corrective[-1]["body"]["messages"][-1]["content"]


def test_an_illegal_reply_corrected_on_the_reprompt_plays(server):
    row = _play(f"llm:illegal-then-legal@{server.url}")[0][0]
    assert row["llm_reprompts"] == 5 * TICKS and row["llm_fallbacks"] == 0
    assert row["llm_legal_rate"] == 0.5  # one illegal and one legal reply a decision


def test_429_is_retried_and_500_forever_falls_back(server, tmp_path):
    row = _play(f"llm:{_config_file(tmp_path, server, '429-then-legal')}")[0][0]
    assert row["llm_retries"] == 5 * TICKS and row["llm_fallbacks"] == 0
    rows, replays = _play(f"llm:{_config_file(tmp_path, server, '500', max_retries=2)}")
    assert rows[0]["llm_retries"] == 2 * 5 * TICKS and rows[0]["llm_calls"] == 0
    assert rows[0]["llm_fallbacks"] == 5 * TICKS
    assert rows[0]["llm_legal_rate"] is None and rows[0]["llm_latency_p50_s"] is None  # not NaN
    assert all("HTTP 500" in d["reason"] for d in replays[0].decisions)


def test_an_endpoint_that_never_answers_ends_the_game_on_time(server, tmp_path):
    spec = _config_file(tmp_path, server, "slow", decision_budget_s=0.4, timeout_s=5)
    start = time.monotonic()
    rows, replays = _play(f"llm:{spec}")
    took = time.monotonic() - start
    assert rows[0]["ticks"] == TICKS and rows[0]["llm_fallbacks"] == 5 * TICKS
    assert took < TICKS * (0.4 + 1.0) + 5.0  # the budget plus its 1 s spare a tick, plus stepping
    assert all("within the budget" in d["reason"] for d in replays[0].decisions)


def test_calls_overlap_across_agents_and_games(tmp_path):
    with ChatServer(slow_s=0.5) as slow:
        start = time.monotonic()
        _play(f"llm:slow@{slow.url}", games=2, host_workers=2)
        took = time.monotonic() - start
        assert len(slow.requests) == 2 * 5 * TICKS
        assert _overlap(slow.requests) == 10  # five agents in each of two games at once
    assert took < 2 * 5 * TICKS * 0.5 / 4  # serial calls would take 15 s


def test_the_key_appears_in_no_output(server, tmp_path, monkeypatch, capsys):
    from cli.main import main

    key = "sk-test-SECRET-0123456789"
    monkeypatch.setenv("MBG_TEST_KEY", key)
    spec = _config_file(tmp_path, server, "echo-key", api_key_env="MBG_TEST_KEY")
    out = tmp_path / "games"
    code = main(
        ["play", "--maps", "47", "--slots", f"A*=llm:{spec},B*=random", "--games", "1",
         "--horizon", str(TICKS), "--out", str(out), "--json"]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr()
    assert any(r["auth"] == f"Bearer {key}" for r in server.requests)  # it was sent...
    assert key not in printed.out + printed.err  # ...and never shown
    (path,) = out.glob("*.mbgr")
    assert key.encode() not in path.read_bytes()
    decisions = read_replay(path).decisions
    assert decisions and all("HTTP 401" in d["reason"] and "***" in d["reason"] for d in decisions)
    assert json.loads(printed.out)["results"][0]["llm_fallbacks"] == 5 * TICKS


def test_per_team_history_thinking_and_kept_prompts(server, tmp_path):
    team = _config_file(tmp_path, server, "legal", per="team")
    row = _play(f"llm:{team}")[0][0]
    assert row["llm_calls"] == TICKS and row["llm_decisions"] == 5 * TICKS
    assert row["llm_fallbacks"] == 0
    kept = _config_file(
        tmp_path, server, "legal", history=2, thinking=True, record_prompts=True, per="agent"
    )
    first = len(server.requests)
    _, replays = _play(f"llm:{kept}")
    asked = [r for r in server.requests[first:] if r["auth"]]
    assert sorted({r["messages"] for r in asked}) == [2, 4, 6]  # system + 0, 1, 2 past turns + now
    body = asked[-1]["body"]
    assert body["chat_template_kwargs"] == {"enable_thinking": True}
    assert "Think step by step" in body["messages"][-1]["content"]
    records = replays[0].decisions
    assert len(records) == 5 * TICKS and all(r["status"] == "ok" and r["reply"] for r in records)
    assert records[0]["prompt"][0]["role"] == "system"


def test_decisions_survive_the_replay_file(server, tmp_path):
    _, replays = _play(f"llm:illegal@{server.url}")
    path = write_replay(tmp_path / "g.mbgr", replays[0])
    again = read_replay(path)
    assert again.decisions == replays[0].decisions
    assert verify_replay(again) is None  # the fallbacks' no-ops re-simulate exactly
    assert again.decisions[0]["tick"] == 0 and again.decisions[0]["slot"] == 0


def test_cancel_stops_waiting_at_once(server):
    from policies import llm
    from policies.llm_config import LLMConfig
    from tests.policies.test_llm_view import tick0_obs

    config = LLMConfig(model="slow", base_url=server.url, decision_budget_s=20, timeout_s=20)
    act = llm.LLMSystem(config, (0, 1, 2))
    obs = tick0_obs()
    threading.Timer(0.5, act.monitor.cancel).start()  # a cancel before act() began would not count
    start = time.monotonic()
    actions, game = act(obs, None, act.initial_carry(), None)
    assert time.monotonic() - start < 3.0
    assert np.asarray(actions.move)[:3].tolist() == [-1, -1, -1]  # NO_ANSWER: the fallback
    assert [r["reason"] for r in game.records] == ["cancelled"] * 3


def test_a_failing_team_does_not_touch_the_other(server, tmp_path):
    setups = schedule(47, ["MWHRP"], games=1)
    failing = _config_file(tmp_path, server, "500", max_retries=0)
    lineup = resolve_slots(f"A*=llm:{failing},B*=llm:legal@{server.url}", setups[0].roster)
    row = play_match(lineup, setups, CONFIG).to_dicts()[0]
    assert row["A_llm_fallbacks"] == 5 * TICKS and row["B_llm_fallbacks"] == 0


def test_the_recorded_prompt_is_what_mbg_llm_prompt_rebuilds(server, tmp_path, capsys):
    from cli.main import main

    spec = _config_file(tmp_path, server, "legal", record_prompts=True)
    _, replays = _play(f"llm:{spec}")
    path = write_replay(tmp_path / "kept.mbgr", replays[0])
    sent = next(d for d in replays[0].decisions if d["tick"] == 2 and d["slot"] == 3)["prompt"]
    args = ["llm", "prompt", "--replay", str(path), "--slot", "A3", "--tick", "2", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == sent  # tick 2 holds relayed rows (RULES 5.7)


def test_a_client_that_raises_is_a_recorded_fallback():
    from types import SimpleNamespace

    from policies import llm
    from policies.llm_config import LLMConfig
    from tests.policies.test_llm_view import tick0_obs

    def create(**request):
        raise RuntimeError("client bug")

    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
    config = LLMConfig(model="m", base_url="http://127.0.0.1:9/v1")
    act = llm.LLMSystem(config, (5, 6), client=client)
    actions, game = act(tick0_obs(), None, act.initial_carry(), None)
    assert np.asarray(actions.move)[5:7].tolist() == [-1, -1]
    assert [r["reason"] for r in game.records] == ["internal error: RuntimeError: client bug"] * 2
    assert llm.game_stats(game)["llm_fallbacks"] == 2


def test_a_call_waiting_on_a_hung_endpoint_does_not_hold_up_the_exit():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    code = (
        "import time; from policies.llm import DaemonPool; pool = DaemonPool(2); "
        "[pool.submit(time.sleep, 60) for _ in range(3)]; time.sleep(0.2); "
        "print(pool._started)"
    )
    start = time.monotonic()
    env = dict(os.environ, PYTHONPATH=root)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=root, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"  # never more threads than workers
    assert time.monotonic() - start < 30  # the sleeping calls did not keep it alive 60 s
