"""Human-AI study records (seed 000, section 7.8 and S10): questionnaire, decision times, CSV.

A study game is a BattleClient game played under the study preset (battleclient/study.py). Its
replay carries header["study"] (participant, condition, the preset, the questionnaire answers
and their scores) and one `decisions` record per human slot and tick: {"tick", "slot",
"system": "human", "decision_s"}, the seconds from the orders screen opening to the orders
being locked in. After each game one row goes into the study CSV (`append_row`).

Questionnaire: the AI partners' fluency, trust and predictability, each a statement rated on a
seven-point agreement scale (1 strongly disagree ... 7 strongly agree), as the paper reports
them; and workload as NASA-TLX raw scores: six subscales from 0 to 100 in steps of 5, the raw
TLX being their unweighted mean (Hart, "NASA-Task Load Index (NASA-TLX); 20 Years Later",
2006). The paper's mixed-team game: fluency, trust and predictability 1 each, raw TLX 22.5
against the policy and 57.5 beside it.
"""

import io
import re
import statistics
from pathlib import Path

import polars as pl

from evaluation.tournament_store import replace_file

CONDITIONS = {
    "beside": "the participant plays one agent, AI partners play its teammates",
    "against": "the participant plays the whole team against an AI team",
}
LIKERT = (1, 7)
PARTNER_ITEMS = {
    "fluency": "The AI partners and I worked together fluently.",
    "trust": "I trusted the AI partners to do their part.",
    "predictability": "I could predict what the AI partners would do next.",
}
TLX_ITEMS = {
    "mental": "Mental demand: how mentally demanding was the game?",
    "physical": "Physical demand: how physically demanding was the game?",
    "temporal": "Temporal demand: how hurried or rushed was the pace?",
    "performance": "Performance: how successful were you (0 perfect, 100 failure)?",
    "effort": "Effort: how hard did you have to work for your level of performance?",
    "frustration": "Frustration: how insecure, irritated or stressed were you?",
}
TLX_RANGE, TLX_STEP = (0, 100), 5
PARTICIPANT = re.compile(r"[A-Za-z0-9_-]{1,32}")
CSV_NAME = "study.csv"


def check_participant(text: str) -> str:
    """A participant id: 1-32 letters, digits, '_' or '-' (it names files). Raises ValueError."""
    if not isinstance(text, str) or not PARTICIPANT.fullmatch(text):
        raise ValueError(f"participant {text!r}: use 1-32 letters, digits, '_' or '-'")
    return text


def check_condition(text: str) -> str:
    """A study condition name (CONDITIONS). Raises ValueError naming the valid ones."""
    if text not in CONDITIONS:
        raise ValueError(f"condition {text!r}: choose one of {', '.join(CONDITIONS)}")
    return text


def check_answers(answers: dict, source: str = "questionnaire") -> dict:
    """Validated answers {item: int} for every PARTNER_ITEMS (1-7) and TLX_ITEMS (0-100, steps
    of 5) item. Raises ValueError naming `source`, the item and the value at fault."""
    if not isinstance(answers, dict):
        raise ValueError(f"{source}: expected a map of answers, got {type(answers).__name__}")
    out = {}
    for item in (*PARTNER_ITEMS, *TLX_ITEMS):
        value = answers.get(item)
        low, high = LIKERT if item in PARTNER_ITEMS else TLX_RANGE
        step = 1 if item in PARTNER_ITEMS else TLX_STEP
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"{source}.{item}: {value!r} is not a whole number in {low}-{high}")
        if value % step:
            raise ValueError(f"{source}.{item}: {value} is not a multiple of {step}")
        out[item] = value
    extra = sorted(set(answers) - set(out))
    if extra:
        raise ValueError(f"{source}: unknown items {extra}")
    return out


def tlx_raw(answers: dict) -> float:
    """Raw NASA-TLX: the mean of the six subscale scores (0-100)."""
    return sum(answers[item] for item in TLX_ITEMS) / len(TLX_ITEMS)


def study_header(participant: str, condition: str, preset: dict, answers: dict | None) -> dict:
    """header["study"] of a study replay; answers None when the participant skipped the
    questionnaire (the game is kept). Raises ValueError for bad fields."""
    record = {
        "participant": check_participant(participant),
        "condition": check_condition(condition),
        "preset": dict(preset),
        "questionnaire": None if answers is None else check_answers(answers),
    }
    if answers is not None:
        record["tlx_raw"] = tlx_raw(record["questionnaire"])
    return record


def decision_records(times: dict) -> list[dict]:
    """{(state tick, slot): seconds} -> replay decision records, sorted by tick and slot."""
    return [
        {"tick": int(t), "slot": int(s), "system": "human", "decision_s": round(float(v), 3)}
        for (t, s), v in sorted(times.items())
    ]


def decision_times(decisions) -> list[float]:
    """The human decision times (seconds) of a replay's decision records."""
    return [float(d["decision_s"]) for d in decisions or () if d.get("system") == "human"]


def human_team(header: dict) -> int:
    """The team (0 A, 1 B) of the game's human slots (the first one's)."""
    for slot, spec in enumerate(header["systems"]):
        if spec == "human":
            return slot // 5
    raise ValueError("study replay: no human slot in header.systems")


def study_row(header: dict, decisions, replay_name: str) -> dict:
    """The study CSV row of one study game: who, where, the result from the participant's
    side, decision times (count, mean, median, total seconds) and every answer."""
    study, result = header["study"], header["result"]
    team = human_team(header)
    own, other = result["score"][team], result["score"][1 - team]
    outcome = result["outcome_name"]
    won = {"draw": "draw", "ongoing": "unfinished"}.get(outcome, "")
    won = won or ("win" if outcome == f"{'AB'[team]} wins" else "loss")
    times = decision_times(decisions)
    answers = study.get("questionnaire") or {}
    row = {
        "participant": study["participant"],
        "condition": study["condition"],
        "replay": replay_name,
        "map_id": header["map"]["id"],
        "seed": header["seeds"]["game"],
        "team": "AB"[team],
        "result": won,
        "score_own": own,
        "score_other": other,
        "ticks": result["ticks"],
        "decisions": len(times),
        "decision_mean_s": statistics.fmean(times) if times else None,
        "decision_median_s": statistics.median(times) if times else None,
        "decision_total_s": sum(times),
    }
    row |= {item: answers.get(item) for item in (*PARTNER_ITEMS, *TLX_ITEMS)}
    row["tlx_raw"] = study.get("tlx_raw")
    return row


def schema() -> dict:
    """The study CSV's column -> polars dtype."""
    text = {"participant", "condition", "replay", "team", "result"}
    floats = {"decision_mean_s", "decision_median_s", "decision_total_s", "tlx_raw"}
    names = [*study_row_columns()]
    return {c: pl.Utf8 if c in text else pl.Float64 if c in floats else pl.Int64 for c in names}


def study_row_columns() -> tuple[str, ...]:
    """The study CSV's columns, in order."""
    head = ("participant", "condition", "replay", "map_id", "seed", "team", "result")
    times = ("decisions", "decision_mean_s", "decision_median_s", "decision_total_s")
    return (*head, "score_own", "score_other", "ticks", *times, *PARTNER_ITEMS, *TLX_ITEMS,
            "tlx_raw")  # fmt: skip


def read_rows(path) -> pl.DataFrame:
    """A study CSV as a frame with the study schema (empty when the file does not exist).
    Raises ValueError naming the file and the column at fault."""
    path = Path(path)
    if not path.exists():
        return pl.DataFrame(schema=schema())
    try:
        frame = pl.read_csv(path, schema_overrides=schema())
    except Exception as error:  # polars raises several types for a malformed CSV
        raise ValueError(f"{path}: not a study CSV ({error})") from None
    missing = [c for c in study_row_columns() if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: not a study CSV; columns {missing} are missing")
    return frame.select(study_row_columns())


def append_row(path, row: dict) -> Path:
    """Add one row to the study CSV: the old rows plus the new one written to a temporary file,
    fsynced, then renamed over the old file (a reader sees the old or the new file, never half;
    no row is lost). Raises ValueError for a file that is not a study CSV."""
    path = Path(path)
    frame = pl.concat([read_rows(path), pl.DataFrame([row], schema=schema())])
    buffer = io.BytesIO()
    frame.write_csv(buffer)
    return replace_file(path, buffer.getvalue())


def summary(rows: pl.DataFrame) -> pl.DataFrame:
    """Per condition: games, wins, draws, losses, mean points margin, decision time (median
    of all decisions' per-game medians, and mean), each questionnaire item's mean and the mean
    raw TLX (games without answers are left out of those means)."""
    items = [pl.col(i).mean().alias(i) for i in (*PARTNER_ITEMS, "tlx_raw")]
    return (
        rows.group_by("condition", maintain_order=True)
        .agg(
            pl.len().alias("games"),
            (pl.col("result") == "win").sum().alias("wins"),
            (pl.col("result") == "draw").sum().alias("draws"),
            (pl.col("result") == "loss").sum().alias("losses"),
            (pl.col("score_own") - pl.col("score_other")).mean().alias("margin"),
            pl.col("decision_median_s").median().alias("decision_median_s"),
            pl.col("decision_mean_s").mean().alias("decision_mean_s"),
            pl.col("fluency").is_not_null().sum().alias("answered"),
            *items,
        )
        .sort("condition")
    )
