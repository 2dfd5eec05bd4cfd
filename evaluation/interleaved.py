"""Fair speed ratios on a shared machine: time two programs in alternating short rounds.

A ratio measured as "all of A, then all of B" carries whatever the machine's load did between
the two halves; timing A and B back to back in many short rounds (ABBA order, so neither always
goes first) puts the same load on both sides of each round's ratio, and the median of the
per-round ratios with its interquartile spread says how far the figure can be trusted.

Programs run either in this process (`interleave` over callables) or as long-lived worker
processes that compile once and then answer one timing request per line (`serve` on the worker
side, `PipeWorker` on the driver side), which is how an engine in another virtual environment
(JaxMARL's SMAX) is timed beside ours. No JAX here: both sides import this module.
"""

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence

# Above this interquartile spread (as a fraction of the median ratio) a ratio is flagged as too
# noisy to read as a margin: a 15% swing could hide or invent most of a 10-20% gain.
TRUSTED_SPREAD = 0.15
MIN_ROUND_SECONDS = 0.25  # each timing repeats its program until it has run at least this long


def calls_for(run: Callable[[], object], min_seconds: float = MIN_ROUND_SECONDS) -> int:
    """How many back-to-back calls of a warm `run` last at least `min_seconds` (>= 1)."""
    start = time.perf_counter()
    run()
    once = max(time.perf_counter() - start, 1e-6)
    return max(1, int(min_seconds / once + 0.999))


def time_calls(run: Callable[[], object], calls: int) -> float:
    """Seconds per call of `run` (which must block until its work is done), over `calls` calls."""
    start = time.perf_counter()
    for _ in range(calls):
        run()
    return (time.perf_counter() - start) / calls


def time_clocks(run: Callable[[], object], calls: int) -> dict[str, float]:
    """Seconds per call of `run` over `calls` calls by two clocks: "wall" (`time.perf_counter`)
    and "cpu" (`time.process_time`: this process's CPU time, all its threads). On a shared
    machine the CPU clock counts the work itself, which other processes' load barely moves,
    where the wall clock also counts the time spent waiting for a core."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        run()
    return {
        "wall": (time.perf_counter() - wall) / calls,
        "cpu": (time.process_time() - cpu) / calls,
    }


def _abba(names: Sequence[str], rounds: int):
    """The names in ABBA order, round after round."""
    if rounds < 1:
        raise ValueError(f"rounds: {rounds!r} must be at least 1")
    for r in range(rounds):
        yield from names if r % 2 == 0 else reversed(names)


def interleave(programs: Mapping[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Call each program once a round, in ABBA order; returns each name's seconds per round.

    Each program returns the seconds it measured (e.g. `time_calls` or a `PipeWorker` request).
    """
    seconds = {name: [] for name in programs}
    for name in _abba(list(programs), rounds):
        seconds[name].append(float(programs[name]()))
    return seconds


def interleave_clocks(
    programs: Mapping[str, Callable[[], Mapping[str, float]]], rounds: int
) -> dict[str, dict[str, list[float]]]:
    """`interleave` for programs that return {clock: seconds} (`time_clocks`): returns
    clock -> name -> seconds per round. ValueError when rounds < 1."""
    seconds: dict[str, dict[str, list[float]]] = {}
    for name in _abba(list(programs), rounds):
        for clock, value in programs[name]().items():
            seconds.setdefault(clock, {n: [] for n in programs})[name].append(float(value))
    return seconds


def ratio_summary(numerator: Sequence[float], denominator: Sequence[float]) -> dict:
    """Median and spread of the per-round ratios numerator[i] / denominator[i].

    Returns {"median", "q1", "q3", "min", "max", "spread" ((q3 - q1) / median), "rounds",
    "trusted" (spread <= TRUSTED_SPREAD and at least 3 rounds)}. Quartiles are
    `statistics.quantiles(..., method="inclusive")`. ValueError on unequal or empty inputs.
    """
    if len(numerator) != len(denominator) or not numerator:
        raise ValueError(
            f"ratio_summary: {len(numerator)} and {len(denominator)} rounds, need equal and > 0"
        )
    ratios = [a / b for a, b in zip(numerator, denominator, strict=True)]
    median = statistics.median(ratios)
    if len(ratios) > 1:
        q1, _, q3 = statistics.quantiles(ratios, n=4, method="inclusive")
    else:
        q1 = q3 = ratios[0]
    spread = (q3 - q1) / median if median else float("inf")
    return {
        "median": median,
        "q1": q1,
        "q3": q3,
        "min": min(ratios),
        "max": max(ratios),
        "spread": spread,
        "rounds": len(ratios),
        "trusted": len(ratios) >= 3 and spread <= TRUSTED_SPREAD,
    }


def describe(summary: dict) -> str:
    """One line for a `ratio_summary`: '1.23x (IQR 1.20-1.26, 7 rounds)' plus a warning."""
    text = (
        f"{summary['median']:.2f}x (IQR {summary['q1']:.2f}-{summary['q3']:.2f}, "
        f"{summary['rounds']} rounds)"
    )
    if not summary["trusted"]:
        text += f"  [spread {summary['spread']:.0%} > {TRUSTED_SPREAD:.0%}: too noisy to trust]"
    return text


def noise_band(noise: dict) -> float:
    """How far from 1.00x a ratio can land by chance: the farther quartile of an A/A
    `ratio_summary` (one program timed twice a round against itself)."""
    return max(abs(noise["q1"] - 1.0), abs(noise["q3"] - 1.0))


def verdict(summary: dict, noise: dict, target: float) -> str:
    """Plain words for a `ratio_summary` beside its A/A `noise` and a `target` ratio: whether the
    two programs differ by more than the noise, and whether the ratio's IQR lies under the
    target, over it, or across it."""
    band = noise_band(noise)
    if abs(summary["median"] - 1.0) <= band or summary["q1"] <= 1.0 <= summary["q3"]:
        gap = f"differs from the core by less than the noise (A/A within {band:.0%})"
    else:
        gap = f"differs from the core by more than the noise (A/A within {band:.0%})"
    if summary["q3"] < target:
        where = f"under the {target:.2f}x target"
    elif summary["q1"] >= target:
        where = f"over the {target:.2f}x target"
    else:
        where = f"its IQR spans the {target:.2f}x target"
    return f"{gap}; {where}"


# --- Worker processes ------------------------------------------------------------------------


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (Linux reports ru_maxrss in KiB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def serve(programs: Mapping[str, Callable[[], object]], info: dict, stdin=None, stdout=None):
    """The worker side: announce `info` plus "ready", then answer timing requests until EOF.

    programs: name -> a warm (already compiled) callable that blocks until its work is done.
    Each request line is JSON {"run": name}; the answer is {"seconds": s per call,
    "peak_rss_mib": this process's peak so far}, the seconds timed over
    enough calls to last MIN_ROUND_SECONDS (counted once, at start-up). An unknown name is
    answered {"error": ...}; the worker keeps serving.
    """
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    calls = {name: calls_for(run) for name, run in programs.items()}
    print(json.dumps({**info, "ready": True, "calls": calls}), file=stdout, flush=True)
    for line in stdin:
        if not line.strip():
            continue
        name = json.loads(line).get("run")
        if name not in programs:
            answer = {"error": f"unknown program {name!r}; known: {sorted(programs)}"}
        else:
            answer = {
                "seconds": time_calls(programs[name], calls[name]),
                "peak_rss_mib": peak_rss_mib(),
            }
        print(json.dumps(answer), file=stdout, flush=True)


class PipeWorker:
    """The driver side of `serve`: a long-lived worker process spoken to over its stdin/stdout.

    `command` is the worker's argv; the constructor waits for its ready line (`info`). Raises
    RuntimeError with the worker's last stderr lines when it exits or answers an error.
    """

    def __init__(self, command: Sequence[str], name: str, env: Mapping[str, str] | None = None):
        self.name = name
        # stderr to a file, not a pipe: a chatty worker (compiler warnings) would fill a pipe
        # nobody reads until the error path and block there.
        self.stderr = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            env=None if env is None else dict(env),
        )
        self.info = self._answer()

    def _answer(self) -> dict:
        for line in self.process.stdout:
            if line.startswith("{"):
                answer = json.loads(line)
                if "error" in answer:
                    raise RuntimeError(f"{self.name}: {answer['error']}")
                return answer
        self.process.wait()
        self.stderr.seek(0)
        tail = " | ".join(self.stderr.read().strip().splitlines()[-3:])
        raise RuntimeError(f"{self.name} worker exited ({self.process.returncode}): {tail}")

    def request(self, program: str) -> dict:
        """Ask for one timing of `program`: {"seconds" per call, "peak_rss_mib"}."""
        self.process.stdin.write(json.dumps({"run": program}) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def seconds(self, program: str) -> float:
        """Seconds per call of one timing of `program`."""
        return float(self.request(program)["seconds"])

    def close(self) -> None:
        """End the worker (EOF on its stdin) and wait for it."""
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
