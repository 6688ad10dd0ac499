"""The index's layout: its format version, grid, tags and the constants the Swift look-up
(Sources/TapSeekCore/Geocoding/GeocoderIndex.swift) reads from its META section.
"""

import math

FORMAT_VERSION = 3
MAGIC = b"TSGEOIDX"

# The top grid: 4 cells per degree, 1440 x 720 cells.
CELLS_PER_DEGREE = 4
COLUMNS = 360 * CELLS_PER_DEGREE
ROWS = 180 * CELLS_PER_DEGREE
CELL = 1.0 / CELLS_PER_DEGREE

# Leaves stop splitting at this many edges or this depth below the top grid.
MAX_EDGES_PER_LEAF = 24
MAX_DEPTH = 8

# Node codes: the top two bits say what the low 30 bits are.
TAG_EMPTY = 0 << 30
TAG_OWNER = 1 << 30
TAG_NODE = 2 << 30
TAG_LEAF = 3 << 30

NO_OWNER = 0xFFFF
NO_STRING = 0xFFFFFFFF

# Open sea: a top cell with no edge within this distance needs no nearest-border search. Must be
# at least GeocoderIndex.coastalFringe (the Swift side checks META's openSeaMarginMetres).
OPEN_SEA_MARGIN_M = 10_000.0
# A degree of latitude is never shorter than at the equator: a (1 - e^2) pi / 180 metres.
WGS84_A = 6378137.0
WGS84_F = 1 / 298.257223563
SHORTEST_DEGREE_M = WGS84_A * (1 - WGS84_F * (2 - WGS84_F)) * math.pi / 180

# Places per k-d tree bucket: ranges this small are scanned rather than split (a scan of
# contiguous 16-byte records is cheaper than the cache misses of three more tree levels).
KD_BUCKET = 24

# The answer tree (AnswerTree): cells split until at most this many places could be nearest
# anywhere in them, down to this depth below the top grid (0.25 / 2^12 degrees, about 7 m).
PLACE_CANDIDATES = 6
# Places fetched per cell before the ones that cannot be nearest are dropped.
PLACE_BALL = 16
ANSWER_MAX_DEPTH = 12
# Largest distance between the look-up's unit vector rounded to single precision and the
# exact one (3 components, each within 2^-25), generously.
PLACE_VECTOR_ERROR = 2e-7
# The look-up's region fringe (GeocoderIndex.regionFringe): a point outside every region of its
# country takes the nearest one within this distance. Where that answer is the same all over a
# cell, the answer tree stores it: cells are split for it down to FRINGE_MAX_DEPTH (0.25 / 2^2
# degrees, about 7 km), and certified with FRINGE_METRIC_SLACK for the change of the look-up's
# local metric across a cell (certified only within 75 degrees of the equator).
REGION_FRINGE_M = 20_000.0
FRINGE_MAX_DEPTH = 2
FRINGE_METRIC_SLACK = 0.02
# An answer's region where the look-up must ask the region layer (in the build: REGION_ASK).
ASK_REGION_LAYER = 0xFFFE
REGION_ASK = -2
# Region leaves hold fewer edges than other layers' (they are cheap to build), so that more of
# the answer tree's cells are pure.
REGION_EDGES_PER_LEAF = 4
