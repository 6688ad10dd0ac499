import Foundation

/// One sensor reading: where the phone was, where its camera pointed, and which pixel was tapped.
/// The fields mirror the reading JSON of the public interface (docs in README); angles in degrees.
public struct Reading: Sendable, Hashable {
    /// Echoed back in the result.
    public var id: String?
    /// When the reading was taken (UTC). Needed for magnetic headings.
    public var time: Date?
    public var location: Location
    /// Absent for location-only records (a log without attitude).
    public var orientation: Orientation?
    public var camera: CameraSettings?
    /// Absent → the optical axis.
    public var tap: Tap?

    public init(id: String? = nil, time: Date? = nil, location: Location, orientation: Orientation? = nil,
                camera: CameraSettings? = nil, tap: Tap? = nil) {
        self.id = id
        self.time = time
        self.location = location
        self.orientation = orientation
        self.camera = camera
        self.tap = tap
    }

    /// Which surface an altitude is measured from.
    public enum AltitudeReference: String, Sendable, Hashable, CaseIterable {
        /// Mean sea level, EGM96 (iOS `altitude`, SRTM). The default.
        case msl
        /// The WGS84 ellipsoid (Android, W3C, GPS receivers).
        case ellipsoid
    }

    /// Which north a heading is measured from.
    public enum HeadingReference: String, Sendable, Hashable, CaseIterable {
        case `true`
        case magnetic
    }

    public struct Location: Sendable, Hashable {
        /// WGS84 degrees.
        public var latitude: Double
        public var longitude: Double
        /// Metres above ``altitudeReference``; nil → the observer stands on the terrain at ``eyeHeight``.
        public var altitude: Double?
        public var altitudeReference: AltitudeReference
        /// 1-sigma, metres.
        public var horizontalAccuracy: Double?
        public var verticalAccuracy: Double?
        /// Metres above ground when the altitude is absent or below the terrain.
        public var eyeHeight: Double

        /// Eye height of a standing person, metres.
        public static let defaultEyeHeight = 1.6

        public init(latitude: Double, longitude: Double, altitude: Double? = nil,
                    altitudeReference: AltitudeReference = .msl, horizontalAccuracy: Double? = nil,
                    verticalAccuracy: Double? = nil, eyeHeight: Double = Location.defaultEyeHeight) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.altitudeReference = altitudeReference
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
            self.eyeHeight = eyeHeight
        }
    }

    public struct Orientation: Sendable, Hashable {
        /// Azimuth of the optical axis, degrees clockwise from ``headingReference`` north.
        public var heading: Double
        public var headingReference: HeadingReference
        /// Elevation of the optical axis, degrees, positive up, −90…90.
        public var pitch: Double
        /// Degrees about the optical axis; positive = the image's right edge tips down.
        public var roll: Double
        /// 1-sigma, degrees.
        public var headingAccuracy: Double?
        public var pitchAccuracy: Double?

        public init(heading: Double, headingReference: HeadingReference = .true, pitch: Double, roll: Double = 0,
                    headingAccuracy: Double? = nil, pitchAccuracy: Double? = nil) {
            self.heading = heading
            self.headingReference = headingReference
            self.pitch = pitch
            self.roll = roll
            self.headingAccuracy = headingAccuracy
            self.pitchAccuracy = pitchAccuracy
        }
    }

    public struct CameraSettings: Sendable, Hashable {
        /// Degrees across the image width at zoom 1.
        public var horizontalFOV: Double
        /// ≥ 1.
        public var zoom: Double
        /// Pixels.
        public var imageWidth: Double
        public var imageHeight: Double

        public init(horizontalFOV: Double, zoom: Double = 1, imageWidth: Double, imageHeight: Double) {
            self.horizontalFOV = horizontalFOV
            self.zoom = zoom
            self.imageWidth = imageWidth
            self.imageHeight = imageHeight
        }
    }

    /// A pixel from the image's top-left corner, y down.
    public struct Tap: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }
}
