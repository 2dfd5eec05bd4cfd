"""Alternating-round timing: ABBA order, per-round ratio statistics, the worker pipe."""

import sys
import textwrap
import time

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


def test_time_clocks_tells_waiting_from_working():
    # A nap waits on the wall clock and uses almost no CPU; a busy loop uses both alike.
    napped = interleaved.time_clocks(lambda: time.sleep(0.02), calls=3)
    assert napped["wall"] >= 0.02 and napped["cpu"] < 0.01

    def busy():
        end = time.process_time() + 0.02
        while time.process_time() < end:
            pass

    worked = interleaved.time_clocks(busy, calls=2)
    assert worked["cpu"] >= 0.02 and worked["wall"] >= worked["cpu"] * 0.99


def test_interleave_clocks_keeps_each_clock_per_program_in_abba_order():
    calls = []
    values = {"a": {"wall": 2.0, "cpu": 1.0}, "b": {"wall": 4.0, "cpu": 3.0}}
    programs = {name: (lambda name=name: calls.append(name) or values[name]) for name in "ab"}
    seconds = interleaved.interleave_clocks(programs, rounds=3)
    assert calls == list("abbaab")
    assert seconds == {
        "wall": {"a": [2.0] * 3, "b": [4.0] * 3},
        "cpu": {"a": [1.0] * 3, "b": [3.0] * 3},
    }
    with pytest.raises(ValueError, match="rounds: 0"):
        interleaved.interleave_clocks(programs, rounds=0)


def summary(q1, median, q3):
    return {"q1": q1, "median": median, "q3": q3}


def test_verdict_weighs_a_ratio_against_the_a_a_noise_and_the_target():
    noise = summary(0.96, 1.00, 1.03)  # the farther quartile is 4% from 1.00x
    assert interleaved.noise_band(noise) == pytest.approx(0.04)
    text = interleaved.verdict(summary(1.05, 1.06, 1.07), noise, 1.10)
    assert text == (
        "differs from the core by more than the noise (A/A within 4%); under the 1.10x target"
    )
    # 1.03x is inside the 4% band: no difference can be claimed
    assert interleaved.verdict(summary(1.02, 1.03, 1.04), noise, 1.10).startswith(
        "differs from the core by less than the noise"
    )
    # an IQR that holds 1.00x claims no difference either, whatever the median
    assert "less than the noise" in interleaved.verdict(summary(0.99, 1.08, 1.20), noise, 1.10)
    assert interleaved.verdict(summary(1.08, 1.09, 1.12), noise, 1.10).endswith(
        "its IQR spans the 1.10x target"
    )
    assert interleaved.verdict(summary(1.10, 1.2, 1.3), noise, 1.10).endswith(
        "over the 1.10x target"
    )
