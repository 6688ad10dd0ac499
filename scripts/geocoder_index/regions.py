"""First-level regions: Natural Earth admin-1 units (public domain) and the country each belongs to.
"""

import json

import numpy as np

from .geometry import ring_area
from .rings import tidy


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
