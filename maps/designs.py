"""The 52 map designs (west half only; the loader mirrors about x = 10). See maps/README.md.

Coordinates are map units, x east from the west edge, y north; angles in degrees, CCW.
Seeds for the scattered maps are fixed, so `maps/generate.py` always writes the same files.
"""

from maps.shapes import P, W, arc, box, scatter, seg


def _d(map_id, slug, name, description, obstacles, team_size=None):
    return {
        "id": map_id,
        "slug": slug,
        "name": name,
        "description": description,
        "obstacles": obstacles,
        "team_size": team_size,
    }


def _maze():
    walls = [
        seg(6, 0, 6, 2, 0.3),
        seg(6, 4, 6, 6, 0.3),
        seg(6, 8, 6, 10, 0.3),
        seg(8, 2, 8, 4, 0.3),
        seg(8, 6, 8, 8, 0.3),
        seg(4, 6, 6, 6, 0.3),
        seg(4.2, 3.2, 4.2, 4.6, 0.3),
    ]
    return walls + [W(10, 2, 2.4, 0.3), W(10, 8, 2.4, 0.3), P(10, 5, 0.45)]


def _rubble():
    centre = [P(10, 5, 0.7)]
    walls = scatter(1049, 5, lengths=(0.8, 1.5), placed=centre)
    return walls + scatter(2049, 5, (0.3, 0.55), placed=centre + walls) + centre


def _cluster(x, y, r=0.45):
    """Three touching pillars in a triangle around (x, y): one solid piece of round cover."""
    return arc(x, y, 0.55, [90, 210, 330], r)


CURRICULUM = [
    _d(
        0,
        "open_field",
        "Open Field",
        "Nothing in the way: learn to move, aim and time the Ultimate.",
        [],
        1,
    ),
    _d(
        1,
        "lone_pillar",
        "Lone Pillar",
        "One pillar at the centre: the first line of sight to break.",
        [P(10, 5, 1.0)],
        1,
    ),
    _d(
        2,
        "twin_posts",
        "Twin Posts",
        "Two posts flank the middle; duel around them.",
        [P(7, 5, 0.8)],
        2,
    ),
    _d(
        3,
        "centre_wall",
        "Centre Wall",
        "A short wall splits the middle; a post on each southern flank.",
        [W(10, 5, 0.6, 3.0), P(6.5, 2.5, 0.6)],
        2,
    ),
    _d(
        4,
        "four_posts",
        "Four Posts",
        "Four posts around open middle ground, two more on the centre line.",
        [P(6.5, 3, 0.7), P(6.5, 7, 0.7), P(10, 1.8, 0.6), P(10, 8.2, 0.6)],
        3,
    ),
    _d(
        5,
        "cover_line",
        "Cover Line",
        "A low wall in front of each team and a pillar to fight around.",
        [W(7, 5, 0.5, 2.6), P(5, 2, 0.6), P(5, 8, 0.6), P(10, 5, 0.9)],
        3,
    ),
    _d(
        6,
        "diamond",
        "Diamond",
        "Four slanted walls form a diamond with four doors around the centre.",
        [seg(7.6, 5.7, 9.2, 7.2), seg(7.6, 4.3, 9.2, 2.8), P(5, 2.5, 0.5), P(5, 7.5, 0.5)],
        3,
    ),
    _d(
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
    _d(
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
    _d(
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
    _d(
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
    _d(
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

TRAIN = [
    _d(
        12,
        "open_arena",
        "Open Arena",
        "Almost empty: four small posts; open ground for kiting.",
        [P(6, 2, 0.4), P(6, 8, 0.4)],
    ),
    _d(
        13,
        "sparse_pillars",
        "Sparse Pillars",
        "A few large pillars scattered by seed 1013.",
        scatter(1013, 5, (0.4, 0.7), placed=[P(10, 5, 0.6)]) + [P(10, 5, 0.6)],
    ),
    _d(
        14,
        "dense_pillars",
        "Dense Pillars",
        "Thirty-two small pillars (seed 1017): sight lines are short.",
        scatter(
            1017,
            15,
            (0.3, 0.5),
            x_range=(3.0, 9.4),
            gap=1.05,
            placed=[P(10, 2.5, 0.4), P(10, 7.5, 0.4)],
        )
        + [P(10, 2.5, 0.4), P(10, 7.5, 0.4)],
    ),
    _d(
        15,
        "two_lanes",
        "Two Lanes",
        "A long wall splits the field into north and south lanes, open at the centre.",
        [W(6.8, 5, 4.6, 0.4), P(6.5, 2.4, 0.5), P(6.5, 7.6, 0.5), P(10, 1.6, 0.4), P(10, 8.4, 0.4)],
    ),
    _d(
        16,
        "long_lanes",
        "Long Lanes",
        "Three long lanes, joined only at the bases and a narrow centre gap.",
        [
            W(6.4, 3.4, 5.6, 0.4),
            W(6.4, 6.6, 5.6, 0.4),
            P(6.4, 1.6, 0.45),
            P(6.4, 8.4, 0.45),
            P(7.6, 5, 0.5),
        ],
    ),
    _d(
        17,
        "chokepoint",
        "Chokepoint",
        "A wall across the middle with one gap: the Warrior's aura decides it.",
        [W(10, 2.1, 0.6, 4.2), W(10, 7.9, 0.6, 4.2), P(7.5, 2, 0.6), P(7.5, 8, 0.6)],
    ),
    _d(
        18,
        "double_gate",
        "Double Gate",
        "Each base sits behind a wall with two gates; a big pillar in the middle.",
        [
            W(6.5, 5, 0.5, 3.4),
            W(6.5, 0.6, 0.5, 1.2),
            W(6.5, 9.4, 0.5, 1.2),
            P(10, 5, 1.0),
            P(10, 2, 0.4),
            P(10, 8, 0.4),
        ],
    ),
    _d(
        19,
        "chevrons",
        "Chevrons",
        "Angled walls form chevrons that point at each other across the middle.",
        [seg(6, 2.5, 7.6, 4.3), seg(6, 7.5, 7.6, 5.7), P(4, 2, 0.4), P(4, 8, 0.4), P(10, 5, 0.6)],
    ),
    _d(
        20,
        "zigzag",
        "Zigzag",
        "A broken zigzag wall screens each base; a short wall and posts at the centre.",
        [
            seg(4.8, 0.9, 6.0, 2.7),
            seg(6.0, 3.9, 4.8, 5.5),
            seg(4.8, 6.7, 6.0, 8.5),
            W(10, 5, 0.5, 2.2),
            P(8.2, 2, 0.5),
            P(8.2, 8, 0.5),
        ],
    ),
    _d(
        21,
        "home_cover",
        "Home Cover",
        "An open middle; all the cover sits near the Red Zones.",
        [W(3.3, 2.5, 0.4, 1.6), W(3.3, 7.5, 0.4, 1.6), P(4.8, 5, 0.5), P(10, 5, 0.5)],
    ),
    _d(
        22,
        "ring",
        "Ring",
        "A ring of eight pillars around a central post, two more in front of each base.",
        arc(10, 5, 2.8, [90, 135, 180, 225, 270], 0.4)
        + [P(10, 5, 0.6), P(5, 2, 0.5), P(5, 8, 0.5)],
    ),
    _d(
        23,
        "plus",
        "Plus",
        "A plus-shaped wall in the middle, square blocks at the flanks.",
        [
            W(10, 5, 0.5, 4.0),
            W(10, 5, 4.0, 0.5),
            W(6, 2, 1.2, 1.2),
            W(6, 8, 1.2, 1.2),
            P(3.6, 5, 0.45),
        ],
    ),
    _d(
        24,
        "checkerboard",
        "Checkerboard",
        "Staggered square blocks: many corners, short diagonal sight lines.",
        [
            W(4.5, 2, 1, 1),
            W(4.5, 6, 1, 1),
            W(6.5, 4, 1, 1),
            W(6.5, 8, 1, 1),
            W(8.5, 2, 1, 1),
            W(8.5, 6, 1, 1),
            W(10, 4, 1, 1),
            W(10, 8, 1, 1),
        ],
    ),
    _d(
        25,
        "hourglass",
        "Hourglass",
        "Slanted walls from the north and south edges pinch the middle.",
        [seg(6.5, 9.8, 9.2, 7.2), seg(6.5, 0.2, 9.2, 2.8), P(10, 5, 0.5), P(4.5, 5, 0.5)],
    ),
    _d(
        26,
        "islands",
        "Islands",
        "A few big round islands of cover with wide water between.",
        [P(5, 3, 1.1), P(7.2, 7.4, 1.2), P(10, 5, 1.3), P(4.2, 8.2, 0.6), P(8, 2, 0.5)],
    ),
    _d(
        27,
        "maze",
        "Maze",
        "Thin walls on a two-unit grid make a small maze between the bases.",
        _maze(),
    ),
    _d(
        28,
        "colonnade",
        "Colonnade",
        "Three rows of slim columns across the field.",
        [P(x, y, 0.35) for x in (4.2, 6.1, 8.0) for y in (3, 7)]
        + [P(5.15, 5, 0.35), P(7.05, 5, 0.35), P(10, 3, 0.35), P(10, 7, 0.35)],
    ),
    _d(
        29,
        "slashes",
        "Slashes",
        "Three slanted walls a side, all leaning the same way, and a centre post.",
        [
            seg(4.2, 1.2, 5.8, 3.8),
            seg(5.6, 5.8, 7.2, 8.4),
            seg(7.6, 2.0, 9.0, 4.3),
            P(10, 5, 0.6),
            P(10, 8.6, 0.5),
        ],
    ),
    _d(
        30,
        "bastions",
        "Bastions",
        "L-shaped bastions guard each Red Zone; posts hold the centre line.",
        [
            W(4.8, 3.0, 0.4, 2.0),
            W(5.6, 2.2, 1.6, 0.4),
            W(4.8, 7.0, 0.4, 2.0),
            W(5.6, 7.8, 1.6, 0.4),
            P(10, 5, 0.8),
            P(10, 1.6, 0.5),
            P(10, 8.4, 0.5),
            P(7.5, 5, 0.4),
        ],
    ),
    _d(
        31,
        "scattered_walls",
        "Scattered Walls",
        "Short walls at random angles (seed 1043) and a centre wall.",
        scatter(1043, 10, lengths=(1.2, 2.4), gap=1.1, placed=[W(10, 5, 0.4, 1.6)])
        + [W(10, 5, 0.4, 1.6)],
    ),
    _d(
        32,
        "hub",
        "Hub",
        "A big central pillar with spokes that cut the middle into sectors.",
        [
            P(10, 5, 1.5),
            seg(8.27, 6.0, 6.88, 6.8),
            seg(8.27, 4.0, 6.88, 3.2),
            W(10, 7.8, 0.4, 1.6),
            W(10, 2.2, 0.4, 1.6),
            P(5, 5, 0.5),
            P(6, 2, 0.5),
            P(6, 8, 0.5),
        ],
    ),
    _d(
        33,
        "trenches",
        "Trenches",
        "Columns of short walls like trench lines, staggered across the field.",
        [
            W(5, 2, 0.4, 1.4),
            W(5, 5, 0.4, 1.4),
            W(5, 8, 0.4, 1.4),
            W(7.5, 3.5, 0.4, 1.4),
            W(7.5, 6.5, 0.4, 1.4),
            W(10, 2, 0.4, 1.4),
            W(10, 5, 0.4, 1.4),
            W(10, 8, 0.4, 1.4),
        ],
    ),
    _d(
        34,
        "corridor",
        "Corridor",
        "Solid slabs along both long edges leave one broad corridor through the middle.",
        [
            box(4.5, 0, 10, 2.2),
            box(4.5, 7.8, 10, 10),
            P(7, 5, 0.5),
            W(10, 5, 0.4, 1.6),
            P(6, 3.2, 0.35),
            P(6, 6.8, 0.35),
        ],
    ),
    _d(
        35,
        "pockets",
        "Pockets",
        "Alcoves in the north and south edges to hide in, a pillar at the centre.",
        [
            W(6, 1.2, 0.4, 2.4),
            W(8, 1.2, 0.4, 2.4),
            W(6, 8.8, 0.4, 2.4),
            W(8, 8.8, 0.4, 2.4),
            P(10, 5, 1.0),
            P(4.5, 5, 0.5),
        ],
    ),
    _d(
        36,
        "octagon",
        "Octagon",
        "Walls on an open octagon around the centre, posts outside it.",
        [
            W(8.1, 6.6, 2.0, 0.4, 45),
            W(8.1, 3.4, 2.0, 0.4, -45),
            W(10, 8.0, 1.8, 0.4),
            W(10, 2.0, 1.8, 0.4),
            P(5, 2.5, 0.5),
            P(5, 7.5, 0.5),
            P(6.6, 5, 0.4),
        ],
    ),
    _d(
        37,
        "funnel",
        "Funnel",
        "Two long walls funnel each base's exit towards the middle.",
        [
            seg(4.5, 1.5, 8.5, 3.8),
            seg(4.5, 8.5, 8.5, 6.2),
            P(10, 5, 0.5),
            P(10, 1.2, 0.5),
            P(10, 8.8, 0.5),
        ],
    ),
    _d(
        38,
        "sentinels",
        "Sentinels",
        "Four huge pillars: long open sight lines between them.",
        [P(6, 5, 1.4), P(10, 2, 1.1), P(10, 8, 1.1)],
    ),
    _d(
        39,
        "broken_wall",
        "Broken Wall",
        "A wall down the centre line broken by three gaps, screens behind it.",
        [
            W(10, 0.8, 0.5, 1.6),
            W(10, 3.65, 0.5, 1.3),
            W(10, 6.35, 0.5, 1.3),
            W(10, 9.2, 0.5, 1.6),
            W(8.2, 2.3, 0.4, 1.0),
            W(8.2, 7.7, 0.4, 1.0),
            P(7, 5, 0.5),
        ],
    ),
    _d(
        40,
        "forest",
        "Forest",
        "Thirty-two thin trees (seed 1040): cover everywhere, paths between.",
        scatter(1040, 16, (0.25, 0.4), x_range=(3.0, 9.4), gap=1.05),
    ),
    _d(
        41,
        "courtyards",
        "Courtyards",
        "A walled courtyard in front of each base with doors west and north-east.",
        [
            seg(5, 7, 8, 7),
            seg(5, 3, 8, 3),
            seg(5, 3, 5, 4.2),
            seg(5, 5.8, 5, 7),
            seg(8, 3, 8, 5.2),
            P(10, 5, 0.6),
            P(10, 1.5, 0.5),
            P(10, 8.5, 0.5),
        ],
    ),
]

VALIDATION = [
    _d(
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
    _d(
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
    _d(
        44,
        "crescents",
        "Crescents",
        "A crescent of pillars shields each base; an open ring of six in the middle.",
        arc(4.6, 5, 2.4, [-60, -30, 0, 30, 60], 0.35) + arc(10, 5, 1.8, [120, 180, 240], 0.35),
    ),
    _d(
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
    _d(
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
    _d(
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
    _d(
        48,
        "rubble",
        "Rubble",
        "Broken walls and boulders (seeds 1049, 2049) around a centre pillar.",
        _rubble(),
    ),
    _d(
        49,
        "cloverleaf",
        "Cloverleaf",
        "Six tight clusters of three pillars around a central pillar.",
        _cluster(5.0, 5.0) + _cluster(8.0, 2.0) + _cluster(8.0, 8.0) + [P(10, 5, 0.7)],
    ),
    _d(
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
    _d(
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
