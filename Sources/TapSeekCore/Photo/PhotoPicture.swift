import Foundation

/// A photo annotated for a person to check at a glance: a self-contained SVG with the photo
/// itself (downscaled, embedded as a JPEG data URI), the skyline found in its pixels (dashed
/// yellow), the DEM's skyline under the final orientation (red: on the photo's skyline when the
/// fit is right), the peaks in view with height and distance, and each tap with its target and
/// place. The picture's coordinates are the full-size image's pixels (`viewBox`), so every mark
/// sits where the result JSON says.
public struct PhotoPicture: Sendable {
    public var result: PhotoResult
    /// The embedded photo: JPEG bytes of the displayed image at any size.
    public var jpeg: [UInt8]
    /// Displayed size of the full image, pixels.
    public var width: Double
    public var height: Double
    /// Width the picture is shown at, pixels.
    public static let shownWidth = 1200.0

    public init(result: PhotoResult, jpeg: [UInt8], width: Double, height: Double) {
        self.result = result
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }

    public func svg() -> String {
        let scale = width / Self.shownWidth
        let stroke = n(2 * scale), font = n(15 * scale)
        func n(_ v: Double) -> String { String(format: "%.1f", v) }
        let shownHeight = Self.shownWidth * height / width
        var s = ##"<?xml version="1.0" encoding="UTF-8"?>"## + "\n"
        s += ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\##(n(Self.shownWidth))" height="\##(n(shownHeight))" viewBox="0 0 \##(n(width)) \##(n(height))" font-family="sans-serif" font-size="\##(font)">"## + "\n"
        let title = "\(result.file ?? "photo"): \(result.status.rawValue)"
        var status = title
        if let c = result.calibration {
            status += String(format: " · heading %.2f° pitch %.2f° roll %.2f° (corrected %+.1f°)", c.heading, c.pitch, c.roll, c.correction.heading)
            if let imprecise = result.warnings.first(where: { $0.code == .calibrationImprecise }) { status += " · " + imprecise.message }
        } else if let w = result.warnings.first(where: { $0.code == .calibrationRefused || $0.code == .noSkyline }) ?? result.warnings.first {
            // The reason the photo is not calibrated, rather than whichever warning came first.
            status += " · " + w.message
        }
        s += "<title>\(ProfilePlot.escaped(title))</title>\n"
        s += ##"<image x="0" y="0" width="\##(n(width))" height="\##(n(height))" preserveAspectRatio="none" xlink:href="data:image/jpeg;base64,\##(Data(jpeg).base64EncodedString())"/>"## + "\n"
        func polyline(_ points: [Reading.Pixel], colour: String, dashed: Bool, id: String) {
            // Break the line where consecutive points are far apart (left-out columns).
            var runs: [[Reading.Pixel]] = []
            for p in points {
                if let last = runs.last?.last, abs(p.x - last.x) < width / 50 { runs[runs.count - 1].append(p) } else { runs.append([p]) }
            }
            s += ##"<g id="\##(id)" fill="none" stroke="\##(colour)" stroke-width="\##(stroke)"\##(dashed ? " stroke-dasharray=\"\(n(8 * scale)),\(n(5 * scale))\"" : "")>"## + "\n"
            for run in runs where run.count > 1 {
                s += "<polyline points=\"" + run.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\"/>\n"
            }
            s += "</g>\n"
        }
        polyline(result.demSkyline, colour: "#e0281c", dashed: false, id: "dem-skyline")
        polyline(result.skyline?.points ?? [], colour: "#ffd21f", dashed: true, id: "detected-skyline")
        // The legend's box, sized to its wrapped status lines (below), in the corner that hides
        // the fewest skyline points, peaks and taps (a landscape's skyline often crosses the
        // top left; then the foreground's corner takes it).
        let line = 22 * scale
        let boxWidth = min(Self.shownWidth - 16, 640) * scale
        var legend = [("#ffd21f", "skyline found in the photo"), ("#e0281c", "DEM skyline, \(result.status == .calibrated ? "fitted orientation" : "the file's orientation")")]
        if !result.taps.isEmpty { legend.append(("#00e5ff", "taps and their targets")) }
        let statusLines = Self.wrapped(status, columns: Int(boxWidth / (8.2 * scale)), maximumLines: 6)
        let boxHeight = Double(legend.count + statusLines.count) * line + 10 * scale
        let marked = result.demSkyline + (result.skyline?.points ?? []) + result.peaks.map(\.pixel) + result.tapPixels
        let corners = [(8 * scale, 8 * scale), (width - 8 * scale - boxWidth, 8 * scale),
                       (8 * scale, height - 8 * scale - boxHeight), (width - 8 * scale - boxWidth, height - 8 * scale - boxHeight)]
        let covered = corners.map { Self.hidden(marked, x: $0.0, y: $0.1, width: boxWidth, height: boxHeight, margin: 30 * scale) }
        let (boxX, boxY) = corners[covered.indices.min { covered[$0] < covered[$1] }!]
        s += ##"<g id="peaks" fill="#ffffff" stroke="#000000" stroke-width="\##(n(0.8 * scale))">"## + "\n"
        for peak in result.peaks {
            let x = peak.pixel.x, y = peak.pixel.y, r = 7 * scale
            s += ##"<path d="M\##(n(x)),\##(n(y - 2 * r)) l\##(n(r)),\##(n(-1.6 * r)) h\##(n(-2 * r)) z"/>"## + "\n"
            let label = (peak.name.map { $0 + " " } ?? "") + String(format: "%.0f m · %.1f km", peak.elevation, peak.distance / 1000)
            // A label that would fall under the legend goes below its peak instead.
            let half = Double(label.count) * 4.2 * scale
            let above = y - 4.2 * r
            let underLegend = x + half > boxX && x - half < boxX + boxWidth && above > boxY && above - 15 * scale < boxY + boxHeight
            let labelY = underLegend ? max(y + 3 * r, boxY + boxHeight + 18 * scale) : above
            s += ##"<text x="\##(n(x))" y="\##(n(labelY))" text-anchor="middle" paint-order="stroke" stroke-width="\##(n(3 * scale))">\##(ProfilePlot.escaped(label))</text>"## + "\n"
        }
        s += "</g>\n"
        s += ##"<g id="taps" fill="none" stroke="#00e5ff" stroke-width="\##(stroke)">"## + "\n"
        for (i, answer) in result.taps.enumerated() {
            guard i < result.tapPixels.count else { break }
            let p = result.tapPixels[i], r = 14 * scale
            s += ##"<circle cx="\##(n(p.x))" cy="\##(n(p.y))" r="\##(n(r))"/><path d="M\##(n(p.x - 2 * r)),\##(n(p.y)) h\##(n(r)) m\##(n(2 * r)),0 h\##(n(r)) M\##(n(p.x)),\##(n(p.y - 2 * r)) v\##(n(r)) m0,\##(n(2 * r)) v\##(n(r))"/>"## + "\n"
            var label = "tap \(i + 1): \(answer.status.rawValue)"
            if let t = answer.target { label += String(format: " %.5f°, %.5f°, %.0f m · %.1f km", t.latitude, t.longitude, t.elevation, t.distance / 1000) }
            if let place = answer.placemark?.name { label += " · " + place }
            if let e = answer.error { label += " · " + e.message }
            s += ##"<text x="\##(n(p.x + 2.2 * r))" y="\##(n(p.y + r / 2))" fill="#ffffff" stroke="#000000" stroke-width="\##(n(3 * scale))" paint-order="stroke">\##(ProfilePlot.escaped(label))</text>"## + "\n"
        }
        s += "</g>\n"
        // Legend and status: the status wrapped within the box, never off the picture.
        s += ##"<g id="legend"><rect x="\##(n(boxX))" y="\##(n(boxY))" width="\##(n(boxWidth))" height="\##(n(boxHeight))" fill="#000000" fill-opacity="0.55"/>"## + "\n"
        for (k, text) in statusLines.enumerated() {
            s += ##"<text x="\##(n(boxX + 8 * scale))" y="\##(n(boxY + Double(k + 1) * line))" fill="#ffffff">\##(ProfilePlot.escaped(text))</text>"## + "\n"
        }
        for (k, (colour, text)) in legend.enumerated() {
            let y = boxY + Double(k + 1 + statusLines.count) * line
            s += ##"<path d="M\##(n(boxX + 8 * scale)),\##(n(y - 5 * scale)) h\##(n(30 * scale))" stroke="\##(colour)" stroke-width="\##(stroke)"/><text x="\##(n(boxX + 46 * scale))" y="\##(n(y))" fill="#ffffff">\##(ProfilePlot.escaped(text))</text>"## + "\n"
        }
        s += "</g>\n</svg>\n"
        return s
    }

    /// How many of `points` a box at `x`, `y` (picture pixels) would cover, `margin` around it
    /// counted too (a label or a line just outside is hard to read against the box).
    static func hidden(_ points: [Reading.Pixel], x: Double, y: Double, width: Double, height: Double, margin: Double) -> Int {
        points.count { $0.x >= x - margin && $0.x <= x + width + margin && $0.y >= y - margin && $0.y <= y + height + margin }
    }

    /// `text` broken at spaces into lines of at most `columns` characters (a longer word is cut),
    /// at most `maximumLines` of them, the last ending in "…" when text is left over.
    static func wrapped(_ text: String, columns: Int, maximumLines: Int) -> [String] {
        let columns = max(columns, 10)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            while word.count > columns {
                if !current.isEmpty { lines.append(current); current = "" }
                lines.append(String(word.prefix(columns)))
                word = String(word.dropFirst(columns))
            }
            if current.isEmpty { current = word } else if current.count + 1 + word.count <= columns { current += " " + word } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        guard lines.count > maximumLines else { return lines }
        var kept = Array(lines.prefix(maximumLines))
        kept[maximumLines - 1] = String(kept[maximumLines - 1].prefix(columns - 1)) + "…"
        return kept
    }
}
