import TapSeek

/// Names targets with the offline reverse geocoder when its index is built; without it results
/// simply carry no placemark, and one warning says why.
enum Placemarks {
    static func lookup() -> (@Sendable (Double, Double) -> Placemark?)? {
        do {
            let geocoder = try Geocoder.default()
            return { latitude, longitude in try? geocoder.placemark(latitude: latitude, longitude: longitude) }
        } catch {
            StandardError.write("tapseek: warning: results carry no placemark: \(error.description)")
            return nil
        }
    }

    /// Names summits, lakes, passes and glaciers when a places index is imported (`tapseek
    /// places import`); none imported, nothing is named and nothing is said.
    static func names() -> FeatureNaming? {
        do {
            return try GazetteerFiles.load().map(FeatureNaming.init)
        } catch {
            StandardError.write("tapseek: warning: results name no summits: \(error.description)")
            return nil
        }
    }
}
