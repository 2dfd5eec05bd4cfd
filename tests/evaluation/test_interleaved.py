"""Alternating-round timing: ABBA order, per-round ratio statistics, the worker pipe."""

import sys
import textwrap

import pytest

from evaluation import interleaved


def test_interleave_alternates_the_order_every_round():
    calls = []
    programs = {name: (lambda name=name: calls.append(name) or 1.0) for name in "abc"}
    seconds = interleaved.interleave(programs, rounds=3)
    assert calls == list("abccbaabc")
    assert seconds == {"a": [1.0] * 3, "b": [1.0] * 3, "c": [1.0] * 3}


def test_ratio_summary_takes_the_median_of_per_round_ratios():
    # Ratios 2, 1, 4, 2, 3 -> sorted 1 2 2 3 4: median 2, inclusive quartiles 2 and 3.
    summary = interleaved.ratio_summary([2, 3, 4, 2, 6], [1, 3, 1, 1, 2])
    assert summary["median"] == 2.0
    assert (summary["q1"], summary["q3"]) == (2.0, 3.0)
    assert (summary["min"], summary["max"]) == (1.0, 4.0)
    assert summary["spread"] == pytest.approx(0.5)
    assert summary["rounds"] == 5
    assert not summary["trusted"]  # 50% > 15%
    assert "too noisy" in interleaved.describe(summary)


def test_a_steady_ratio_is_trusted_and_a_drifting_machine_cancels_out():
    # The machine slows 3x over the run; each round's pair sees the same slowdown.
    load = [1.0, 1.5, 2.0, 2.5, 3.0]
    summary = interleaved.ratio_summary([2.0 * x for x in load], load)
    assert summary["median"] == pytest.approx(2.0)
    assert summary["spread"] == pytest.approx(0.0)
    assert summary["trusted"]
    assert "too noisy" not in interleaved.describe(summary)


def test_ratio_summary_refuses_mismatched_rounds():
    with pytest.raises(ValueError, match="1 and 2 rounds"):
        interleaved.ratio_summary([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="rounds: 0"):
        interleaved.interleave({"a": lambda: 1.0}, rounds=0)


WORKER = textwrap.dedent(
    """
    import time
    from evaluation import interleaved
    interleaved.serve({"nap": lambda: time.sleep(0.01)}, {"engine": "test"})
    """
)


def test_pipe_worker_answers_timings_and_reports_errors(tmp_path):
    command = [sys.executable, "-c", WORKER]
    with interleaved.PipeWorker(command, "test") as worker:
        assert worker.info["engine"] == "test" and worker.info["ready"]
        # enough calls of a nap of at least 10 ms to fill 0.25 s: at most 25, and more than one
        # unless the machine stalls the first nap past 125 ms (a loaded machine oversleeps)
        assert 2 <= worker.info["calls"]["nap"] <= 25
        answer = worker.request("nap")
        assert 0.009 < answer["seconds"] < 0.2
        assert answer["peak_rss_mib"] > 1
        with pytest.raises(RuntimeError, match="unknown program 'nope'"):
            worker.seconds("nope")
        assert worker.seconds("nap") > 0.009  # still serving after an error


def test_pipe_worker_that_dies_names_itself_and_its_last_words():
    command = [sys.executable, "-c", "import sys; sys.exit('no jaxmarl here')"]
    with pytest.raises(RuntimeError, match=r"SMAX worker exited \(1\): no jaxmarl here"):
        interleaved.PipeWorker(command, "SMAX")
