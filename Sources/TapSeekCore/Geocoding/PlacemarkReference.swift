/// A look-up's answer as references into a ``GeocoderIndex``: which country, region and place,
/// without building strings. ``GeocoderIndex/placemark(_:)`` turns it into a ``Placemark``;
/// ``GeocoderIndex/withUTF8(_:_:)`` lends the names' UTF-8 bytes straight from the index, for
/// serialisers writing millions of records.
///
/// Only meaningful with the index that produced it.
public struct PlacemarkReference: Sendable, Hashable {
    /// Owner numbers in the index; −1 for none.
    public var country: Int32 = -1
    public var region: Int32 = -1
    public var place: Int32 = -1
    /// The time zone, −1 for none; and the owner numbers of other countries claiming the point.
    public var zone: Int32 = -1
    public var claims: [Int32] = []
    /// Metres to the place (Lambert's ellipsoidal distance); NaN without a place.
    public var localityDistance: Double = .nan
    /// Whether the place lies in the point's region, so that its district is the point's too.
    public var placeInRegion = true

    /// The reference for a point nowhere: no country, zone, region or place.
    public init() {}
}

/// The UTF-8 bytes of a placemark's names, borrowed from a ``GeocoderIndex`` for the duration
/// of ``GeocoderIndex/withUTF8(_:_:)``; nil where the placemark has no such name.
public struct PlacemarkUTF8 {
    public var isoCountryCode: UnsafeRawBufferPointer?
    public var country: UnsafeRawBufferPointer?
    public var administrativeArea: UnsafeRawBufferPointer?
    public var subAdministrativeArea: UnsafeRawBufferPointer?
    public var locality: UnsafeRawBufferPointer?
    public var timeZone: UnsafeRawBufferPointer?
    /// ISO codes of the other countries claiming the point; empty when none.
    public var alsoClaimedBy: [UnsafeRawBufferPointer] = []
    /// Metres to ``locality``; nil without one.
    public var localityDistance: Double?
}
