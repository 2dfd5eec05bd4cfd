"""Golden traces recorded from the original engine, replayed against ours (shared/goldens).

The traces (format `mbg-golden-trace/1`, described in `shared/goldens/README.md`) give a
configuration, a start state and, for every tick, the submitted actions and the oracle's
resulting state. This module loads them into `engine.authored_state` arguments, replays them
one tick at a time from each recorded state or as whole traces, and measures how far our
positions are from the oracle's. The tests in test_engine_goldens.py assert on it; run

    python -m tests.engine.goldens

for the per-trace table that RULES.md section 8 quotes.
"""

import functools
import json
import os
import pathlib

import jax
import numpy as np

import engine
from engine import constants as C
from engine import movement
from engine.types import Actions, Config

ROOT = pathlib.Path(__file__).resolve().parents[2]
# CI checks shared/ out beside the clone; MBG_GOLDENS points elsewhere (a git worktree).
GOLDENS = pathlib.Path(os.environ.get("MBG_GOLDENS", ROOT.parent / "shared" / "goldens"))
FORMAT = "mbg-golden-trace/1"
STATUS_KEYS = (
    "warrior_charge_slow",
    "hunter_basic_slow",
    "rogue_poison_slow",
    "warrior_charge_stun",
    "hunter_trap_stun",
    "rogue_poison_stun",
    "rogue_poison_anti_heal",
    "mage_burst_damage_amplification",
    "priest_blessing_of_freedom_movement_floor",
)  # the oracle's channel order, which is C.STATUS_NAMES's
# The oracle's fixed-pass solver leaves a body wedged in a too-narrow gap overlapping the
# earlier obstacle by about 0.02 (the README's C14 note); its recorded states are loaded with
# this much slack rather than rejected.
ORACLE_OVERLAP = 0.05
POS_TOL = 1e-4  # map units: ticks where both movement schemes agree
MIRROR_MOVE = np.asarray(C.MIRROR_MOVE)
EAST = np.arange(C.NUM_SLOTS) >= C.TEAM_SIZE  # Team A spawns west in every trace


def trace_paths() -> list[pathlib.Path]:
    return sorted(GOLDENS.glob("*.json"))


@functools.cache
def load(path: pathlib.Path) -> dict:
    doc = json.loads(path.read_text())
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path}: format {doc.get('format')!r}, expected {FORMAT!r}")
    return doc


def config_of(doc: dict) -> Config:
    c = doc["config"]
    periods = c["respawn_wave_period"]
    if periods[0] != periods[1]:
        raise ValueError(f"{doc['name']}: config.respawn_wave_period {periods} differ by team")
    return Config(
        score_threshold=c["score_threshold"],
        horizon=c["horizon"],
        wave_period=periods[0],
        shield_ticks=c["spawn_shield_ticks"],
        shield_speed=c["spawn_shield_speed"],
        move_scale=c["movement_scale"],
    )


def layout(doc: dict) -> dict:
    """The fixed fields: obstacles in the oracle's slot order, pads, no Red Zone (width 0)."""
    c = doc["config"]
    table = np.zeros((C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    for row in c["obstacles"]:
        keys = ("type", "x", "y", "radius", "width", "height", "theta")
        table[row["slot"]] = [row[k] for k in keys] + [1.0]
    return dict(
        obstacles=table,
        pads=np.asarray(c["pads"], np.float32).reshape(C.NUM_SLOTS, 2),
        red_zones=np.zeros((C.NUM_TEAMS, 4), np.float32),
        class_id=np.asarray(c["class_ids"], np.int32),
        spawn_end=0,
    )


def state_args(doc: dict, state: dict, prev_action=None) -> dict:
    """`engine.authored_state` keyword arguments for one recorded state."""
    prev = state.get("prev_action")
    if prev is not None:
        heads = (prev["move"], prev["target"], prev["ultimate"])
        prev_action = np.stack(heads, 1) if prev["valid"] else None
    return dict(
        layout(doc),
        pos=np.stack([state["x"], state["y"]], 1).astype(np.float32),
        health=np.asarray(state["health"], np.float32),
        alive=np.asarray(state["alive"], bool),
        cooldown=state["cooldown"],
        status=np.stack([state["status"][k] for k in STATUS_KEYS], 1),
        shield=state["spawn_shield"],
        ooc=state["ooc_countdown"],
        wave_clock=state["wave_countdowns"],
        score=state["scores"],
        tick=state["step"],
        prev_action=prev_action,
    )


def states(doc: dict) -> list[dict]:
    """Every recorded state as authored_state arguments: the start, then one per tick."""
    out = [state_args(doc, doc["initial_state"])]
    for tick in doc["ticks"]:
        accepted = np.stack([tick["accepted"][k] for k in ("move", "target", "ultimate")], 1)
        out.append(state_args(doc, tick["state"], prev_action=accepted))
    return out


def build(config: Config, args: dict):
    return engine.authored_state(config, overlap_tolerance=ORACLE_OVERLAP, **args)


def actions(tick: dict) -> Actions:
    """The submitted heads in our team frame (the oracle's moves are world directions)."""
    a = tick["action"]
    move = np.asarray(a["move"], np.int32)
    in_domain = (move >= 0) & (move < C.NUM_MOVES)
    move = np.where(EAST & in_domain, MIRROR_MOVE[np.clip(move, 0, 8)], move).astype(np.int32)
    return Actions(
        move=move,
        target=np.asarray(a["target"], np.int32),
        ult=np.asarray(a["ultimate"], np.int32),
    )


def world_accepted(events) -> np.ndarray:
    """Our accepted heads (10, 3) with the move back in world directions."""
    acc = np.array(events.accepted)
    acc[:, 0] = np.where(EAST, MIRROR_MOVE[acc[:, 0]], acc[:, 0])
    return acc


def legal_masks(state: dict) -> tuple[np.ndarray, np.ndarray]:
    """The oracle's masks: move (10, 9) and joint (10, 22) bool, index target * 2 + ult."""
    legal = state["legal"]
    move = np.array([[ch == "1" for ch in row] for row in legal["move"]])
    joint = np.array([[ch == "1" for ch in row] for row in legal["joint"]])
    return move, joint


@functools.cache
def jitted(config: Config):
    step = jax.jit(engine.step_env, static_argnums=0)
    observe = jax.jit(engine.observe, static_argnums=0)
    return (lambda s, a: step(config, s, a)), (lambda s: observe(config, s))


DISCRETE = ("alive", "cooldown", "status", "shield", "ooc", "wave_clock", "score", "tick")


def compare(ours, oracle: dict) -> dict:
    """Field -> first mismatching slot text for the discrete fields and health (bits)."""
    bad = {}
    for name in DISCRETE + ("health",):
        a = np.asarray(getattr(ours, name))
        b = np.asarray(oracle[name]).astype(a.dtype)  # floats: already float32
        if a.tobytes() != b.tobytes():
            where = tuple(np.argwhere(a != b)[0]) if a.ndim else ()
            bad[name] = f"at {list(where)}: ours {a[where]!r}, oracle {b[where]!r}"
    return bad


FREE = 1e-5  # map units a body may deviate from its free path and still count as unobstructed


def contact(config: Config, start: dict, ours, events, oracle: dict, tick: dict) -> np.ndarray:
    """Which bodies met something this tick in either engine (RULES 8): (10,) bool. True for a
    body alive at tick start that did not end exactly on its free path (start + Charge
    displacement + speed x direction) in our result or in the oracle's, or whose two Charge
    displacements differ: it touched a body, an obstacle or the edge, or a Charge pushed it,
    and the two movement schemes may disagree. Every other body moved freely in both."""
    movers = np.asarray(start["alive"]) & (np.asarray(start["class_id"]) > 0)
    world_move = np.asarray(tick["accepted"]["move"])
    spd = np.asarray(
        movement.speed(
            start["status"] > 0,
            np.asarray(start["shield"]),
            start["class_id"],
            movers,
            config.shield_speed,
            config.move_scale,
        )
    )
    walk = spd[:, None] * C.MOVE_VECTORS[world_move]
    charge = np.zeros((C.NUM_SLOTS, 2), np.float32)
    for slot, dx, dy in tick["facts"]["charge_displacement"]:
        charge[int(slot)] = (dx, dy)
    ours_charge = np.asarray(events.charge_move)
    ours_off = np.asarray(ours.pos) - (start["pos"] + ours_charge + walk)
    oracle_off = oracle["pos"] - (start["pos"] + charge + walk)
    off = np.abs(np.stack([ours_off, oracle_off, ours_charge - charge])).max(axis=(0, 2))
    return movers & (off > FREE)


@functools.cache
def per_tick(path: pathlib.Path) -> list[dict]:
    """Every tick stepped from the oracle's recorded state. One record a tick: `bad` (field ->
    mismatch text: discrete fields, health bits, acceptance, reward, outcome), the largest
    position error (map units) of the bodies that moved freely and of those in contact
    (`contact`), and how many bodies were in contact out of how many alive."""
    doc = load(path)
    config = config_of(doc)
    step, observe = jitted(config)
    recorded = states(doc)
    out = []
    for t, tick in enumerate(doc["ticks"]):
        start, oracle = recorded[t], recorded[t + 1]
        state = build(config, start)
        obs, nxt, reward, events = jax.device_get(step(state, actions(tick)))
        bad = compare(nxt, oracle)
        accepted = np.stack([tick["accepted"][k] for k in ("move", "target", "ultimate")], 1)
        if not np.array_equal(world_accepted(events), accepted):
            bad["accepted"] = f"ours {world_accepted(events).tolist()}, oracle {accepted.tolist()}"
        if not np.array_equal(reward, np.asarray(tick["reward"], np.float32)):
            bad["reward"] = f"ours {reward.tolist()}, oracle {tick['reward']}"
        if int(events.outcome) != tick["outcome"]:
            bad["outcome"] = f"ours {int(events.outcome)}, oracle {tick['outcome']}"
        for name in ("terminated", "truncated"):
            if bool(getattr(events, name)) != tick[name]:
                bad[name] = f"ours {bool(getattr(events, name))}, oracle {tick[name]}"
        error = np.abs(np.asarray(nxt.pos) - oracle["pos"]).max(axis=1)
        error = np.where(np.asarray(start["alive"]), error, 0.0)  # corpses are non-physical
        touched = contact(config, start, nxt, events, oracle, tick)
        out.append(
            dict(
                t=tick["t"],
                bad=bad,
                free_error=float(error[~touched].max(initial=0.0)),
                contact_error=float(error[touched].max(initial=0.0)),
                contact_errors=error[touched].tolist(),
                contact=int(touched.sum()),
                bodies=int(np.sum(np.asarray(start["alive"]))),
            )
        )
    return out


def mask_mismatches(path: pathlib.Path) -> list[str]:
    """Our masks of every recorded state against the oracle's `legal`. A final state that
    ended the game (scores past the threshold) is no valid start, so its masks are those of
    our own step into it."""
    doc = load(path)
    config = config_of(doc)
    step, observe = jitted(config)
    records = [doc["initial_state"]] + [tick["state"] for tick in doc["ticks"]]
    recorded = states(doc)
    bad = []
    for t, (args, record) in enumerate(zip(recorded, records, strict=True)):
        if t and doc["ticks"][t - 1]["outcome"] != C.ONGOING:
            obs = step(build(config, recorded[t - 1]), actions(doc["ticks"][t - 1]))[0]
        else:
            obs = observe(build(config, args))
        mask = jax.device_get(obs.mask)
        move, joint = legal_masks(record)
        ours_joint = np.asarray(mask.pair).reshape(C.NUM_SLOTS, 2 * C.NUM_TARGETS)
        if not np.array_equal(np.asarray(mask.move), move):
            bad.append(f"state {t}: move mask")
        if not np.array_equal(ours_joint, joint):
            bad.append(f"state {t}: joint mask")
    return bad


def whole_trace(path: pathlib.Path) -> dict:
    """The trace replayed from its start state only: the first tick at which any discrete
    field or health differs (None if never) and the largest position difference (map units)."""
    doc = load(path)
    config = config_of(doc)
    step, _ = jitted(config)
    recorded = states(doc)
    state = build(config, recorded[0])
    first, drift = None, 0.0
    for t, tick in enumerate(doc["ticks"]):
        _, state, _, _ = step(state, actions(tick))
        host = jax.device_get(state)
        oracle = recorded[t + 1]
        if first is None and compare(host, oracle):
            first = tick["t"]
        alive = np.asarray(oracle["alive"]) & np.asarray(host.alive)
        drift = max(drift, float(np.abs(host.pos - oracle["pos"])[alive].max(initial=0.0)))
    return dict(first_divergence=first, max_drift=drift, ticks=len(doc["ticks"]))


def report() -> None:
    """Print the per-tick and whole-trace figures of every trace."""
    print(f"{'trace':38} {'ticks':>5} {'contact':>9} {'free err':>9} {'contact err':>11}", end="")
    print(f" {'bad':>4} {'whole: 1st diff':>15} {'drift':>7}")
    worst_free = worst_contact = 0.0
    touched = total = 0
    for path in trace_paths():
        ticks = per_tick(path)
        free = max(r["free_error"] for r in ticks)
        hit = max(r["contact_error"] for r in ticks)
        worst_free, worst_contact = max(worst_free, free), max(worst_contact, hit)
        n_contact, n_bodies = sum(r["contact"] for r in ticks), sum(r["bodies"] for r in ticks)
        touched, total = touched + n_contact, total + n_bodies
        bad = sum(bool(r["bad"]) for r in ticks)
        whole = whole_trace(path)
        first = "-" if whole["first_divergence"] is None else str(whole["first_divergence"])
        print(
            f"{path.stem[:38]:38} {len(ticks):5} {n_contact:4}/{n_bodies:<4} {free:9.2e}"
            f" {hit:11.2e} {bad:4} {first:>15} {whole['max_drift']:7.4f}"
        )
    errors = np.asarray(
        [e for p in trace_paths() for r in per_tick(p) for e in r["contact_errors"]]
    )
    print(f"bodies in contact: {touched} of {total} body-ticks; worst per-tick position error:")
    print(f"{worst_free:.2e} moving freely, {worst_contact:.4f} in contact (map units)")
    if len(errors):
        q = np.quantile(errors, [0.5, 0.9, 0.99])
        print(
            f"in contact: {np.mean(errors <= POS_TOL):.1%} within {POS_TOL:g}, median {q[0]:.2e},"
            f" 90% {q[1]:.4f}, 99% {q[2]:.4f}"
        )


if __name__ == "__main__":
    report()
