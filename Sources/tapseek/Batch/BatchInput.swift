import Foundation
import TapSeek

/// The input of `tapseek batch`, opened and read chunk by chunk with bounded memory: JSON Lines
/// as raw lines, phone logs through their importers, with `--every`/`--min-move` applied.
struct BatchInput {
    /// The format read (after `auto` recognition).
    let format: LogFormat
    /// Size of the input in bytes when it is one regular JSON Lines file (for the progress
    /// bar's ETA); nil otherwise.
    let totalBytes: Int?
    /// Exactly one of `lines` (JSON Lines) and `records` (imported logs) is set. Kept as two
    /// optionals rather than an enum so that reading mutates them in place, never copying the
    /// reader's buffer.
    private var lines: LineReader?
    private var records: (any ImportedRecordSource)?
    private let thinning: Thinning?
    /// A pretty-printed JSON file (one reading over many lines), read whole as one record.
    private var single: Line?
    /// The last reading kept by `thinning` in JSON Lines.
    private var lastKept: Thinning.Mark?
    private var ended = false
    /// Lines arrive as `N<TAB>reading` (`--numbered`, see ``NumberedLine``).
    private let numbered: Bool

    /// How batch decodes JSON Lines: readings without `orientation` are location-only records.
    static let decoder = ReadingDecoder(requiresOrientation: false)
    /// This input's decoder: ``decoder``, with the fixed location when one is given.
    let decoder: ReadingDecoder

    /// Opens `path` (`-` for stdin) as `format`, recognising it when `auto`; `numbered` input is
    /// JSON Lines of `N<TAB>reading` lines, never recognised as anything else. `location`, when
    /// given, is every reading's position (`--location`), replacing the log's own.
    /// - Throws: ``InputError`` (exit status 1) when the input cannot be opened or recognised.
    init(path: String, format requested: BatchFormat, thinning: Thinning, numbered: Bool = false, location: Reading.Location? = nil) throws {
        let thinning: Thinning? = thinning.keepsAll ? nil : thinning
        self.thinning = thinning
        self.numbered = numbered
        var decoder = Self.decoder
        decoder.location = location
        self.decoder = decoder
        let lineLimit = numbered ? NumberedLine.maximumLength : BatchRecord.maximumLineLength
        do throws(ImportError) {
            // Stdin, and paths that cannot be read twice (a FIFO, `<(cat log)`, /dev/stdin), are
            // read once: the format is recognised from lines the reader then hands out again.
            let type = path == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            if path == "-" || (type != nil && type != .typeRegular && type != .typeDirectory) {
                let source: FileByteSource
                if path == "-" {
                    source = FileByteSource(fileDescriptor: STDIN_FILENO, name: "stdin")
                } else {
                    do { source = try FileByteSource(path: path) } catch { throw ImportError(.unreadable, error.message) }
                }
                var lines = LineReader(source: source, maximumLineLength: lineLimit)
                lines.dropsCarriageReturn = !numbered
                var format = requested.logFormat ?? .jsonl
                if requested == .auto, !numbered { format = try LogFormat.detect(&lines) }
                self.format = format
                if format == .jsonl {
                    totalBytes = path == "-" ? Self.regularFileSize(descriptor: STDIN_FILENO) : nil
                    self.lines = lines
                } else {
                    totalBytes = nil
                    records = Self.thinned(try LogImport.open(lines: lines, format: format, location: location), thinning)
                }
                return
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw ImportError(.unreadable, "\(path): no such file or directory")
            }
            var format = requested.logFormat ?? .jsonl
            if requested == .auto, !numbered { format = try LogFormat.detect(path: path) }
            self.format = format
            if format == .jsonl {
                var lines: LineReader
                do { lines = try LineReader(path: path, maximumLineLength: lineLimit) } catch {
                    throw ImportError(.unreadable, error.message)
                }
                lines.dropsCarriageReturn = !numbered
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                totalBytes = attributes?[.type] as? FileAttributeType == .typeRegular ? (attributes?[.size] as? Int) : nil
                self.lines = lines
            } else {
                totalBytes = nil
                records = Self.thinned(try LogImport.open(path: path, format: format, location: location), thinning)
            }
        } catch {
            // Importers name the export's member, not always the path the user gave.
            let message = error.description
            throw InputError(path == "-" || message.contains(path) ? message : "\(path): \(message)")
        }
    }

    /// The next chunk of at most `maximumRecords` records (and ``BatchChunk/maximumBytes`` of
    /// JSON Lines), or nil at the end.
    /// - Throws: ``InputError`` when the stream itself fails (bad content never throws).
    mutating func nextChunk(maximumRecords: Int) throws -> BatchChunk? {
        guard !ended else { return nil }
        do throws(ImportError) {
            if lines != nil, records == nil, single == nil, !numbered, try Self.isPrettyPrinted(&lines!) {
                single = try Self.wholeInput(&lines!)
                ended = true
                return .lines([single!], carried: [])
            }
            if records != nil {
                var chunk: [BatchRecord] = []
                while chunk.count < maximumRecords, let record = try records!.next() {
                    chunk.append(BatchRecord(imported: record))
                }
                return finish(chunk.isEmpty ? nil : .records(chunk))
            }
            if let thinning {
                var kept: [BatchRecord] = []
                while kept.count < maximumRecords, let line = try nextLine() {
                    let record = BatchRecord(jsonLine: line, decoder: decoder)
                    if case .success(let reading) = record.reading,
                       !thinning.keep(ImportedRecord(line: record.line, time: reading.time, result: .success(reading)),
                                      after: &lastKept) {
                        continue
                    }
                    kept.append(record)
                }
                return finish(kept.isEmpty ? nil : .records(kept))
            }
            var chunk: [Line] = []
            chunk.reserveCapacity(maximumRecords)
            var bytes = 0
            while chunk.count < maximumRecords, bytes < BatchChunk.maximumBytes, let line = try nextLine() {
                bytes += line.byteCount
                chunk.append(line)
            }
            return finish(chunk.isEmpty ? nil : .lines(chunk, carried: []))
        } catch {
            ended = true
            throw InputError(error.description)
        }
    }

    /// Whether JSON Lines input is rather one JSON object spread over many lines (a reading as
    /// an editor writes it): its first non-blank line is a lone `{`.
    private static func isPrettyPrinted(_ lines: inout LineReader) throws(ImportError) -> Bool {
        let head: [Line]
        do { head = try lines.peek(16) } catch { throw ImportError(.unreadable, error.message) }
        let first = head.lazy.compactMap(\.text).map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
        return first == "{"
    }

    /// The rest of the input as one line (record 1), at most ``LocateCommand/maximumInputBytes``.
    private static func wholeInput(_ lines: inout LineReader) throws(ImportError) -> Line {
        var text = "", bytes = 0
        do {
            while let line = try lines.next() {
                guard case .text(let t) = line.content else { return Line(number: 1, content: line.content) }
                bytes += t.utf8.count + 1
                if bytes > LocateCommand.maximumInputBytes { return Line(number: 1, content: .tooLong(byteCount: bytes)) }
                text += t + "\n"
            }
        } catch {
            throw ImportError(.unreadable, error.message)
        }
        return Line(number: 1, content: .text(text))
    }

    private mutating func finish(_ chunk: BatchChunk?) -> BatchChunk? {
        if chunk == nil { ended = true }
        return chunk
    }

    /// The next line that is not blank: a blank line is no reading and gets no record.
    private mutating func nextLine() throws(ImportError) -> Line? {
        while true {
            var line: Line?
            do { line = try lines!.next() } catch { throw ImportError(.unreadable, error.message) }
            if numbered, let numberedLine = line { line = try NumberedLine.split(numberedLine) }
            guard let line else { return nil }
            if !line.isBlank { return line }
        }
    }

    private static func thinned(_ records: some ImportedRecordSource, _ thinning: Thinning?) -> any ImportedRecordSource {
        guard let thinning else { return records }
        return ThinnedRecords(records, thinning: thinning)
    }

    private static func regularFileSize(descriptor: Int32) -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
