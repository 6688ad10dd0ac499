import ArgumentParser
import TapSeek

/// `--altitude-reference`.
enum AltitudeReferenceOption: String, ExpressibleByArgument, CaseIterable {
    case msl, ellipsoid

    var reference: Reading.AltitudeReference { self == .msl ? .msl : .ellipsoid }
}
