import Foundation
import Testing
@testable import TapSeekCore

/// Sampling a calibrated orientation with its fit's covariance: the samples' own spread and
/// correlation must be the covariance's.
struct SensorSigmasTests {
    @Test func correlatedOrientationSamplesHaveTheFitsCovariance() throws {
        // σ = 0.2°, 0.1°, 0.4°; heading and roll correlated +0.8, pitch and roll −0.5.
        let sd = [0.2, 0.1, 0.4], rho = [[1, 0, 0.8], [0, 1, -0.5], [0.8, -0.5, 1.0]]
        let covariance = (0..<3).map { i in (0..<3).map { j in rho[i][j] * sd[i] * sd[j] } }
        let sigmas = SensorSigmas(heading: 5, pitch: 1, roll: 1, horizontal: 0, vertical: 0).with(orientationCovariance: covariance)
        #expect(abs(sigmas.heading - 0.2) < 1e-12 && abs(sigmas.pitch - 0.1) < 1e-12 && abs(sigmas.roll - 0.4) < 1e-12)
        let reading = Reading(location: .init(latitude: 46, longitude: 8, altitude: 1000),
                              orientation: .init(heading: 100, pitch: 5, roll: 0))
        let n = 20_000
        var draws: [[Double]] = []
        for i in 0..<n {
            let o = try #require(Locator.perturbed(reading, by: sigmas, seed: 9, index: i).orientation)
            draws.append([o.heading - 100, o.pitch - 5, o.roll])
        }
        func moment(_ a: Int, _ b: Int) -> Double { draws.reduce(0) { $0 + $1[a] * $1[b] } / Double(n) }
        for i in 0..<3 {
            for j in 0..<3 {
                // Sampling error of a covariance with 20 000 draws: well under 5 % of σᵢσⱼ.
                #expect(abs(moment(i, j) - covariance[i][j]) < 0.05 * sd[i] * sd[j], "covariance[\(i)][\(j)]")
            }
        }
    }

    @Test func aCovarianceThatIsNotOneLeavesTheSigmasAlone() {
        let sigmas = SensorSigmas(heading: 5, pitch: 1, roll: 1, horizontal: 5, vertical: 15)
        #expect(sigmas.with(orientationCovariance: [[1, 0], [0, 1]]) == sigmas)
        #expect(sigmas.with(orientationCovariance: [[0, 0, 0], [0, 1, 0], [0, 0, 1]]) == sigmas)
        // Not positive definite: the factor is refused and sampling stays independent.
        let bad = sigmas.with(orientationCovariance: [[1, 2, 0], [2, 1, 0], [0, 0, 1]])
        #expect(bad.orientationFactor == nil)
    }
}
