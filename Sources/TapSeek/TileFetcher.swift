import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Getting SRTM tiles: names, the area they cover, where a server keeps them, and a resumable,
// verified download into a DEM directory.

// MARK: - Tile names

/// One 1° × 1° SRTM tile, named by the integer latitude and longitude of its south-west corner:
/// `N27E086` covers 27…28° N, 86…87° E (WGS84 degrees), with posts on all four edges
/// (pixel-is-point), so neighbouring tiles share their edge rows and columns.
public struct SRTMTileName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Latitude of the south edge, whole degrees, −90…89.
    public let latitude: Int
    /// Longitude of the west edge, whole degrees, −180…179.
    public let longitude: Int

    /// The tile whose south-west corner is at these whole degrees; nil outside −90…89 / −180…179.
    public init?(latitude: Int, longitude: Int) {
        guard (-90...89).contains(latitude), (-180...179).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses the canonical name `[NS]dd[EW]ddd` (either letter case), e.g. `N27E086`, `S38W071`.
    /// - Throws: ``TileFetchError`` naming the text when it is not such a name, or when it spells
    ///   the equator or prime meridian as `S00` / `W000` (those are `N00` / `E000`).
    public init(parsing text: String) throws(TileFetchError) {
        let bad = TileFetchError.invalidTileName(text)
        let chars = Array(text.uppercased().utf8)
        guard chars.count == 7 else { throw bad }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for c in chars[range] {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard let latDegrees = digits(1..<3), let lonDegrees = digits(4..<7) else { throw bad }
        let latSign: Int, lonSign: Int
        switch chars[0] {
        case UInt8(ascii: "N"): latSign = 1
        case UInt8(ascii: "S"): latSign = -1
        default: throw bad
        }
        switch chars[3] {
        case UInt8(ascii: "E"): lonSign = 1
        case UInt8(ascii: "W"): lonSign = -1
        default: throw bad
        }
        // Zero has one spelling, so that one tile has one file name.
        if (latSign < 0 && latDegrees == 0) || (lonSign < 0 && lonDegrees == 0) { throw bad }
        guard let tile = SRTMTileName(latitude: latSign * latDegrees, longitude: lonSign * lonDegrees) else {
            throw bad
        }
        self = tile
    }

    /// `N27`, `S38`: hemisphere letter and two digits of the south edge.
    public var latitudeLabel: String {
        (latitude < 0 ? "S" : "N") + Self.padded(abs(latitude), width: 2)
    }

    /// `E086`, `W071`: hemisphere letter and three digits of the west edge.
    public var longitudeLabel: String {
        (longitude < 0 ? "W" : "E") + Self.padded(abs(longitude), width: 3)
    }

    /// The canonical name, e.g. `N27E086`.
    public var description: String { latitudeLabel + longitudeLabel }

    /// South to north, then west to east.
    public static func < (a: SRTMTileName, b: SRTMTileName) -> Bool {
        (a.latitude, a.longitude) < (b.latitude, b.longitude)
    }

    private static func padded(_ value: Int, width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

// MARK: - The area to fetch

/// A latitude/longitude rectangle in WGS84 degrees whose tiles `tapseek dem fetch --bbox` gets.
/// `west > east` means the box crosses the antimeridian (e.g. west 179.5, east −179.5).
public struct TileBoundingBox: Sendable, Hashable {
    /// Southern edge, degrees, −90…90.
    public let south: Double
    /// Western edge, degrees, −180…180.
    public let west: Double
    /// Northern edge, degrees, −90…90, not south of `south`.
    public let north: Double
    /// Eastern edge, degrees, −180…180; less than `west` across the antimeridian.
    public let east: Double

    /// - Throws: ``TileFetchError`` naming the offending edge when a value is not finite, a
    ///   latitude is outside −90…90 or a longitude outside −180…180, or south lies north of north.
    public init(south: Double, west: Double, north: Double, east: Double) throws(TileFetchError) {
        for (name, value, limit) in [("south", south, 90.0), ("west", west, 180), ("north", north, 90), ("east", east, 180)] {
            guard value.isFinite, abs(value) <= limit else {
                throw .invalidBoundingBox("\(name) \(value) is outside −\(Int(limit))…\(Int(limit))")
            }
        }
        guard south <= north else {
            throw .invalidBoundingBox("south \(south) lies north of north \(north)")
        }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Parses `south,west,north,east` in degrees, e.g. `27.8,86.6,28.1,87.1`.
    /// - Throws: ``TileFetchError`` naming the field that is missing or not a number.
    public init(parsing text: String) throws(TileFetchError) {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let names = ["south", "west", "north", "east"]
        guard fields.count == 4 else {
            throw .invalidBoundingBox("expected south,west,north,east (4 numbers), got \(fields.count) field(s) in \"\(text)\"")
        }
        var values: [Double] = []
        for (name, field) in zip(names, fields) {
            let trimmed = field.trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed) else {
                throw .invalidBoundingBox("\(name) \"\(trimmed)\" is not a number")
            }
            values.append(value)
        }
        try self.init(south: values[0], west: values[1], north: values[2], east: values[3])
    }

    /// Every tile that holds a point of the box, south to north and west to east (across the
    /// antimeridian when the box crosses it). An edge on a whole degree takes only the tile
    /// inside the box: 27…28° N needs `N27` alone, although `N28`'s edge posts touch 28° too.
    public var tiles: [SRTMTileName] {
        // ±180 is one meridian: a box starting at 180 starts at −180, one ending at −180 ends at 180.
        let west = self.west == 180 ? -180 : self.west
        let east = self.east == -180 ? 180 : self.east
        let rows = Self.indices(from: south, to: north, last: 89)
        let columns: [Int]
        if west <= east {
            columns = Array(Self.indices(from: west, to: east, last: 179))
        } else {
            columns = Array(Self.indices(from: west, to: 180, last: 179)) + Array(Self.indices(from: -180, to: east, last: 179))
        }
        return rows.flatMap { row in columns.compactMap { SRTMTileName(latitude: row, longitude: $0) } }
    }

    /// Whole-degree cells from the one holding `low` to the last one that starts below `high`
    /// (at least one cell), capped at `last`.
    private static func indices(from low: Double, to high: Double, last: Int) -> ClosedRange<Int> {
        let first = min(Int(low.rounded(.down)), last)
        let end = min(max(first, Int(high.rounded(.up)) - 1), last)
        return first...end
    }
}

// MARK: - Where the server keeps a tile

/// A URL pattern with placeholders that name a tile, so that any server layout can be used:
///
/// | placeholder | for `S38W071` | for `N27E086` |
/// |---|---|---|
/// | `{name}` | `S38W071` | `N27E086` |
/// | `{lat}` | `S38` | `N27` |
/// | `{lon}` | `W071` | `E086` |
/// | `{latitude}` | `-38` | `27` |
/// | `{longitude}` | `-71` | `86` |
///
/// The scheme must be `http`, `https` or `file`.
public struct TileURLTemplate: Sendable, Hashable, CustomStringConvertible {
    /// AWS Open Data "Terrain Tiles" (registry.opendata.aws/terrain-tiles), `skadi` layout:
    /// gzipped 1″ SRTM-format tiles (3601 × 3601 posts) with global coverage, public, no key.
    public static let skadi = "https://s3.amazonaws.com/elevation-tiles-prod/skadi/{lat}/{name}.hgt.gz"

    /// The placeholders a template may use, without braces.
    public static let placeholders = ["name", "lat", "lon", "latitude", "longitude"]

    /// The pattern as given.
    public let pattern: String

    /// - Throws: ``TileFetchError`` when the pattern has an unknown or unclosed placeholder,
    ///   names no tile (needs `{name}`, or a latitude and a longitude placeholder), or does not
    ///   expand to an http, https or file URL.
    public init(_ pattern: String) throws(TileFetchError) {
        var used: Set<String> = []
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidURLTemplate(pattern, "unclosed \"{\"")
            }
            let key = String(rest[rest.index(after: open)..<close])
            guard Self.placeholders.contains(key) else {
                let known = Self.placeholders.map { "{\($0)}" }.joined(separator: ", ")
                throw .invalidURLTemplate(pattern, "unknown placeholder {\(key)} (known: \(known))")
            }
            used.insert(key)
            rest = rest[rest.index(after: close)...]
        }
        let namesLatitude = used.contains("lat") || used.contains("latitude")
        let namesLongitude = used.contains("lon") || used.contains("longitude")
        guard used.contains("name") || (namesLatitude && namesLongitude) else {
            throw .invalidURLTemplate(pattern, "names no tile: use {name}, or {lat} and {lon}")
        }
        self.pattern = pattern
        let sample = SRTMTileName(latitude: 27, longitude: 86)!
        guard let url = URL(string: expand(for: sample)),
              let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            throw .invalidURLTemplate(pattern, "not an http, https or file URL")
        }
    }

    /// The pattern with every placeholder replaced for `tile`.
    public func expand(for tile: SRTMTileName) -> String {
        pattern
            .replacingOccurrences(of: "{name}", with: tile.description)
            .replacingOccurrences(of: "{lat}", with: tile.latitudeLabel)
            .replacingOccurrences(of: "{lon}", with: tile.longitudeLabel)
            .replacingOccurrences(of: "{latitude}", with: String(tile.latitude))
            .replacingOccurrences(of: "{longitude}", with: String(tile.longitude))
    }

    /// The tile's URL. Never nil for a template that passed `init` (names are plain ASCII).
    public func url(for tile: SRTMTileName) -> URL {
        URL(string: expand(for: tile))!
    }

    public var description: String { pattern }
}

// MARK: - What a valid tile looks like

/// The checks a downloaded tile must pass before it takes its place in the DEM directory.
public enum SRTMTileFile {
    /// Bytes of an SRTM HGT file: big-endian int16 posts, 3″ (1201²) or 1″ (3601²) per tile
    /// (NASA SRTM V3 user guide; the skadi tiles are the 1″ kind).
    public static let validByteCounts: [Int64] = [1201 * 1201 * 2, 3601 * 3601 * 2]

    /// The most bytes a tile download (raw, zip or gzip) or an unpacked gzip may have: the
    /// largest tile, 3601²×2 = 25 934 402 bytes, plus 64 KiB for a container's headers (a
    /// stored zip adds about 100 bytes; compression only shrinks a tile). Anything longer is
    /// not a tile, whatever the server says: an endless response or a gzip bomb stops here
    /// instead of filling the disk.
    public static let maximumFileBytes: Int64 = 3601 * 3601 * 2 + 65_536

    /// What a file holds, told by its first bytes (gzip: 1F 8B, RFC 1952; zip: "PK\u{3}\u{4}").
    public enum Content: Sendable, Hashable {
        /// Raw HGT (anything that is neither gzip nor zip is taken for it and size-checked).
        case hgt
        /// A gzip stream, e.g. a skadi `.hgt.gz`.
        case gzip
        /// A zip archive, e.g. `.hgt.zip`.
        case zip
    }

    /// Sniffs the content of the file at `path` from its first bytes.
    public static func content(ofFileAt path: String) -> Content {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .hgt }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        if head.count >= 2, head[0] == 0x1F, head[1] == 0x8B { return .gzip }
        if head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03, head[3] == 0x04 { return .zip }
        return .hgt
    }

    /// Why a byte count is not a tile's, or nil when it is one.
    public static func sizeProblem(_ bytes: Int64) -> String? {
        validByteCounts.contains(bytes) ? nil
            : "\(bytes) bytes is neither 1201²×2 (\(validByteCounts[0])) nor 3601²×2 (\(validByteCounts[1])) bytes"
    }

    /// Why the zip archive at `path` is not a tile GDAL's HGT driver reads as `NAME.hgt.zip`,
    /// or nil when it is one: it must hold `NAME.hgt` at its top level, stored or deflated,
    /// of a valid size. Reads only the archive's central directory.
    public static func zipProblem(atPath path: String, tile: SRTMTileName) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read" }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return "is too short for a zip archive" }
        // The end-of-central-directory record sits in the last 22 bytes plus a comment ≤ 65 535.
        let tailLength = min(size, 22 + 65_535)
        guard (try? handle.seek(toOffset: size - tailLength)) != nil,
              let tail = try? handle.read(upToCount: Int(tailLength)) else { return "cannot be read" }
        let bytes = [UInt8](tail)
        var end = -1
        var i = bytes.count - 22
        while i >= 0 {
            if bytes.littleEndian32(at: i) == 0x0605_4B50 { end = i; break }
            i -= 1
        }
        guard end >= 0 else { return "has no zip central directory" }
        let count = Int(bytes.littleEndian16(at: end + 10))
        let directorySize = UInt64(bytes.littleEndian32(at: end + 12))
        let directoryOffset = UInt64(bytes.littleEndian32(at: end + 16))
        guard directoryOffset + directorySize <= size,
              (try? handle.seek(toOffset: directoryOffset)) != nil,
              let directoryData = try? handle.read(upToCount: Int(directorySize)) else {
            return "has a damaged zip central directory"
        }
        let directory = [UInt8](directoryData)
        let wanted = "\(tile).hgt"
        var names: [String] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, directory.littleEndian32(at: at) == 0x0201_4B50 else {
                return "has a damaged zip central directory"
            }
            let method = directory.littleEndian16(at: at + 10)
            let uncompressed = Int64(directory.littleEndian32(at: at + 24))
            let nameLength = Int(directory.littleEndian16(at: at + 28))
            let extraLength = Int(directory.littleEndian16(at: at + 30))
            let commentLength = Int(directory.littleEndian16(at: at + 32))
            guard at + 46 + nameLength <= directory.count else { return "has a damaged zip central directory" }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            if name == wanted {
                // 0 stored, 8 deflated: the methods GDAL's /vsizip/ reads.
                guard method == 0 || method == 8 else { return "stores \(wanted) with zip method \(method)" }
                if let problem = sizeProblem(uncompressed) { return "holds \(wanted) of \(problem)" }
                return nil
            }
            names.append(name)
            at += 46 + nameLength + extraLength + commentLength
        }
        let listed = names.prefix(3).joined(separator: ", ")
        return "holds no \(wanted) (has \(names.isEmpty ? "nothing" : listed))"
    }
}

private extension [UInt8] {
    func littleEndian16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func littleEndian32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}

// MARK: - Errors, events, results

/// Why a tile could not be fetched, or why the request for tiles is malformed: one line that
/// names the tile, URL or field concerned.
public struct TileFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// The request is malformed: a tile name, bounding box or URL template.
        case usage
        /// The server answered with an HTTP status other than 200, 206 or 404.
        case httpStatus(Int)
        /// The connection failed or broke off; a `.part` file may be left to resume from.
        case transfer
        /// The server sent something that is not a tile.
        case corrupt
        /// The DEM directory could not be written, or gzip could not unpack.
        case local
    }

    /// What went wrong, for callers that react differently (a CLI maps `.usage` to exit 2).
    public let kind: Kind
    /// The one-line message, naming the tile, URL or field.
    public let description: String

    /// An error of `kind` with its one-line message.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    static func invalidTileName(_ text: String) -> TileFetchError {
        TileFetchError(.usage, "\"\(text)\" is not a tile name like N27E086 or S38W071")
    }
    static func invalidBoundingBox(_ detail: String) -> TileFetchError {
        TileFetchError(.usage, "bounding box: \(detail)")
    }
    static func invalidURLTemplate(_ pattern: String, _ detail: String) -> TileFetchError {
        TileFetchError(.usage, "URL template \"\(pattern)\": \(detail)")
    }
}

/// What happened to one tile.
public enum TileFetchResult: Sendable, Hashable {
    /// A valid file for the tile was already in the directory; nothing was downloaded.
    case present(file: String, bytes: Int64)
    /// The tile was downloaded, verified and stored as `file` (`bytes` on disk);
    /// `transferred` bytes came over the wire this time, after `resumedAt` bytes kept from an
    /// earlier, interrupted download.
    case stored(file: String, bytes: Int64, transferred: Int64, resumedAt: Int64)
    /// The server has no such tile (HTTP 404, or no file for a `file:` URL): usually all ocean.
    case noTile(url: String)
}

/// Progress of one tile, for a progress display. Called on a background thread.
public enum TileFetchEvent: Sendable, Hashable {
    /// A request goes out; `resumingAt` > 0 asks only for the bytes after those already kept.
    case requesting(SRTMTileName, url: String, resumingAt: Int64)
    /// Bytes of the tile's file so far (kept + received) and the total when the server said it.
    case progress(SRTMTileName, bytes: Int64, expected: Int64?)
    /// Something worth a line: a restart, a replaced invalid file.
    case note(SRTMTileName, String)
}

// MARK: - The fetcher

/// Downloads SRTM tiles into a DEM directory so that a tile is either complete and valid or
/// absent: bytes go to `NAME.part`, which takes the tile's name (`NAME.hgt`, or `NAME.hgt.zip`
/// for a zip) only once verified. A `.part` left by an interrupted run is resumed with an HTTP
/// Range request when the server honours ranges, else downloaded again. The server's validator
/// (ETag, else Last-Modified) is kept beside it in `NAME.part.validator` and sent as `If-Range`,
/// so a file that changed on the server meanwhile comes whole instead of being spliced.
/// Gzip responses (`.hgt.gz`) are unpacked by the system's `gzip` into `NAME.hgt`.
public struct TileFetcher: Sendable {
    /// The DEM directory tiles are stored in; created when missing.
    public let directory: String
    /// Where the server keeps each tile.
    public let template: TileURLTemplate
    /// Seconds without any byte before a request is given up.
    public let idleTimeout: TimeInterval

    /// A fetcher storing into `directory` from the server `template` describes; a request with
    /// no byte for `idleTimeout` seconds fails (and leaves its `.part` to resume).
    public init(directory: String, template: TileURLTemplate, idleTimeout: TimeInterval = 60) {
        self.directory = directory
        self.template = template
        self.idleTimeout = idleTimeout
    }

    /// The stored file of a tile, if the directory holds a valid one (`NAME.hgt` of a valid
    /// size, or `NAME.hgt.zip` holding one): its file name and size in bytes.
    public func existingFile(for tile: SRTMTileName) -> (file: String, bytes: Int64)? {
        let hgt = "\(tile).hgt"
        if let size = fileSize(hgt), SRTMTileFile.sizeProblem(size) == nil { return (hgt, size) }
        let zip = "\(tile).hgt.zip"
        if let size = fileSize(zip), SRTMTileFile.zipProblem(atPath: path(zip), tile: tile) == nil { return (zip, size) }
        return nil
    }

    /// Makes sure the directory holds the tile: returns at once when a valid file is present,
    /// else downloads, verifies and stores it.
    /// - Parameter onEvent: progress for a display; called from a background thread.
    /// - Throws: ``TileFetchError`` naming the tile: an HTTP status other than 404, a broken
    ///   transfer (the `.part` is kept; run again to resume), a response that is not a tile, or
    ///   a directory that cannot be written.
    public func fetch(_ tile: SRTMTileName,
                      onEvent: @escaping @Sendable (TileFetchEvent) -> Void = { _ in }) async throws(TileFetchError) -> TileFetchResult {
        if let existing = existingFile(for: tile) { return .present(file: existing.file, bytes: existing.bytes) }
        try createDirectory()
        if let size = fileSize("\(tile).hgt") {
            onEvent(.note(tile, "replacing \(tile).hgt: \(SRTMTileFile.sizeProblem(size) ?? "invalid")"))
        }
        let url = template.url(for: tile)
        let part = path("\(tile).part")
        let validator = path("\(tile).part.validator")
        if url.isFileURL { return try copyLocal(tile, from: url, to: part) }

        // A kept .part may come from another server or be damaged: when the resumed file fails
        // verification, it is discarded and the tile downloaded once more from the start.
        var mayRestart = true
        while true {
            let offset = fileSize("\(tile).part") ?? 0
            let ifRange = offset > 0 ? (try? String(contentsOfFile: validator, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 } : nil
            onEvent(.requesting(tile, url: url.absoluteString, resumingAt: offset))
            let outcome = await HTTPTransfer.run(url: url, partPath: part, validatorPath: validator, offset: offset,
                                                 ifRange: ifRange, timeout: idleTimeout) { bytes, expected in
                onEvent(.progress(tile, bytes: bytes, expected: expected))
            }
            var transferred: Int64 = 0, resumedAt: Int64 = 0
            switch outcome {
            case .notFound:
                discardPart(tile)
                return .noTile(url: url.absoluteString)
            case .status(let code):
                throw TileFetchError(.httpStatus(code), "\(tile): HTTP \(code) from \(url.absoluteString)")
            case .failed(let message, let bytes, let expected):
                let of = expected.map { " of \($0)" } ?? ""
                throw TileFetchError(.transfer, "\(tile): download from \(url.absoluteString) broke off after \(bytes)\(of) bytes (\(message)); run again to resume")
            case .localFailure(let message):
                throw TileFetchError(.local, "\(tile): \(message)")
            case .tooLarge(let bytes):
                discardPart(tile)
                throw TileFetchError(.corrupt, "\(tile): \(url.absoluteString) sends \(bytes) bytes or more, more than any SRTM tile (at most \(SRTMTileFile.maximumFileBytes)); stopped")
            case .rangeNotSatisfiable(let total):
                if total != offset {
                    // The kept part is longer than the file: it is not a prefix of this tile.
                    discardPart(tile)
                    onEvent(.note(tile, "kept \(tile).part (\(offset) bytes) does not match the server's \(total.map(String.init) ?? "unknown") bytes; starting again"))
                    guard mayRestart else { throw TileFetchError(.corrupt, "\(tile): server rejects every byte range of \(url.absoluteString)") }
                    mayRestart = false
                    continue
                }
                resumedAt = offset
            case .complete(let received, let resumed):
                transferred = received
                resumedAt = resumed
                if resumed == 0, offset > 0 {
                    onEvent(.note(tile, "server sent the whole file (it ignores byte ranges, or the file changed); downloaded \(tile) from the start"))
                }
            }
            do throws(TileFetchError) {
                let (file, bytes) = try install(tile, part: part)
                try? FileManager.default.removeItem(atPath: validator)
                return .stored(file: file, bytes: bytes, transferred: transferred, resumedAt: resumedAt)
            } catch {
                guard error.kind == .corrupt, resumedAt > 0, mayRestart else { throw error }
                onEvent(.note(tile, "resumed download is not a valid tile (\(error.description)); starting again"))
                mayRestart = false
            }
        }
    }

    // MARK: Verification and storing

    /// Verifies the complete download at `part` and gives it the tile's name. A download that
    /// is not a tile is deleted.
    private func install(_ tile: SRTMTileName, part: String) throws(TileFetchError) -> (String, Int64) {
        func reject(_ problem: String) -> TileFetchError {
            discardPart(tile)
            return TileFetchError(.corrupt, "\(tile): the server's file is not an SRTM tile: \(problem)")
        }
        switch SRTMTileFile.content(ofFileAt: part) {
        case .hgt:
            let size = fileSize("\(tile).part") ?? 0
            if let problem = SRTMTileFile.sizeProblem(size) { throw reject(problem) }
            try moveIntoPlace(part, as: "\(tile).hgt")
            return ("\(tile).hgt", size)
        case .zip:
            if let problem = SRTMTileFile.zipProblem(atPath: part, tile: tile) { throw reject("zip archive \(problem)") }
            let size = fileSize("\(tile).part") ?? 0
            try moveIntoPlace(part, as: "\(tile).hgt.zip")
            return ("\(tile).hgt.zip", size)
        case .gzip:
            let unpacked = path("\(tile).hgt.part")
            do throws(TileFetchError) {
                try Gunzip.run(part, into: unpacked, limit: SRTMTileFile.maximumFileBytes)
            } catch {
                try? FileManager.default.removeItem(atPath: unpacked)
                if error.kind == .corrupt { throw reject(error.description) }
                throw TileFetchError(.local, "\(tile): \(error.description)")
            }
            let size = fileSize("\(tile).hgt.part") ?? 0
            if let problem = SRTMTileFile.sizeProblem(size) {
                try? FileManager.default.removeItem(atPath: unpacked)
                throw reject("unpacked gzip has \(problem)")
            }
            try moveIntoPlace(unpacked, as: "\(tile).hgt")
            try? FileManager.default.removeItem(atPath: part)
            return ("\(tile).hgt", size)
        }
    }

    /// A `file:` template: copy, then verify like a download (no resuming needed locally).
    private func copyLocal(_ tile: SRTMTileName, from url: URL, to part: String) throws(TileFetchError) -> TileFetchResult {
        guard FileManager.default.fileExists(atPath: url.path) else { return .noTile(url: url.absoluteString) }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw TileFetchError(.corrupt, "\(tile): \(url.path) is not a regular file")
        }
        if let size = (attributes?[.size] as? NSNumber)?.int64Value, size > SRTMTileFile.maximumFileBytes {
            throw TileFetchError(.corrupt, "\(tile): \(url.path) has \(size) bytes, more than any SRTM tile (at most \(SRTMTileFile.maximumFileBytes))")
        }
        try? FileManager.default.removeItem(atPath: part)
        do {
            try FileManager.default.copyItem(atPath: url.path, toPath: part)
        } catch {
            throw TileFetchError(.local, "\(tile): cannot copy \(url.path) to \(part): \(error.localizedDescription)")
        }
        let (file, bytes) = try install(tile, part: part)
        return .stored(file: file, bytes: bytes, transferred: bytes, resumedAt: 0)
    }

    /// Removes a download in progress and its validator: the next request starts from byte 0.
    private func discardPart(_ tile: SRTMTileName) {
        try? FileManager.default.removeItem(atPath: path("\(tile).part"))
        try? FileManager.default.removeItem(atPath: path("\(tile).part.validator"))
    }

    private func createDirectory() throws(TileFetchError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TileFetchError(.local, "cannot create DEM directory \(directory): \(error.localizedDescription)")
        }
    }

    /// Atomic replace (rename(2)): readers see the old file or the new one, never a mixture.
    private func moveIntoPlace(_ source: String, as name: String) throws(TileFetchError) {
        let target = path(name)
        guard rename(source, target) == 0 else {
            let reason = String(cString: strerror(errno))
            throw TileFetchError(.local, "cannot rename \(source) to \(target): \(reason)")
        }
    }

    private func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    private func fileSize(_ name: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path(name)),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.int64Value
    }
}

// MARK: - Unpacking gzip

/// Linux Foundation has no gzip decoder, so the system's `gzip` (Debian: essential package)
/// unpacks `.hgt.gz` downloads, streaming file to file.
enum Gunzip {
    /// Unpacks `source` into `target`, stopping with a `.corrupt` error as soon as the output
    /// passes `limit` bytes (a gzip bomb: 1 MB of zeros can unpack to 1 GB).
    static func run(_ source: String, into target: String, limit: Int64) throws(TileFetchError) {
        #if os(Linux) || os(macOS)
        guard let gzip = executable("gzip") else {
            throw TileFetchError(.local, "gzip is needed to unpack .gz tiles but is not on PATH")
        }
        guard FileManager.default.createFile(atPath: target, contents: nil),
              let output = FileHandle(forWritingAtPath: target) else {
            throw TileFetchError(.local, "cannot write \(target)")
        }
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gzip)
        process.arguments = ["-dc", source]
        let unpacked = Pipe()
        process.standardOutput = unpacked
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw TileFetchError(.local, "cannot run \(gzip): \(error.localizedDescription)")
        }
        // Stream gzip's output through here, counting, rather than into the file directly.
        let reader = unpacked.fileHandleForReading
        var written: Int64 = 0
        var writeFailure: String?
        while let chunk = try? reader.read(upToCount: 1 << 20), !chunk.isEmpty {
            written += Int64(chunk.count)
            if written > limit { break }
            do { try output.write(contentsOf: chunk) } catch {
                writeFailure = error.localizedDescription
                break
            }
        }
        if written > limit || writeFailure != nil { process.terminate() }
        try? reader.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if let writeFailure { throw TileFetchError(.local, "cannot write \(target): \(writeFailure)") }
        if written > limit {
            throw TileFetchError(.corrupt, "gzip data unpacks to more than \(limit) bytes (a tile has at most \(SRTMTileFile.validByteCounts[1]))")
        }
        guard process.terminationStatus == 0 else {
            let line = message.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw TileFetchError(.corrupt, "gzip data is damaged: \(line)")
        }
        #else
        // No subprocesses on iOS, tvOS or watchOS: fetch raw .hgt or .hgt.zip tiles there.
        throw TileFetchError(.local, "unpacking .gz tiles needs the gzip program, which this platform does not have")
        #endif
    }

    /// The first executable called `name` on PATH.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

// MARK: - One HTTP transfer

/// One GET of a tile into its `.part` file, streamed chunk by chunk so that an interruption
/// leaves every received byte on disk for a later Range request.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, Sendable {
    enum Outcome: Sendable {
        /// The body arrived in full: `received` bytes this time, appended after `resumedAt`.
        case complete(received: Int64, resumedAt: Int64)
        case notFound
        case status(Int)
        /// 416: the kept part already reaches (or passes) the end; the server's total if given.
        case rangeNotSatisfiable(total: Int64?)
        case failed(String, bytes: Int64, expected: Int64?)
        case localFailure(String)
        /// The response is longer than ``SRTMTileFile/maximumFileBytes`` (announced or sent).
        case tooLarge(bytes: Int64)
    }

    private struct State {
        var output: FileHandle?
        var resumedAt: Int64 = 0
        var received: Int64 = 0
        var expected: Int64?
        var outcome: Outcome?
        var lastReport: ContinuousClock.Instant?
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    /// A progress display needs no more than about ten updates a second.
    private static let reportInterval: Duration = .milliseconds(100)

    private let partPath: String
    private let validatorPath: String
    private let offset: Int64
    private let onProgress: @Sendable (Int64, Int64?) -> Void
    private let state = Locked(State())

    private init(partPath: String, validatorPath: String, offset: Int64, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.partPath = partPath
        self.validatorPath = validatorPath
        self.offset = offset
        self.onProgress = onProgress
    }

    /// Requests `url` (bytes from `offset` on when > 0, if the file still matches `ifRange`)
    /// and writes the body to `partPath`; a full response records its validator at
    /// `validatorPath` for a later resume.
    static func run(url: URL, partPath: String, validatorPath: String, offset: Int64, ifRange: String?,
                    timeout: TimeInterval, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) async -> Outcome {
        let transfer = HTTPTransfer(partPath: partPath, validatorPath: validatorPath, offset: offset, onProgress: onProgress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        // Byte ranges must count the stored bytes, not a transparently decoded stream.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if offset > 0 {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            if let ifRange { request.setValue(ifRange, forHTTPHeaderField: "If-Range") }
        }
        return await withCheckedContinuation { continuation in
            transfer.state.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            state.withLock { $0.outcome = .localFailure("not an HTTP response") }
            completionHandler(.cancel)
            return
        }
        let disposition: URLSession.ResponseDisposition = state.withLock { state in
            switch http.statusCode {
            case 200:
                state.resumedAt = 0
                state.expected = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
                if let expected = state.expected, expected > SRTMTileFile.maximumFileBytes {
                    state.outcome = .tooLarge(bytes: expected)
                    return .cancel
                }
                guard open(truncating: true, state: &state) else { return .cancel }
                recordValidator(of: http)
                return .allow
            case 206:
                let range = Self.contentRange(http.value(forHTTPHeaderField: "Content-Range"))
                guard let range, range.start == offset else {
                    // Not the bytes asked for: start the tile again.
                    state.outcome = .rangeNotSatisfiable(total: nil)
                    return .cancel
                }
                state.resumedAt = offset
                state.expected = range.total
                if let total = range.total, total > SRTMTileFile.maximumFileBytes {
                    state.outcome = .tooLarge(bytes: total)
                    return .cancel
                }
                return open(truncating: false, state: &state) ? .allow : .cancel
            case 404:
                state.outcome = .notFound
                return .cancel
            case 416:
                let range = Self.contentRange(http.value(forHTTPHeaderField: "Content-Range"))
                state.outcome = .rangeNotSatisfiable(total: range?.total)
                return .cancel
            default:
                state.outcome = .status(http.statusCode)
                return .cancel
            }
        }
        completionHandler(disposition)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: (Int64, Int64?)? = state.withLock { state in
            guard let output = state.output else { return nil }
            let total = state.resumedAt + state.received + Int64(data.count)
            if total > SRTMTileFile.maximumFileBytes {
                state.outcome = .tooLarge(bytes: total)
                try? output.close()
                state.output = nil
                dataTask.cancel()
                return nil
            }
            do {
                try output.write(contentsOf: data)
            } catch {
                state.outcome = .localFailure("cannot write \(partPath): \(error.localizedDescription)")
                dataTask.cancel()
                return nil
            }
            state.received += Int64(data.count)
            let now = ContinuousClock.now
            if let last = state.lastReport, now - last < Self.reportInterval { return nil }
            state.lastReport = now
            return (state.resumedAt + state.received, state.expected)
        }
        if let (bytes, expected) = report { onProgress(bytes, expected) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, outcome, bytes, expected): (CheckedContinuation<Outcome, Never>?, Outcome, Int64, Int64?) = state.withLock { state in
            try? state.output?.close()
            state.output = nil
            let total = state.resumedAt + state.received
            let outcome: Outcome
            if let decided = state.outcome {
                outcome = decided
            } else if let error {
                outcome = .failed(error.localizedDescription, bytes: total, expected: state.expected)
            } else if let expected = state.expected, total != expected {
                outcome = .failed("connection closed early", bytes: total, expected: expected)
            } else {
                outcome = .complete(received: state.received, resumedAt: state.resumedAt)
            }
            defer { state.continuation = nil }
            return (state.continuation, outcome, total, state.expected)
        }
        if case .complete = outcome { onProgress(bytes, expected) }
        continuation?.resume(returning: outcome)
    }

    /// Opens the part file for this response: emptied for a full body, appended to for a range.
    private func open(truncating: Bool, state: inout State) -> Bool {
        if truncating || !FileManager.default.fileExists(atPath: partPath) {
            guard FileManager.default.createFile(atPath: partPath, contents: nil) else {
                state.outcome = .localFailure("cannot create \(partPath)")
                return false
            }
        }
        guard let handle = FileHandle(forWritingAtPath: partPath) else {
            state.outcome = .localFailure("cannot write \(partPath)")
            return false
        }
        do {
            // Append exactly after the kept bytes the range was asked for.
            try handle.truncate(atOffset: truncating ? 0 : UInt64(offset))
            try handle.seekToEnd()
        } catch {
            state.outcome = .localFailure("cannot write \(partPath): \(error.localizedDescription)")
            return false
        }
        state.output = handle
        return true
    }

    /// Keeps what identifies this version of the file: a strong ETag (a weak one may not be
    /// used with If-Range, RFC 9110 §13.1.5), else Last-Modified; nothing when neither is given.
    private func recordValidator(of response: HTTPURLResponse) {
        try? FileManager.default.removeItem(atPath: validatorPath)
        let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        guard let value = etag ?? response.value(forHTTPHeaderField: "Last-Modified") else { return }
        try? value.write(toFile: validatorPath, atomically: true, encoding: .utf8)
    }

    /// `bytes START-END/TOTAL` or `bytes */TOTAL` (RFC 9110 §14.4); TOTAL may be `*`.
    static func contentRange(_ value: String?) -> (start: Int64?, total: Int64?)? {
        guard let value, value.hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let total = Int64(parts[1])
        if parts[0] == "*" { return (nil, total) }
        guard let dash = parts[0].firstIndex(of: "-"), let start = Int64(parts[0][..<dash]) else { return nil }
        return (start, total)
    }
}
