import Foundation

/// The offline reverse geocoder over one index file built by `scripts/build-geocoder-index.sh`:
/// country and time zone (timezone-boundary-builder's OpenStreetMap borders filed by tzdata,
/// the Digital Chart of the World where they have nothing), first-level region (Natural Earth
/// admin-1) and nearest populated place (GeoNames) for any point, read in place from the file's
/// bytes.
///
/// Immutable and `Sendable`: share one instance between threads. Open a file with
/// ``init(contentsOf:)``, which maps it: opening then costs page-table entries rather than a
/// 175 MB read. ``init(data:)`` takes bytes already in memory (memory-mapped `Data` is best).
///
/// File layout (little-endian; ``IndexSections`` describes the directory). Sections:
/// - `META`: JSON with the build parameters and the sources' versions.
/// - `ZONE`, `Z0GRD`, `Z0NOD`, `Z0LEF`, `Z1GRD`…: the time zones (``TimeZoneLayers``).
/// - `CGRD`, `CNOD`, `CLEF`: the DCW country layer, the fallback where no zone is, and `RGRD`,
///   `RNOD`, `RLEF` the region layer (``PolygonLayer`` describes them).
/// - `COUNTRY`: `UInt32` count, then 16-byte records: ISO code (2 ASCII bytes), pad, `UInt32`
///   name string, `UInt32` first place, `UInt32` place count.
/// - `REGION`: `UInt32` count, then 8-byte records: `UInt32` name string, `UInt16` country
///   (0xFFFF none), pad.
/// - `PLACEKD`, `PLACE`: ``PlaceTree`` records.
/// - `AGRD`, `ANOD`, `AREC`, `ATUP`: the ``AnswerTree``, which answers most look-ups at once.
/// - `STRINGS`: `UInt32` count, `UInt32` offsets (count + 1), UTF-8 bytes.
public struct GeocoderIndex: Sendable {
    /// Where no zone holds a point, a point outside every DCW country polygon still takes the
    /// country whose border is nearest within this distance, metres: DCW (1:1 000 000)
    /// simplifies coasts, so shore towns and harbour moles fall just outside.
    public static let coastalFringe = 10_000.0
    /// A point whose region polygon belongs to another country (Natural Earth's generalised
    /// borders differ from DCW's by a few kilometres) takes the nearest region of its own
    /// country within this distance, metres; beyond it the region is unknown.
    public static let regionFringe = 20_000.0
    /// Farthest the nearest populated place may lie from a point and still be its `locality`,
    /// metres. A town farther away names a region, not the place (the South Pole once got
    /// McMurdo Station, 1 357 km off; Mt Hikurangi Opotiki, 68.7 km off); beyond it the
    /// placemark has no `locality` and no `subAdministrativeArea`.
    public static let localityRadius = 50_000.0

    /// The index's bytes: a file this index mapped itself, or `Data` handed to it.
    private let storage: Storage
    private let countryLayer: PolygonLayer
    private let zones: TimeZoneLayers
    private let regionLayer: PolygonLayer
    private let places: PlaceTree
    private let answers: AnswerTree
    private let stringOffsets: Int
    private let stringBytes: Int
    private let stringCount: Int
    /// Byte offset of the first COUNTRY record.
    private let countryRecords: Int

    /// ISO 3166-1 alpha-2 codes of the countries, by owner number.
    public let countryCodes: [String]
    private let countryNames: [String?]
    /// String ids of the country and region names, for ``withUTF8(_:_:)``.
    private let countryNameIDs: [UInt32]
    private let regionNameIDs: [UInt32]
    private let countryPlaces: [Range<Int>]
    private let regionNames: [String?]
    /// Time-zone names, built once: most are longer than a `String` holds without allocating.
    private let zoneNames: [String?]
    /// The owner numbers of the nautical zones `Etc/GMT+12` … `Etc/GMT-12` by whole hours east,
    /// −12…12 (index hours + 12); −1 where the index lacks one.
    private let nauticalZones: [Int32]
    /// Owner number of the country each region belongs to, or −1.
    private let regionCountry: [Int]
    /// Whether a place's district names another region (``RegionNameMatcher``).
    private let regionNameMatcher: RegionNameMatcher
    /// The `META` section: build parameters and the sources' versions, as JSON text.
    public let metadata: String

    private enum Storage: Sendable {
        case mapped(MappedFile)
        case data(Data)
    }

    /// Opens the index file at `url`, mapped into memory (the fastest way: look-ups then read it
    /// through a pointer that stays valid, with no per-call cost of `Data`).
    /// - Throws: ``GeocoderIndexError`` naming the file when it is missing, unreadable or not an
    ///   index of this format.
    public init(contentsOf url: URL) throws(GeocoderIndexError) {
        let file: MappedFile
        do {
            file = try MappedFile(path: url.path)
        } catch {
            let reason = error.isMissing ? "no such file; build it with scripts/build-geocoder-index.sh" : "cannot read it (\(error.message))"
            throw GeocoderIndexError("geocoder index \(url.path): \(reason)")
        }
        do {
            try self.init(.mapped(file))
        } catch {
            throw GeocoderIndexError("geocoder index \(url.path): \(error.message)")
        }
    }

    /// Opens an index held in `data`. ``init(contentsOf:)`` is faster for a file.
    /// - Throws: ``GeocoderIndexError`` when the bytes are not an index of this format, or are
    ///   cut short.
    public init(data: Data) throws(GeocoderIndexError) {
        try self.init(.data(data))
    }

    private init(_ storage: Storage) throws(GeocoderIndexError) {
        self.storage = storage
        let parsed: Result<Parts, GeocoderIndexError> = Self.withBytes(storage) { raw in
            do throws(GeocoderIndexError) { return .success(try Parts(raw)) } catch { return .failure(error) }
        }
        let parts = try parsed.get()
        countryLayer = parts.countryLayer
        zones = parts.zones
        regionLayer = parts.regionLayer
        places = parts.places
        answers = parts.answers
        stringOffsets = parts.stringOffsets
        stringBytes = parts.stringBytes
        stringCount = parts.stringCount
        countryRecords = parts.countryRecords
        countryCodes = parts.countryCodes
        countryNames = parts.countryNames
        countryNameIDs = parts.countryNameIDs
        regionNameIDs = parts.regionNameIDs
        countryPlaces = parts.countryPlaces
        regionNames = parts.regionNames
        zoneNames = parts.zoneNames
        let names = parts.zoneNames
        nauticalZones = (-12...12).map { hours in
            let name = hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
            return Int32(names.firstIndex(of: name) ?? -1)
        }
        regionCountry = parts.regionCountry
        regionNameMatcher = RegionNameMatcher(names: parts.regionNames, countries: parts.regionCountry)
        metadata = parts.metadata
    }

    /// The parsed tables, built inside one `withUnsafeBytes`.
    private struct Parts {
        var countryLayer: PolygonLayer
        var zones: TimeZoneLayers
        var regionLayer: PolygonLayer
        var places: PlaceTree
        var answers: AnswerTree
        var stringOffsets = 0, stringBytes = 0, stringCount = 0, countryRecords = 0
        var countryCodes: [String] = []
        var countryNames: [String?] = []
        var countryNameIDs: [UInt32] = []
        var regionNameIDs: [UInt32] = []
        var countryPlaces: [Range<Int>] = []
        var regionNames: [String?] = []
        var zoneNames: [String?] = []
        var regionCountry: [Int] = []
        var metadata: String

        init(_ raw: UnsafeRawBufferPointer) throws(GeocoderIndexError) {
            let sections = try IndexSections(raw)
            let metaRange = try sections.require("META")
            metadata = String(decoding: UnsafeRawBufferPointer(rebasing: raw[metaRange]), as: UTF8.self)

            let strings = try sections.require("STRINGS")
            guard strings.count >= 8 else { throw GeocoderIndexError("geocoder index STRINGS section is truncated") }
            stringCount = Int(raw.loadUnaligned(fromByteOffset: strings.lowerBound, as: UInt32.self))
            stringOffsets = strings.lowerBound + 4
            stringBytes = stringOffsets + 4 * (stringCount + 1)
            guard stringBytes <= strings.upperBound,
                  stringBytes + Int(raw.loadUnaligned(fromByteOffset: stringOffsets + 4 * stringCount, as: UInt32.self)) <= strings.upperBound
            else { throw GeocoderIndexError("geocoder index STRINGS section is truncated") }

            let meta = (try? JSONSerialization.jsonObject(with: Data(metadata.utf8))) as? [String: Any] ?? [:]
            places = try PlaceTree(sections: sections, bucket: (meta["placeBucket"] as? Int) ?? 0)

            let countries = try sections.require("COUNTRY")
            let countryCount = countries.count >= 4 ? Int(raw.loadUnaligned(fromByteOffset: countries.lowerBound, as: UInt32.self)) : -1
            guard countryCount >= 0, countries.count == 4 + 16 * countryCount else {
                throw GeocoderIndexError("geocoder index COUNTRY section is truncated")
            }
            let regions = try sections.require("REGION")
            let regionCount = regions.count >= 4 ? Int(raw.loadUnaligned(fromByteOffset: regions.lowerBound, as: UInt32.self)) : -1
            guard regionCount >= 0, regions.count == 4 + 8 * regionCount else {
                throw GeocoderIndexError("geocoder index REGION section is truncated")
            }
            // Open-sea cells may skip the coastal search only if the build's margin covers it.
            let trustsOpenSea = (meta["openSeaMarginMetres"] as? Double ?? 0) >= GeocoderIndex.coastalFringe
            countryRecords = countries.lowerBound + 4
            countryLayer = try PolygonLayer(sections: sections, prefix: "C", ownerCount: countryCount, trustsOpenSea: trustsOpenSea)
            regionLayer = try PolygonLayer(sections: sections, prefix: "R", ownerCount: regionCount, trustsOpenSea: false)
            zones = try TimeZoneLayers(raw, sections: sections, layerCount: (meta["zoneLayers"] as? Int) ?? 0, countryCount: countryCount)
            // The answer tree holds the region fringe's answers: only valid for this fringe.
            guard meta["regionFringeMetres"] as? Double == GeocoderIndex.regionFringe else {
                throw GeocoderIndexError("geocoder index was built for another region fringe than \(GeocoderIndex.regionFringe) m; rebuild it with scripts/build-geocoder-index.sh --force")
            }
            answers = try AnswerTree(raw, sections: sections, zoneCount: zones.count, countryCount: countryCount, regionCount: regionCount)

            for k in 0..<countryCount {
                let at = countries.lowerBound + 4 + 16 * k
                countryCodes.append(String(decoding: UnsafeRawBufferPointer(rebasing: raw[at..<(at + 2)]), as: UTF8.self))
                let nameID = raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)
                countryNameIDs.append(nameID)
                countryNames.append(Self.string(raw, nameID, offsets: stringOffsets, bytes: stringBytes, count: stringCount))
                let first = Int(raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self))
                let n = Int(raw.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
                guard first + n <= places.count else { throw GeocoderIndexError("geocoder index places of \(countryCodes[k]) lie outside PLACE") }
                countryPlaces.append(first..<(first + n))
            }
            for k in 0..<regionCount {
                let at = regions.lowerBound + 4 + 8 * k
                let nameID = raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)
                regionNameIDs.append(nameID)
                regionNames.append(Self.string(raw, nameID, offsets: stringOffsets, bytes: stringBytes, count: stringCount))
                let country = raw.loadUnaligned(fromByteOffset: at + 4, as: UInt16.self)
                regionCountry.append(country == PolygonLayer.noOwner || Int(country) >= countryCount ? -1 : Int(country))
            }
            zoneNames = zones.nameIDs.map { Self.string(raw, $0, offsets: stringOffsets, bytes: stringBytes, count: stringCount) }
        }

        static func string(_ raw: UnsafeRawBufferPointer, _ id: UInt32, offsets: Int, bytes: Int, count: Int) -> String? {
            utf8(raw, id, offsets: offsets, bytes: bytes, count: count).map { String(decoding: $0, as: UTF8.self) }
        }

        @inline(__always)
        static func utf8(_ raw: UnsafeRawBufferPointer, _ id: UInt32, offsets: Int, bytes: Int, count: Int) -> UnsafeRawBufferPointer? {
            guard Int(id) < count else { return nil }
            let start = Int(raw.loadUnaligned(fromByteOffset: offsets + 4 * Int(id), as: UInt32.self))
            let end = Int(raw.loadUnaligned(fromByteOffset: offsets + 4 * Int(id) + 4, as: UInt32.self))
            guard start <= end, bytes + end <= raw.count else { return nil }
            return UnsafeRawBufferPointer(rebasing: raw[(bytes + start)..<(bytes + end)])
        }
    }

    // MARK: Look-ups

    /// Country, region and nearest place at a point.
    ///
    /// - Parameters:
    ///   - latitude: WGS84 degrees, −90…90.
    ///   - longitude: WGS84 degrees; any finite value, wrapped into [−180, 180) (190 means −170).
    /// - Throws: ``CoordinateError`` for a latitude outside ±90 or a non-finite coordinate.
    /// - Returns: at sea beyond territorial waters, a placemark with only its time zone.
    public func placemark(latitude: Double, longitude: Double) throws(CoordinateError) -> Placemark {
        placemark(try reference(latitude: latitude, longitude: longitude))
    }

    /// The look-up of ``placemark(latitude:longitude:)`` without building strings.
    public func reference(latitude: Double, longitude: Double) throws(CoordinateError) -> PlacemarkReference {
        let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
        return withBytes { raw in lookUp(raw, latitude: p.latitude, longitude: p.longitude) }
    }

    /// The placemark a reference from this index stands for.
    public func placemark(_ reference: PlacemarkReference) -> Placemark {
        // Made in one initialiser call from locals: set field by field on `Placemark()`, it took
        // 540 more instructions (cachegrind, 2026-11-27), a fifth of the whole look-up.
        let z = Int(reference.zone)
        let timeZone = z >= 0 && z < zoneNames.count ? zoneNames[z] : nil
        let c = Int(reference.country)
        guard c >= 0, c < countryCodes.count else { return Placemark(timeZone: timeZone) }
        var claimedBy: [String]?
        if !reference.claims.isEmpty {
            let claims = reference.claims.filter { $0 >= 0 && Int($0) < countryCodes.count }
            if !claims.isEmpty { claimedBy = claims.map { countryCodes[Int($0)] } }
        }
        let r = Int(reference.region)
        var names: (locality: String?, admin2: String?) = (nil, nil)
        if reference.place >= 0 {
            names = withBytes { raw in
                let ids = places.strings(raw, Int(reference.place))
                return (string(raw, ids.name), reference.placeInRegion ? string(raw, ids.admin2) : nil)
            }
        }
        return Placemark(isoCountryCode: countryCodes[c], country: countryNames[c],
                         administrativeArea: r >= 0 && r < regionNames.count ? regionNames[r] : nil,
                         subAdministrativeArea: names.admin2, locality: names.locality,
                         localityDistance: reference.place >= 0 ? reference.localityDistance : nil,
                         timeZone: timeZone, alsoClaimedBy: claimedBy)
    }

    /// Lends `body` the UTF-8 bytes of a reference's names straight from the index.
    public func withUTF8<R>(_ reference: PlacemarkReference, _ body: (PlacemarkUTF8) throws -> R) rethrows -> R {
        try withBytes { raw in
            var names = PlacemarkUTF8()
            let z = Int(reference.zone)
            if z >= 0, z < zones.count { names.timeZone = utf8(raw, zones.nameIDs[z]) }
            let c = Int(reference.country)
            if c >= 0, c < countryNameIDs.count {
                names.isoCountryCode = isoCode(raw, c)
                names.country = utf8(raw, countryNameIDs[c])
                for claim in reference.claims where claim >= 0 && Int(claim) < countryNameIDs.count {
                    names.alsoClaimedBy.append(isoCode(raw, Int(claim)))
                }
                let r = Int(reference.region)
                if r >= 0, r < regionNameIDs.count { names.administrativeArea = utf8(raw, regionNameIDs[r]) }
                if reference.place >= 0, Int(reference.place) < places.count {
                    let ids = places.strings(raw, Int(reference.place))
                    names.locality = utf8(raw, ids.name)
                    if reference.placeInRegion { names.subAdministrativeArea = utf8(raw, ids.admin2) }
                    names.localityDistance = reference.localityDistance
                }
            }
            return try body(names)
        }
    }

    /// The country at a point as an owner number (−1 at sea), its time zone (−1 for none) and
    /// the other countries claiming it. Same rules as ``placemark(latitude:longitude:)``; the
    /// point must already be valid and wrapped.
    ///
    /// From the zone layers, not the answer tree: their grids are read independently of each
    /// other and mostly answer at once, where the tree's answer lies behind dependent reads
    /// (grid, nodes, record): 9 against 3 million country look-ups a second here.
    func country(_ raw: UnsafeRawBufferPointer, latitude: Double, longitude: Double) -> (country: Int, zone: Int, claims: [Int32]) {
        if let hit = zones.answer(zones.zones(raw, x: longitude, y: latitude)) {
            return (Int(zones.country[hit.zone]), hit.zone, hit.claims)
        }
        // No zone: DCW's country, or the nearest within the coastal fringe.
        if let c = countryLayer.owner(raw, x: longitude, y: latitude, accept: { _ in true }) { return (c, -1, []) }
        if countryLayer.isOpenSea(raw, x: longitude, y: latitude) { return (-1, -1, []) }
        let near = countryLayer.nearestOwner(raw, x: longitude, y: latitude, within: Self.coastalFringe, accept: { _ in true })
        return (near?.owner ?? -1, -1, [])
    }

    /// The look-up: the answer tree's where it has one, else the long way.
    private func lookUp(_ raw: UnsafeRawBufferPointer, latitude: Double, longitude: Double) -> PlacemarkReference {
        guard let answer = answers.answer(raw, x: longitude, y: latitude) else {
            return lookUpTheLongWay(raw, latitude: latitude, longitude: longitude)
        }
        var reference = PlacemarkReference()
        reference.zone = answers.zone[answer.tuple]
        let c = answers.country[answer.tuple]
        guard c >= 0 else { return atSea(reference, longitude: longitude) }
        reference.country = c
        let region = answers.region[answer.tuple]
        reference.region = region == AnswerTree.askRegionLayer ? self.region(raw, latitude: latitude, longitude: longitude, country: Int(c)) : region
        if !answer.candidates.isEmpty {
            let q = Ellipsoid.wgs84.reducedUnitVector(latitude: latitude, longitude: longitude)
            setPlace(&reference, raw, q, places.nearest(raw, to: q, candidates: answer.candidates))
        }
        return reference
    }

    /// A point of no country: its zone, or where the zone layers hold none (the North Pole
    /// itself), the nautical zone of its longitude (15° a zone, centred on multiples of 15°).
    private func atSea(_ reference: PlacemarkReference, longitude: Double) -> PlacemarkReference {
        guard reference.zone < 0 else { return reference }
        var r = reference
        let hours = min(max(Int((longitude / 15).rounded()), -12), 12)
        r.zone = nauticalZones[hours + 12]
        return r
    }

    /// The look-up from the zone, country and region layers and the k-d tree, without the
    /// answer tree: what the answer tree's cells were worked out from.
    private func lookUpTheLongWay(_ raw: UnsafeRawBufferPointer, latitude: Double, longitude: Double) -> PlacemarkReference {
        var reference = PlacemarkReference()
        let hit = country(raw, latitude: latitude, longitude: longitude)
        reference.zone = Int32(hit.zone)
        guard hit.country >= 0 else { return atSea(reference, longitude: longitude) }
        let c = hit.country
        reference.country = Int32(c)
        reference.claims = hit.claims
        reference.region = region(raw, latitude: latitude, longitude: longitude, country: c)
        let q = Ellipsoid.wgs84.reducedUnitVector(latitude: latitude, longitude: longitude)
        setPlace(&reference, raw, q, places.nearest(raw, to: q, in: countryPlaces[c]))
        return reference
    }

    /// The region of country `c` at a point: the region layer's owner there, else the nearest
    /// within ``regionFringe``; −1 for none.
    private func region(_ raw: UnsafeRawBufferPointer, latitude: Double, longitude: Double, country c: Int) -> Int32 {
        let regionCountry = self.regionCountry
        let ofCountry = { (r: Int) in r < regionCountry.count && regionCountry[r] == c }
        let region = regionLayer.owner(raw, x: longitude, y: latitude, accept: ofCountry)
            ?? regionLayer.nearestOwner(raw, x: longitude, y: latitude, within: Self.regionFringe, accept: ofCountry)?.owner
        return Int32(region ?? -1)
    }

    /// Sets the locality: the nearest place within ``localityRadius`` that lies in the point's
    /// region, with its district as `subAdministrativeArea`. A town across a regional border is
    /// no locality (issue 38: the Eiffel Tower's nearest town, Neuilly-sur-Seine, lies in
    /// Hauts-de-Seine, not in Paris): the nearest town of the point's own region within the
    /// radius is taken instead, and when there is none, no locality. Where the point's region is
    /// unknown, the nearest place is the locality, its district given when it lies in no region
    /// either.
    @inline(__always) private func setPlace(_ reference: inout PlacemarkReference, _ raw: UnsafeRawBufferPointer,
                                            _ q: SIMD3<Double>, _ hit: PlaceTree.Hit?) {
        guard let hit else { return }
        let c = Int(reference.country)
        var place = hit.index
        var at = places.unitVector(raw, place)
        var distance = Ellipsoid.wgs84.lambertDistance(q, at)
        guard distance <= Self.localityRadius else { return }
        let inRegion = InRegion(index: self, raw: raw, region: reference.region, country: c)
        if !inRegion.accepts(place) {
            guard reference.region >= 0 else {
                reference.place = Int32(place)
                reference.localityDistance = distance
                reference.placeInRegion = false
                return
            }
            // The chord of the locality radius, with room for rounding: the Lambert distance
            // below decides.
            let chord = Float(2 * sin(Self.localityRadius / (2 * Ellipsoid.wgs84.semiMajorAxis)) * 1.01)
            guard let own = places.nearest(raw, to: q, in: countryPlaces[c], within: chord * chord, accepting: inRegion) else { return }
            place = own.index
            at = places.unitVector(raw, place)
            distance = Ellipsoid.wgs84.lambertDistance(q, at)
            guard distance <= Self.localityRadius else { return }
        }
        reference.place = Int32(place)
        reference.localityDistance = distance
        reference.placeInRegion = true
    }

    /// Places that lie in a region: by the region layer at their position, and by their
    /// district's name, which must not name another region of the country (the layer's
    /// generalised borders put towns just outside a small region inside it).
    private struct InRegion: PlaceFilter {
        let index: GeocoderIndex
        let raw: UnsafeRawBufferPointer
        let region: Int32
        let country: Int

        func accepts(_ i: Int) -> Bool {
            let at = index.places.unitVector(raw, i)
            // The place's position from its reduced unit vector: reduced latitude β, tan φ = tan β/(1 − f).
            let latitude = degrees(atan(tan(asin(max(-1, min(1, at.z)))) / (1 - Ellipsoid.wgs84.flattening)))
            let longitude = degrees(atan2(at.y, at.x))
            guard index.region(ofPlaceAt: raw, latitude: latitude, longitude: longitude, country: country) == region else { return false }
            guard region >= 0, let district = index.utf8(raw, index.places.strings(raw, i).admin2) else { return true }
            return !index.regionNameMatcher.namesAnotherRegion(district, region: region, country: country)
        }
    }

    /// The region of country `c` at a place's position: the answer tree's where it answers for
    /// that country, else the region layer's (as for any point).
    private func region(ofPlaceAt raw: UnsafeRawBufferPointer, latitude: Double, longitude: Double, country c: Int) -> Int32 {
        if let answer = answers.answer(raw, x: longitude, y: latitude), answers.country[answer.tuple] == c {
            let region = answers.region[answer.tuple]
            if region != AnswerTree.askRegionLayer { return region }
        }
        return region(raw, latitude: latitude, longitude: longitude, country: c)
    }

    // MARK: Land regions, for maps

    /// The first-level regions whose polygons hold the points (`latitude`, `longitudes[i]`), as
    /// region numbers into `owners`, −1 where none does. Natural Earth's admin-1 polygons end at
    /// the coast, so −1 is water: unlike ``placemark(latitude:longitude:)``, no territorial sea
    /// and no fringe. One pass over a row of a picture (``BorderMap``).
    /// - Precondition: `latitude` within ±90, longitudes finite; `owners.count == longitudes.count`.
    func landRegions(latitude: Double, longitudes: [Double], into owners: inout [Int32]) {
        withBytes { raw in
            for (i, longitude) in longitudes.enumerated() {
                owners[i] = Int32(regionLayer.owner(raw, x: normalizedLongitude(longitude), y: latitude, accept: { _ in true }) ?? -1)
            }
        }
    }

    /// Name of region `r` (Natural Earth admin-1), nil when unnamed or out of range.
    func regionName(_ r: Int) -> String? { r >= 0 && r < regionNames.count ? regionNames[r] : nil }

    /// ISO code and name of the country region `r` belongs to, nil when none.
    func regionCountryCodeAndName(_ r: Int) -> (code: String, name: String?)? {
        guard r >= 0, r < regionCountry.count, regionCountry[r] >= 0 else { return nil }
        let c = regionCountry[r]
        return (countryCodes[c], countryNames[c])
    }

    /// Whether the answer tree answers at a point (valid and wrapped), for tests.
    func isAnsweredAtOnce(latitude: Double, longitude: Double) -> Bool {
        withBytes { raw in answers.answer(raw, x: longitude, y: latitude) != nil }
    }

    /// ``reference(latitude:longitude:)`` the long way, for tests comparing the two.
    func referenceTheLongWay(latitude: Double, longitude: Double) throws(CoordinateError) -> PlacemarkReference {
        let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
        return withBytes { raw in lookUpTheLongWay(raw, latitude: p.latitude, longitude: p.longitude) }
    }

    /// Lends `body` the index's bytes.
    @inline(__always) private func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Self.withBytes(storage, body)
    }

    @inline(__always) private static func withBytes<R>(_ storage: Storage, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .mapped(let file): return try body(file.bytes)
        case .data(let data): return try data.withUnsafeBytes(body)
        }
    }

    @inline(__always) private func isoCode(_ raw: UnsafeRawBufferPointer, _ country: Int) -> UnsafeRawBufferPointer {
        let at = countryRecords + 16 * country
        return UnsafeRawBufferPointer(rebasing: raw[at..<(at + 2)])
    }

    @inline(__always) private func string(_ raw: UnsafeRawBufferPointer, _ id: UInt32) -> String? {
        Parts.string(raw, id, offsets: stringOffsets, bytes: stringBytes, count: stringCount)
    }

    @inline(__always) private func utf8(_ raw: UnsafeRawBufferPointer, _ id: UInt32) -> UnsafeRawBufferPointer? {
        Parts.utf8(raw, id, offsets: stringOffsets, bytes: stringBytes, count: stringCount)
    }

    /// The ISO code of the country at a point, by the rules of ``placemark(latitude:longitude:)``
    /// but without region and place: the cheap path for bulk country checks.
    public func isoCountryCode(latitude: Double, longitude: Double) throws(CoordinateError) -> String? {
        let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
        return withBytes { raw in
            let c = country(raw, latitude: p.latitude, longitude: p.longitude).country
            return c >= 0 ? countryCodes[c] : nil
        }
    }
}
