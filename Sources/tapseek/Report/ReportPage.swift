import Foundation
import TapSeek

/// The HTML page of `tapseek report`, stitched from its named pieces: the skeleton below, the
/// style and script of `Resources/report.css` and `report.js` (embedded by
/// `scripts/embed-report-resources.sh` as ``ReportResources``), and the data as one JSON block
/// holding the rows and the relief image.
///
/// A Content-Security-Policy forbids every fetch (`default-src 'none'`; images only from
/// `data:` URLs): the page makes no network request even if a value in it looked like a URL.
struct ReportPage {
    var title: String
    var rows: ReportRows
    var catalog: ElevationCatalog
    var uncertainty: Bool
    var summary: String

    /// Longest side of the relief, pixels: sharp on a large screen, 5.8 MB of RGBA at most.
    static let reliefSide = 1200
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
        add(ReportResources.style)
        add("""
        </style></head><body>
        <header><h1>TapSeek report — \(Self.escapeHTML(title))</h1><p id="summary">\(Self.escapeHTML(summary))</p></header>
        <main>
        <section id="map"><canvas id="map-canvas" aria-label="map of observers, sightlines and targets"></canvas>
        <div id="zoom"><button id="zoom-in" title="zoom in">+</button><button id="zoom-out" title="zoom out">−</button><button id="zoom-fit" title="fit">⤢</button></div>
        <div id="north" title="north">▲<br>N</div><div id="scale"><div id="scale-bar"></div><span id="scale-label"></span></div>
        <div id="legend"></div></section>
        <section id="profile"><p class="hint">Select a row or a sightline to see its terrain profile.</p></section>
        <section id="readings"><div id="controls"><input id="filter" type="search" placeholder="Filter: place, status, warning, line…" aria-label="filter"><span id="shown"></span></div>
        <div id="table-scroll"><table id="table"><thead><tr></tr></thead><tbody></tbody></table></div></section>
        </main>
        <script type="application/json" id="report-data">
        """)
        add("{\"title\":")
        var titleJSON = ReportRows(profilePoints: 0)
        titleJSON.string(title)
        page.append(contentsOf: titleJSON.json)
        add(",\"uncertainty\":\(uncertainty),\"relief\":")
        appendRelief(to: &page)
        add(",\"rows\":[\n")
        page.append(contentsOf: rows.json)
        if rows.count > 0 { page.removeLast(2) }  // the last row's ",\n"
        add("]}\n</script>\n<script>\n")
        add(ReportResources.script)
        add("\n</script>\n</body></html>\n")
        try Data(page).write(to: URL(fileURLWithPath: path))
    }

    /// `{"south","west","north","east","width","height","low","high","src"}` or null when no
    /// reading was located.
    private func appendRelief(to page: inout [UInt8]) {
        guard rows.south <= rows.north, rows.west <= rows.east else { return page.append(contentsOf: Array("null".utf8)) }
        let dLat = max((rows.north - rows.south) * Self.margin, Self.minimumMargin)
        let dLon = max((rows.east - rows.west) * Self.margin, Self.minimumMargin / max(cos(rows.north * .pi / 180), 0.05))
        let south = max(rows.south - dLat, -90), north = min(rows.north + dLat, 90)
        let relief = ReliefImage(catalog: catalog, south: south, west: rows.west - dLon, north: north, east: rows.east + dLon,
                                 maximumSide: Self.reliefSide)
        var head = "{\"south\":\(relief.south),\"west\":\(relief.west),\"north\":\(relief.north),\"east\":\(relief.east),"
        head += "\"width\":\(relief.width),\"height\":\(relief.height),"
        if let range = relief.range {
            head += "\"low\":\(range.lowerBound.rounded()),\"high\":\(range.upperBound.rounded()),"
        }
        head += "\"src\":\"data:image/png;base64,"
        page.append(contentsOf: Array(head.utf8))
        page.append(contentsOf: Array(Data(relief.png()).base64EncodedData()))
        page.append(contentsOf: Array("\"}".utf8))
    }

    static func escapeHTML(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
