"""The engine thread: everything that touches JAX runs here, off the UI thread, one job at a time.

The UI submits jobs (`Worker.submit(tag, fn, *args)`) and polls finished ones every frame
(`Worker.poll()` -> [(tag, ok, value)]): loading JAX and compiling in the background at start-up,
building a game, letting the machine slots decide while the humans think, resolving a tick,
writing the replay. Exceptions come back as values (ok False), so a failing job never takes the
window down. `Progress` is how a long job shows where it is.
"""

import os
import queue
import threading
import time
from dataclasses import dataclass, field

from battleclient.wording import RULE_FIELDS, rules_words


@dataclass
class Progress:
    """Shared progress of the long engine-thread jobs (start-up, compiles of new rules, a game's
    set-up), one at a time: stage text, fraction 0-1, done flag, error text."""

    text: str = "Starting the engine thread"
    fraction: float = 0.0
    done: bool = False
    error: str = ""
    log: list = field(default_factory=list)

    def stage(self, text: str, fraction: float | None = None) -> None:
        self.text = text
        if fraction is not None:
            self.fraction = fraction
        self.log.append((time.monotonic(), text))


class Worker:
    """One daemon thread running submitted jobs in order."""

    def __init__(self):
        self._jobs: queue.Queue = queue.Queue()
        self._results: queue.Queue = queue.Queue()
        self._pending = 0
        self._lock = threading.Lock()
        self.notify = None  # called on the engine thread after each job (wakes an idle window)
        self._thread = threading.Thread(target=self._run, name="engine", daemon=True)
        self._thread.start()

    def submit(self, tag: str, fn, *args) -> None:
        with self._lock:
            self._pending += 1
        self._jobs.put((tag, fn, args))

    @property
    def busy(self) -> bool:
        """True while a submitted job has not been polled back yet."""
        with self._lock:
            return self._pending > 0

    def poll(self) -> list[tuple[str, bool, object]]:
        out = []
        while True:
            try:
                item = self._results.get_nowait()
            except queue.Empty:
                return out
            with self._lock:
                self._pending -= 1
            out.append(item)

    def wait(self, timeout: float = 60.0) -> list[tuple[str, bool, object]]:
        """Block until every submitted job is done (or timeout); returns their results."""
        out, end = [], time.monotonic() + timeout
        while self.busy and time.monotonic() < end:
            try:
                item = self._results.get(timeout=0.05)
            except queue.Empty:
                continue
            with self._lock:
                self._pending -= 1
            out.append(item)
        return out

    def stop(self, timeout: float = 10.0) -> None:
        """Ask the thread to finish after its current job and wait for it (up to timeout)."""
        self._jobs.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            tag, fn, args = job
            try:
                self._results.put((tag, True, fn(*args)))
            except Exception as error:  # reported to the UI, never raised there
                self._results.put((tag, False, error))
            if self.notify is not None:
                try:
                    self.notify()
                except Exception:  # a window closing under us: the result is queued anyway
                    pass


def configure_jax() -> None:
    """CPU by default, and the persistent compile cache (battleclient.settings.jax_cache_dir),
    so a second start-up loads compiled engine code instead of compiling it again."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    from battleclient.settings import jax_cache_dir

    folder = jax_cache_dir()
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            jax.config.update("jax_compilation_cache_dir", str(folder))
            # every compile, the eager ops of a game's start too (cli.train.enable_compile_cache)
            jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        except OSError:
            pass  # no cache: slower start-ups, same games


def import_runtime(progress: Progress, last: bool = False) -> dict:
    """Start-up job 1: import JAX, the engine and the Systems; {"kinds": [...], "scripted": [...]}
    (the kinds a slot spec can use now, the scripted bot names). `last`: no warm-up follows,
    so the start-up ends here (said here, before any later job takes `progress` over)."""
    progress.stage("Importing JAX", 0.05)
    configure_jax()
    import jax  # noqa: F401

    progress.stage("Loading the engine and the Systems", 0.2)
    import battleclient.scenario_session  # noqa: F401  (the Scenarios screen's loader thread)
    import battleclient.session  # noqa: F401
    from policies import slotspec
    from policies.scripted import BOTS

    kinds = available_kinds(slotspec)
    progress.stage("Engine loaded", 1.0 if last else 0.3)
    if last:
        progress.done = True
    return {"kinds": kinds, "scripted": list(BOTS)}


def rules_key(setup) -> tuple:
    """The setup fields the engine's static Config is made of (battleclient.session.config_of):
    a new value means a fresh XLA compile of the engine step."""
    return tuple(getattr(setup, field) for field, _ in RULE_FIELDS)


def warm_up(progress: Progress, setup, maps_by_split: dict) -> str:
    """Start-up job 2 (and the lobby's, for changed rules): compile the engine and the machine
    Systems of `setup` by building it and playing one throw-away tick. Returns "" or why the
    setup cannot be built (not fatal: the lobby shows it)."""
    from battleclient.session import GameSession, rules_compiled

    rules = rules_words(setup)
    steps = iter([0.4, 0.5, 0.6])
    progress.done = False

    def say(text):
        progress.stage(
            f"Compiling in the background{rules}: {text.lower()}", next(steps, progress.fraction)
        )

    problem = ""
    try:
        game = GameSession(setup, maps_by_split, progress=say)
        progress.stage(f"Compiling in the background{rules}: the machine Systems", 0.7)
        game.decide(ask_hosts=False)  # a throw-away game: no LLM endpoint is called
        progress.stage(f"Compiling in the background{rules}: the engine step", 0.85)
        game.resolve({s: (0, 0, 0) for s in game.human_slots})
    except Exception as error:
        problem = f"{type(error).__name__}: {error}"
    ready = rules_compiled(setup)
    progress.stage(
        f"Ready: the engine is compiled{rules}" if ready else "Engine loaded: a game compiles it",
        1.0,
    )
    progress.done = True
    return problem


def prepare_rules(progress: Progress, setup, maps_by_split: dict) -> str:
    """Lobby job for rules other than those compiled (Max ticks, Score to win, Information):
    `warm_up` for them, so Start does not wait; "" at once when they are compiled."""
    from battleclient.session import rules_compiled

    return "" if rules_compiled(setup) else warm_up(progress, setup, maps_by_split)


def build_game(progress: Progress, setup, maps_by_split: dict, branch=None):
    """Play-screen job: the GameSession of `setup` with its engine step compiled before the
    first tick, the stages on `progress` (new rules compile here, up to a minute, never
    silently at the first tick); `branch` (battleclient.branching.Branch) starts it from a
    replay's tick. Raises what GameSession raises."""
    from battleclient.session import GameSession, rules_compiled

    rules = rules_words(setup)
    steps = iter([0.2, 0.4, 0.6])
    progress.done = False
    try:
        game = GameSession(
            setup,
            maps_by_split,
            start=branch,
            progress=lambda text: progress.stage(
                f"Setting up the game: {text.lower()}", next(steps, progress.fraction)
            ),
        )
        if not rules_compiled(setup):
            progress.stage(f"Compiling the engine{rules} (up to a minute)", 0.8)
            game.compile_step()
        if game.machine_count:  # their first move compiles their code: here, not at tick 0
            progress.stage("Compiling the machine players (their first move)", 0.9)
            game.decide(ask_hosts=False)
            if game.host_machines:  # an LLM thinks on screen (thinking strip, K), not here
                game.pending = None
        progress.stage(f"Ready: the engine is compiled{rules}", 1.0)
    except Exception:
        progress.stage("Engine loaded: the game could not start", 1.0)
        raise
    finally:
        progress.done = True
    return game


def available_kinds(slotspec) -> list[str]:
    """Kind names that can be built now: the known kinds (slotspec.valid_kinds) less the ones
    whose providing module does not import (e.g. no checkpoint support installed)."""
    import importlib

    kinds = {usage.split(":")[0].split()[0] for usage in slotspec.valid_kinds()}
    for kind, module in slotspec.PROVIDERS.items():
        try:
            importlib.import_module(module)
        except Exception:
            kinds.discard(kind)
    return sorted(kinds)
