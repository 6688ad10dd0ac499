import Foundation

/// A panorama as a hiker sees it: a self-contained SVG (no fonts, scripts or images from
/// elsewhere) of the 360° skyline, azimuth across (north at both edges), apparent elevation
/// angle up.
///
/// The terrain is drawn in depth layers, far to near: the whole skyline in the lightest tone,
/// then the silhouette of the terrain within each of the panorama's layer distances
/// (``Panorama/Settings/layers``) darker and darker, so that near ridges stand out against far
/// ones. Compass labels every 10° (N, NE, … at the eight points), angle ticks on the left, the
/// horizontal (0°) dashed, and the peaks marked and labelled with their name when the
/// gazetteer knows it, height and distance ("Säntis 2503 m · 10.3 km"). Azimuths whose skyline the DEM does not settle (the search reached
/// the data's edge first) have their sky hatched. The root element says how to map back: azimuth a is at
/// x = `data-left` + a·`data-pixels-per-azimuth-degree`, elevation angle e at
/// y = `data-top` + (`data-top-angle` − e)·`data-pixels-per-elevation-degree`.
public struct PanoramaPicture: Sendable {
    public var panorama: Panorama
    public var title: String

    /// Pixels per degree of azimuth.
    static let horizontalScale = 4.0
    /// Margins, px: on the right room for the last peak's slanted label; at the bottom the
    /// degree labels, the compass letters on a row of their own, and the legend; at the top the
    /// labels slanted at 60°, up to 36 characters ("Wildhuser Schafberg 2332 m · 2.4 km").
    static let left = 56.0, right = 96.0, top = 210.0, bottom = 80.0
    /// Tones from the farthest layer to the nearest.
    static let farTone = "#c3cede"
    static let nearTones = ["#2c3a4f", "#44546b", "#5f6f87", "#7c8ba2", "#9eabbf"]
    static let skyTop = "#7fb2e5", skyBottom = "#e4f0fb"
    /// Hatching over azimuths whose skyline the DEM does not settle.
    static let incompleteTone = "#b0a090"
    /// The most peaks labelled, most prominent first, and the least room between labels (px).
    static let labelledPeaks = 40, labelSpacing = 14.0

    public init(panorama: Panorama, title: String) {
        self.panorama = panorama
        self.title = title
    }

    /// The range of elevation angles drawn, degrees, and pixels per degree vertically.
    /// The top follows the far skyline: ground within ``Panorama/nearGround`` (an observer on a
    /// slope) would squash the view into a strip, so it is clipped at the top instead.
    public var verticalFrame: (low: Double, high: Double, scale: Double) {
        var angles = panorama.skyline.compactMap(\.elevationAngle)
        angles += panorama.skyline.flatMap { $0.layers.compactMap { $0 } }
        let far = panorama.skyline.filter { $0.distance >= Panorama.nearGround }.compactMap(\.elevationAngle)
        let top = far.max() ?? angles.max() ?? 1
        let low = ((angles.min() ?? -1) - 0.5).rounded(.down), high = (top + 0.5).rounded(.up)
        // Steep skylines keep their true shape; flat ones are stretched up to 10× to be seen.
        let scale = min(max(Self.horizontalScale, 320 / max(high - low, 1e-6)), 10 * Self.horizontalScale)
        return (low, high, scale)
    }

    /// Picture coordinates of an azimuth (degrees) and an elevation angle (degrees).
    func x(_ azimuth: Double) -> Double { Self.left + azimuth * Self.horizontalScale }
    /// Angles above the frame (near ground) are clipped to its top.
    func y(_ angle: Double, _ frame: (low: Double, high: Double, scale: Double)) -> Double {
        Self.top + (frame.high - min(angle, frame.high)) * frame.scale
    }

    public var width: Double { Self.left + 360 * Self.horizontalScale + Self.right }
    public var height: Double {
        let f = verticalFrame
        return Self.top + (f.high - f.low) * f.scale + Self.bottom
    }

    public func svg() -> String {
        let frame = verticalFrame
        let w = width, h = height
        let ground = Self.top + (frame.high - frame.low) * frame.scale
        var s = ##"<?xml version="1.0" encoding="UTF-8"?>"## + "\n"
        s += ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(w))" height="\##(n(h))" viewBox="0 0 \##(n(w)) \##(n(h))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="11" data-left="\##(n(Self.left))" data-pixels-per-azimuth-degree="\##(n(Self.horizontalScale))" data-top="\##(n(Self.top))" data-top-angle="\##(n(frame.high))" data-pixels-per-elevation-degree="\##(frame.scale)">"## + "\n"
        s += "<title>\(escaped(title))</title>\n"
        s += ##"<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="\##(Self.skyTop)"/><stop offset="1" stop-color="\##(Self.skyBottom)"/></linearGradient><pattern id="incomplete" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="8" height="8" fill="\##(Self.incompleteTone)" fill-opacity="0.35"/><line x1="0" y1="0" x2="0" y2="8" stroke="\##(Self.incompleteTone)" stroke-width="3"/></pattern></defs>"## + "\n"
        s += ##"<rect width="\##(n(w))" height="\##(n(h))" fill="white"/>"## + "\n"
        s += ##"<rect x="\##(n(Self.left))" y="\##(n(Self.top))" width="\##(n(360 * Self.horizontalScale))" height="\##(n(ground - Self.top))" fill="url(#sky)"/>"## + "\n"
        // Far to near: the whole skyline, then each layer's silhouette, darker.
        s += silhouette({ $0.elevationAngle }, frame: frame, bottom: ground, fill: Self.farTone)
        let layers = panorama.settings.layers.filter { $0 < panorama.range }
        for k in layers.indices.reversed() {
            let tone = Self.nearTones[min(k, Self.nearTones.count - 1)]
            s += silhouette({ k < $0.layers.count ? $0.layers[k] : nil }, frame: frame, bottom: ground, fill: tone)
        }
        s += incompleteShading(frame: frame, bottom: ground)
        if frame.low < 0, frame.high > 0 {
            s += ##"<line x1="\##(n(Self.left))" y1="\##(n(y(0, frame)))" x2="\##(n(Self.left + 360 * Self.horizontalScale))" y2="\##(n(y(0, frame)))" stroke="#d04020" stroke-width="0.8" stroke-dasharray="6 4"/>"## + "\n"
        }
        s += axes(frame: frame, ground: ground)
        s += legend(y: ground + 60)
        s += peakLabels(frame: frame)
        s += ##"<text x="\##(n(Self.left))" y="18" font-size="14" font-weight="bold">\##(escaped(title))</text>"## + "\n"
        s += "</svg>\n"
        return s
    }

    /// The sky above azimuths whose search left the DEM before it settled the skyline
    /// (``Panorama/Point/complete``), hatched: the terrain drawn there is a lower bound, often
    /// the DEM's edge, and the true skyline may stand anywhere above it. One polygon per run of
    /// such azimuths, each with `class="incomplete"`.
    private func incompleteShading(frame: (low: Double, high: Double, scale: Double), bottom: Double) -> String {
        let step = panorama.settings.azimuthStep
        var s = ""
        var run: [Panorama.Point] = []
        func flush() {
            guard let first = run.first, let last = run.last else { return }
            var points = "\(n(x(first.azimuth))),\(n(Self.top)) \(n(x(min(last.azimuth + step, 360)))),\(n(Self.top))"
            for p in run.reversed() {
                let yy = p.elevationAngle.map { y($0, frame) } ?? bottom
                points += " \(n(x(min(p.azimuth + step, 360)))),\(n(yy)) \(n(x(p.azimuth))),\(n(yy))"
            }
            s += ##"<polygon class="incomplete" points="\##(points)" fill="url(#incomplete)" stroke="none"/>"## + "\n"
            run = []
        }
        for p in panorama.skyline {
            if p.complete { flush() } else { run.append(p) }
        }
        flush()
        return s
    }

    /// A filled silhouette: the angle of every azimuth (none: the bottom), closed along the bottom.
    private func silhouette(_ angle: (Panorama.Point) -> Double?, frame: (low: Double, high: Double, scale: Double),
                            bottom: Double, fill: String) -> String {
        let step = panorama.settings.azimuthStep
        var points = "\(n(x(0))),\(n(bottom))"
        for p in panorama.skyline {
            let yy = angle(p).map { y($0, frame) } ?? bottom
            points += " \(n(x(p.azimuth))),\(n(yy)) \(n(x(min(p.azimuth + step, 360)))),\(n(yy))"
        }
        points += " \(n(x(360))),\(n(bottom))"
        return ##"<polygon points="\##(points)" fill="\##(fill)" stroke="none"/>"## + "\n"
    }

    private func axes(frame: (low: Double, high: Double, scale: Double), ground: Double) -> String {
        var s = ""
        let names = [0: "N", 45: "NE", 90: "E", 135: "SE", 180: "S", 225: "SW", 270: "W", 315: "NW", 360: "N"]
        for a in stride(from: 0, through: 360, by: 5) {
            let xx = x(Double(a))
            let major = a % 10 == 0 || names[a] != nil
            s += ##"<line x1="\##(n(xx))" y1="\##(n(ground))" x2="\##(n(xx))" y2="\##(n(ground + (major ? 6 : 3)))" stroke="black" stroke-width="0.8"/>"## + "\n"
            // Degrees on one row, compass letters on the next: NW (315°) between 310° and 320°
            // would overlap both on one row.
            if a % 10 == 0 {
                s += ##"<text x="\##(n(xx))" y="\##(n(ground + 18))" text-anchor="middle" fill="#444">\##(a)°</text>"## + "\n"
            }
            if let name = names[a] {
                s += ##"<text x="\##(n(xx))" y="\##(n(ground + 34))" text-anchor="middle" font-weight="bold">\##(name)</text>"## + "\n"
            }
        }
        let span = frame.high - frame.low
        let tick = span <= 6 ? 1.0 : (span <= 15 ? 2.0 : (span <= 40 ? 5.0 : 10.0))
        var a = (frame.low / tick).rounded(.up) * tick
        while a <= frame.high {
            let yy = y(a, frame)
            s += ##"<line x1="\##(n(Self.left - 5))" y1="\##(n(yy))" x2="\##(n(Self.left))" y2="\##(n(yy))" stroke="black" stroke-width="0.8"/>"## + "\n"
            s += ##"<text x="\##(n(Self.left - 8))" y="\##(n(yy + 4))" text-anchor="end" fill="#444">\##(n(a))°</text>"## + "\n"
            a += tick
        }
        s += ##"<rect x="\##(n(Self.left))" y="\##(n(Self.top))" width="\##(n(360 * Self.horizontalScale))" height="\##(n(ground - Self.top))" fill="none" stroke="black" stroke-width="0.8"/>"## + "\n"
        return s
    }

    /// One row of swatches under the compass: what each depth tone stands for, and the hatching
    /// of azimuths the DEM does not settle (when there are any).
    private func legend(y: Double) -> String {
        var s = ##"<g id="legend" fill="#333">"##
        var x = Self.left
        func entry(_ fill: String, _ label: String) {
            s += ##"<rect x="\##(n(x))" y="\##(n(y - 9))" width="14" height="10" fill="\##(fill)" stroke="#666" stroke-width="0.5"/>"##
            s += ##"<text x="\##(n(x + 18))" y="\##(n(y))">\##(escaped(label))</text>"##
            x += 18 + Double(label.count) * 6.5 + 16
        }
        let layers = panorama.settings.layers.filter { $0 < panorama.range }
        if layers.isEmpty {
            entry(Self.farTone, "terrain")
        } else {
            entry(Self.farTone, "beyond \(Self.kilometres(layers.last!))")
            for k in layers.indices.reversed() {
                entry(Self.nearTones[min(k, Self.nearTones.count - 1)], "within \(Self.kilometres(layers[k]))")
            }
        }
        if panorama.skyline.contains(where: { !$0.complete }) {
            entry("url(#incomplete)", "the DEM ends first: skyline unsettled")
        }
        s += "</g>\n"
        return s
    }

    /// "50 km", "2 km", "500 m".
    private static func kilometres(_ metres: Double) -> String {
        metres >= 1000 ? "\(Int((metres / 1000).rounded())) km" : "\(Int(metres.rounded())) m"
    }

    /// The most prominent peaks, marked on the skyline and labelled above it where there is room.
    private func peakLabels(frame: (low: Double, high: Double, scale: Double)) -> String {
        var s = ""
        var placed: [Double] = []
        for peak in panorama.peaks.sorted(by: { $0.prominence > $1.prominence }).prefix(Self.labelledPeaks) {
            let xx = x(peak.azimuth), yy = y(peak.elevationAngle, frame)
            guard !placed.contains(where: { abs($0 - xx) < Self.labelSpacing }) else { continue }
            placed.append(xx)
            let label = (peak.name.map { $0 + " " } ?? "") + "\(Int(peak.elevation.rounded())) m · \(String(format: "%.1f", peak.distance / 1000)) km"
            s += ##"<path d="M\##(n(xx)),\##(n(yy - 2)) l-3,-6 h6 z" fill="#b02010"/>"## + "\n"
            s += ##"<line x1="\##(n(xx))" y1="\##(n(yy - 8))" x2="\##(n(xx))" y2="\##(n(Self.top - 4))" stroke="#b02010" stroke-width="0.5"/>"## + "\n"
            s += ##"<text transform="translate(\##(n(xx + 3)),\##(n(Self.top - 6))) rotate(-60)" fill="#5a1008">\##(escaped(label))</text>"## + "\n"
        }
        return s
    }

    private func n(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
