"""Validation checks during training and the selection of the final policy (paper seed 000,
S6.3: baselines selected by validation checks against a fixed panel of opponents).

A check exports the learner's current policy to `RUN/validation/policy_<env-steps>.msgpack`
and plays `games` side-swapped games (cli.train.evaluate: half as Team A, half as Team B,
spawn ends alternating) against every member of the panel on the validation maps (42-46). Its
score is the point margin: points for minus points against per game, averaged over the panel.
Each check is one line of `RUN/validation.jsonl`; only the policies of the `keep` best checks
(and the latest) stay on disk.

`select_policy` picks the check with the best margin (the later one on a tie) and writes it as
a released-style checkpoint (policy file, `<name>.config.json` and `<name>.selection.json`:
the check's record and every check's margin), never over an existing file.
"""

import json
from pathlib import Path

from evaluation.replay import write_new_file

RECORDS = "validation.jsonl"


def read_checks(out: Path) -> list[dict]:
    """The run's validation records, in order (empty when none). Raises ValueError naming
    the file and line of a bad record."""
    path = Path(out) / RECORDS
    if not path.exists():
        return []
    checks = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
            float(record["margin"]), int(record["env_steps"]), str(record["policy"])
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}: line {number}: not a validation record: {error}") from None
        checks.append(record)
    return checks


def _write_checks(out: Path, checks: list[dict]) -> None:
    """Replace the records file atomically (a temporary file renamed over it)."""
    path = Path(out) / RECORDS
    temp = path.with_suffix(".jsonl.tmp")
    temp.write_text("".join(json.dumps(c) + "\n" for c in checks), encoding="utf-8")
    temp.replace(path)


def forget_after(out: Path, env_steps: int) -> None:
    """Drop checks made after `env_steps` (a resumed run redoes them from its checkpoint)."""
    checks = read_checks(out)
    kept = [c for c in checks if c["env_steps"] <= env_steps]
    if len(kept) != len(checks):
        _write_checks(out, kept)


def panel_margin(policy: Path, panel, games: int, seed: int = 0) -> dict:
    """Side-swapped games of the policy against each panel member on the validation maps:
    {"margin": mean over the panel of (points for - against) per game, "by_opponent":
    {member: {"margin", "win_rate", "draw_rate"}}}."""
    from cli.train import evaluate

    by_opponent = {}
    for member in panel:
        result = evaluate(f"checkpoint:{policy}", member, "validation", games, seed=seed)
        by_opponent[member] = {
            "margin": result["mean_points_for"] - result["mean_points_against"],
            "win_rate": result["win_rate"],
            "draw_rate": result["draw_rate"],
        }
    margin = sum(r["margin"] for r in by_opponent.values()) / len(by_opponent)
    return {"margin": margin, "by_opponent": by_opponent}


def run_check(out: Path, policy: Path, env_steps: int, panel, games: int, keep: int) -> dict:
    """Validate the exported `policy`, append its record and prune the policies of checks
    that are neither among the `keep` best nor the latest. Returns the record."""
    record = {"env_steps": int(env_steps), "policy": str(policy)}
    record.update(panel_margin(policy, panel, games))
    checks = [*read_checks(out), record]
    _write_checks(out, checks)
    best = sorted(checks, key=lambda c: (c["margin"], c["env_steps"]), reverse=True)[:keep]
    keep_paths = {c["policy"] for c in best} | {record["policy"]}
    for check in checks:
        if check["policy"] not in keep_paths:
            Path(check["policy"]).unlink(missing_ok=True)
    return record


def best_check(checks: list[dict]) -> dict:
    """The check with the highest margin, the later on a tie. Raises ValueError when none."""
    if not checks:
        raise ValueError(f"no validation checks ({RECORDS}); train with validate_every > 0")
    return max(checks, key=lambda c: (c["margin"], c["env_steps"]))


def select_policy(out: Path, dest: Path) -> dict:
    """Write the best check's policy as `dest` (a .msgpack path) with `<stem>.config.json`
    (the run's config) and `<stem>.selection.json` (its record and all margins). Raises
    FileExistsError when any of them exists, ValueError when the run has no checks."""
    out, dest = Path(out), Path(dest)
    checks = read_checks(out)
    best = best_check(checks)
    config_dest = dest.with_name(dest.stem + ".config.json")
    record_dest = dest.with_name(dest.stem + ".selection.json")
    for path in (dest, config_dest, record_dest):
        if path.exists():
            raise FileExistsError(f"{path}: exists; choose another --select path")
    if not Path(best["policy"]).exists():
        raise ValueError(f"{best['policy']}: the best check's policy file is missing")
    dest.parent.mkdir(parents=True, exist_ok=True)
    selection = {
        "run": str(out),
        "selected": best,
        "rule": "highest validation point margin over the panel (later check on a tie)",
        "checks": [{"env_steps": c["env_steps"], "margin": c["margin"]} for c in checks],
    }
    refusal = "exists; choose another --select path"
    write_new_file(dest, Path(best["policy"]).read_bytes(), refusal)
    write_new_file(config_dest, (out / "config.json").read_bytes(), refusal)
    write_new_file(record_dest, (json.dumps(selection, indent=2) + "\n").encode(), refusal)
    return selection
