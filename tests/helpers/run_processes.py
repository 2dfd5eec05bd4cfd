"""The suite as separate pytest processes, a few at a time: `make test` calls this.

One process per folder of tests/, and one per test file in the folders named by
--file-per-process: a process that compiled several hundred training programs aborted inside
XLA while writing one more to the compilation cache (each file alone passes), and
tests/evaluation as one process ran 950-1,650 s, longer than any other but one. Most of a test
process is single-threaded XLA compilation, so --jobs processes at once (one per core by
default) use the machine; Xvfb tests pick a free display each (`Xvfb -displayfd`), and the
shared JAX cache only warns when it reads an entry another process is still writing.

Each process's output is printed whole when it ends (never interleaved); a failing process
does not stop the rest, and the summary names every one that failed. Exit status 1 then.

Processes start longest first (EXPECTED_SECONDS, from a full run's timings) so that the last
ones to start are short and the --jobs lanes end near together: a long process started late
would run alone at the end while the other cores idle.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path


def targets(root: Path, support: set[str], file_per_process: set[str]) -> list[str]:
    """The pytest targets under root (tests/), as paths relative to the repository: each folder
    in name order, or for a folder in file_per_process its test_*.py files and then its
    subfolders (each one process); support folders and dot/dunder folders skipped."""
    found = []
    for folder in _folders(root):
        name = f"{root.name}/{folder.name}"
        if name in support:
            continue
        if name in file_per_process:
            found += [f"{name}/{f.name}" for f in sorted(folder.glob("test_*.py"))]
            found += [f"{name}/{sub.name}" for sub in _folders(folder)]
        else:
            found.append(name)
    return found


def _folders(parent: Path) -> list[Path]:
    """parent's subfolders in name order, less dot and dunder ones (.pytest_cache, __pycache__)."""
    return sorted(p for p in parent.iterdir() if p.is_dir() and not p.name.startswith((".", "__")))


# Seconds each process took in a full `make test` (2 jobs on 2 cores, load average 3-4,
# 2026-12-02), those of a minute or more. Only their order matters. A target not named here
# counts UNKNOWN_SECONDS, long enough to start it before the known short ones: an unknown short
# process started early costs the lanes little, an unknown long one started last would run
# alone at the end.
EXPECTED_SECONDS = {
    "tests/training/test_q_parallel.py": 425,
    "tests/training/test_mappo.py": 310,
    "tests/training/test_q_learning_runs.py": 322,
    "tests/evaluation/test_scenario_lines.py": 318,
    "tests/adapters": 269,
    "tests/training/test_selfplay_learners.py": 265,
    "tests/training/test_parallel.py": 261,
    "tests/training/test_q_schedule.py": 241,
    "tests/policies": 231,
    "tests/battleclient": 230,
    "tests/engine": 185,
    "tests/training/test_q_learning_math.py": 130,
    "tests/training/test_ippo_resume.py": 152,
    "tests/training/test_ippo_ff.py": 25,
    "tests/training/test_selfplay_resume.py": 124,
    "tests/evaluation/test_tournament.py": 122,
    "tests/cli": 120,
    "tests/evaluation/test_scenario_batch.py": 104,
    "tests/training/test_sequence_network.py": 80,
    "tests/replay_viewer": 79,
    "tests/evaluation/test_crossplay.py": 75,
    "tests/catalog": 70,
    "tests/training/test_ippo_math.py": 60,
}
UNKNOWN_SECONDS = 150


def longest_first(todo: list[str], expected: dict[str, float]) -> list[str]:
    """todo ordered by expected seconds, most first (UNKNOWN_SECONDS where not in expected);
    ties keep todo's order. Longest-processing-time-first list scheduling."""
    return sorted(todo, key=lambda t: -expected.get(t, UNKNOWN_SECONDS))


RUNNING: set[subprocess.Popen] = set()


def run_one(pytest: str, target: str) -> tuple[str, int, float, str]:
    """Runs `pytest target`; returns (target, exit status, seconds, its stdout and stderr)."""
    began = time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as out:
        child = subprocess.Popen([pytest, target], stdout=out, stderr=subprocess.STDOUT)
        RUNNING.add(child)
        status = child.wait()
        RUNNING.discard(child)
        out.seek(0)
        return target, status, time.monotonic() - began, out.read()


def stop_all(signum, _frame):
    """A SIGTERM or SIGINT to this runner ends the pytest processes it started, then itself."""
    for child in list(RUNNING):
        child.terminate()
    os._exit(128 + signum)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pytest", default=str(Path(sys.executable).with_name("pytest")))
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--support", nargs="*", default=["tests/fixtures", "tests/helpers"])
    parser.add_argument(
        "--file-per-process", nargs="*", default=["tests/training", "tests/evaluation"]
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs: must be at least 1, got {args.jobs}")
    signal.signal(signal.SIGTERM, stop_all)
    signal.signal(signal.SIGINT, stop_all)
    found = targets(Path("tests"), set(args.support), set(args.file_per_process))
    todo = longest_first(found, EXPECTED_SECONDS)
    began, failed, times = time.monotonic(), [], []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = [pool.submit(run_one, args.pytest, t) for t in todo]
        for done in as_completed(running):
            target, status, seconds, output = done.result()
            print(f"== pytest {target} ({seconds:.0f} s, exit {status})\n{output}", flush=True)
            times.append((seconds, target))
            if status != 0:
                failed.append(target)
    print(f"== {len(todo)} processes, {args.jobs} at a time, {time.monotonic() - began:.0f} s")
    for seconds, target in sorted(times, reverse=True)[:8]:
        print(f"   {seconds:6.0f} s  {target}")
    if failed:
        print("make test: failed in: " + " ".join(failed))
        return 1
    print("make test: every process passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
