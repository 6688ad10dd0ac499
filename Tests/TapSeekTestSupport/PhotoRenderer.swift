import Foundation
import TapSeekCore

/// Renders the photo a camera of known orientation would take over the real DEM: sky above the
/// DEM's skyline (a gradient from a pale horizon to a deeper blue), terrain below it shaded by
/// depth (nearer silhouettes darker, farther ones lost in haze), with noise, and optionally
/// clouds, fog, a foreground pole or mound, haze that fades far ridges into the sky, dark forest
/// on the near ridges and snow on the skyline's crests. The truth the photo tests hold the detection and the fit
/// to is the orientation given here.
///
/// Each pixel's ray is turned into the level frame by ``CameraOrientation`` and compared with the
/// DEM skyline at its own azimuth (searched every ``azimuthStep``°, read linearly between), with
/// anti-aliasing by the share of the pixel above the skyline.
public struct PhotoRenderer {
    /// A cloud: an ellipse in the view (degrees of azimuth and elevation) drawn over everything.
    public struct Cloud: Sendable {
        public var azimuth: Double, elevation: Double, width: Double, height: Double
        public init(azimuth: Double, elevation: Double, width: Double, height: Double) {
            self.azimuth = azimuth
            self.elevation = elevation
            self.width = width
            self.height = height
        }
    }

    public var location: Reading.Location
    public var orientation: CameraOrientation
    public var camera: PinholeCamera
    /// Standard deviation of the pixel noise, levels.
    public var noise: Double = 4
    public var clouds: [Cloud] = []
    /// 0 (clear) … 1 (nothing but fog).
    public var fog: Double = 0
    /// A dark pole from the bottom edge up to this share of the image height, at `poleX` (share
    /// of the width), `poleWidth` pixels wide.
    public var pole: (x: Double, top: Double, width: Double)?
    public var seed: UInt64 = 1
    /// A flat horizon at this apparent elevation angle (degrees) in place of the DEM's skyline:
    /// a sea with nothing on it.
    public var flatHorizon: Double?
    /// Farthest terrain drawn, metres (nil: the horizon range of the highest terrain).
    public var range: Double?
    /// Haze toward the sky, when set: terrain this many metres away is drawn 63 % (1 − e⁻¹) of
    /// the way to the sky's colour, so that far ridges fade nearly into the sky above them.
    /// Nil: the default greyish haze over 40 km.
    public var hazeToSky: Double?
    /// Terrain whose nearest silhouette lies within this many metres is dark forest with a
    /// coarse texture: its upper edge is stronger than a hazy skyline above it.
    public var forestWithin: Double?
    /// Snow on the skyline's crests: where the skyline's terrain stands higher than `line`
    /// metres, the terrain just below it (down to `depth` degrees under the skyline) is white,
    /// against a sky made paler; its lower edge is a strong edge that is not the skyline.
    public var snow: (line: Double, depth: Double)?
    /// Rocks and flowers in front: a dark, textured mound rising from the bottom edge to this
    /// share of the image height at its highest, undulating across the frame.
    public var foreground: Double?

    public static let azimuthStep = 0.02

    public init(location: Reading.Location, orientation: CameraOrientation, camera: PinholeCamera) {
        self.location = location
        self.orientation = orientation
        self.camera = camera
    }

    /// The apparent skyline (degrees) at each azimuth step across the view, with the nearer
    /// silhouettes (2, 5, 10, 20, 50 km).
    func skyline(locator: Locator) throws -> (start: Double, points: [Panorama.Point]) {
        var low = Double.infinity, high = -Double.infinity
        let w = camera.imageWidth, h = camera.imageHeight
        for i in 0...20 {
            let f = Double(i) / 20
            for (x, y) in [(f * w, 0.0), (f * w, h), (0, f * h), (w, f * h)] {
                let d = orientation.direction(ofPixelX: x, y: y, camera: camera)
                var a = ViewDirection(enu: d).azimuth
                a = orientation.heading + remainder(a - orientation.heading, 360)
                low = min(low, a)
                high = max(high, a)
            }
        }
        let step = Self.azimuthStep
        let first = (low / step).rounded(.down) - 2, last = (high / step).rounded(.up) + 2
        let azimuths = stride(from: first, through: last, by: 1).map { $0 * step }
        let settings = Panorama.Settings(azimuthStep: step, range: range, layers: Panorama.Settings.pictureLayers.filter { $0 < (range ?? .infinity) })
        return (first * step, try locator.skyline(from: location, azimuths: azimuths, settings: settings))
    }

    /// The rendered image.
    public func render(locator: Locator) throws -> PixelImage {
        let (start, points) = try skyline(locator: locator)
        let width = Int(camera.imageWidth), height = Int(camera.imageHeight)
        let pixelAngle = camera.effectiveHorizontalFOV / camera.imageWidth
        var random = SplitMix64(seed: seed)
        func gaussian() -> Double {
            let u = max(random.nextUnit(), 1e-12), v = random.nextUnit()
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        func angle(_ azimuth: Double, _ pick: (Panorama.Point) -> Double?) -> Double? {
            let x = (orientation.heading + remainder(azimuth - orientation.heading, 360) - start) / Self.azimuthStep
            let i = Int(x.rounded(.down))
            guard i >= 0, i + 1 < points.count, let a = pick(points[i]), let b = pick(points[i + 1]) else { return nil }
            return a + (b - a) * (x - Double(i))
        }
        let layers = Panorama.Settings.pictureLayers
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let d = orientation.direction(ofPixelX: Double(x) + 0.5, y: Double(y) + 0.5, camera: camera)
                let view = ViewDirection(enu: d)
                let elevation = view.elevation
                // Sky: pale at the horizon, deeper blue higher up.
                let t = min(max(elevation / 40, 0), 1)
                var sky = (185 - 115 * t, 208 - 88 * t, 236 - 36 * t)
                if snow != nil { sky = (sky.0 + (232 - sky.0) * 0.6, sky.1 + (236 - sky.1) * 0.6, sky.2 + (244 - sky.2) * 0.6) }
                let horizonSky = sky
                for cloud in clouds {
                    let da = remainder(view.azimuth - cloud.azimuth, 360) / cloud.width, de = (elevation - cloud.elevation) / cloud.height
                    let r = da * da + de * de
                    if r < 1 {
                        let alpha = min(1, (1 - r) * 3)
                        sky = (sky.0 + (238 - sky.0) * alpha, sky.1 + (238 - sky.1) * alpha, sky.2 + (242 - sky.2) * alpha)
                    }
                }
                // Terrain: the nearest layer whose silhouette stands above this ray gives its depth;
                // above them all, the skyline's own distance.
                var depth = angle(view.azimuth, { $0.distance.isFinite ? $0.distance : nil }) ?? 80_000
                for (k, layer) in layers.enumerated() {
                    if let a = angle(view.azimuth, { $0.layers.count > k ? $0.layers[k] : nil }), a > elevation {
                        depth = layer
                        break
                    }
                }
                let haze = 1 - exp(-depth / (hazeToSky ?? 40_000))
                var ground = (70 + 110 * haze, 78 + 112 * haze, 62 + 150 * haze)
                if hazeToSky != nil {
                    ground = (70 + (horizonSky.0 - 70) * haze, 78 + (horizonSky.1 - 78) * haze, 62 + (horizonSky.2 - 62) * haze)
                }
                var texture = 6 * sin(Double(x) * 0.7 + Double(y) * 0.31) * (1 - haze)
                if let forestWithin, depth <= forestWithin {
                    ground = (28, 44, 30)
                    texture = 14 * sin(Double(x) * 1.9) * sin(Double(y) * 1.3)
                }
                if let snow, depth >= (angle(view.azimuth, { $0.distance.isFinite ? $0.distance : nil }) ?? .infinity),
                   let crest = angle(view.azimuth, { $0.elevation.isFinite ? $0.elevation : nil }), crest > snow.line,
                   let top = angle(view.azimuth, { $0.elevationAngle }), top - elevation < snow.depth {
                    ground = (238, 240, 244)
                    texture = 3 * sin(Double(x) * 0.9 + Double(y) * 0.5)
                }
                ground = (ground.0 + texture, ground.1 + texture, ground.2 + texture)
                // The share of this pixel above the skyline.
                var share = 0.0
                if let s = flatHorizon ?? angle(view.azimuth, { $0.elevationAngle }) {
                    share = min(max(0.5 + (elevation - s) / pixelAngle, 0), 1)
                } else {
                    share = elevation > 0 ? 1 : 0
                }
                var c = (ground.0 + (sky.0 - ground.0) * share, ground.1 + (sky.1 - ground.1) * share, ground.2 + (sky.2 - ground.2) * share)
                for cloud in clouds where cloud.elevation - cloud.height < angle(cloud.azimuth, { $0.elevationAngle }) ?? -90 {
                    // A cloud hanging on the ridge hides the terrain as well.
                    let da = remainder(view.azimuth - cloud.azimuth, 360) / cloud.width, de = (elevation - cloud.elevation) / cloud.height
                    let r = da * da + de * de
                    if r < 1 {
                        let alpha = min(1, (1 - r) * 3)
                        c = (c.0 + (236 - c.0) * alpha, c.1 + (236 - c.1) * alpha, c.2 + (240 - c.2) * alpha)
                    }
                }
                if let foreground {
                    let rise = foreground * (0.6 + 0.25 * sin(Double(x) * 0.021) + 0.15 * sin(Double(x) * 0.11 + 1))
                    if Double(y) > (1 - rise) * camera.imageHeight {
                        let speck = 18 * sin(Double(x) * 2.3) * sin(Double(y) * 1.7)
                        c = (52 + speck, 60 + speck, 34 + speck)
                    }
                }
                if let pole, abs(Double(x) - pole.x * camera.imageWidth) < pole.width / 2, Double(y) > (1 - pole.top) * camera.imageHeight {
                    c = (40, 34, 30)
                }
                c = (c.0 + (200 - c.0) * fog, c.1 + (202 - c.1) * fog, c.2 + (205 - c.2) * fog)
                let i = (y * width + x) * 3
                rgb[i] = UInt8(min(max(c.0 + noise * gaussian(), 0), 255).rounded())
                rgb[i + 1] = UInt8(min(max(c.1 + noise * gaussian(), 0), 255).rounded())
                rgb[i + 2] = UInt8(min(max(c.2 + noise * gaussian(), 0), 255).rounded())
            }
        }
        return PixelImage(width: width, height: height, rgb: rgb)!
    }
}
