"""The `llm` System kind: a language model behind any Chat Completions endpoint plays slots.

`llm:CONFIG.json` or `llm:MODEL@URL` in a slot spec (policies.llm_config lists the settings).
A host System (policies.system): each tick it sends, per agent (or per team, `"per": "team"`),
the text view of that agent's observation (policies.llm_view) through the official `openai`
client to the configured base URL (a hosted API, vLLM, llama.cpp's server, Ollama), all of a
tick's calls at once on a thread pool shared by every game the System plays, so agents and
games overlap. The paper's LLM-agent API is the model (seed 000, section 6 and S7).

Failure handling, in order:

1. a network error, timeout, 429 or 5xx is re-sent up to `max_retries` times with exponential
   backoff (other HTTP errors are not retried);
2. a reply that is not valid JSON or names an illegal action gets ONE corrective re-prompt that
   says what was wrong;
3. anything still without a legal action plays the documented fallback: `NO_ANSWER`, which the
   match turns into the no-op (Stay, no target, no Ultimate; RULES 3.5) with `Events.fallback`
   set, and the reason is kept in the game's decision records (replay field `decisions`).

Every decision ends within `decision_budget_s` (each request's timeout is cut to what is left),
so an endpoint that never answers slows a game but never hangs it. An agent whose only legal
action is the no-op (dead, stunned and shielded-or-dead agents) is answered without a call. The
API key is read from the environment variable `api_key_env` when the client is built and is
scrubbed from every recorded error text. The carry is a per-game `LLMGame` (history, counters,
records, policies.llm_stats); `game_stats(carry)` gives the result columns.
"""

import queue
import threading
import time
from collections import deque
from concurrent.futures import Future, wait

import numpy as np

from engine import constants as C
from engine.types import Actions
from policies import llm_view
from policies.llm_config import LLMConfig, parse_spec
from policies.llm_stats import (
    STAT_FIELDS,
    Decision,
    LLMGame,
    Monitor,
    decision_record,
    game_report,
    game_stats,
)
from policies.slotspec import register_kind, slot_name
from policies.system import NO_ANSWER, System, as_system

MAX_BACKOFF_S = 8.0


class DaemonPool:
    """Up to `workers` daemon threads, started as calls need them, running submitted calls.
    Unlike ThreadPoolExecutor, whose threads the interpreter joins at exit, a call still
    waiting on a hung endpoint never holds up the end of the program (closing the window)."""

    def __init__(self, workers: int):
        self.workers = int(workers)
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._started = self._idle = 0

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn, args))
        with self._lock:  # a thread more while jobs outnumber the idle threads
            if self._jobs.qsize() > self._idle and self._started < self.workers:
                self._started += 1
                threading.Thread(target=self._run, name=f"llm-{self._started}", daemon=True).start()
        return future

    def _run(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            future, fn, args = self._jobs.get()
            with self._lock:
                self._idle -= 1
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as error:  # handed to the waiting act(), never lost
                    future.set_exception(error)


class LLMSystem:
    """The `act` of an llm System: `(obs, masks, carry, key) -> (Actions, carry)`; obs NumPy."""

    def __init__(self, config: LLMConfig, slots: tuple, client=None, name: str = "llm"):
        self.config = config
        self.slots = tuple(int(s) for s in slots)
        self.name = name
        self.options = llm_view.ViewOptions(
            history=config.history, thinking=config.thinking, system_prompt=config.system_prompt()
        )
        self._key = config.api_key()
        self.client = client or _client(config, self._key)
        self.pool = DaemonPool(config.concurrency)
        self.monitor = Monitor()

    def initial_carry(self) -> LLMGame:
        return LLMGame(self.config.history)

    # --- one tick --------------------------------------------------------------------------
    def __call__(self, obs, masks, carry, key):
        del masks, key  # the masks are obs.mask; an LLM's randomness is the endpoint's
        game = carry if isinstance(carry, LLMGame) else self.initial_carry()
        # the state's tick (context column 0); max: an unused slot's context is all zeros
        tick = int(np.asarray(obs.context)[list(self.slots), 0].max()) if self.slots else 0
        heads = np.zeros((3, C.NUM_SLOTS), np.int32)
        asked = [s for s in self.slots if _has_choice(obs, s)]
        groups = _groups(asked, self.config.per)
        self.monitor.begin(asked)
        deadline = time.monotonic() + self.config.decision_budget_s
        futures = {
            self.pool.submit(self._decide, obs, group, game, deadline): group for group in groups
        }
        pending = set(futures)
        while pending and not self.monitor.cancelled:
            left = deadline + 1.0 - time.monotonic()  # requests end by the deadline; 1 s spare
            if left <= 0:
                break
            _, pending = wait(pending, timeout=min(0.05, left))
        for future, group in futures.items():
            if future in pending:
                why = "cancelled" if self.monitor.cancelled else "no reply within the budget"
                decision = Decision({}, {s: why for s in group})
            else:
                decision = _result(future, group)
            self._finish(game, tick, group, decision, heads)
        return Actions(move=heads[0], target=heads[1], ult=heads[2]), game

    def _finish(self, game, tick, group, decision, heads) -> None:
        game.add(decision, group)
        self.monitor.end(group, tick, decision)
        for slot in group:
            action = decision.actions.get(slot)
            heads[:, slot] = action if action is not None else (NO_ANSWER, 0, 0)
            record = decision_record(tick, slot, decision, self.config.record_prompts)
            if record is not None:
                with game.lock:
                    game.records.append(dict(record, system=self.name))

    def _decide(self, obs, group: tuple, game: LLMGame, deadline: float) -> Decision:
        masks = {s: (np.asarray(obs.mask.move[s]), np.asarray(obs.mask.pair[s])) for s in group}
        if self.config.per == "team":
            user = llm_view.team_user_text(obs, group, self.options)
            chat = [
                {"role": "system", "content": llm_view.system_text(obs, group[0], self.options)},
                {"role": "user", "content": user},
            ]
        else:
            with game.lock:
                past = list(game.history.get(group[0], ()))
            chat = llm_view.messages(obs, group[0], self.options, past)
            user = chat[-1]["content"]
        decision = Decision({}, {}, prompt=chat)
        problems = self._ask(chat, group, masks, decision, deadline)
        if problems and decision.replies:  # a reply came and was unusable: say why, once
            decision.reprompts += 1
            again = chat + [
                {"role": "assistant", "content": decision.replies[-1]},
                {"role": "user", "content": _correction(problems)},
            ]
            problems = self._ask(
                again, [s for s in group if s in problems], masks, decision, deadline
            )
        decision.reasons = problems
        if self.config.history and decision.replies and self.config.per == "agent":
            with game.lock:
                kept = game.history.setdefault(group[0], deque(maxlen=self.config.history))
                kept.append((user, decision.replies[-1]))
        return decision

    def _ask(self, chat, slots, masks, decision: Decision, deadline: float) -> dict:
        """One request (with retries) and the check of its reply; fills decision; returns the
        slots still without a legal action -> reason."""
        text, problem = self._request(chat, decision, deadline)
        if problem:
            return {s: problem for s in slots}
        decision.replies.append(text)
        try:
            if self.config.per == "team":
                found, problems = llm_view.parse_team_reply(text, slots, masks)
            else:
                found, problems = {slots[0]: llm_view.parse_reply(text, *masks[slots[0]])}, {}
        except llm_view.ReplyError as error:
            found, problems = {}, {s: str(error) for s in slots}
        decision.actions.update(found)
        decision.legal += not problems
        return problems

    def _request(self, chat, decision: Decision, deadline: float) -> tuple[str, str]:
        """(reply text, "") or ("", why the endpoint gave none), retrying retryable errors."""
        import openai

        attempt = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0.01 or self.monitor.cancelled:
                return "", "cancelled" if self.monitor.cancelled else "no reply within the budget"
            start = time.monotonic()
            try:
                reply = self.client.chat.completions.create(
                    **self._request_args(chat), timeout=min(self.config.timeout_s, left)
                )
            except (
                openai.APIConnectionError,
                openai.RateLimitError,
                openai.InternalServerError,
            ) as error:
                retry = attempt < self.config.max_retries
                if not retry:
                    return "", self._endpoint_failure(error, attempt)
                attempt += 1
                decision.retries += 1
                pause = min(self.config.backoff_s * 2 ** (attempt - 1), MAX_BACKOFF_S)
                time.sleep(max(0.0, min(pause, deadline - time.monotonic())))
                continue
            except openai.APIError as error:
                return "", self._endpoint_failure(error, attempt)
            decision.calls += 1
            decision.latencies.append(time.monotonic() - start)
            usage = getattr(reply, "usage", None)
            decision.tokens_in += int(getattr(usage, "prompt_tokens", 0) or 0)
            decision.tokens_out += int(getattr(usage, "completion_tokens", 0) or 0)
            choices = getattr(reply, "choices", None) or []
            message = choices[0].message if choices else None
            return (getattr(message, "content", None) or ""), ""

    def _request_args(self, chat) -> dict:
        config = self.config
        extra = dict(config.extra_body)
        if config.thinking is not None:
            kwargs = dict(extra.get("chat_template_kwargs") or {})
            kwargs.setdefault("enable_thinking", bool(config.thinking))
            extra["chat_template_kwargs"] = kwargs
        args = {"model": config.model, "messages": chat, "max_tokens": config.max_tokens}
        for name in ("temperature", "top_p", "seed"):
            if getattr(config, name) is not None:
                args[name] = getattr(config, name)
        if extra:
            args["extra_body"] = extra
        return args

    def _endpoint_failure(self, error, retries: int) -> str:
        status = getattr(error, "status_code", None)
        what = f"HTTP {status}" if status else type(error).__name__
        detail = scrub(str(error), self._key)[:200]
        tries = f" after {retries} retries" if retries else ""
        return f"endpoint {self.config.base_url} failed{tries}: {what}: {detail}"


def scrub(text: str, key: str) -> str:
    """`text` with the API key replaced by ***, so no error text ever carries it."""
    return text.replace(key, "***") if key and len(key) >= 4 else text


def _correction(problems: dict) -> str:
    why = "; ".join(problems.values())
    return (
        f"Your reply could not be used: {why}. Reply again with only the JSON object, choosing "
        "from the legal choices listed above."
    )


def _result(future, group) -> Decision:
    """A finished decision; one that raised (a client or view bug) becomes the fallback with
    the error as its reason, so a failing call never ends the game."""
    try:
        return future.result()
    except Exception as error:  # reported in the replay, never raised into the match
        return Decision({}, {s: f"internal error: {type(error).__name__}: {error}" for s in group})


def _has_choice(obs, slot: int) -> bool:
    """Whether the slot has a legal action besides the no-op (else it is answered without a
    call: dead, stunned, or shielded and unable to move)."""
    moves = np.asarray(obs.mask.move[slot], bool)
    pairs = np.asarray(obs.mask.pair[slot], bool)
    return bool(moves[1:].any() or pairs.sum() > 1)


def _groups(slots, per: str) -> list[tuple]:
    if per == "agent":
        return [(s,) for s in slots]
    teams = {}
    for slot in slots:
        teams.setdefault(slot // C.TEAM_SIZE, []).append(slot)
    return [tuple(t) for t in teams.values()]


def _client(config: LLMConfig, key: str):
    """The official client; its own retries are off so that ours are counted and bounded."""
    import openai

    return openai.OpenAI(
        base_url=config.base_url, api_key=key, timeout=config.timeout_s, max_retries=0
    )


def llm_system(config: LLMConfig, slots: tuple, client=None, name: str = "") -> System:
    """A host System playing `slots` (global 0-9) with `config`; client: an `openai.OpenAI`
    (or anything with its `chat.completions.create`), built from the config when None."""
    label = name or f"llm:{config.model}@{config.base_url}"
    act = LLMSystem(config, slots, client, label)
    return as_system(
        act, host=True, initial_carry=act.initial_carry, name=label, report=game_report
    )


def _factory(arg: str, slots: tuple[int, ...]) -> System:
    if not arg:
        raise ValueError("slot spec: 'llm' needs llm:CONFIG.json or llm:MODEL@URL")
    names = ", ".join(slot_name(s) for s in slots)
    try:
        config = parse_spec(arg)
    except ValueError as error:
        raise ValueError(f"{error} (slots {names})") from None
    return llm_system(config, slots, name=f"llm:{arg}")


register_kind("llm", _factory)  # its usage text is slotspec.USAGE["llm"]


__all__ = ["STAT_FIELDS", "LLMGame", "LLMSystem", "game_report", "game_stats", "llm_system"]
