import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The skyline detector on images whose boundary is known in closed form: a sky over terrain
/// whose edge is a sine, anti-aliased by the share of each pixel above it, with noise.
struct SkylineDetectorTests {
    static let sky = (150.0, 190.0, 235.0), ground = (70.0, 80.0, 60.0)

    /// The boundary row (pixels from the top) at column centre x.
    static func ridge(_ x: Double) -> Double { 300 + 60 * sin(2 * .pi * x / 400) + 15 * sin(2 * .pi * x / 57) }

    static func image(width: Int = 800, height: Int = 600, noise: Double = 3, fog: Double = 0,
                      boundary: (Double) -> Double = ridge, extra: ((Int, Int) -> (Double, Double, Double)?)? = nil) -> PixelImage {
        var random = SplitMix64(seed: 7)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let b = boundary(Double(x) + 0.5)
                let share = min(max(b - Double(y), 0), 1)   // the part of the pixel above the boundary
                var c = (ground.0 + (sky.0 - ground.0) * share, ground.1 + (sky.1 - ground.1) * share, ground.2 + (sky.2 - ground.2) * share)
                if let e = extra?(x, y) { c = e }
                c = (c.0 + (200 - c.0) * fog, c.1 + (200 - c.1) * fog, c.2 + (200 - c.2) * fog)
                let i = (y * width + x) * 3
                for (k, v) in [c.0, c.1, c.2].enumerated() {
                    let u = max(random.nextUnit(), 1e-12), w = random.nextUnit()
                    let n = (-2 * log(u)).squareRoot() * cos(2 * .pi * w) * noise
                    rgb[i + k] = UInt8(min(max(v + n, 0), 255).rounded())
                }
            }
        }
        return PixelImage(width: width, height: height, rgb: rgb)!
    }

    @Test func aClearSkylineIsFoundToAFractionOfAPixel() {
        let found = SkylineDetector.detect(in: Self.image())
        #expect(found.coverage > 0.9)
        let errors = found.points.map { abs($0.y - Self.ridge($0.x)) }.sorted()
        #expect(errors[errors.count / 2] < 0.3, "median error \(errors[errors.count / 2]) px")
        #expect(errors[errors.count * 95 / 100] < 1.0, "95th percentile \(errors[errors.count * 95 / 100]) px")
    }

    /// Snow 14 px deep on the crest, brighter and whiter than the sky: the boundary follows its
    /// lower edge (brighter than the sky, it is no departure from it), and the crest's top, the
    /// skyline, is reported beside it for the fit to try. A sky paling gradually to white over
    /// the same rows is no crest.
    @Test func snowOnTheCrestIsReportedWithItsTop() {
        let snowy = SkylineDetector.detect(in: Self.image(boundary: { Self.ridge($0) + 14 }, extra: { x, y in
            let top = Self.ridge(Double(x) + 0.5), y = Double(y) + 0.5
            return y > top && y < top + 14 ? (240, 242, 246) : nil
        }))
        #expect(snowy.coverage > 0.9)
        #expect(Double(snowy.crestTops.count) > 0.8 * Double(snowy.points.count), "\(snowy.crestTops.count) of \(snowy.points.count)")
        let errors = snowy.crestTops.map { abs($0.y - Self.ridge($0.x)) }.sorted()
        #expect(errors[errors.count / 2] < 1, "median error of the crests' tops \(errors[errors.count / 2]) px")
        let feet = snowy.points.map { $0.y - Self.ridge($0.x) }.sorted()
        #expect(abs(feet[feet.count / 2] - 14) < 1, "the boundary is the snow's foot")

        let paling = SkylineDetector.detect(in: Self.image(extra: { x, y in
            let distance = Self.ridge(Double(x) + 0.5) - (Double(y) + 0.5)
            guard distance > 0, distance < 40 else { return nil }
            let t = 1 - distance / 40
            return (Self.sky.0 + (240 - Self.sky.0) * t, Self.sky.1 + (242 - Self.sky.1) * t, Self.sky.2 + (246 - Self.sky.2) * t)
        }))
        #expect(Double(paling.crestTops.count) < 0.05 * Double(paling.points.count), "\(paling.crestTops.count) of \(paling.points.count)")
    }

    @Test func pointsAreReportedInFullSizePixels() {
        // The same image, said to be four times larger: every point scales with it.
        let found = SkylineDetector.detect(in: Self.image(), fullWidth: 3200, fullHeight: 2400)
        let errors = found.points.map { abs($0.y / 4 - Self.ridge($0.x / 4)) }.sorted()
        #expect(found.points.allSatisfy { $0.x > 0 && $0.x < 3200 })
        #expect(errors[errors.count / 2] < 0.3)
    }

    @Test func fogGivesNoSkyline() {
        let found = SkylineDetector.detect(in: Self.image(fog: 0.97))
        #expect(found.points.isEmpty, "coverage \(found.coverage)")
    }

    @Test func aPictureWithoutTerrainGivesNoSkyline() {
        let found = SkylineDetector.detect(in: Self.image(boundary: { _ in 1000 }))
        #expect(found.points.isEmpty)
        let allGround = SkylineDetector.detect(in: Self.image(boundary: { _ in -10 }))
        #expect(allGround.points.isEmpty)
    }

    @Test func aVeiledStretchOfSkylineIsLessConfidentThanAClearOne() {
        // A veil of mist over columns 200…299: 97 % of the way to a pale grey, sky and ground alike.
        let veiled = 200..<300
        let image = Self.image(extra: { x, y in
            guard veiled.contains(x) else { return nil }
            let share = min(max(Self.ridge(Double(x) + 0.5) - Double(y), 0), 1)
            let c = (Self.ground.0 + (Self.sky.0 - Self.ground.0) * share, Self.ground.1 + (Self.sky.1 - Self.ground.1) * share,
                     Self.ground.2 + (Self.sky.2 - Self.ground.2) * share)
            return (c.0 + (200 - c.0) * 0.97, c.1 + (200 - c.1) * 0.97, c.2 + (200 - c.2) * 0.97)
        })
        let found = SkylineDetector.detect(in: image)
        // Mean confidence per column, a column left out counting 0.
        func mean(_ columns: Range<Int>) -> Double {
            found.points.filter { columns.contains(Int($0.x)) }.map(\.confidence).reduce(0, +) / Double(columns.count)
        }
        #expect(found.points.allSatisfy { $0.confidence >= SkylineDetector.minimumConfidence && $0.confidence <= 1 })
        let clear = mean(400..<800), misted = mean(veiled)
        #expect(clear > 0.9, "clear columns: mean confidence \(clear)")
        #expect(misted < clear - 0.5, "veiled columns: mean confidence \(misted), clear \(clear)")
    }

    @Test func aPoleAboveTheSkylineIsLeftOutNotFollowed() {
        // A dark pole 6 px wide at x = 500 rising from the ground to row 100.
        let image = Self.image(extra: { x, y in (497..<503).contains(x) && y > 100 ? (40, 34, 30) : nil })
        let found = SkylineDetector.detect(in: image)
        #expect(found.coverage > 0.85)
        for p in found.points {
            #expect(abs(p.y - Self.ridge(p.x)) < 2, "a point at (\(p.x), \(p.y)) lies off the true skyline")
        }
    }
}
