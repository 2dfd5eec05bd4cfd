"""A four-tick 3v3 game built by hand, every number worked out from RULES 4 (no engine).

Team A (west): slot 0 Mage, 1 Warrior, 2 Priest. Team B (east): 5 Hunter, 6 Rogue, 7 Priest.
The game starts mid-fight (Mage 32 hp, Priest 90 hp, Rogue 50 hp, slot 7 dead); the horizon
is 4 ticks, so it ends truncated at 1-0: a draw.

    y=6   . . . . . . . . R6. . . . . . . . . .          R6 (9, 6)
    y=5   . . . . . . P2. M0W1. H5. . . . . . P7.        M0 (8, 5) W1 (9, 5) P2 (6, 5)
          0         5         10        15      20       H5 (11, 5); zones x<=4 and x>=16

t0  M0 Basic R6 (13 x 1.15 = 14.95); W1 Basic R6 (8 x 1.15 = 9.2); H5 Basic W1 (6 x 0.85 = 5.1,
    Hunter slow); R6 Poison M0 (36 x 0.85 = 30.6, poison slow/stun, anti-heal); P2 heals M0 8
    (Freedom) -> M0 9.4; P2 regenerates 4 (out of combat); P2 walks 1 east; slot 7 fallback.
t1  M0 stunned. W1 Charges H5 (20 x 1.15 = 23, lands at (10, 5)); H5 Traps W1 (10 x 0.85 = 8.5);
    R6 Basic M0 (10.2 >= 9.4 hp) while P2's Holy Word (200 -> 100 anti-heal) rescues M0 to 80
    (realised heal 80.8, overheal 19.2); both waves fire, slot 7 respawns shielded at (18.5, 5).
t2  M0 Bursts and walks 0.5 west; W1 trapped, H5 stunned (its attack is rejected); R6 Basic W1
    (10.2) breaks the Trap; P2 heals M0 (8 -> 4 anti-heal, all overheal, Freedom); 7 walks 2 west.
t3  M0 Basic R6 in Burst (13 x 1.5 x 1.15 = 22.425), W1 Basic R6 (8): 30.425 on 25.85 hp kills
    R6 (overkill 4.575, A scores 1); H5 Basic W1 (5.1); R6 Basic W1 (10.2); P2 heals W1 8.
"""

import numpy as np

from evaluation.replay_schema import EVENT_FIELDS, STATE_FIELDS

T = 4
A0, A1, A2, B5, B6, B7 = 0, 1, 2, 5, 6, 7
R = 25.85 / 30.425  # share of R6's last damage that was realised


def _zeros(fields: dict, lead: int) -> dict:
    return {k: np.zeros((lead, *shape), dtype) for k, (shape, dtype) in fields.items()}


def _states() -> dict:
    s = _zeros(STATE_FIELDS, T + 1)
    s["class_id"][:] = [1, 2, 5, 0, 0, 3, 4, 5, 0, 0]
    s["active"][:] = s["class_id"][0] > 0
    s["red_zones"][:] = [[0, 0, 4, 10], [16, 0, 20, 10]]
    s["alive"][:4] = [[1, 1, 1, 0, 0, 1, 1, 0, 0, 0]] * 2 + [[1, 1, 1, 0, 0, 1, 1, 1, 0, 0]] * 2
    s["alive"][4] = [1, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    pos = {0: [(8, 5)] * 2 + [(8, 5), (7.5, 5), (7.5, 5)], 1: [(9, 5)] * 2 + [(10, 5)] * 3}
    pos |= {2: [(6, 5)] + [(7, 5)] * 4, 5: [(11, 5)] * 5, 6: [(9, 6)] * 5}
    pos[7] = [(15, 5), (15, 5), (18.5, 5), (16.5, 5), (14.5, 5)]
    for slot, track in pos.items():
        s["pos"][:, slot] = track
    health = {0: [32, 9.4, 80, 80, 80], 1: [200, 194.9, 186.4, 176.2, 168.9]}
    health |= {2: [90, 94, 94, 94, 94], 5: [100, 100, 77, 77, 77], 6: [50, 25.85, 25.85, 25.85, 0]}
    health[7] = [0, 0, 100, 100, 100]
    for slot, track in health.items():
        s["health"][:, slot] = track
    s["cooldown"][1:, 6] = [30, 29, 28, 27]
    s["cooldown"][2:, [1, 2, 5]] = [[30, 30, 30], [29, 29, 29], [28, 28, 28]]
    s["cooldown"][3:, 0] = [30, 29]
    _status_counters(s["status"])
    s["shield"][2:, 7] = [3, 2, 1]
    s["ooc"][1] = [5, 5, 0, 0, 0, 5, 3, 0, 0, 0]
    s["ooc"][2] = [5, 5, 5, 0, 0, 5, 3, 0, 0, 0]
    s["ooc"][3] = [5, 5, 5, 0, 0, 4, 3, 0, 0, 0]
    s["ooc"][4] = [5, 5, 5, 0, 0, 5, 0, 0, 0, 0]
    s["score"][4] = [1, 0]
    s["outcome"][4] = 3
    s["tick"][:] = np.arange(T + 1)
    return s


def _status_counters(st: np.ndarray) -> None:
    # channels: 0 charge_slow 1 hunter_slow 2 poison_slow 3 charge_stun 4 trap_stun
    #           5 poison_stun 6 anti_heal 7 burst 8 freedom
    st[1, A0, [2, 5, 6, 8]] = [5, 1, 4, 1]
    st[1, A1, 1] = 1
    st[2, A0, [2, 6]] = [4, 3]
    st[2, A1, 4] = 4
    st[2, B5, [0, 3]] = [5, 1]
    st[3, A0, [2, 6, 7, 8]] = [3, 2, 5, 1]
    st[3, B5, 0] = 4
    st[4, A0, [2, 6, 7]] = [2, 1, 4]
    st[4, A1, [1, 8]] = [1, 1]
    st[4, B5, 0] = 3


# (tick, source, recipient, raw, source stage, recipient stage, realised)
DAMAGE = [
    (0, A0, B6, 13, 14.95, 14.95, 14.95),
    (0, A1, B6, 8, 9.2, 9.2, 9.2),
    (0, B5, A1, 6, 6, 5.1, 5.1),
    (0, B6, A0, 36, 36, 30.6, 30.6),
    (1, A1, B5, 20, 23, 23, 23),
    (1, B5, A1, 10, 10, 8.5, 8.5),
    (1, B6, A0, 12, 12, 10.2, 10.2),
    (2, B6, A1, 12, 12, 10.2, 10.2),
    (3, A0, B6, 13, 22.425, 22.425, 22.425 * R),
    (3, A1, B6, 8, 8, 8, 8 * R),
    (3, B5, A1, 6, 6, 5.1, 5.1),
    (3, B6, A1, 12, 12, 10.2, 10.2),
]
# (tick, source, recipient, raw, recipient stage, realised)
HEALS = [(0, A2, A0, 8, 8, 8), (1, A2, A0, 200, 100, 80.8), (2, A2, A0, 8, 4, 0)]
HEALS += [(3, A2, A1, 8, 8, 8)]
# (tick, source, lane, recipient)
ACTIONS = [(0, A0, 1, B6), (0, A1, 1, B6), (0, A2, 1, A0), (0, B5, 1, A1), (0, B6, 2, A0)]
ACTIONS += [(1, A1, 2, B5), (1, A2, 2, A0), (1, B5, 2, A1), (1, B6, 1, A0)]
ACTIONS += [(2, A0, 2, -1), (2, A2, 1, A0), (2, B6, 1, A1)]
ACTIONS += [(3, A0, 1, B6), (3, A1, 1, B6), (3, A2, 1, A1), (3, B5, 1, A1), (3, B6, 1, A1)]
MAGE_COVER = {0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1, 2], 3: [0, 2]}  # tick -> covered by M0
WARRIOR_COVER = {0: [0, 1], 1: [0, 1, 2], 2: [0, 1], 3: [1]}  # tick -> covered by W1
# (tick, slot, channel) status events
APPLIED = [(0, A1, 1), (0, A0, 2), (0, A0, 5), (0, A0, 6), (0, A0, 8), (1, A1, 4), (1, B5, 0)]
APPLIED += [(1, B5, 3), (2, A0, 8), (2, A0, 7), (3, A1, 8), (3, A1, 1)]
EXPIRED = [(1, A0, 5), (1, A0, 8), (1, A1, 1), (2, B5, 3), (3, A0, 8)]
BROKEN = [(2, A1, 4)]


def _events() -> dict:
    e = _zeros(EVENT_FIELDS, T)
    e["recipient"][:] = -1
    for t, s, lane, rec in ACTIONS:
        e["lane"][t, s], e["recipient"][t, s] = lane, rec
        e["accepted"][t, s, 2] = lane == 2
        e["cooldown_started"][t, s] = lane == 2
    for t, s, r, *stages in DAMAGE:
        for name, value in zip(("raw", "source", "recipient", "realised"), stages, strict=True):
            e[f"damage_{name}"][t, s, r] = value
    for t, s, r, *stages in HEALS:
        for name, value in zip(("raw", "recipient", "realised"), stages, strict=True):
            e[f"heal_{name}"][t, s, r] = value
    e["aura_out"][:], e["aura_in"][:] = 1.0, 1.0
    for t in range(T):
        e["mage_cover"][t, A0, MAGE_COVER[t]] = True
        e["warrior_cover"][t, A1, WARRIOR_COVER[t]] = True
        e["aura_out"][t, MAGE_COVER[t]] = 1.15
        e["aura_in"][t, WARRIOR_COVER[t]] = 0.85
    for name, table in (("applied", APPLIED), ("expired", EXPIRED), ("broken", BROKEN)):
        for t, s, k in table:
            e[f"status_{name}"][t, s, k] = True
    e["accepted"][0, A2, 0] = 3  # P2 walks east
    e["accepted"][2, A0, 0] = 4  # M0 walks west
    e["accepted"][2:, B7, 0] = 3  # slot 7 walks west in the world: "east" in its mirrored frame
    e["move"][0, A2] = [1, 0]
    e["move"][2, A0] = [-0.5, 0]
    e["move"][2:, B7] = [-2, 0]
    e["charge_move"][1, A1] = [1, 0]
    e["regen"][0, A2] = 4
    for t, slots in enumerate(([0, 1, 5, 6], [0, 1, 2, 5, 6], [0, 1, 2, 6], [0, 1, 2, 5, 6])):
        e["ooc_reset"][t, slots] = True
    e["died"][3, B6] = True
    e["lethal"][3, [A0, A1], B6] = True
    e["respawned"][1, B7] = True
    e["wave"][1] = True
    e["score_delta"][3] = [1, 0]
    e["outcome"][3] = 3
    e["truncated"][3] = True
    e["rejected"][2, B5, 2] = True  # stunned Hunter tried to attack
    e["fallback"][0, B7] = True
    return e


def _sight(states: dict) -> np.ndarray:
    """Who saw whom: everyone in range (6, Hunter 6.5); enemies never see a shielded unit."""
    visible = np.zeros((T + 1, 10, 10), bool)
    for t in range(T + 1):
        alive = states["alive"][t]
        for i in np.flatnonzero(alive):
            sight = 6.5 if states["class_id"][t, i] == 3 else 6.0
            for j in np.flatnonzero(alive):
                enemy = (i < 5) != (j < 5)
                far = np.linalg.norm(states["pos"][t, i] - states["pos"][t, j]) > sight
                visible[t, i, j] = not far and not (enemy and states["shield"][t, j] > 0)
    return visible


def hand_game() -> dict:
    """The game as replay parts: states, events, visible, relayed, header."""
    states = _states()
    visible = _sight(states)
    relayed = np.zeros_like(visible)
    relayed[2, B7, [0, 1, 2, 5, 6]] = True  # B7's mates saw these at tick 1
    relayed[3, B7, [0, 1, 2, 6]] = True
    relayed[3, B6, B7] = True  # B7 saw itself at tick 2
    relayed[4, B7, [0, 1, 2]] = True
    header = {"game_id": "hand", "roster": states["class_id"][0].tolist(), "team_sizes": [3, 3]}
    return {"states": states, "events": _events(), "visible": visible, "relayed": relayed,
            "header": header}  # fmt: skip
