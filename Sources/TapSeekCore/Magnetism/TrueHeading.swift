import Foundation

extension Reading {
    /// The reading's camera heading from **true** north, degrees in [0, 360); nil without an
    /// orientation.
    ///
    /// A `"true"` heading is returned as it is. A `"magnetic"` one is corrected by the
    /// declination of `model` at the reading's position and time; the height used is the
    /// reported altitude (0 when absent: a few hundred metres change the declination by well
    /// under 0.01°).
    /// - Throws: ``MagneticModelError`` when a magnetic heading has no time, or its time lies
    ///   outside the model's validity (the model is never extrapolated).
    public func trueHeading(using model: MagneticModel = .wmm) throws(MagneticModelError) -> Double? {
        guard let orientation else { return nil }
        switch orientation.headingReference {
        case .true:
            return normalizedAzimuth(orientation.heading)
        case .magnetic:
            guard let time else {
                throw MagneticModelError(.missingTime, "a magnetic heading needs the reading's time to be converted to true north")
            }
            return try model.magneticToTrue(heading: orientation.heading, latitude: location.latitude,
                                            longitude: location.longitude, height: location.altitude ?? 0,
                                            date: time)
        }
    }
}
