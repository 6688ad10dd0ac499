"""Time zones: timezone-boundary-builder's polygons (OpenStreetMap, ODbL) read through
timezonefinder, each filed under its country by tzdata's zone.tab, with the overrides, the
overlaps (disputed areas) and the layers that keep overlapping zones apart.
"""

import numpy as np

from .geometry import ring_area
from .progress import log
from .rings import close_ring, plane_copies, tidy


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
