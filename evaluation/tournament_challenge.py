"""The challenger protocol (paper seed 000, section 5.2): a challenger plays every member of a
tournament's field on the same terms (maps, mirrored rosters, games a pair, side-swapped pairs);
all games of the folder are refitted together, and if the challenger's fitted Elo is above the
lowest-rated field member's, it takes that member's place.

The field's manifest keeps the whole story: `entrants` (everyone who ever played, with their
spec), `field` (the current members), `matchups` (every matchup with its seeds), `challenges`
(each challenge, its root seed, the field it met and the decision) and `history` (entered,
left, not admitted, with the time). The challenge's root seed is drawn when it is opened
(unless given) and published there before any game; a rerun of the same challenge resumes.
"""

import secrets
from pathlib import Path

from engine.constants import RULES_VERSION
from evaluation import tournament_store as store
from evaluation.seeds import ROOT_SEED_LIMIT
from evaluation.tournament import _now, check_entrants, parse_entrants, plan_matchups


def _challenge_of(manifest: dict, name: str) -> dict | None:
    found = [c for c in manifest.get("challenges", []) if c["name"] == name]
    return found[-1] if found else None


def open_challenge(folder, item: str, seed: int | None = None) -> tuple[dict, dict]:
    """Add the challenger NAME=SPEC to the field's manifest (or find its open challenge);
    returns (manifest, challenge record). Raises ValueError: no field here, the name already
    played with another spec, or a spec that differs from the open challenge's."""
    folder = Path(folder)
    manifest = store.read_manifest(folder)
    if manifest is None:
        raise ValueError(f"--field {folder}: no {store.MANIFEST}; run `mbg tournament run` first")
    if manifest.get("rules_version") != RULES_VERSION:  # a rating mixes no two rule sets
        raise ValueError(
            f"--field {folder}: its games were played under rules version "
            f"{manifest.get('rules_version')!r}; this engine runs {RULES_VERSION!r} (RULES.md 8)"
        )
    ((name, spec),) = parse_entrants([item]).items()
    challenge = _challenge_of(manifest, name)
    if challenge is not None:
        if challenge["spec"] != spec:
            raise ValueError(
                f"--challenger {item!r}: {name!r} challenged before as {challenge['spec']!r}"
            )
        return manifest, challenge
    if name in manifest["entrants"]:
        raise ValueError(f"--challenger {item!r}: {name!r} already played in this field")
    check_entrants({name: spec})  # the manifest keeps the challenger: its System must load
    if seed is None:
        seed = secrets.randbelow(ROOT_SEED_LIMIT)
    games = manifest["games_per_pair"]
    first_id = max(m["id"] for m in manifest["matchups"]) + 1
    field = list(manifest["field"])
    stage = f"challenge:{name}"
    matchups = plan_matchups([(name, member) for member in field], games, seed, first_id, stage)
    challenge = {"name": name, "spec": spec, "seed": seed, "field": field, "decided": False}
    manifest["entrants"][name] = spec
    manifest["matchups"] += matchups
    manifest.setdefault("challenges", []).append(challenge)
    manifest["history"].append({"event": "challenged", "name": name, "when": _now()})
    store.write_manifest(folder, manifest)
    return manifest, challenge


def challenge_matchups(manifest: dict, challenge: dict) -> list[dict]:
    """The matchups the challenger plays."""
    stage = f"challenge:{challenge['name']}"
    return [m for m in manifest["matchups"] if m["stage"] == stage]


def decide(folder, manifest: dict, challenge: dict, ratings) -> dict:
    """Record the decision from the refit of every game (a rating.Ratings on one scale):
    the challenger replaces the lowest-rated member of the field it met when it rates above
    it. Writes the manifest; returns the challenge record."""
    elo = dict(zip(ratings.entrants, ratings.elo.tolist(), strict=True))
    name, field = challenge["name"], challenge["field"]
    lowest = min(field, key=lambda member: (elo[member], member))
    replaced = elo[name] > elo[lowest]
    when = _now()
    challenge.update(
        decided=True,
        challenger_elo=elo[name],
        lowest=lowest,
        lowest_elo=elo[lowest],
        replaced=lowest if replaced else None,
        when=when,
    )
    if replaced:
        manifest["field"] = [m for m in manifest["field"] if m != lowest] + [name]
        manifest["history"] += [
            {"event": "left", "name": lowest, "stage": f"challenge:{name}", "when": when},
            {"event": "entered", "name": name, "stage": f"challenge:{name}", "when": when},
        ]
    else:
        manifest["history"].append({"event": "not admitted", "name": name, "when": when})
    store.write_manifest(Path(folder), manifest)
    return challenge
