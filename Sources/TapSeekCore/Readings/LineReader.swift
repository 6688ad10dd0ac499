#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure to read the underlying stream (not a problem with its content): an `errno` from
/// `read(2)`, a file that cannot be opened, a corrupt archive member.
public struct StreamReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line naming the stream and the cause.
    public var message: String

    /// An error with its one-line message.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Anything that hands out the next bytes of a stream in order: a file descriptor, an in-memory
/// buffer, a decompressed archive member.
public protocol ByteSource {
    /// Copies up to `buffer.count` next bytes into `buffer`.
    /// - Returns: how many bytes were copied; 0 only at the end of the stream.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int
}

/// Bytes already in memory, as a stream (tests, small members, standard input captured elsewhere).
public struct MemoryByteSource: ByteSource, Sendable {
    private let bytes: [UInt8]
    private var offset = 0
    /// At most this many bytes per `read`, so that tests can exercise lines split across reads.
    private let maximumReadSize: Int

    /// Streams `bytes`, at most `maximumReadSize` per read.
    public init(_ bytes: [UInt8], maximumReadSize: Int = .max) {
        self.bytes = bytes
        self.maximumReadSize = max(1, maximumReadSize)
    }

    /// Copies the next bytes; 0 at the end.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int {
        let n = min(buffer.count, bytes.count - offset, maximumReadSize)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}

/// A POSIX file descriptor read with `read(2)`: a regular file, a pipe, standard input.
///
/// A class because it owns the descriptor: opened by ``init(path:)``, it is closed when the last
/// reference goes away. Not `Sendable`: one reader at a time.
public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// Named in error messages.
    public let name: String

    /// Opens `path` for reading.
    /// - Throws: ``StreamReadError`` naming the path and the system's reason.
    public init(path: String) throws(StreamReadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw StreamReadError(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        closesDescriptor = true
        name = path
    }

    /// Reads an already open descriptor (e.g. 0 for standard input); `closeWhenDone` hands over
    /// its ownership.
    public init(fileDescriptor: Int32, name: String, closeWhenDone: Bool = false) {
        descriptor = fileDescriptor
        closesDescriptor = closeWhenDone
        self.name = name
    }

    deinit {
        if closesDescriptor { _ = close(descriptor) }
    }

    /// Reads with `read(2)`, retrying when a signal interrupts; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            // A signal interrupting a blocking read of a pipe is not an error: read again.
            if errno == EINTR { continue }
            throw StreamReadError(message: "cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }
}

/// One line of input, numbered from 1, without its line terminator.
public struct Line: Sendable, Hashable {
    /// 1-based line number in the stream.
    public var number: Int
    /// The line's text, or why it has none.
    public var content: Content

    /// A line numbered `number`.
    public init(number: Int, content: Content) {
        self.number = number
        self.content = content
    }

    /// What the line holds.
    public enum Content: Sendable, Hashable {
        /// Valid UTF-8 text (possibly empty).
        case text(String)
        /// The raw bytes of a line that is not valid UTF-8, so that the caller can report it.
        case invalidUTF8([UInt8])
        /// A line longer than the reader's limit; its bytes were skipped, not kept.
        case tooLong(byteCount: Int)
    }

    /// The text, or nil when the line is not valid UTF-8 or was too long.
    public var text: String? {
        if case .text(let s) = content { return s }
        return nil
    }
}

/// Splits a byte stream into lines with bounded memory: the streaming replacement for
/// `FileHandle.bytes` / `URL.lines`, which Linux Foundation lacks.
///
/// - Lines end at `\n`; one `\r` before it is dropped (CRLF files), so is a UTF-8 byte-order mark
///   at the start of line 1. A last line without `\n` is still a line; an empty stream has none,
///   and a final `\n` does not open an empty last line.
/// - Memory: one read chunk plus the longest line, and never more than ``maximumLineLength`` +
///   ``chunkSize`` bytes: a longer line is counted while it streams past and comes back as
///   ``Line/Content/tooLong(byteCount:)``.
/// - Every line of the input yields exactly one ``Line``, whatever its content, so that a caller
///   producing one record per line loses none.
///
/// A value type holding a reference to its ``ByteSource``: use one copy only.
public struct LineReader {
    /// Bytes requested from the source per read: 1 MiB keeps system calls rare and memory small.
    public static let defaultChunkSize = 1 << 20
    /// 64 MiB: far beyond any sensor-log line (the widest SensorLog rows are about 1 KiB), small
    /// enough that a file without newlines cannot exhaust memory.
    public static let defaultMaximumLineLength = 64 << 20

    /// UTF-8 encoding of U+FEFF, which some Windows tools put at the start of a text file.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// Bytes requested from the source per read.
    public let chunkSize: Int
    /// Longest line kept, in bytes before the terminator; longer lines become `.tooLong`.
    public let maximumLineLength: Int
    /// Whether one `\r` before the `\n` is dropped (CRLF files); a caller that cuts each line
    /// further and must count its bytes as they were keeps it (`tapseek batch --numbered`).
    public var dropsCarriageReturn = true

    private var source: any ByteSource
    /// Unconsumed bytes are `buffer[start...]`; no newline occurs in `buffer[start..<scanned]`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var chunk: [UInt8]
    private var endOfStream = false
    /// Bytes of the over-long line being skipped, when skipping.
    private var skippedBytes: Int?
    private var linesRead = 0
    /// Lines read ahead by ``peek(_:)`` and not yet returned by ``next()``.
    private var lookahead: [Line] = []

    /// Lines of `source`, read `chunkSize` bytes at a time; lines longer than
    /// `maximumLineLength` bytes come back as `.tooLong`.
    public init(source: any ByteSource, chunkSize: Int = LineReader.defaultChunkSize,
                maximumLineLength: Int = LineReader.defaultMaximumLineLength) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        self.maximumLineLength = max(0, maximumLineLength)
        chunk = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// Lines of the file at `path`.
    public init(path: String, chunkSize: Int = LineReader.defaultChunkSize,
                maximumLineLength: Int = LineReader.defaultMaximumLineLength) throws(StreamReadError) {
        self.init(source: try FileByteSource(path: path), chunkSize: chunkSize, maximumLineLength: maximumLineLength)
    }

    /// The next line, or nil at the end of the stream.
    /// - Throws: ``StreamReadError`` when the source fails (not for bad content).
    public mutating func next() throws(StreamReadError) -> Line? {
        if !lookahead.isEmpty { return lookahead.removeFirst() }
        return try readLine()
    }

    /// Up to `count` next lines without consuming them (fewer at the end of the stream): format
    /// detection looks at a log's first lines and leaves them for the importer.
    public mutating func peek(_ count: Int) throws(StreamReadError) -> [Line] {
        while lookahead.count < count, let line = try readLine() {
            lookahead.append(line)
        }
        return Array(lookahead.prefix(count))
    }

    private mutating func readLine() throws(StreamReadError) -> Line? {
        while true {
            if let newlineIndex = findNewline() {
                let line = emit(upTo: newlineIndex)
                start = newlineIndex + 1
                scanned = start
                return line
            }
            let pending = buffer.count - start
            if let skipped = skippedBytes {
                skippedBytes = skipped + pending
                discardBuffer()
            } else if pending > maximumLineLength {
                skippedBytes = pending
                discardBuffer()
            }
            if endOfStream {
                if let skipped = skippedBytes {
                    skippedBytes = nil
                    return numbered(.tooLong(byteCount: skipped))
                }
                guard pending > 0 else { return nil }
                let line = emit(upTo: buffer.count)
                discardBuffer()
                return line
            }
            try fill()
        }
    }

    /// Index of the next `\n` at or after `start`, scanning only bytes not scanned before.
    private mutating func findNewline() -> Int? {
        let from = scanned, to = buffer.count
        guard from < to else { return nil }
        let found: Int? = buffer.withUnsafeBufferPointer { b in
            var i = from
            while i < to {
                if b[i] == Self.newline { return i }
                i += 1
            }
            return nil
        }
        scanned = found ?? to
        return found
    }

    /// The line `buffer[start..<end]` (its terminator excluded), or the end of a skipped line.
    private mutating func emit(upTo end: Int) -> Line {
        if let skipped = skippedBytes {
            skippedBytes = nil
            return numbered(.tooLong(byteCount: skipped + end - start))
        }
        var from = start, to = end
        if to - from > maximumLineLength { return numbered(.tooLong(byteCount: to - from)) }
        if dropsCarriageReturn, to > from, buffer[to - 1] == Self.carriageReturn { to -= 1 }
        if linesRead == 0, to - from >= 3, buffer[from] == Self.byteOrderMark[0],
           buffer[from + 1] == Self.byteOrderMark[1], buffer[from + 2] == Self.byteOrderMark[2] {
            from += 3
        }
        let content: Line.Content = buffer.withUnsafeBufferPointer { b in
            let bytes = UnsafeBufferPointer(rebasing: b[from..<to])
            if let s = String(validating: bytes, as: UTF8.self) { return .text(s) }
            return .invalidUTF8(Array(bytes))
        }
        return numbered(content)
    }

    private mutating func numbered(_ content: Line.Content) -> Line {
        linesRead += 1
        return Line(number: linesRead, content: content)
    }

    private mutating func discardBuffer() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 2 * chunkSize)
        start = 0
        scanned = 0
    }

    /// Appends one chunk from the source, first dropping consumed bytes so the buffer stays small.
    private mutating func fill() throws(StreamReadError) {
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        var source = self.source
        let result = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(StreamReadError) in try source.read(into: raw) }
        }
        self.source = source
        let n = try result.get()
        if n == 0 {
            endOfStream = true
        } else {
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
