import Dispatch
import Foundation
import TapSeek

/// The HTML page of `tapseek report`, stitched from its named pieces: the skeleton below, the
/// style and script of `Resources/report.css` and `report.js` (compiled in as bytes by SwiftPM's
/// `embedInCode`: `PackageResources`), and the data as one JSON block
/// holding the rows and the map's views: the whole log, or an overview and each place its
/// readings gather in (``ReportClusters``), each with its relief image and its coasts and
/// borders (``BorderMap``).
///
/// A Content-Security-Policy forbids every fetch (`default-src 'none'`; images only from
/// `data:` URLs): the page makes no network request even if a value in it looked like a URL.
struct ReportPage {
    var title: String
    var rows: ReportRows
    var catalog: ElevationCatalog
    var uncertainty: Bool
    var summary: String
    /// The offline geocoder, for the map's coasts and borders and the clusters' names; nil
    /// when its index is not built (the map then says so).
    var geocoder: Geocoder?

    /// Longest side of the relief, pixels: sharp on a large screen, 5.8 MB of RGBA at most.
    static let reliefSide = 1200
    /// Longest side of the reliefs of the clusters the page does not open on: 2.6 MB each.
    static let otherReliefSide = 800
    /// Longest side of a map of coasts and borders, pixels: a few dozen runs a row.
    static let basemapSide = 1000
    /// A map of coasts and borders is a square on the ground around its view, this share of
    /// the view's longer side again on each side: whatever the window's shape, the view fills
    /// it with the map, and there is context to zoom out to, at about a screen pixel a pixel.
    static let basemapGrowth = 0.25
    /// Smallest side of a map of coasts and borders, degrees (about 5.5 km): around a single
    /// reading it still shows where on the coast or in which region the reading was.
    static let basemapMinimumSide = 0.05
    /// Most clusters given a view of their own; smaller ones show in the overview only.
    static let maximumClusterViews = 8
    /// Margin around the readings' box, as a share of its size, and at least this many degrees
    /// (about 500 m), so that a single reading still shows its surroundings.
    static let margin = 0.08, minimumMargin = 0.005

    func write(to path: String) throws {
        var page: [UInt8] = []
        page.reserveCapacity(rows.json.count + 10_000_000)
        func add(_ s: String) { page.append(contentsOf: Array(s.utf8)) }
        add("""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>TapSeek report — \(Self.escapeHTML(title))</title>
        <style>
        """)
        page.append(contentsOf: PackageResources.report_css)
        add("""
        </style></head><body>
        <header><h1>TapSeek report — \(Self.escapeHTML(title))</h1><p id="summary">\(Self.escapeHTML(summary))</p></header>
        <main>
        <section id="map"><canvas id="map-canvas" aria-label="map of observers, sightlines and targets"></canvas>
        <div id="zoom"><button id="zoom-in" title="zoom in">+</button><button id="zoom-out" title="zoom out">−</button><button id="zoom-fit" title="fit">⤢</button></div>
        <div id="north" title="north">▲<br>N</div><div id="scale"><div id="scale-bar"></div><span id="scale-label"></span></div>
        <div id="views" role="group" aria-label="places of the log"></div><div id="notice" hidden></div>
        <div id="legend"></div></section>
        <section id="profile"><p class="hint">Select a row or a sightline to see its terrain profile.</p></section>
        <section id="readings"><div id="controls"><input id="filter" type="search" placeholder="Filter: place, status, warning, line…" aria-label="filter"><span id="shown"></span></div>
        <div id="table-scroll"><table id="table"><thead><tr></tr></thead><tbody></tbody></table></div></section>
        </main>
        <script type="application/json" id="report-data">
        """)
        add("{\"title\":")
        page.append(contentsOf: Self.jsonString(title))
        add(",\"uncertainty\":\(uncertainty),")
        appendViews(to: &page)
        add(",\"rows\":[\n")
        page.append(contentsOf: rows.json)
        if rows.count > 0 { page.removeLast(2) }  // the last row's ",\n"
        add("]}\n</script>\n<script>\n")
        page.append(contentsOf: PackageResources.report_js)
        add("\n</script>\n</body></html>\n")
        try Data(page).write(to: URL(fileURLWithPath: path))
    }

    /// A latitude/longitude box, degrees.
    struct Box {
        var south: Double, west: Double, north: Double, east: Double
    }

    /// What the map can show: the whole log, or one cluster of its readings.
    struct View {
        var name: String
        var count: Int
        var box: Box
        /// Longest side of its relief, pixels; nil: no relief of its own (the overview of
        /// clusters far apart, where a relief would be a few pixels a cluster).
        var reliefSide: Int?
    }

    /// A box of readings with the margin around it.
    static func padded(south: Double, west: Double, north: Double, east: Double) -> Box {
        let dLat = max((north - south) * margin, minimumMargin)
        let dLon = max((east - west) * margin, minimumMargin / max(cos(north * .pi / 180), 0.05))
        return Box(south: max(south - dLat, -90), west: west - dLon, north: min(north + dLat, 90), east: east + dLon)
    }

    /// The box of a view's coasts and borders: a square on the ground around the view's
    /// middle, its side the view's longer side grown by `growth` on each side, at least
    /// ``basemapMinimumSide``; within ±85° of latitude, and no more than the globe's longitudes
    /// (a wider box would draw a land twice).
    static func basemapBox(_ box: Box, growth: Double = basemapGrowth) -> Box {
        let latitude = (box.south + box.north) / 2, longitude = (box.west + box.east) / 2
        let cosine = max(cos(latitude * .pi / 180), 0.05)
        let side = max(box.north - box.south, (box.east - box.west) * cosine, basemapMinimumSide) * (1 + 2 * growth)
        let halfLon = min(side / cosine, 360) / 2
        return Box(south: max(latitude - side / 2, -85), west: longitude - halfLon, north: min(latitude + side / 2, 85), east: longitude + halfLon)
    }

    /// The map's views: the whole log when its readings lie together; else an overview and a
    /// view of each cluster, most readings first.
    func views() -> [View] {
        guard rows.south <= rows.north, rows.west <= rows.east else { return [] }
        let whole = Self.padded(south: rows.south, west: rows.west, north: rows.north, east: rows.east)
        let clusters = rows.clusters.clusters
        guard clusters.count > 1 else { return [View(name: "All", count: rows.count, box: whole, reliefSide: Self.reliefSide)] }
        var views = [View(name: "All", count: clusters.reduce(0) { $0 + $1.count }, box: whole, reliefSide: nil)]
        for (k, cluster) in clusters.prefix(Self.maximumClusterViews).enumerated() {
            views.append(View(name: name(of: cluster), count: cluster.count,
                              box: Self.padded(south: cluster.south, west: cluster.west, north: cluster.north, east: cluster.east),
                              reliefSide: k == 0 ? Self.reliefSide : Self.otherReliefSide))
        }
        return views
    }

    /// A cluster's name: the locality (else region, else country) at its observers' mean, and
    /// the country code; the coordinates without a geocoder.
    func name(of cluster: ReportClusters.Cell) -> String {
        let latitude = cluster.latitudeSum / Double(cluster.count), longitude = cluster.longitudeSum / Double(cluster.count)
        if let p = try? geocoder?.placemark(latitude: latitude, longitude: longitude) {
            var parts: [String] = []
            for part in [p.locality ?? p.administrativeArea ?? p.country, p.isoCountryCode].compactMap({ $0 }) where !parts.contains(part) {
                parts.append(part)
            }
            if !parts.isEmpty { return parts.joined(separator: ", ") }
        }
        return String(format: "%.2f, %.2f", latitude, longitude)
    }

    /// `"open"`, the index of the view the page opens on (the densest cluster), and `"views"`:
    /// each `{"name","count","south","west","north","east","relief","basemap"}`, the relief
    /// `{"south","west","north","east","width","height","low","high","covered","src"}` (null when
    /// the view has none), the basemap a ``BorderMap`` as
    /// `{"south","west","north","east","width","height","areas":[[code,country,region],…],"runs":[[value,count,…],…]}`
    /// (null without a geocoder index).
    private func appendViews(to page: inout [UInt8]) {
        func add(_ s: String) { page.append(contentsOf: Array(s.utf8)) }
        let views = views()
        let reliefs = Locked([ReliefImage?](repeating: nil, count: views.count))
        DispatchQueue.concurrentPerform(iterations: views.count) { i in
            guard let side = views[i].reliefSide else { return }
            let box = views[i].box
            let relief = ReliefImage(catalog: catalog, south: box.south, west: box.west, north: box.north, east: box.east, maximumSide: side)
            reliefs.withLock { $0[i] = relief }
        }
        add("\"open\":\(views.count > 1 ? 1 : 0),\"views\":[")
        for (i, view) in views.enumerated() {
            if i > 0 { add(",") }
            add("{\"name\":")
            page.append(contentsOf: Self.jsonString(view.name))
            add(",\"count\":\(view.count),\(Self.boxJSON(view.box)),\"relief\":")
            if let relief = reliefs.withLock({ $0[i] }) { appendRelief(relief, to: &page) } else { add("null") }
            add(",\"basemap\":")
            if let geocoder {
                let box = Self.basemapBox(view.box)
                let map = BorderMap(index: geocoder.index, south: box.south, west: box.west, north: box.north, east: box.east,
                                    maximumSide: Self.basemapSide)
                appendBasemap(map, to: &page)
            } else {
                add("null")
            }
            add("}")
        }
        add("]")
    }

    private func appendRelief(_ relief: ReliefImage, to page: inout [UInt8]) {
        var head = "{\(Self.boxJSON(Box(south: relief.south, west: relief.west, north: relief.north, east: relief.east))),"
        head += "\"width\":\(relief.width),\"height\":\(relief.height),"
        if let range = relief.range {
            head += "\"low\":\(range.lowerBound.rounded()),\"high\":\(range.upperBound.rounded()),"
        }
        head += "\"covered\":\((relief.coveredShare * 1000).rounded() / 1000),"
        head += "\"src\":\"data:image/png;base64,"
        page.append(contentsOf: Array(head.utf8))
        page.append(contentsOf: Array(Data(relief.png()).base64EncodedData()))
        page.append(contentsOf: Array("\"}".utf8))
    }

    private func appendBasemap(_ map: BorderMap, to page: inout [UInt8]) {
        var text = "{\(Self.boxJSON(Box(south: map.south, west: map.west, north: map.north, east: map.east))),"
        text += "\"width\":\(map.width),\"height\":\(map.height),\"areas\":["
        page.append(contentsOf: Array(text.utf8))
        for (i, area) in map.areas.enumerated() {
            if i > 0 { page.append(UInt8(ascii: ",")) }
            page.append(UInt8(ascii: "["))
            page.append(contentsOf: Self.jsonString(area.countryCode))
            page.append(UInt8(ascii: ","))
            page.append(contentsOf: area.country.map(Self.jsonString) ?? Array("null".utf8))
            page.append(UInt8(ascii: ","))
            page.append(contentsOf: area.region.map(Self.jsonString) ?? Array("null".utf8))
            page.append(UInt8(ascii: "]"))
        }
        page.append(contentsOf: Array("],\"runs\":[".utf8))
        for (y, row) in map.runs.enumerated() {
            if y > 0 { page.append(UInt8(ascii: ",")) }
            page.append(contentsOf: Array(("[" + row.map(String.init).joined(separator: ",") + "]").utf8))
        }
        page.append(contentsOf: Array("]}".utf8))
    }

    static func boxJSON(_ box: Box) -> String {
        "\"south\":\(box.south),\"west\":\(box.west),\"north\":\(box.north),\"east\":\(box.east)"
    }

    /// A JSON string safe inside the page's `<script>` element.
    static func jsonString(_ s: String) -> [UInt8] {
        var text = ReportRows(profilePoints: 0)
        text.string(s)
        return text.json
    }

    static func escapeHTML(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
