"""Country borders: the Digital Chart of the World as packaged for GMT (dcw-gmt.nc, LGPL).
"""

import numpy as np

from .progress import log
from .rings import around_pole, close_ring, plane_copies, tidy


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
