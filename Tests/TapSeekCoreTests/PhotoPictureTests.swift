import Foundation
import Testing
@testable import TapSeekCore

/// The annotated photo's legend keeps clear of what it annotates.
struct PhotoPictureTests {
    /// The legend box's top-left corner, from the SVG.
    static func legendOrigin(_ svg: String) throws -> (x: Double, y: Double) {
        let group = try #require(svg.range(of: #"<g id="legend"><rect x=""#).map { svg[$0.upperBound...] })
        let x = try #require(Double(group.prefix { $0 != "\"" }))
        let rest = try #require(group.range(of: #" y=""#).map { group[$0.upperBound...] })
        let y = try #require(Double(rest.prefix { $0 != "\"" }))
        return (x, y)
    }

    static func picture(skylineAt height: (Double) -> Double) -> PhotoPicture {
        let skyline = stride(from: 0.0, through: 4000, by: 20).map { Reading.Pixel(x: $0, y: height($0)) }
        let result = PhotoResult(file: "ridge.jpg", status: .uncalibrated, skyline: .init(points: skyline, coverage: 1),
                                 demSkyline: skyline.map { Reading.Pixel(x: $0.x, y: $0.y + 10) })
        return PhotoPicture(result: result, jpeg: [], width: 4000, height: 3000)
    }

    /// A skyline across the top of the frame (a landscape): the legend goes to a bottom corner.
    @Test func aSkylineAcrossTheTopPutsTheLegendBelow() throws {
        let origin = try Self.legendOrigin(Self.picture { _ in 200 }.svg())
        #expect(origin.y > 1500, "legend at \(origin)")
    }

    /// A skyline low in the frame leaves the top left, the usual place, to the legend.
    @Test func aLowSkylineLeavesTheLegendTopLeft() throws {
        let origin = try Self.legendOrigin(Self.picture { _ in 2700 }.svg())
        #expect(origin.x < 100 && origin.y < 100, "legend at \(origin)")
    }

    /// A skyline rising from the bottom left to the top right: the legend takes the top left,
    /// above the low end, not the right where the skyline is high.
    @Test func aRisingSkylineLeavesTheCornerItAvoids() throws {
        let origin = try Self.legendOrigin(Self.picture { 2800 - 0.65 * $0 }.svg())
        #expect(origin.x < 100 && origin.y < 100, "legend at \(origin)")
    }
}
