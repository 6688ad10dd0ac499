import Foundation
import TapSeek

/// A result as GeoJSON (RFC 7946), written straight into an ``OutputBuffer`` like
/// ``ResultJSON``: for one reading a FeatureCollection on one line, for batches one Feature per
/// reading as a GeoJSON Text Sequence.
///
/// The FeatureCollection (`tapseek locate --format geojson`) holds, in this order (each has
/// `"role"`, and `"id"`/`"line"` when the result has them):
/// 1. `target`: a Point at the hit or skyline point, carrying the result's fields as properties
///    (`status`, `elevation`, `distance`, `slantRange`, `azimuth`, `elevationAngle`,
///    `refraction`, `placemark`, `warnings`, `error`). For an error its geometry is `null`
///    (RFC 7946 §3.2: an unlocated feature), so every collection starts with the answer.
/// 2. `observer`: a Point at the eye (`altitude`, `groundElevation` in properties).
/// 3. `sightline`: a LineString from the eye to the target, the straight line of sight.
/// 4. `track`: the ground track (positions without heights), the same points as
///    `profile.polyline` of the result JSON.
/// 5. `terrain`: when the profile was recorded, a MultiLineString of the terrain under the ray,
///    one part per run of known terrain (DEM voids end a part), the highest sample of every
///    ``terrainSpacing`` metres of slant distance (crests survive the thinning).
///
/// Coordinates are [longitude, latitude, height] in WGS84 degrees to 1e-7° (1 cm). The height
/// is what RFC 7946 §4 prescribes: metres above the WGS84 **ellipsoid**, i.e. the result's
/// mean-sea-level height plus the EGM96 undulation from `geoid`. The properties keep the result
/// JSON's mean-sea-level values. A height that is not a finite number is left out of its
/// position; no number is ever NaN. Lines that cross the antimeridian are cut there into a
/// MultiLineString (RFC 7946 §3.1.9). No `crs` member (RFC 7946 removed it).
///
/// For many results (`tapseek batch`), ``writeSequenceRecord(of:geoid:geometry:to:)`` writes
/// one Feature per reading (see there) as a record of a GeoJSON Text Sequence (RFC 8142),
/// which GDAL's `GeoJSONSeq` driver (hence `ogr2ogr`, QGIS) reads as one layer.
enum GeoJSONWriter {
    /// Slant-distance bin of the terrain feature, metres: the picture of a crest at map scale
    /// needs no more, and a 400 km march stays about 4 000 positions.
    static let terrainSpacing = 100.0

    /// A position to be written: degrees and metres above the ellipsoid (nil: no height).
    struct Position {
        var longitude: Double
        var latitude: Double
        var height: Double?
    }

    /// Writes `{"type":"FeatureCollection","features":[…]}` on one line (no newline): the output
    /// of `tapseek locate --format geojson`.
    static func writeFeatureCollection(of r: LocateResult, geoid: Geoid, to out: inout OutputBuffer) {
        out.append("{\"type\":\"FeatureCollection\",\"features\":[")
        writeFeatures(of: r, geoid: geoid, to: &out)
        out.append("]}")
    }

    /// Writes the features of a result, comma-separated (the members of a FeatureCollection's array).
    static func writeFeatures(of r: LocateResult, geoid: Geoid, to out: inout OutputBuffer) {
        var count = 0
        // Opens `{"type":"Feature","properties":{"role":…,"id":…,"line":…`; the caller adds
        // properties, `},"geometry":` and the geometry, then calls `end()`.
        func begin(_ role: StaticString) {
            if count > 0 { out.append(",") }
            count += 1
            out.append("{\"type\":\"Feature\",\"properties\":{\"role\":\"")
            out.append(role)
            out.append("\"")
            if let id = r.id {
                out.append(",\"id\":")
                out.appendJSONString(id)
            }
            if let line = r.line { out.append(",\"line\":\(line)") }
        }
        func end() { out.append("}") }
        func ellipsoidal(_ latitude: Double, _ longitude: Double, _ msl: Double?) -> Position {
            Self.ellipsoidal(latitude, longitude, msl, geoid: geoid)
        }

        // 1. The answer.
        let targetPosition = r.target.map { ellipsoidal($0.latitude, $0.longitude, $0.elevation) }
        begin("target")
        writeResultProperties(r, to: &out)
        out.append("},\"geometry\":")
        writePoint(targetPosition, to: &out)
        end()

        // 2. The observer.
        let eye = r.observer.map { ellipsoidal($0.latitude, $0.longitude, $0.altitude) }
        if let o = r.observer, let eye, isPlaceable(eye) {
            begin("observer")
            out.append(",\"altitude\":")
            out.appendFixed(o.altitude, decimals: 2)
            out.append(",\"groundElevation\":")
            if let g = o.groundElevation { out.appendFixed(g, decimals: 2) } else { out.append("null") }
            out.append("},\"geometry\":")
            writePoint(eye, to: &out)
            end()
        }

        // 3. The line of sight.
        if let eye, let targetPosition, isPlaceable(eye), isPlaceable(targetPosition) {
            begin("sightline")
            if let t = r.target {
                out.append(",\"slantRange\":")
                out.appendFixed(t.slantRange, decimals: 2)
            }
            out.append("},\"geometry\":")
            writeLines([[eye, targetPosition]], to: &out)
            end()
        }

        // 4. The ground track.
        if r.status != .error, r.track.count >= 2 {
            begin("track")
            out.append("},\"geometry\":")
            writeLines([r.track.map { Position(longitude: $0.longitude, latitude: $0.latitude, height: nil) }], to: &out)
            end()
        }

        // 5. The terrain under the ray.
        let terrainRuns = terrainRuns(r.profile).map { run in run.map { ellipsoidal($0.latitude, $0.longitude, $0.terrain) } }
        if r.status != .error, terrainRuns.contains(where: { $0.count >= 2 }) {
            begin("terrain")
            out.append("},\"geometry\":")
            writeLines(terrainRuns, to: &out, forceMulti: true)
            end()
        }

        // 6. The regions of the sampled targets (`--uncertainty`), widest first.
        if let u = r.uncertainty {
            for (role, probability, region) in [("region95" as StaticString, 0.95, u.region95), ("region50", 0.5, u.region50)]
            where !region.polygons.isEmpty {
                begin(role)
                out.append(",\"probability\":")
                out.appendShortest(probability)
                out.append(",\"samples\":\(u.samples)},\"geometry\":")
                out.appendJSON(region)
                end()
            }
        }
    }

    /// A position from a mean-sea-level height: the height above the ellipsoid, as RFC 7946 asks.
    static func ellipsoidal(_ latitude: Double, _ longitude: Double, _ msl: Double?, geoid: Geoid) -> Position {
        Position(longitude: longitude, latitude: latitude, height: msl.map { $0 + geoid.undulation(latitude: latitude, longitude: longitude) })
    }

    /// What the one Feature of a reading in a batch's sequence is drawn as.
    enum SequenceGeometry {
        /// A Point at the target (the hit or skyline point), with its height: one point layer.
        case target
        /// A LineString from the eye to the target, both with heights: one line layer.
        case sightline
    }

    /// One reading of `tapseek batch --output geojson`: a record of a GeoJSON Text Sequence
    /// (RFC 8142), i.e. RS (0x1E), one Feature, LF; the caller writes no newline after it.
    ///
    /// Every reading gives exactly one Feature, so the sequence is one layer of one geometry
    /// type: the target Point (or the sightline, ``SequenceGeometry/sightline``) with heights
    /// above the ellipsoid, `null` for a reading with no target (an error, a location-only
    /// record). Properties: `line`, `id`, the result's fields as in the collection's `target`
    /// feature (`time`, `status`, `elevation`, `distance`, `slantRange`, `azimuth`,
    /// `elevationAngle`, `refraction`, `placemark`, `warnings`, `warningCodes`, `error`), the
    /// observer flat (`observerLatitude`, `observerLongitude`, `observerAltitude`,
    /// `groundElevation`), and with `--uncertainty` `samples`, `hitShare` and the distance
    /// quantiles `distanceP2_5`, `distanceP50`, `distanceP97_5` (the regions are
    /// `locate --format geojson`'s).
    static func writeSequenceRecord(of r: LocateResult, geoid: Geoid, geometry: SequenceGeometry, to out: inout OutputBuffer) {
        // RFC 8142's record separator (RS) opens every record.
        out.append("\u{1E}{\"type\":\"Feature\",\"properties\":{\"line\":")
        // Every batch result has its line; null only for a result made elsewhere.
        if let line = r.line { out.append(String(line)) } else { out.append("null") }
        if let id = r.id {
            out.append(",\"id\":")
            out.appendJSONString(id)
        }
        writeResultProperties(r, to: &out)
        if let o = r.observer {
            member(",\"observerLatitude\":", o.latitude, decimals: 7, to: &out)
            member(",\"observerLongitude\":", o.longitude, decimals: 7, to: &out)
            member(",\"observerAltitude\":", o.altitude, decimals: 2, to: &out)
            if let g = o.groundElevation { member(",\"groundElevation\":", g, decimals: 2, to: &out) }
        }
        if let u = r.uncertainty {
            out.append(",\"samples\":\(u.samples)")
            member(",\"hitShare\":", u.hitShare, decimals: 4, to: &out)
            for (key, value) in [(",\"distanceP2_5\":" as StaticString, u.distance.p2_5), (",\"distanceP50\":", u.distance.p50),
                                 (",\"distanceP97_5\":", u.distance.p97_5)] where value.isFinite {
                member(key, value, decimals: 2, to: &out)
            }
        }
        out.append("},\"geometry\":")
        let target = r.target.map { ellipsoidal($0.latitude, $0.longitude, $0.elevation, geoid: geoid) }
        switch geometry {
        case .target:
            writePoint(target, to: &out)
        case .sightline:
            if let target, let o = r.observer, isPlaceable(target) {
                writeLines([[ellipsoidal(o.latitude, o.longitude, o.altitude, geoid: geoid), target]], to: &out)
            } else {
                out.append("null")
            }
        }
        out.append("}")
    }

    /// Appends `key` (its comma and colon included) and a fixed-point number.
    private static func member(_ key: StaticString, _ value: Double, decimals: Int, to out: inout OutputBuffer) {
        out.append(key)
        out.appendFixed(value, decimals: decimals)
    }

    /// The result JSON's fields, flattened where GeoJSON viewers show one level of properties.
    private static func writeResultProperties(_ r: LocateResult, to out: inout OutputBuffer) {
        if let time = r.time {
            out.append(",\"time\":")
            out.appendJSONString(ISO8601DateTime.format(time))
        }
        out.append(",\"status\":\"\(r.status.rawValue)\"")
        if let t = r.target {
            // The position is the geometry's; the measures are the result JSON's.
            member(",\"elevation\":", t.elevation, decimals: 2, to: &out)
            member(",\"distance\":", t.distance, decimals: 2, to: &out)
            member(",\"slantRange\":", t.slantRange, decimals: 2, to: &out)
        }
        if let s = r.sightline {
            out.append(",")
            out.appendJSONMembers(of: s)
        }
        if let p = r.placemark {
            out.append(",\"placemark\":")
            out.appendJSON(p)
        }
        ResultJSON.writeWarnings(r.warnings, error: r.error, to: &out)
    }

    /// Runs of known terrain (voids end a run), each thinned to the highest sample per
    /// ``terrainSpacing`` metres of slant distance.
    static func terrainRuns(_ profile: [SightlineMarch.ProfileSample]) -> [[(latitude: Double, longitude: Double, terrain: Double)]] {
        var runs: [[(latitude: Double, longitude: Double, terrain: Double)]] = []
        var run: [(latitude: Double, longitude: Double, terrain: Double)] = []
        var bin = -1
        var lastInRun: SightlineMarch.ProfileSample?
        func close() {
            // The run's last sample is kept so that the line reaches the edge of the void.
            if let last = lastInRun, let h = last.terrain, let kept = run.last,
               kept.latitude != last.latitude || kept.longitude != last.longitude {
                run.append((last.latitude, last.longitude, h))
            }
            if !run.isEmpty { runs.append(run) }
            run = []
            bin = -1
            lastInRun = nil
        }
        for sample in profile {
            guard let h = sample.terrain, h.isFinite, sample.latitude.isFinite, sample.longitude.isFinite else {
                close()
                continue
            }
            let b = Int((sample.slantDistance / terrainSpacing).rounded(.down))
            if b == bin, let kept = run.last {
                // Same bin: keep the highest, unless it is the run's first point (the edge).
                if run.count > 1, h > kept.terrain { run[run.count - 1] = (sample.latitude, sample.longitude, h) }
            } else {
                run.append((sample.latitude, sample.longitude, h))
                bin = b
            }
            lastInRun = sample
        }
        close()
        return runs
    }

    private static func isPlaceable(_ p: Position) -> Bool { p.longitude.isFinite && p.latitude.isFinite }

    static func writePosition(_ p: Position, to out: inout OutputBuffer) {
        out.append("[")
        out.appendFixed(p.longitude, decimals: 7)
        out.append(",")
        out.appendFixed(p.latitude, decimals: 7)
        if let h = p.height, h.isFinite {
            out.append(",")
            out.appendFixed(h, decimals: 2)
        }
        out.append("]")
    }

    static func writePoint(_ p: Position?, to out: inout OutputBuffer) {
        guard let p, isPlaceable(p) else { out.append("null"); return }
        out.append("{\"type\":\"Point\",\"coordinates\":")
        writePosition(p, to: &out)
        out.append("}")
    }

    /// A LineString, or a MultiLineString when there are several parts (after cutting at the
    /// antimeridian) or `forceMulti`. Parts of fewer than two positions are dropped.
    static func writeLines(_ lines: [[Position]], to out: inout OutputBuffer, forceMulti: Bool = false) {
        let parts = lines.flatMap(cutAtAntimeridian).filter { $0.count >= 2 }
        let multi = forceMulti || parts.count != 1
        out.append(multi ? "{\"type\":\"MultiLineString\",\"coordinates\":[" : "{\"type\":\"LineString\",\"coordinates\":")
        for (i, part) in parts.enumerated() {
            if i > 0 { out.append(",") }
            out.append("[")
            for (j, p) in part.enumerated() {
                if j > 0 { out.append(",") }
                writePosition(p, to: &out)
            }
            out.append("]")
        }
        out.append(multi ? "]}" : "}")
    }

    /// A line split where a segment crosses ±180° of longitude, with a position interpolated
    /// onto the meridian at the end of one part and the start of the next (RFC 7946 §3.1.9).
    /// A segment is taken to cross when its longitudes differ by more than 180°: every line
    /// written here spans far less than 180° (a sightline ends within a few hundred kilometres).
    static func cutAtAntimeridian(_ line: [Position]) -> [[Position]] {
        let line = line.filter(isPlaceable)
        var parts: [[Position]] = []
        var part: [Position] = []
        for p in line {
            if let q = part.last, abs(p.longitude - q.longitude) > 180 {
                let eastward = p.longitude < q.longitude
                let edge = eastward ? 180.0 : -180.0
                // Unwrap p next to q, then find where the segment meets the meridian.
                let unwrapped = p.longitude + (eastward ? 360 : -360)
                let t = (edge - q.longitude) / (unwrapped - q.longitude)
                let latitude = q.latitude + (p.latitude - q.latitude) * t
                let height: Double? = if let a = q.height, let b = p.height { a + (b - a) * t } else { nil }
                part.append(Position(longitude: edge, latitude: latitude, height: height))
                parts.append(part)
                part = [Position(longitude: -edge, latitude: latitude, height: height)]
            }
            part.append(p)
        }
        if !part.isEmpty { parts.append(part) }
        return parts
    }
}
