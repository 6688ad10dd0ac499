"""One polygon layer (countries, a zone layer or regions) indexed on the grid.
"""

import math
import time

import numpy as np

from .geometry import (
    expand, horizontal_crossings, ring_area, segment_touches_box, vertical_crossings
)
from .layout import (
    CELL, CELLS_PER_DEGREE, COLUMNS, MAX_DEPTH, MAX_EDGES_PER_LEAF, NO_OWNER, OPEN_SEA_MARGIN_M,
    ROWS, SHORTEST_DEGREE_M, TAG_EMPTY, TAG_LEAF, TAG_NODE, TAG_OWNER, WGS84_A
)
from .progress import log


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
