import Foundation
import TapSeek

/// One short output record written through a raw pointer straight into an ``OutputBuffer``'s
/// storage: for batch writers of millions of records, where a dozen small appends (each
/// checking the buffer's uniqueness and capacity) cost more than finding the record's content.
struct RecordBytes {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    private var count = 0

    /// Calls `body` with a writer over room for `capacity` bytes at the end of `out`, and keeps
    /// what it wrote (no scratch copy: that and its append were a sixth of a batch record).
    /// Writing more than `capacity` bytes traps.
    @inline(__always) static func append(to out: inout OutputBuffer, capacity: Int, _ body: (inout RecordBytes) -> Void) {
        out.appendInPlace(upTo: capacity) { base in
            var record = RecordBytes(base: base, capacity: capacity)
            body(&record)
            return record.count
        }
    }

    /// Copies `bytes`; up to 32 bytes (every key, punctuation and number of a record) by two
    /// overlapping word loads and stores rather than a call to `memcpy`, which cost a record
    /// about 20 instructions per piece, a dozen pieces a record.
    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        let n = bytes.count
        precondition(count + n <= capacity, "record longer than its bound")
        let target = base + count
        if n >= 8, n <= 16 {
            let head = source.loadUnaligned(as: UInt64.self), tail = source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
        } else if n > 16, n <= 32 {
            let head = source.loadUnaligned(as: SIMD16<UInt8>.self), tail = source.loadUnaligned(fromByteOffset: n - 16, as: SIMD16<UInt8>.self)
            target.storeBytes(of: head, as: SIMD16<UInt8>.self)
            target.storeBytes(of: tail, toByteOffset: n - 16, as: SIMD16<UInt8>.self)
        } else if n >= 4, n < 8 {
            let head = source.loadUnaligned(as: UInt32.self), tail = source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
        } else if n < 4 {
            for k in 0..<n { target.storeBytes(of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self) }
        } else {
            target.copyMemory(from: source, byteCount: n)
        }
        count += n
    }

    @inline(__always) mutating func append(_ s: StaticString) {
        append(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always) mutating func append(byte: UInt8) {
        precondition(count < capacity, "record longer than its bound")
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// A batch record's opening: `{`, then `"line":N,` when it has an input line (every
    /// `--batch` record carries it first; a single answer has none).
    @inline(__always) mutating func appendRecordStart(line: Int?) {
        if let line {
            append("{\"line\":")
            appendDecimal(line)
            append(byte: UInt8(ascii: ","))
        } else {
            append(byte: UInt8(ascii: "{"))
        }
    }

    /// A non-negative integer's decimal digits (a line number), as ``appendFixed(_:decimals:)``
    /// with no decimals writes it, without the trip through `Double` and the rounding: a sixth
    /// of the formatting of an `elevation --batch` record. Negative values, and those from 9·10¹⁵ on
    /// (where that writes `String(value)`), take that path.
    @inline(__always) mutating func appendDecimal(_ value: Int) {
        guard value >= 0, value < 9_000_000_000_000_000 else { appendFixed(Double(value), decimals: 0); return }
        precondition(count + 16 <= capacity, "record longer than its bound")  // under 9·10¹⁵: at most 16 digits
        count += JSONText.writeDigits(UInt64(value), to: base + count)
    }

    /// As ``OutputBuffer/appendShortest(_:)``: at most 24 bytes. `text`, the text `value` was
    /// read from, is copied instead where it is the same (``JSONText/isShortestDecimal(_:of:)``).
    @inline(__always) mutating func appendShortest(_ value: Double, readFrom text: UnsafeBufferPointer<UInt8>? = nil) {
        if let text, JSONText.isShortestDecimal(text, of: value) {
            append(UnsafeRawBufferPointer(text))
            return
        }
        guard value.isFinite else { append("null"); return }
        var text = value.description
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// As ``appendFixed(_:decimals:)``; `text`, the text `value` was read from, is copied
    /// instead where it is the same (``JSONText/isFixedDecimal(_:of:decimals:)``).
    @inline(__always) mutating func appendFixed(_ value: Double, decimals: Int, readFrom text: UnsafeBufferPointer<UInt8>?) {
        if let text, text.count <= JSONText.fixedCapacity, JSONText.isFixedDecimal(text, of: value, decimals: decimals) {
            append(UnsafeRawBufferPointer(text))
        } else {
            appendFixed(value, decimals: decimals)
        }
    }

    /// As ``OutputBuffer/appendFixed(_:decimals:)``: at most 32 bytes, written in place.
    @inline(__always) mutating func appendFixed(_ value: Double, decimals: Int) {
        precondition(count + JSONText.fixedCapacity <= capacity, "record longer than its bound")
        if value.isFinite, let length = JSONText.writeFixed(value, decimals: decimals, to: base + count) {
            count += length
        } else {
            OutputBuffer.fixed(value, decimals: decimals) { append($0) }
        }
    }

    /// As ``appendFixed(_:decimals:)`` to 2 places (a height to the centimetre), by
    /// ``JSONText/writeCentimetres(_:to:)``: two of these a record of `elevation --batch`.
    @inline(__always) mutating func appendCentimetres(_ value: Double) {
        precondition(count + JSONText.fixedCapacity <= capacity, "record longer than its bound")
        if let length = JSONText.writeCentimetres(value, to: base + count) {
            count += length
        } else {
            appendFixed(value, decimals: 2)
        }
    }

    /// As ``OutputBuffer/appendJSONString(_:)``: at most 6 bytes per byte of `s`, and 2.
    mutating func appendJSONString(_ s: String) {
        OutputBuffer.jsonString(s) { append($0) }
    }
}
