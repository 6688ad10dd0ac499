"""Geometry helpers (float64 throughout, the same formulas as the Swift look-up).
"""

import math

import numpy as np


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
