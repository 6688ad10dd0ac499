"""TapSeek's offline reverse-geocoding index builder, one module per stage.

Sources (borders, regions, zones, places) are read into plain rings and records, indexed as
polygon layers (layer), combined by the answer tree (answer_tree) and written (writer); build
runs the stages in order. scripts/build_geocoder_index.py is the entry point and
scripts/build-geocoder-index.sh fetches the sources and calls it.
"""
