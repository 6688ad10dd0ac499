import Foundation

/// The local East-North-Up frame tangent to the ellipsoid at an origin: x east, y north,
/// z along the ellipsoid normal (geodetic up). Coordinates in metres.
public struct LocalFrame: Sendable, Hashable {
    /// The frame's origin.
    public let origin: GeodeticPosition
    /// The origin in ECEF metres.
    public let originECEF: Vector3
    /// Unit vectors of the ENU axes expressed in ECEF.
    public let east: Vector3, north: Vector3, up: Vector3
    public let ellipsoid: Ellipsoid

    public init(origin: GeodeticPosition, ellipsoid: Ellipsoid = .wgs84) {
        self.origin = origin
        self.ellipsoid = ellipsoid
        // The origin's vertical (``Ellipsoid/ecef(_:)``'s own arithmetic) gives the sines and
        // cosines too: taken again, they were four calls to libm, 300 instructions of every
        // sightline.
        let vertical = ellipsoid.vertical(latitude: origin.latitude, longitude: origin.longitude)
        originECEF = vertical.point(height: origin.height)
        let sp = vertical.sinLatitude, cp = vertical.cosLatitude, sl = vertical.sinLongitude, cl = vertical.cosLongitude
        east = Vector3(-sl, cl, 0)
        north = Vector3(-sp * cl, -sp * sl, cp)
        up = Vector3(cp * cl, cp * sl, sp)
    }

    /// An ENU direction or offset (metres) → the same vector in ECEF axes.
    @inlinable public func ecefVector(fromENU v: Vector3) -> Vector3 {
        v.x * east + v.y * north + v.z * up
    }

    /// An ECEF vector → ENU components.
    @inlinable public func enuVector(fromECEF v: Vector3) -> Vector3 {
        Vector3(v.dot(east), v.dot(north), v.dot(up))
    }

    /// An ECEF point → ENU coordinates relative to the origin, metres.
    @inlinable public func enu(ofECEF p: Vector3) -> Vector3 { enuVector(fromECEF: p - originECEF) }

    /// ENU coordinates relative to the origin → ECEF point, metres.
    @inlinable public func ecef(ofENU v: Vector3) -> Vector3 { originECEF + ecefVector(fromENU: v) }

    /// A geodetic point → ENU coordinates relative to the origin, metres.
    public func enu(of p: GeodeticPosition) -> Vector3 { enu(ofECEF: ellipsoid.ecef(p)) }

    /// ENU coordinates relative to the origin → geodetic point.
    public func geodetic(ofENU v: Vector3) -> GeodeticPosition { ellipsoid.geodetic(ecef(ofENU: v)) }
}
