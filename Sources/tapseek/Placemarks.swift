import TapSeek

/// Names targets with the offline reverse geocoder when its index is built.
enum Placemarks {
    static func lookup() -> (@Sendable (Double, Double) -> Placemark?)? {
        nil
    }
}
