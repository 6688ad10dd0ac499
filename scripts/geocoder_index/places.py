"""Localities: GeoNames populated places (rg_cities1000.csv, CC BY 4.0) and their k-d order.
"""

import csv

import numpy as np

from .layout import KD_BUCKET, WGS84_F


def read_places(csv_path):
    places = []
    with open(csv_path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            places.append((float(row["lat"]), float(row["lon"]), row["name"], row["admin1"], row["admin2"], row["cc"]))
    return places


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
