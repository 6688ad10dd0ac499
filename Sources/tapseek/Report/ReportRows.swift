import Foundation
import TapSeek

/// The table rows of `tapseek report` as JSON, one array per input line, made by the batch jobs
/// in parallel and joined in input order into the page's data block.
///
/// A row is `[line, time, status, observerLat, observerLon, targetLat, targetLon, elevation,
/// distance, place, warnings, error, profile, region95]` (null where absent): arrays rather
/// than objects because 100 000 rows must fit the page's 50 MB with their profiles.
/// `profile` is ``ProfilePlot``'s picture of the sightline as ``ProfileOutline`` thins it:
/// `[length, eyeHeight, rayEndDistance, rayEndHeight, isHit, targetDistance, targetHeight,
/// sampledLength, voids, h₀, …, hₙ₋₁]`, ground distances from the observer and apparent heights
/// (less the drop d²(1 − k)/(2R), so that the refracted ray is the straight line from the eye
/// through its end), metres rounded; the target null when none; `voids` `[[from, to], …]`
/// where the DEM has no data; hₖ the terrain of the k-th of n equal stretches of `length`
/// (``ProfileOutline/heights(bins:)``: its highest sample, so crests survive), drawn at the
/// stretch's middle, null where no terrain is known.
struct ReportRows: Sendable {
    /// The rows' JSON, each followed by a comma.
    var json: [UInt8] = []
    var count = 0
    /// Hits and skyline points: the sightlines drawn.
    var sightlines = 0
    /// Box of the observers, targets and 95 % regions, degrees: the map's extent.
    var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity
    /// Where the located readings gather: the map's views.
    var clusters = ReportClusters()

    /// Terrain heights kept per profile: enough for a readable picture 600 pixels wide; fewer
    /// for big logs so that 100 000 rows stay within the page budget.
    let profilePoints: Int

    init(profilePoints: Int) { self.profilePoints = profilePoints }

    mutating func append(_ result: LocateResult, refraction: Double) {
        count += 1
        sightlines += result.target != nil && result.observer != nil ? 1 : 0
        json.append(UInt8(ascii: "["))
        int(result.line ?? count)
        comma()
        if let time = result.time { string(ISO8601DateTime.format(time)) } else { null() }
        comma()
        string(result.status.rawValue)
        for value in [result.observer?.latitude, result.observer?.longitude, result.target?.latitude, result.target?.longitude] {
            comma()
            number(value, decimals: 6)
        }
        comma()
        number(result.target?.elevation, decimals: 0)
        comma()
        number(result.target?.distance, decimals: 0)
        comma()
        let place = Self.place(result.placemark)
        if place.isEmpty { null() } else { string(place) }
        comma()
        if result.warnings.isEmpty { null() } else { string(result.warnings.map(\.message).joined(separator: "; ")) }
        comma()
        if let error = result.error { string("\(error.code.rawValue): \(error.message)") } else { null() }
        comma()
        appendProfile(result, refraction: refraction)
        comma()
        if let region = result.uncertainty?.region95, !region.polygons.isEmpty {
            json.append(UInt8(ascii: "["))
            for (p, polygon) in region.polygons.enumerated() {
                if p > 0 { comma() }
                json.append(UInt8(ascii: "["))
                for (i, vertex) in polygon.enumerated() {
                    if i > 0 { comma() }
                    json.append(UInt8(ascii: "["))
                    number(vertex.latitude, decimals: 5)
                    comma()
                    number(vertex.longitude, decimals: 5)
                    json.append(UInt8(ascii: "]"))
                }
                json.append(UInt8(ascii: "]"))
            }
            json.append(UInt8(ascii: "]"))
        } else {
            null()
        }
        json.append(contentsOf: Array("],\n".utf8))
        // The map shows the regions whole, too.
        let region = result.uncertainty?.region95.polygons.joined().map { ($0.latitude, $0.longitude) } ?? []
        for point in [result.observer.map { ($0.latitude, $0.longitude) }, result.target.map { ($0.latitude, $0.longitude) }] + region {
            guard let (latitude, longitude) = point else { continue }
            south = min(south, latitude); north = max(north, latitude)
            west = min(west, longitude); east = max(east, longitude)
        }
        if let observer = result.observer {
            clusters.add(observer: (observer.latitude, observer.longitude),
                         points: (result.target.map { [($0.latitude, $0.longitude)] } ?? []) + region)
        }
    }

    /// Joins the rows of a later chunk after these.
    mutating func merge(_ other: ReportRows) {
        json += other.json
        count += other.count
        sightlines += other.sightlines
        south = min(south, other.south); north = max(north, other.north)
        west = min(west, other.west); east = max(east, other.east)
        clusters.merge(other.clusters)
    }

    /// "Locality, region, CC": what the table shows and filters on.
    static func place(_ placemark: Placemark?) -> String {
        guard let p = placemark else { return "" }
        var parts: [String] = []
        for part in [p.name, p.locality, p.administrativeArea, p.isoCountryCode].compactMap({ $0 }) where !parts.contains(part) {
            parts.append(part)
        }
        if parts.isEmpty, let water = p.ocean ?? p.inlandWater { parts.append(water) }
        return parts.joined(separator: ", ")
    }

    private mutating func appendProfile(_ result: LocateResult, refraction: Double) {
        guard let observer = result.observer, result.profile.count >= 2, result.status == .hit || result.status == .horizon else { return null() }
        let target = result.target.map { ProfilePlot.Position(latitude: $0.latitude, longitude: $0.longitude, height: $0.elevation) }
        let plot = ProfilePlot(observer: .init(latitude: observer.latitude, longitude: observer.longitude, height: observer.altitude),
                               target: target, targetIsHit: result.status == .hit, samples: result.profile,
                               refraction: result.sightline?.refraction ?? refraction)
        let outline = plot.outline(bins: profilePoints)
        json.append(UInt8(ascii: "["))
        for value in [outline.length, outline.eye.height, outline.rayEnd.distance, outline.rayEnd.height] {
            number(value, decimals: 0)
            comma()
        }
        int(outline.targetIsHit ? 1 : 0)
        comma()
        number(outline.target?.distance, decimals: 0)
        comma()
        number(outline.target?.height, decimals: 0)
        comma()
        number(outline.sampledLength, decimals: 0)
        comma()
        json.append(UInt8(ascii: "["))
        for (i, void) in outline.voids.enumerated() {
            if i > 0 { comma() }
            json.append(UInt8(ascii: "["))
            number(void.lowerBound, decimals: 0)
            comma()
            number(void.upperBound, decimals: 0)
            json.append(UInt8(ascii: "]"))
        }
        json.append(UInt8(ascii: "]"))
        for height in outline.heights(bins: profilePoints) {
            comma()
            number(height, decimals: 0)
        }
        json.append(UInt8(ascii: "]"))
    }

    private mutating func comma() { json.append(UInt8(ascii: ",")) }
    private mutating func null() { json.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
    private mutating func int(_ value: Int) { json.append(contentsOf: Array(String(value).utf8)) }

    private mutating func number(_ value: Double?, decimals: Int) {
        guard let value, value.isFinite else { return null() }
        JSONText.fixed(value, decimals: decimals) { json.append(contentsOf: $0) }
    }

    /// A JSON string safe inside an HTML `<script>` element: `<` is escaped too, so that no
    /// value can close the element.
    mutating func string(_ s: String) {
        JSONText.string(s) { bytes in
            for byte in bytes {
                if byte == UInt8(ascii: "<") {
                    json.append(contentsOf: Array("\\u003c".utf8))
                } else {
                    json.append(byte)
                }
            }
        }
    }
}
