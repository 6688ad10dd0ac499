import Foundation

/// A geoid grid's steepest gradient (``Geoid/steepestGradient``) kept on disk, in the
/// directory of the void-fill patches (``VoidFillCache``), so that a command that marches
/// sightlines does not scan the whole grid at every start: 11 M instructions for EGM96 15′,
/// about a millisecond, against 1.5 M for the digest that finds the file.
///
/// One small text file a grid, named by a hash of its *key*, which it also holds in full: the
/// grid's shape and spacing and a digest of its every post (``VoidFillCache/Checksum/ofPosts(_:)``),
/// so that it serves any grid a ``Geoid`` is made from, however it was read; for a geoid that
/// reads a GTX file in place, the file's path and identity on disk (``key(forFile:identity:)``),
/// which need none of its posts. Then the value's
/// bits and a checksum of all that. A file whose key differs, or that is damaged or cut short,
/// is ignored and the value computed (and written again). Written to a temporary file and
/// renamed into place; a directory that cannot be made or written means no cache, silently.
struct GeoidGradientCache: Sendable {
    /// The version of the gradient's definition: **bump it whenever a change to
    /// `Geoid.steepestGradient(of:)` may change its value**, so that files kept by an earlier
    /// version are ignored.
    static let version = 1

    /// The directory holding the files (made when the first is written).
    let directory: URL

    /// What a file belongs to: its first lines, and its name.
    struct Key: Sendable, Hashable {
        let text: String
        let fileName: String
    }

    /// The key of `grid`'s gradient.
    static func key(for grid: ElevationGrid) -> Key {
        func hex(_ x: Double) -> String { String(x.bitPattern, radix: 16) }
        var text = "tapseek geoid gradient\nversion \(version)\n"
        text += "grid \(grid.rows) \(grid.columns) \(hex(grid.north)) \(hex(grid.west)) \(hex(grid.latitudeSpacing)) \(hex(grid.longitudeSpacing))\n"
        text += "posts \(String(VoidFillCache.Checksum.ofPosts(grid.heights), radix: 16))\n"
        return Key(text: text, fileName: "geoid-gradient-\(String(VoidFillCache.Checksum.of(Array(text.utf8)), radix: 16))")
    }

    /// The key of the gradient of the GTX file at `path`, by what identifies its contents on disk
    /// (``MappedFile/identity``): its posts, read in place, are not all read to find the file.
    static func key(forFile path: String, identity: String) -> Key {
        let text = "tapseek geoid gradient\nversion \(version)\nfile \(path)\nidentity \(identity)\n"
        return Key(text: text, fileName: "geoid-gradient-\(String(VoidFillCache.Checksum.of(Array(text.utf8)), radix: 16))")
    }

    /// Where the value of `key` lives.
    func url(of key: Key) -> URL { directory.appendingPathComponent(key.fileName) }

    /// The file's whole text for `value`: the key, the value's bits, and a checksum of both.
    static func contents(_ value: Double, key: Key) -> String {
        let body = key.text + "value \(String(value.bitPattern, radix: 16))\n"
        return body + "check \(String(VoidFillCache.Checksum.of(Array(body.utf8)), radix: 16))\n"
    }

    /// The value kept for `key`; nil when there is none, or the file does not fit it exactly.
    func value(for key: Key) -> Double? {
        guard let data = FileManager.default.contents(atPath: url(of: key).path),
              let text = String(data: data, encoding: .utf8), text.hasPrefix(key.text) else { return nil }
        let lines = text.dropFirst(key.text.count).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3, lines[2].isEmpty, lines[0].hasPrefix("value "),
              let bits = UInt64(lines[0].dropFirst("value ".count), radix: 16) else { return nil }
        let value = Double(bitPattern: bits)
        guard value.isFinite, value >= 0, text == Self.contents(value, key: key) else { return nil }
        return value
    }

    /// Keeps `value` for `key`. Any failure leaves no file and says nothing.
    func store(_ value: Double, key: Key) {
        CacheFile.write(Data(Self.contents(value, key: key).utf8), named: key.fileName, in: directory)
    }
}
