"""The 52 map designs (west half only; the loader mirrors about x = 10): the curriculum,
validation and test designs here, the training pool's in maps/designs_train.py. See maps/README.md.

Coordinates are map units, x east from the west edge, y north; angles in degrees, CCW.
Seeds for the scattered maps are fixed, so `maps/generate.py` always writes the same files.
"""

from maps.designs_train import TRAIN
from maps.shapes import P, W, arc, box, design, scatter, seg


def _rubble():
    centre = [P(10, 5, 0.7)]
    walls = scatter(1049, 5, lengths=(0.8, 1.5), placed=centre)
    return walls + scatter(2049, 5, (0.3, 0.55), placed=centre + walls) + centre


def _cluster(x, y, r=0.45):
    """Three touching pillars in a triangle around (x, y): one solid piece of round cover."""
    return arc(x, y, 0.55, [90, 210, 330], r)


CURRICULUM = [
    design(
        0,
        "open_field",
        "Open Field",
        "Nothing in the way: learn to move, aim and time the Ultimate.",
        [],
        1,
    ),
    design(
        1,
        "lone_pillar",
        "Lone Pillar",
        "One pillar at the centre: the first line of sight to break.",
        [P(10, 5, 1.0)],
        1,
    ),
    design(
        2,
        "twin_posts",
        "Twin Posts",
        "Two posts flank the middle; duel around them.",
        [P(7, 5, 0.8)],
        2,
    ),
    design(
        3,
        "centre_wall",
        "Centre Wall",
        "A short wall splits the middle; a post on each southern flank.",
        [W(10, 5, 0.6, 3.0), P(6.5, 2.5, 0.6)],
        2,
    ),
    design(
        4,
        "four_posts",
        "Four Posts",
        "Four posts around open middle ground, two more on the centre line.",
        [P(6.5, 3, 0.7), P(6.5, 7, 0.7), P(10, 1.8, 0.6), P(10, 8.2, 0.6)],
        3,
    ),
    design(
        5,
        "cover_line",
        "Cover Line",
        "A low wall in front of each team and a pillar to fight around.",
        [W(7, 5, 0.5, 2.6), P(5, 2, 0.6), P(5, 8, 0.6), P(10, 5, 0.9)],
        3,
    ),
    design(
        6,
        "diamond",
        "Diamond",
        "Four slanted walls form a diamond with four doors around the centre.",
        [seg(7.6, 5.7, 9.2, 7.2), seg(7.6, 4.3, 9.2, 2.8), P(5, 2.5, 0.5), P(5, 7.5, 0.5)],
        3,
    ),
    design(
        7,
        "crossroads",
        "Crossroads",
        "Big blocks leave a cross of corridors; posts guard the crossing.",
        [
            box(4.5, 0, 8, 3.2),
            box(4.5, 6.8, 8, 10),
            P(10, 5, 0.8),
            P(10, 1.5, 0.5),
            P(10, 8.5, 0.5),
            P(6.2, 5, 0.45),
        ],
        4,
    ),
    design(
        8,
        "pillar_grove",
        "Pillar Grove",
        "Twelve pillars spread over the field: cover everywhere, walls nowhere.",
        [
            P(4.5, 2, 0.5),
            P(4.5, 8, 0.5),
            P(6.3, 5, 0.6),
            P(7.8, 2.8, 0.5),
            P(7.8, 7.2, 0.5),
            P(3.6, 5, 0.4),
        ],
        4,
    ),
    design(
        9,
        "bunkers",
        "Bunkers",
        "Bracket-shaped bunkers in front of each base; a wall and posts on the centre line.",
        [
            W(5.5, 3.0, 2.0, 0.4),
            W(6.3, 3.7, 0.4, 1.0),
            W(5.5, 7.0, 2.0, 0.4),
            W(6.3, 6.3, 0.4, 1.0),
            W(10, 5, 0.5, 2.4),
            P(10, 1.6, 0.5),
            P(10, 8.4, 0.5),
            P(3.3, 5, 0.45),
        ],
        5,
    ),
    design(
        10,
        "lanes",
        "Lanes",
        "Two long walls make three lanes that meet through gaps near the centre.",
        [
            W(5.6, 3.3, 3.6, 0.4),
            W(5.6, 6.7, 3.6, 0.4),
            W(10, 3.3, 2.4, 0.4),
            W(10, 6.7, 2.4, 0.4),
            P(6, 1.6, 0.45),
            P(6, 8.4, 0.45),
            P(8, 5, 0.5),
            W(3.2, 5, 0.4, 1.2),
        ],
        5,
    ),
    design(
        11,
        "fortress",
        "Fortress",
        "A walled keep at the centre with side doors, ringed by cover.",
        [
            W(10, 6.9, 3.4, 0.4),
            W(10, 3.1, 3.4, 0.4),
            W(8.5, 6.15, 0.4, 1.1),
            W(8.5, 3.85, 0.4, 1.1),
            P(10, 5, 0.45),
            P(6, 1.5, 0.5),
            P(6, 8.5, 0.5),
            P(6.3, 5, 0.55),
            W(3.5, 2.5, 0.4, 1.4),
            W(3.5, 7.5, 0.4, 1.4),
            seg(5.0, 6.6, 5.8, 7.4),
            seg(5.0, 3.4, 5.8, 2.6),
        ],
        5,
    ),
]

VALIDATION = [
    design(
        42,
        "arrowheads",
        "Arrowheads",
        "Arrowhead walls point at the centre; a diamond block holds it.",
        [
            seg(5.8, 1.8, 7, 2.8),
            seg(5.8, 3.8, 7, 2.8),
            seg(5.8, 6.2, 7, 7.2),
            seg(5.8, 8.2, 7, 7.2),
            W(10, 5, 1.2, 1.2, 45),
            P(4, 5, 0.45),
        ],
    ),
    design(
        43,
        "offset_gates",
        "Offset Gates",
        "Two walls with gates at opposite ends force an S-shaped route.",
        [
            W(5.5, 3.4, 0.4, 6.8),
            W(5.5, 9.5, 0.4, 1.0),
            W(8, 6.6, 0.4, 6.8),
            W(8, 0.5, 0.4, 1.0),
            P(10, 5, 0.7),
        ],
    ),
    design(
        44,
        "crescents",
        "Crescents",
        "A crescent of pillars shields each base; an open ring of six in the middle.",
        arc(4.6, 5, 2.4, [-60, -30, 0, 30, 60], 0.35) + arc(10, 5, 1.8, [120, 180, 240], 0.35),
    ),
    design(
        45,
        "archipelago",
        "Archipelago",
        "Round islands of many sizes, placed by hand.",
        [
            P(4.2, 2.2, 0.8),
            P(5.6, 6.4, 1.0),
            P(7.6, 3.4, 0.7),
            P(8.4, 8.2, 0.6),
            P(10, 5.6, 0.9),
            P(3.6, 8.4, 0.4),
            P(7.4, 1.0, 0.4),
        ],
    ),
    design(
        46,
        "tees",
        "Tees",
        "T-shaped walls face each other; wall stubs reach in from the long edges.",
        [
            W(6.2, 7.4, 2.2, 0.4),
            W(6.2, 6.4, 0.4, 1.6),
            W(6.2, 2.6, 2.2, 0.4),
            W(6.2, 3.6, 0.4, 1.6),
            W(10, 8.6, 0.4, 2.8),
            W(10, 1.4, 0.4, 2.8),
            P(10, 5, 0.6),
            P(3.8, 5, 0.4),
        ],
    ),
]

TEST = [
    design(
        47,
        "keep",
        "Keep",
        "An open octagonal keep at the centre with four diagonal doors.",
        [
            W(10, 7.3, 2.0, 0.4),
            W(10, 2.7, 2.0, 0.4),
            W(7.7, 5, 0.4, 1.9),
            P(6, 2, 0.6),
            P(6, 8, 0.6),
            P(10, 5, 0.5),
            W(3.6, 3.6, 0.4, 1.2),
            W(3.6, 6.4, 0.4, 1.2),
        ],
    ),
    design(
        48,
        "rubble",
        "Rubble",
        "Broken walls and boulders (seeds 1049, 2049) around a centre pillar.",
        _rubble(),
    ),
    design(
        49,
        "cloverleaf",
        "Cloverleaf",
        "Six tight clusters of three pillars around a central pillar.",
        _cluster(5.0, 5.0) + _cluster(8.0, 2.0) + _cluster(8.0, 8.0) + [P(10, 5, 0.7)],
    ),
    design(
        50,
        "lattice",
        "Lattice",
        "Diamond blocks on a lattice: every corner is a corner to peek around.",
        [
            W(x, y, 0.9, 0.9, 45)
            for x, y in ((4.5, 2.5), (4.5, 7.5), (6.5, 5), (8.2, 2.5), (8.2, 7.5))
        ]
        + [W(10, 5, 0.9, 0.9, 45)],
    ),
    design(
        51,
        "crossfire",
        "Crossfire",
        "L-shaped walls at the midfield corners and posts on the centre line.",
        [
            W(7.6, 2.8, 1.8, 0.4),
            W(6.9, 2.0, 0.4, 1.6),
            W(7.6, 7.2, 1.8, 0.4),
            W(6.9, 8.0, 0.4, 1.6),
            P(10, 3.8, 0.45),
            P(10, 6.2, 0.45),
            P(4.2, 5, 0.5),
        ],
    ),
]

DESIGNS = CURRICULUM + TRAIN + VALIDATION + TEST
