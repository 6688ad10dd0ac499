import Foundation
import Testing
@testable import TapSeekCore

/// The slopes of a viewshed's wedges, and of wedges twice or four times as wide.
struct WedgeSlopesTests {
    @Test func coarserWedgesTakeTheSteepestOfTheirsInEachBand() {
        // Four wedges of three bands: wedge-major.
        let slopes = WedgeSlopes(wedges: 4, bands: 3, bandLength: 1000,
                                 values: [0.1, 0.5, 0.0,
                                          0.3, 0.2, 0.0,
                                          0.0, 0.9, 0.4,
                                          0.7, 0.1, 0.2], gradients: [0.6, 0.4, 1.0, 0.8])
        let halves = slopes.coarsened(by: 2)
        #expect(halves.wedges == 2 && halves.bands == 3 && halves.bandLength == 1000 && halves.gradients == [0.6, 1.0])
        #expect(halves.values == [0.3, 0.5, 0.0, 0.7, 0.9, 0.4])
        #expect(slopes.coarsened(by: 4).values == [0.7, 0.9, 0.4])
        #expect(slopes.coarsened(by: 1).values == slopes.values)
    }

    /// Measured for twice the rays and then coarsened, the slopes are those measured for the
    /// wider wedges directly: a block reaches a wide wedge exactly when it reaches one of its
    /// halves (a half's index, halved, is the wide wedge's, to the bit, as both steps are
    /// 2π over a count and twice it).
    @Test func coarsenedSlopesAreThoseOfTheWiderWedges() {
        let grid = HorizonProfileTests.hills
        let eye = GeodeticPosition(latitude: 30.0, longitude: 10.25, height: 900)
        func measure(_ count: Int) -> WedgeSlopes {
            WedgeSlopes.measure(of: [grid], south: 29.8, north: 30.2, west: 10.05, east: 10.45, eye: eye, count: count, range: 20_000)
        }
        let fine = measure(1440), wide = measure(720)
        #expect(fine.coarsened(by: 2).values == wide.values)
        #expect(wide.values.contains { $0 > 0.05 }, "hills with steep slopes")
        // Not a table of equal slopes: the two halves of some wide wedge differ.
        let bands = fine.bands
        #expect((0..<wide.wedges).contains { w in
            fine.values[(2 * w * bands)..<((2 * w + 1) * bands)] != fine.values[((2 * w + 1) * bands)..<((2 * w + 2) * bands)]
        })
    }
}
