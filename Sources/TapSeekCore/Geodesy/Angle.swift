import Foundation

/// Degree/radian conversion at the API edge: the public API speaks degrees, the inside radians.
@inlinable public func radians(_ degrees: Double) -> Double { degrees * (.pi / 180) }
@inlinable public func degrees(_ radians: Double) -> Double { radians * (180 / .pi) }

/// An angle in degrees wrapped into [0, 360).
@inlinable public func normalizedAzimuth(_ degrees: Double) -> Double {
    let r = degrees.truncatingRemainder(dividingBy: 360)
    let w = r < 0 ? r + 360 : r
    return w >= 360 ? 0 : w
}

/// A longitude in degrees wrapped into [−180, 180).
@inlinable public func normalizedLongitude(_ degrees: Double) -> Double {
    // Leave in-range values untouched: the round trip through +180 would cost their last bits.
    if degrees >= -180, degrees < 180 { return degrees }
    return normalizedAzimuth(degrees + 180) - 180
}
