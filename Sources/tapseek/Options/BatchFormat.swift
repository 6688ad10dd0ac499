import ArgumentParser
import TapSeek

/// `tapseek batch --format`: a log format, or `auto` to recognise it.
enum BatchFormat: String, CaseIterable, ExpressibleByArgument {
    /// A folder or zip by its members, a single file or stdin by its first lines.
    case auto
    case jsonl, sensorlog, sensorlogger, phyphox, gpslogger
    /// Shorthand for `--format auto --output geojson`: the input is recognised, the output is
    /// GeoJSON.
    case geojson

    /// The format named, or nil for `auto` (and `geojson`, whose input is recognised).
    var logFormat: LogFormat? { LogFormat(rawValue: rawValue) }
}
