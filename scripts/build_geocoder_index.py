#!/usr/bin/env python3
"""Builds TapSeek's offline reverse-geocoding index: the entry point of the geocoder_index package
(scripts/geocoder_index/build.py documents the index and its sources)."""

from geocoder_index.build import main

if __name__ == "__main__":
    main()
