import Foundation
import TapSeek

/// `tapseek elevation --batch`: CSV `lat,lon` lines on stdin → one JSON line each on stdout,
/// in order, on all cores; a bad line becomes an error record naming it and the run goes on.
/// A header on line 1 may name the columns otherwise (``CoordinateColumns``).
///
/// Each line is parsed a few lines ahead of its look-up (``ParallelLines/prepare``), and the
/// posts of every ``State/touchGroup`` points parsed are read together then: over random points
/// every look-up misses the cache, and read one by one, each behind a line's parsing and
/// writing, those misses were a third of the time; read in a tight group they overlap.
struct ElevationBatch {
    let service: ElevationService
    let jobs: Int

    /// A line parsed: its numbers, and where their text lies in the line.
    typealias Parsed = Result<(latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>), CoordinateError>

    /// One job's sampler, the lines parsed ahead (slot: line number modulo their count), and
    /// the points parsed whose posts are not read yet.
    struct State: Sendable {
        /// Points whose posts are read together.
        static let touchGroup = 16
        var sampler: ElevationService.Sampler
        /// The input's columns, from its header.
        let columns: CoordinateColumns
        /// Whether they are plain `lat,lon`, read by the fast reader with no per-line check.
        let plain: Bool
        /// The lines parsed ahead that hold a point (a line that does not is parsed again when
        /// its turn comes, for its error): plain values, which cost no reference counting to
        /// store and read, where the `Result` with its error message did.
        var parsed: [(number: Int, latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>)]
        var untouched: [(latitude: Double, longitude: Double)] = []
        /// The posts read ahead, summed so that the reads are kept.
        var touched: Float = 0

        init(sampler: ElevationService.Sampler, columns: CoordinateColumns) {
            self.sampler = sampler
            self.columns = columns
            plain = columns == .latitudeLongitude
            parsed = Array(repeating: (0, 0, 0, 0..<0, 0..<0), count: 2 * ParallelLines<State>.lookahead)
            untouched.reserveCapacity(Self.touchGroup)
        }

        mutating func prepare(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
            guard case .success(let p) = parse(line) else { return }
            parsed[number % parsed.count] = (number, p.latitude, p.longitude, p.latitudeText, p.longitudeText)
            untouched.append((p.latitude, p.longitude))
            if untouched.count == Self.touchGroup {
                touched += untouched.withUnsafeBufferPointer { sampler.terrain.touch($0) }
                untouched.removeAll(keepingCapacity: true)
            }
        }

        /// The line parsed, ahead if it was.
        func parse(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) -> Parsed {
            let slot = parsed[number % parsed.count]
            return slot.number == number ? .success((slot.latitude, slot.longitude, slot.latitudeText, slot.longitudeText)) : parse(line)
        }

        /// A line read by the input's columns.
        @inline(__always) private func parse(_ line: UnsafeBufferPointer<UInt8>) -> Parsed {
            plain ? CoordinateLine.parseKeepingText(line) : CoordinateLine.parseKeepingText(line, columns: columns)
        }
    }

    func run() async throws {
        let columns = BatchColumns()
        var lines = ParallelLines(jobs: jobs, header: columns.readHeader,
                                  makeState: { State(sampler: service.sampler(), columns: columns.current) }) { state, line, number, out in
            switch state.parse(line, number) {
            case .success(let p):
                do throws(CoordinateError) {
                    let e = try state.sampler.elevation(latitude: p.latitude, longitude: p.longitude)
                    // The numbers' text as read, to copy where it is what formatting them would
                    // give; not a longitude that validation wrapped.
                    let texts = (latitude: e.latitude == p.latitude ? UnsafeBufferPointer(rebasing: line[p.latitudeText]) : nil,
                                 longitude: e.longitude == p.longitude ? UnsafeBufferPointer(rebasing: line[p.longitudeText]) : nil)
                    ElevationRecord.write(e, line: number, readFrom: texts, to: &out)
                } catch {
                    LineErrorRecord.write(line: number, message: error.message, to: &out)
                }
            case .failure(let error):
                LineErrorRecord.write(line: number, message: error.message, to: &out)
            }
        }
        lines.prepare = { state, line, number in state.prepare(line, number) }
        try await lines.run()
    }
}
