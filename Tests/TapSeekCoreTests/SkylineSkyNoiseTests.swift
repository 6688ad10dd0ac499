import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The skyline detector where the frame's noise is a forest's texture and the sky's own noise is a
/// level or two: scenes built in closed form (a sky gradient with noise over a hazy far ridge, a
/// strongly textured forest, a haze layer), whose true skyline is known. They pin the rules that
/// judge the sky by its own noise (``SkylineDetector``): without them the hazy ridge is followed
/// as sky or left out, and a haze layer's soft top is drawn as the skyline. Two more pin the sky
/// followed down a column: a blurred ridge edge is a steep slope, not a drift to follow
/// (``SkylineDetector/smoothSlope``), and a cloud's shaded underside, reached from the cloud by a
/// gradual darkening, is no departure (``SkylineDetector/cloudBrighter``).
struct SkylineSkyNoiseTests {
    static let width = 800, height = 600

    /// The top of the hazy far ridge (rows from the top) at column centre x.
    static func ridge(_ x: Double) -> Double { 150 + 40 * sin(2 * .pi * x / 500) + 10 * sin(2 * .pi * x / 73) }

    /// A blue sky paling downward, 1.5 levels of noise, as a web photo's sky.
    static func sky(_ y: Double) -> (Double, Double, Double) {
        let t = y / Double(height)
        return (120 + 60 * t, 160 + 40 * t, 220 + 15 * t)
    }

    /// A dark green forest whose texture spans `texture` levels a pixel.
    static func forest(_ random: () -> Double, texture: Double) -> (Double, Double, Double) {
        let v = texture * (random() - 0.5)
        return (45 + v, 62 + v, 38 + v)
    }

    /// A scene of `colour(x, y, random)` (pixel centres; `random` uniform in 0…1 for texture)
    /// with Gaussian noise of 1.5 levels added, rounded to bytes.
    static func scene(seed: UInt64 = 11, _ colour: (Double, Double, () -> Double) -> (Double, Double, Double)) -> PixelImage {
        var random = SplitMix64(seed: seed)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(Double(x) + 0.5, Double(y) + 0.5) { random.nextUnit() }
                let i = (y * width + x) * 3
                for (k, v) in [c.0, c.1, c.2].enumerated() {
                    let u = max(random.nextUnit(), 1e-12), w = random.nextUnit()
                    let n = (-2 * log(u)).squareRoot() * cos(2 * .pi * w) * 1.5
                    rgb[i + k] = UInt8(min(max(v + n, 0), 255).rounded())
                }
            }
        }
        return PixelImage(width: width, height: height, rgb: rgb)!
    }

    /// The share of the width with a point within `tolerance` px of `truth`, and the points more
    /// than 5 % of the height off it (the skyline-web rule's "wrong").
    static func score(_ found: SkylineDetector.Result, truth: (Double) -> Double, tolerance: Double) -> (within: Double, wrong: Int) {
        let within = found.points.filter { abs($0.y - truth($0.x)) <= tolerance }.count
        let wrong = found.points.filter { abs($0.y - truth($0.x)) > 0.05 * Double(height) }.count
        return (Double(within) / Double(width), wrong)
    }

    /// A far ridge 30–45 levels darker than the sky just above it, its edge blurred over four
    /// rows (a web photo scaled up), above a forest whose edge, 45 rows lower, is a step of
    /// 120 levels and whose texture (±45 levels a pixel) makes the frame's noise about ten
    /// times the sky's. The skyline is the ridge's top: the first departure from the sky, not
    /// the strongest edge, and sure, though weak in units of the frame's noise.
    @Test func aHazyRidgeAboveATexturedForestIsTheSkyline() {
        let image = Self.scene { x, y, random in
            let top = Self.ridge(x)
            let s = Self.sky(y)
            if y > top + 45 { return Self.forest(random, texture: 64) }
            // The ridge's colour, the sky at its top darkened, blended into the sky over 3 rows.
            let t = min(max((y - top) / 3 + 0.5, 0), 1)
            let ridge = (Self.sky(top).0 - 70, Self.sky(top).1 - 50, Self.sky(top).2 - 25)
            return (s.0 + (ridge.0 - s.0) * t, s.1 + (ridge.1 - s.1) * t, s.2 + (ridge.2 - s.2) * t)
        }
        let found = SkylineDetector.detect(in: image)
        let score = Self.score(found, truth: Self.ridge, tolerance: 3)
        #expect(score.within > 0.9, "\(Int(100 * score.within)) % of the columns on the hazy ridge (coverage \(found.coverage))")
        #expect(score.wrong == 0, "\(score.wrong) points more than 5 % of the height off")
    }

    /// A peach sky over a smooth blue haze layer 40 rows tall whose top blends into the sky over
    /// twelve rows (a sea of haze, web_050), lying on a sharp, textured dark ridge. The layer is
    /// darker than the sky, a departure; but its soft top is no skyline: every point drawn is on
    /// the ridge, none on the layer's top (left out if in doubt).
    @Test func aHazeLayersSoftTopIsNotDrawnAsTheSkyline() {
        let layer = 40.0, blend = 10.0
        let image = Self.scene(seed: 5) { x, y, random in
            let top = Self.ridge(x) + 60
            if y > top {
                let v = 120 * (random() - 0.5)
                return (95 + v, 75 + v, 70 + v)
            }
            let peach = (250.0, 214.0 - 0.05 * y, 196.0 - 0.05 * y), haze = (125.0, 160.0, 195.0)
            let t = min(max((y - (top - layer)) / blend + 0.5, 0), 1)
            return (peach.0 + (haze.0 - peach.0) * t, peach.1 + (haze.1 - peach.1) * t, peach.2 + (haze.2 - peach.2) * t)
        }
        let found = SkylineDetector.detect(in: image)
        let onTheLayer = found.points.filter { abs($0.y - (Self.ridge($0.x) + 60 - layer)) < 0.5 * layer }.count
        #expect(onTheLayer == 0, "\(onTheLayer) points drawn on the haze layer's top (coverage \(found.coverage))")
        let score = Self.score(found, truth: { Self.ridge($0) + 60 }, tolerance: 3)
        #expect(score.wrong == 0, "\(score.wrong) points more than 5 % of the height off the ridge")
    }

    /// A sky paling toward the horizon over its last 60 rows (by 50 levels, a level a row),
    /// above the same textured forest: the pale band is sky followed down, not a departure,
    /// and the skyline is the forest's edge.
    @Test func aPaleBandAtTheHorizonIsFollowedAsSky() {
        let image = Self.scene(seed: 3) { x, y, random in
            let top = Self.ridge(x) + 120
            if y > top { return Self.forest(random, texture: 90) }
            let s = Self.sky(y), t = min(max((y - (top - 60)) / 60, 0), 1)
            return (s.0 + 50 * t, s.1 + 45 * t, s.2 + 20 * t)
        }
        let found = SkylineDetector.detect(in: image)
        let score = Self.score(found, truth: { Self.ridge($0) + 120 }, tolerance: 3)
        #expect(score.within > 0.9, "\(Int(100 * score.within)) % of the columns on the forest's edge (coverage \(found.coverage))")
        #expect(score.wrong == 0, "\(score.wrong) points more than 5 % of the height off")
    }

    /// A white cloud bank over columns 300…419 sitting on the ridge (its foot hidden behind it,
    /// its top 50 rows higher): where the cloud is, the skyline is the ridge or nothing, never
    /// the cloud's top.
    @Test func aCloudOnTheRidgeIsNeverTakenForTheSkyline() {
        let cloud = 300..<420
        let image = Self.scene(seed: 9) { x, y, random in
            let top = Self.ridge(x) + 45
            if y > top { return Self.forest(random, texture: 90) }
            if cloud.contains(Int(x)), y > top - 50 { return (240, 242, 246) }
            return Self.sky(y)
        }
        let found = SkylineDetector.detect(in: image)
        let inCloud = found.points.filter { cloud.contains(Int($0.x)) }
        let off = inCloud.filter { abs($0.y - (Self.ridge($0.x) + 45)) > 3 }.count
        #expect(off == 0, "\(off) of \(inCloud.count) points in the cloud's columns off the ridge")
        let score = Self.score(found, truth: { Self.ridge($0) + 45 }, tolerance: 3)
        #expect(score.within > 0.75, "\(Int(100 * score.within)) % of the columns on the ridge")
    }

    /// A white cumulus over columns 200…599 whose underside darkens gradually (over 30 rows,
    /// three levels a row) to a grey 40–70 levels darker than the sky, 20 rows thick, with clear
    /// sky again below it and the ridge further down (web_034). The grey underside departs from
    /// the sky, and is thick enough that nothing below it would be sky; but it is reached from a
    /// cloud by a gradual darkening, so it is the cloud's shade, not terrain: the skyline under
    /// the cloud is the ridge.
    @Test func aCloudsShadedUndersideAboveClearSkyIsNotTheSkyline() {
        let cloud = 200.0..<600.0
        let image = Self.scene(seed: 21) { x, y, random in
            let top = Self.ridge(x) + 45
            if y > top { return Self.forest(random, texture: 40) }
            let s = Self.sky(y)
            guard cloud.contains(x) else { return s }
            // The cloud's rows: white from 30 to 60, then darkening to grey by row 90, grey to
            // its base at row 110 (the ridge's highest point lies below 130).
            let white = (242.0, 244.0, 248.0), grey = (s.0 - 20, s.1 - 40, s.2 - 70)
            if y < 30 || y > 110 { return s }
            let t = min(max((y - 60) / 30, 0), 1)
            return (white.0 + (grey.0 - white.0) * t, white.1 + (grey.1 - white.1) * t, white.2 + (grey.2 - white.2) * t)
        }
        let found = SkylineDetector.detect(in: image)
        let truth = { (x: Double) in Self.ridge(x) + 45 }
        let underCloud = found.points.filter { cloud.contains($0.x) }
        let onRidge = underCloud.filter { abs($0.y - truth($0.x)) <= 3 }.count
        #expect(Double(onRidge) >= 0.9 * (cloud.upperBound - cloud.lowerBound), "\(onRidge) of the cloud's 400 columns on the ridge (\(underCloud.count) drawn)")
        let onCloud = underCloud.filter { $0.y < 115 }.count
        #expect(onCloud == 0, "\(onCloud) points drawn on the cloud")
    }

    /// The hazy ridge of the first test, 60 levels darker than the sky in red (45 in green, 27 in
    /// blue), its edge blurred over four rows by a cosine ramp (a web photo scaled up: up to 25
    /// levels a row, second differences small) above the same textured forest (web_046). Row by
    /// row the ramp is smooth and, against the frame's noise, near the sky just above it:
    /// followed down it, the sky became the ridge and the forest's edge was drawn as the skyline
    /// across the whole width. A steep slope is no drift: the ridge's face departs and the
    /// forest's edge is never drawn (the ridge itself is found on about half the columns; the
    /// rest are left out).
    @Test func aHazyRidgesBlurredEdgeIsNotFollowedAsSky() {
        let blur = 4.0
        let image = Self.scene(seed: 17) { x, y, random in
            let top = Self.ridge(x)
            let s = Self.sky(y)
            if y > top + 45 { return Self.forest(random, texture: 64) }
            let t = y < top - blur / 2 ? 0 : y > top + blur / 2 ? 1 : (1 - cos(.pi * (y - top + blur / 2) / blur)) / 2
            let ridge = (Self.sky(top).0 - 60, Self.sky(top).1 - 45, Self.sky(top).2 - 27)
            return (s.0 + (ridge.0 - s.0) * t, s.1 + (ridge.1 - s.1) * t, s.2 + (ridge.2 - s.2) * t)
        }
        let found = SkylineDetector.detect(in: image)
        let score = Self.score(found, truth: Self.ridge, tolerance: 3)
        #expect(Double(score.wrong) <= 0.02 * Double(Self.width), "\(score.wrong) points more than 5 % of the height off (the forest's edge)")
        #expect(score.within > 0.4, "\(Int(100 * score.within)) % of the columns on the hazy ridge (coverage \(found.coverage))")
    }
}
