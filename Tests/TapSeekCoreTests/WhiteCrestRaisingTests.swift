import Testing
@testable import TapSeekCore

/// Moving a detected skyline up to the white crests above it (``Locator/raisedToCrests``), on a
/// skyline drawn by hand: a level foot at row 100, crests whose tops lie on the line
/// y = 80 + x / 10 over columns 0–9 and 13–20, none over 10–12 or beyond 30.
struct WhiteCrestRaisingTests {
    static let foot = (0..<40).map { Reading.Pixel(x: Double($0) + 0.5, y: 100) }
    static let tops = (Array(0..<10) + Array(13..<21)).map { Reading.Pixel(x: Double($0) + 0.5, y: 80 + (Double($0) + 0.5) / 10) }

    @Test func pointsUnderACrestTakeItsTop() {
        let raised = Locator.raisedToCrests(Self.foot, crestTops: Self.tops, gap: 5)
        for x in [0, 5, 9, 13, 20] { #expect(raised[x].y == 80 + (Double(x) + 0.5) / 10) }
    }

    @Test func aNarrowGapBetweenCrestsTakesTheLineBetweenTheirTops() {
        let raised = Locator.raisedToCrests(Self.foot, crestTops: Self.tops, gap: 5)
        for x in 10...12 { #expect(abs(raised[x].y - (80 + (Double(x) + 0.5) / 10)) < 1e-12, "column \(x): \(raised[x].y)") }
    }

    @Test func aWideGapAndTheSkylineBeyondTheLastCrestStay() {
        let narrow = Locator.raisedToCrests(Self.foot, crestTops: Self.tops, gap: 3.5)
        for x in 10...12 { #expect(narrow[x].y == 100, "a 4-pixel gap is wider than 3.5") }
        let raised = Locator.raisedToCrests(Self.foot, crestTops: Self.tops, gap: 5)
        for x in 21..<40 { #expect(raised[x].y == 100) }
    }

    @Test func aPointAboveTheLineBetweenCrestsIsNeverMovedDown() {
        var foot = Self.foot
        foot[11].y = 70
        let raised = Locator.raisedToCrests(foot, crestTops: Self.tops, gap: 5)
        #expect(raised[11].y == 70)
    }

    @Test func theOrderOfThePointsDoesNotMatter() {
        let shuffled = Array(Self.foot.reversed())
        let raised = Locator.raisedToCrests(shuffled, crestTops: Self.tops.reversed(), gap: 5)
        #expect(Array(raised.reversed()) == Locator.raisedToCrests(Self.foot, crestTops: Self.tops, gap: 5))
    }
}
