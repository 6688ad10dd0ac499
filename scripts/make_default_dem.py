#!/usr/bin/env python3
"""Turn matplotlib's sample DEM `jacksboro_fault_dem.npz` into a raw grid plus a GDAL VRT.

`scripts/make-default-dem.sh` runs this, then `gdal_translate` makes `dem/jacksboro.tif`.
Only the standard library is used (an .npz is a zip of .npy files, whose format is a short
header and the raw array), so any `python3` works, with or without numpy.

What the file holds, checked here and documented in dem/README.md:

* `elevation`: int16, 344 rows × 403 columns, metres above mean sea level. The data are SRTM
  3 arc-second heights (matplotlib pull request #3291 added them as "SRTM elevation data
  (public domain)"), so the vertical datum is EGM96 like every SRTM tile.
* `dx`, `dy`: 1/1200 degree (3″). `xmin`, `xmax`: the west and east *edges* of the cells
  (xmax − xmin = 403·dx; posts sit at cell centres, on whole multiples of 3″).
* Row 0 is the **north** row and `ymax` = 36.44625 is the north edge. The stored `ymin`
  (36.73292) is not the south edge: it equals ymax + 344·dy, a sign slip. The real south edge
  is ymax − 344·dy = 36.159583. Cross Mountain (36.19833 N, 84.23056 W, 1 077 m, the highest
  summit in the area) then falls on the grid's highest post, 1 076 m; read with row 0 in the
  south instead, that spot would be 604 m. The shell script re-checks this on the GeoTIFF.

Usage: make_default_dem.py --output-directory DIR [--npz FILE]
Writes DIR/jacksboro.bin (int16 little-endian, north row first) and DIR/jacksboro.vrt.
"""

import argparse
import ast
import os
import struct
import sys
import zipfile

SAMPLE_NAME = "jacksboro_fault_dem.npz"
# Where Debian's python-matplotlib-data package installs matplotlib's sample data.
DEBIAN_SAMPLE = "/usr/share/matplotlib/mpl-data/sample_data/" + SAMPLE_NAME

ROWS, COLUMNS = 344, 403
SPACING = 1.0 / 1200.0  # 3 arc-seconds
# The file's own bounds (degrees), which identify the version of the sample this script knows.
WEST_EDGE, EAST_EDGE, NORTH_EDGE = -84.41375, -84.07791666666667, 36.44625
# SRTM marks voids with −32768; this sample has none, but a reader should know the value.
NODATA = -32768


def fail(message):
    print(f"make_default_dem.py: {message}", file=sys.stderr)
    sys.exit(1)


def find_sample(explicit):
    if explicit:
        return explicit
    if os.path.exists(DEBIAN_SAMPLE):
        return DEBIAN_SAMPLE
    try:
        import matplotlib  # only to find its data folder when installed some other way
        candidate = os.path.join(matplotlib.get_data_path(), "sample_data", SAMPLE_NAME)
        if os.path.exists(candidate):
            return candidate
    except ImportError:
        pass
    fail(f"{SAMPLE_NAME} not found at {DEBIAN_SAMPLE} nor in an installed matplotlib; "
         "install it with: apt-get install -y python-matplotlib-data")


def read_npy(archive, name):
    """One array of an .npz: (descr, shape, raw bytes) from the .npy format, version 1–3."""
    try:
        data = archive.read(name + ".npy")
    except KeyError:
        fail(f"{archive.filename} has no array '{name}'")
    if data[:6] != b"\x93NUMPY":
        fail(f"{name}.npy is not in .npy format")
    major = data[6]
    if major == 1:
        (header_length,), start = struct.unpack("<H", data[8:10]), 10
    elif major in (2, 3):
        (header_length,), start = struct.unpack("<I", data[8:12]), 12
    else:
        fail(f"{name}.npy has unknown .npy version {major}")
    header = ast.literal_eval(data[start:start + header_length].decode("latin1"))
    if header.get("fortran_order"):
        fail(f"{name}.npy is stored column-major; expected row-major")
    return header["descr"], tuple(header["shape"]), data[start + header_length:]


def read_scalar(archive, name):
    descr, shape, raw = read_npy(archive, name)
    if descr != "<f8" or shape != ():
        fail(f"{name} is {descr} {shape}; expected a float64 scalar")
    return struct.unpack("<d", raw[:8])[0]


def close(a, b):
    return abs(a - b) < 1e-9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-directory", required=True)
    parser.add_argument("--npz", default=None, help=f"path of {SAMPLE_NAME} (default: found)")
    arguments = parser.parse_args()
    path = find_sample(arguments.npz)

    with zipfile.ZipFile(path) as archive:
        descr, shape, raw = read_npy(archive, "elevation")
        bounds = {key: read_scalar(archive, key) for key in ("xmin", "xmax", "ymin", "ymax", "dx", "dy")}

    if shape != (ROWS, COLUMNS) or descr not in ("<i2", ">i2"):
        fail(f"elevation is {descr} {shape}; expected int16 ({ROWS}, {COLUMNS})")
    if not (close(bounds["dx"], SPACING) and close(bounds["dy"], SPACING)):
        fail(f"spacing {bounds['dx']}, {bounds['dy']}; expected 1/1200 degree")
    if not (close(bounds["xmin"], WEST_EDGE) and close(bounds["xmax"], EAST_EDGE) and close(bounds["ymax"], NORTH_EDGE)):
        fail(f"bounds {bounds} differ from the known sample; check its orientation again")
    if not close(bounds["xmax"] - bounds["xmin"], COLUMNS * SPACING):
        fail("xmin/xmax are not the cell edges of the columns")
    # The known slip: ymin = ymax + rows·dy. A corrected file would say ymax − rows·dy.
    if not (close(bounds["ymin"], NORTH_EDGE + ROWS * SPACING) or close(bounds["ymin"], NORTH_EDGE - ROWS * SPACING)):
        fail(f"ymin {bounds['ymin']} is neither ymax ± rows·dy; check the orientation again")

    count = ROWS * COLUMNS
    heights = struct.unpack(descr[0] + "%dh" % count, raw[:2 * count])
    if min(heights) == NODATA:
        fail("the sample holds void posts, which this script does not expect")

    os.makedirs(arguments.output_directory, exist_ok=True)
    binary = os.path.join(arguments.output_directory, "jacksboro.bin")
    with open(binary, "wb") as output:
        output.write(struct.pack("<%dh" % count, *heights))

    south = NORTH_EDGE - ROWS * SPACING
    vrt = f"""<VRTDataset rasterXSize="{COLUMNS}" rasterYSize="{ROWS}">
  <SRS>EPSG:4326</SRS>
  <GeoTransform>{WEST_EDGE!r}, {SPACING!r}, 0, {NORTH_EDGE!r}, 0, {-SPACING!r}</GeoTransform>
  <Metadata>
    <MDI key="AREA_OR_POINT">Point</MDI>
  </Metadata>
  <VRTRasterBand dataType="Int16" band="1" subClass="VRTRawRasterBand">
    <Description>Elevation above mean sea level (EGM96)</Description>
    <SourceFilename relativeToVRT="1">jacksboro.bin</SourceFilename>
    <ImageOffset>0</ImageOffset>
    <PixelOffset>2</PixelOffset>
    <LineOffset>{2 * COLUMNS}</LineOffset>
    <ByteOrder>LSB</ByteOrder>
    <NoDataValue>{NODATA}</NoDataValue>
    <UnitType>m</UnitType>
  </VRTRasterBand>
</VRTDataset>
"""
    with open(os.path.join(arguments.output_directory, "jacksboro.vrt"), "w", encoding="utf-8") as output:
        output.write(vrt)
    print(f"read {path}: {ROWS}x{COLUMNS} posts, {min(heights)}…{max(heights)} m, "
          f"{south:.6f}…{NORTH_EDGE:.6f} N, {-WEST_EDGE:.6f}…{-EAST_EDGE:.6f} W", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
