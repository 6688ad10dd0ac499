"""The index file: its string table and its sections.
"""

import struct

import numpy as np

from .layout import FORMAT_VERSION, MAGIC, NO_STRING


class Strings:
    def __init__(self):
        self.ids = {}
        self.items = []

    def id(self, s):
        if s is None or s == "":
            return NO_STRING
        if s not in self.ids:
            self.ids[s] = len(self.items)
            self.items.append(s)
        return self.ids[s]

    def section(self):
        blobs = [s.encode("utf-8") for s in self.items]
        offsets = np.zeros(len(blobs) + 1, dtype="<u4")
        offsets[1:] = np.cumsum([len(b) for b in blobs])
        return struct.pack("<I", len(blobs)) + offsets.tobytes() + b"".join(blobs)


def write_index(path, sections):
    align = 16
    directory_size = 16 + 24 * len(sections)
    offset = (directory_size + align - 1) // align * align
    entries = []
    body = bytearray()
    for tag, data in sections.items():
        padding = (-(offset + len(body))) % align
        body += b"\0" * padding
        entries.append((tag, offset + len(body), len(data)))
        body += data
    header = bytearray(MAGIC + struct.pack("<II", FORMAT_VERSION, len(sections)))
    for tag, at, length in entries:
        header += tag.encode("ascii").ljust(8, b"\0") + struct.pack("<QQ", at, length)
    header += b"\0" * (offset - len(header))
    with open(path, "wb") as f:
        f.write(header)
        f.write(body)
