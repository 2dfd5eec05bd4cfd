"""Benchmark of the LLM-agent API (policies/llm.py): the System's own cost, and a whole game.

    .venv/bin/python bench/bench_llm.py                  # both parts
    .venv/bin/python bench/bench_llm.py --ticks 60       # a shorter game

Targets (issue 23): the System's overhead (prompt building, reply parsing, mask check) under
2 ms a call; with a server that answers at once, a 300-tick 5v5 game with ten LLM agents under
60 s. The server is the loopback test server (tests/helpers/chat_server.py, 127.0.0.1 only),
whose replies are legal moves, so the game runs its full length. Prints figures only.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("JAX_PLATFORMS", "cpu")


def _obs():
    import jax

    import engine
    from engine.types import Config
    from evaluation.match import initial_state, schedule
    from policies.system import to_host

    config = Config()
    state = initial_state(config, schedule(47, ["MWHRP"], games=1)[0])
    return to_host(jax.jit(engine.observe, static_argnums=0)(config, state))


def overhead(repeats: int) -> dict:
    """Median ms of one decision's own work: messages + reply parse + mask check, and the
    whole act() for ten agents with an in-process client that answers at once (no HTTP)."""
    from types import SimpleNamespace

    from policies import llm, llm_view
    from policies.llm_config import LLMConfig
    from tests.helpers.chat_server import legal_reply

    obs = _obs()
    options = llm_view.ViewOptions()

    def one(slot):
        chat = llm_view.messages(obs, slot, options)
        text = legal_reply(chat[-1]["content"])
        return llm_view.parse_reply(text, obs.mask.move[slot], obs.mask.pair[slot])

    def create(**request):
        text = legal_reply(request["messages"][-1]["content"])
        message = SimpleNamespace(content=text)
        usage = SimpleNamespace(prompt_tokens=1, completion_tokens=1)
        return SimpleNamespace(choices=[SimpleNamespace(message=message)], usage=usage)

    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
    config = LLMConfig(model="instant", base_url="http://127.0.0.1:9/v1")
    act = llm.LLMSystem(config, tuple(range(10)), client=client)
    game = act.initial_carry()
    view = [_time(lambda s=s: one(s % 10)) for s in range(repeats)]
    whole = [_time(lambda: act(obs, None, game, None)) / 10 for _ in range(repeats // 10)]
    chars = len(llm_view.prompt_text(llm_view.messages(obs, 0, options)))
    return {
        "view_parse_ms": statistics.median(view),
        "act_ms_per_agent": statistics.median(whole),
        "prompt_chars": chars,
    }


def _time(fn) -> float:
    """Milliseconds of one call."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def whole_game(ticks: int) -> dict:
    """Seconds of one 5v5 game, all ten slots LLM agents, against the loopback server."""
    from engine.types import Config
    from evaluation.match import play_match, schedule
    from policies.slotspec import resolve_slots
    from tests.helpers.chat_server import ChatServer

    config = Config(horizon=ticks)
    setups = schedule(47, ["MWHRP"], games=1)
    with ChatServer() as server:
        lineup = resolve_slots(f"*=llm:legal@{server.url}", setups[0].roster)
        play_match(resolve_slots("*=random", setups[0].roster), setups, config)  # compile
        start = time.perf_counter()
        row = play_match(lineup, setups, config).to_dicts()[0]
        took = time.perf_counter() - start
    return {"seconds": took, "row": row}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    cost = overhead(args.repeats)
    print(f"prompt of A0 at tick 0: {cost['prompt_chars']:,} characters")
    print(
        f"System overhead a call: view + parse + mask check {cost['view_parse_ms']:.2f} ms; "
        f"whole act() per agent (10 agents, instant in-process client) "
        f"{cost['act_ms_per_agent']:.2f} ms; target < 2 ms "
        f"({2.0 / max(cost['act_ms_per_agent'], 1e-9):.1f}x under)"
    )
    game = whole_game(args.ticks)
    row = game["row"]
    print(
        f"{row['ticks']}-tick 5v5 game, ten LLM agents, loopback server: {game['seconds']:.1f} s "
        f"({row['llm_calls']:,} calls, legal rate {row['llm_legal_rate']:.4f}, fallbacks "
        f"{row['llm_fallbacks']}, request latency p50 {row['llm_latency_p50_s'] * 1e3:.1f} ms, "
        f"p99 {row['llm_latency_p99_s'] * 1e3:.1f} ms); target < 60 s "
        f"({60.0 / game['seconds']:.1f}x under)"
    )


if __name__ == "__main__":
    main()
