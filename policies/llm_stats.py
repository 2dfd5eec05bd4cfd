"""What an LLM System keeps about a game, and shows a UI while it thinks (policies/llm.py).

`Decision` is one decision's outcome; `LLMGame` the per-game carry (history, counters, the
replay's decision records); `game_stats` the result columns; `Monitor` the thread-safe live
status a window reads (thinking slots, last replies, endpoint failure, cancel).
"""

import threading
import time
from dataclasses import dataclass, field

import numpy as np

STAT_FIELDS = (
    "llm_decisions",
    "llm_calls",
    "llm_legal_replies",
    "llm_legal_rate",
    "llm_fallbacks",
    "llm_retries",
    "llm_reprompts",
    "llm_tokens_in",
    "llm_tokens_out",
    "llm_latency_p50_s",
    "llm_latency_p90_s",
    "llm_latency_p99_s",
)


@dataclass
class Decision:
    """The outcome of one decision (one agent, or one team's agents, at one tick)."""

    actions: dict  # slot -> (move, target, ult) for the slots with a legal answer
    reasons: dict  # slot -> why it plays the fallback
    replies: list = field(default_factory=list)  # reply texts, in order
    prompt: list = field(default_factory=list)  # the messages of the first request
    calls: int = 0
    legal: int = 0  # replies that gave every slot asked a legal action
    retries: int = 0
    reprompts: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    latencies: list = field(default_factory=list)  # seconds per answered request


class LLMGame:
    """Per-game carry: each slot's (user text, reply) history, counters and decision records."""

    def __init__(self, history: int):
        self.history: dict = {}
        self.keep = history
        self.records: list = []
        self.totals = dict.fromkeys(("decisions", "calls", "legal", "fallbacks", "retries"), 0)
        self.totals.update(reprompts=0, tokens_in=0, tokens_out=0)
        self.latencies: list = []
        self.lock = threading.Lock()

    def add(self, decision: Decision, slots: tuple) -> None:
        with self.lock:
            self.totals["decisions"] += len(slots)
            self.totals["fallbacks"] += len(decision.reasons)
            for name in ("calls", "legal", "retries", "reprompts", "tokens_in", "tokens_out"):
                self.totals[name] += getattr(decision, name)
            self.latencies += decision.latencies


def game_stats(carry) -> dict:
    """The result columns of one game (`STAT_FIELDS`): decisions (agent-ticks asked), calls
    (answered requests), legal replies and their rate, fallbacks, retries, re-prompts, input
    and output tokens, request latency percentiles in seconds (rate and percentiles None
    without an answered call: null in JSON, not NaN)."""
    if not isinstance(carry, LLMGame):
        return {}
    t = carry.totals
    lat = np.asarray(carry.latencies, float)
    pct = [float(v) for v in np.percentile(lat, [50, 90, 99])] if lat.size else [None] * 3
    return {
        "llm_decisions": t["decisions"],
        "llm_calls": t["calls"],
        "llm_legal_replies": t["legal"],
        "llm_legal_rate": t["legal"] / t["calls"] if t["calls"] else None,
        "llm_fallbacks": t["fallbacks"],
        "llm_retries": t["retries"],
        "llm_reprompts": t["reprompts"],
        "llm_tokens_in": t["tokens_in"],
        "llm_tokens_out": t["tokens_out"],
        "llm_latency_p50_s": pct[0],
        "llm_latency_p90_s": pct[1],
        "llm_latency_p99_s": pct[2],
    }


def game_report(carry) -> dict:
    """What the System tells about a finished game (policies.system.System.report): its
    `game_stats` and the decision records, in tick and slot order."""
    if not isinstance(carry, LLMGame):
        return {"stats": {}, "records": []}
    with carry.lock:
        records = sorted(carry.records, key=lambda r: (r["tick"], r["slot"]))
    return {"stats": game_stats(carry), "records": records}


class Monitor:
    """What a UI shows while an LLM System thinks (thread-safe): slots thinking since when, the
    last reply text and outcome per slot, the last endpoint error; and a cancel switch, which
    applies to the tick being decided (each act() starts with it off). Meant for one game at a
    time (the BattleClient); games played at once share it."""

    def __init__(self):
        self._lock = threading.Lock()
        self.thinking: dict = {}  # slot -> monotonic start time
        self.replies: dict = {}  # slot -> (tick, reply text, outcome words)
        self.error = ""
        self._cancel = threading.Event()

    def cancel(self) -> None:
        """Stop waiting for the current tick's calls: waiting slots play the fallback."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def begin(self, slots) -> None:
        with self._lock:
            self._cancel.clear()
            now = time.monotonic()
            self.thinking = {int(s): now for s in slots}

    def end(self, slots, tick: int, decision: Decision) -> None:
        with self._lock:
            for slot in slots:
                self.thinking.pop(int(slot), None)
                text = decision.replies[-1] if decision.replies else ""
                words = decision.reasons.get(slot, "legal")
                self.replies[int(slot)] = (tick, text, words)
            failed = [
                r for r in decision.reasons.values() if r.startswith(("endpoint", "no reply"))
            ]
            if failed:
                self.error = failed[0]

    def view(self) -> dict:
        """A copy: {"thinking": {slot: seconds}, "replies": {...}, "error": str}."""
        with self._lock:
            now = time.monotonic()
            return {
                "thinking": {s: now - t for s, t in self.thinking.items()},
                "replies": dict(self.replies),
                "error": self.error,
            }


def decision_record(tick: int, slot: int, decision: Decision, keep_text: bool) -> dict | None:
    """The replay's decision record of one slot: always for a fallback (with its reason), for
    every decision when prompts are kept. Plain values only (msgpack)."""
    reason = decision.reasons.get(slot)
    if reason is None and not keep_text:
        return None
    action = decision.actions.get(slot)
    record = {
        "tick": int(tick),
        "slot": int(slot),
        "status": "fallback" if reason is not None else "ok",
        "reason": reason or "",
        "action": [int(v) for v in action] if action is not None else None,
        "calls": decision.calls,
        "retries": decision.retries,
        "latency_s": float(sum(decision.latencies)),
    }
    if keep_text:
        record["reply"] = decision.replies[-1] if decision.replies else ""
        record["prompt"] = [dict(m) for m in decision.prompt]
    return record
