"""The answer tree: whole look-ups answered by one descent.
"""

import itertools
import math
import struct
import time

import numpy as np

from .geometry import expand, stacked
from .layout import (
    ANSWER_MAX_DEPTH, ASK_REGION_LAYER, CELL, COLUMNS, FRINGE_MAX_DEPTH, FRINGE_METRIC_SLACK,
    MAX_DEPTH, NO_OWNER, PLACE_BALL, PLACE_CANDIDATES, PLACE_VECTOR_ERROR, REGION_ASK,
    REGION_FRINGE_M, ROWS, TAG_EMPTY, TAG_LEAF, TAG_NODE, TAG_OWNER, WGS84_A, WGS84_F
)
from .places import reduced_unit_vectors
from .progress import log


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
