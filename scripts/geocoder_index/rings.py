"""Polygon rings made ready for the plane: closed, cut around the poles, copied across the
antimeridian and tidied.
"""

import math

import numpy as np


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
