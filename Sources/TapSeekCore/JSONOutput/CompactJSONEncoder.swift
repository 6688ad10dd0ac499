/// Encodes `Encodable` values as compact JSON bytes, streamed: members in the order
/// `encode(to:)` writes them, no whitespace, ``FixedDecimal`` numbers to their places, `Double`s
/// as their shortest round-tripping decimal, non-finite numbers as `null`.
///
/// It is the writer of TapSeek's result JSON (`tapseek locate` and `batch` use it), and about
/// ten times faster than Foundation's `JSONEncoder` on a result; both give the same members
/// and values. Streaming asks one thing of an `encode(to:)`: a container is written to only
/// until a container opened after it is written to (every synthesized and every hand-written
/// conformance in TapSeek is so). A write to a container that has been closed throws.
public struct CompactJSONEncoder: Sendable {
    public init() {}

    /// The JSON text of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(value, appendingTo: &bytes)
        return bytes
    }

    /// Appends the JSON text of `value` to `bytes`; on a throw, `bytes` is left as it was.
    public func encode<T: Encodable>(_ value: T, appendingTo bytes: inout [UInt8]) throws {
        let writer = JSONStreamWriter(bytes: bytes)
        bytes = []
        defer { bytes = writer.bytes }
        let start = writer.bytes.count
        do {
            try writer.encodeValue(value)
        } catch {
            writer.bytes.removeSubrange(start...)
            throw error
        }
    }
}

/// The encoder's state: the bytes so far and the stack of containers still open.
final class JSONStreamWriter: Encoder {
    // Unchecked: every byte appended would otherwise pay a dynamic exclusivity check, the class
    // being reached through closures; the writer is used by one encoder on one thread.
    @exclusivity(unchecked) var bytes: [UInt8]
    /// Open containers, outermost first: `(id, closing byte, members written)`. Unchecked as
    /// ``bytes`` is: every member reads it.
    @exclusivity(unchecked) private var open: [(id: Int, closer: UInt8, members: Int)] = []
    private var nextID = 0
    /// Whether the value being encoded has written anything (a container or a single value).
    private var wroteValue = false

    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Values

    /// Writes one value where a value is due, closing whatever containers it opened.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // By the value's type, not by casts: three dynamic casts a value (most of them failing)
        // were a fifth of a batch record's writing. A type compares as one pointer.
        if T.self == FixedDecimal.self {
            let fixed = unsafeBitCast(value, to: FixedDecimal.self)
            JSONText.fixed(fixed.value, decimals: fixed.places) { bytes.append(contentsOf: $0) }
            return
        }
        if T.self == Double.self { return writeDouble(unsafeBitCast(value, to: Double.self)) }
        if T.self == String.self { return writeString(unsafeBitCast(value, to: String.self)) }
        let depth = open.count
        wroteValue = false
        try value.encode(to: self)
        // A value that wrote nothing is an empty object, as Foundation's encoder writes it.
        if !wroteValue { append("{}") }
        close(downTo: depth)
        wroteValue = true
    }

    /// Notes that the value being encoded wrote itself through a single-value container.
    func markWritten() { wroteValue = true }

    func writeDouble(_ value: Double) {
        JSONText.shortest(value) { bytes.append(contentsOf: $0) }
    }

    func writeString(_ value: String) {
        var value = value
        // Most strings (every key) need no escape: quotes and bytes go out in three appends.
        let plain = value.withUTF8 { utf8 -> Bool in
            for u in utf8 where JSONText.needsEscape(u) { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { JSONText.string(value) { bytes.append(contentsOf: $0) } }
    }

    func writeInteger<I: BinaryInteger>(_ value: I) { append(String(value)) }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    // MARK: Containers

    /// Opens an object or array where a value is due; returns its id.
    func openContainer(array: Bool) -> Int {
        wroteValue = true
        nextID += 1
        bytes.append(array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        open.append((nextID, array ? UInt8(ascii: "]") : UInt8(ascii: "}"), 0))
        return nextID
    }

    /// Makes container `id` the innermost (closing the ones opened after it) and starts its next
    /// member: a comma after the first.
    func beginMember(of id: Int) throws {
        // Nearly always the innermost container: nothing to close, no search.
        let last = open.count - 1
        if last >= 0, open[last].id == id {
            if open[last].members > 0 { bytes.append(UInt8(ascii: ",")) }
            open[last].members += 1
            return
        }
        guard let index = open.lastIndex(where: { $0.id == id }) else {
            throw EncodingError.invalidValue(id, .init(codingPath: codingPath,
                debugDescription: "CompactJSONEncoder streams: this container was closed when a later one was written to"))
        }
        close(downTo: index + 1)
        if open[index].members > 0 { bytes.append(UInt8(ascii: ",")) }
        open[index].members += 1
    }

    func beginMember(of id: Int, key: some CodingKey) throws {
        try beginMember(of: id)
        writeString(key.stringValue)
        bytes.append(UInt8(ascii: ":"))
    }

    private func close(downTo depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().closer) }
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(writer: self, id: openContainer(array: false)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(writer: self, id: openContainer(array: true)) }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueWriter(writer: self) }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let id: Int
    var codingPath: [any CodingKey] { writer.codingPath }

    mutating func encodeNil(forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.append("null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.append(value ? "true" : "false")
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeString(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeDouble(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        writer.writeInteger(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writer.beginMember(of: id, key: key)
        try writer.encodeValue(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // A closed container cannot throw here; its member is dropped and the next write throws.
        try? writer.beginMember(of: id, key: key)
        return writer.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        try? writer.beginMember(of: id, key: key)
        return writer.unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        try? writer.beginMember(of: id, key: key)
        return writer
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let id: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { writer.codingPath }

    init(writer: JSONStreamWriter, id: Int) {
        self.writer = writer
        self.id = id
    }

    mutating func encodeNil() throws {
        try begin()
        writer.append("null")
    }
    mutating func encode(_ value: Bool) throws {
        try begin()
        writer.append(value ? "true" : "false")
    }
    mutating func encode(_ value: String) throws {
        try begin()
        writer.writeString(value)
    }
    mutating func encode(_ value: Double) throws {
        try begin()
        writer.writeDouble(value)
    }
    mutating func encode(_ value: Int) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int8) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int16) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int32) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt8) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt16) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt32) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Int64) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: UInt64) throws {
        try begin()
        writer.writeInteger(value)
    }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try writer.encodeValue(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        try? begin()
        return writer.container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        try? begin()
        return writer.unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        try? begin()
        return writer
    }

    private mutating func begin() throws {
        try writer.beginMember(of: id)
        count += 1
    }
}

private struct SingleValueWriter: SingleValueEncodingContainer {
    let writer: JSONStreamWriter
    var codingPath: [any CodingKey] { writer.codingPath }

    mutating func encodeNil() throws { writer.markWritten(); writer.append("null") }
    mutating func encode(_ value: Bool) throws { writer.markWritten(); writer.append(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { writer.markWritten(); writer.writeString(value) }
    mutating func encode(_ value: Double) throws { writer.markWritten(); writer.writeDouble(value) }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt64) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { writer.markWritten(); writer.writeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { writer.markWritten(); try writer.encodeValue(value) }
}
