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

    /// A point read from a line: its numbers, where their text lies in the line, and the places
    /// to which each text is what formatting the number writes (nil: not known, to be checked).
    typealias Point = (latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>,
                       latitudeDecimals: Range<Int>?, longitudeDecimals: Range<Int>?)
    /// A line parsed.
    typealias Parsed = Result<Point, CoordinateError>

    /// One job's sampler, the lines parsed ahead (slot: line number modulo their count), and
    /// the points parsed whose posts are not read yet.
    struct State: Sendable {
        /// Points whose posts are read together.
        static let touchGroup = 16
        /// Slots of ``parsed``: twice the look-ahead, rounded up to a power of two, so that a
        /// line's slot is its number's low bits. A remainder by the array's count was an integer
        /// division (`idiv`, tens of cycles) twice a line: a twentieth of the command's time.
        static var slots: Int { 1 << (Int.bitWidth - (2 * ParallelLines<State>.lookahead - 1).leadingZeroBitCount) }
        var sampler: ElevationService.Sampler
        /// The input's columns, from its header.
        let columns: CoordinateColumns
        /// Whether they are plain `lat,lon`, read by the fast reader with no per-line check.
        let plain: Bool
        /// The lines parsed ahead that hold a point (a line that does not is parsed again when
        /// its turn comes, for its error): plain values, which cost no reference counting to
        /// store and read, where the `Result` with its error message did.
        var parsed: [(number: Int, point: Point)]
        var untouched: [(latitude: Double, longitude: Double)] = []
        /// The posts read ahead, summed so that the reads are kept.
        var touched: Float = 0

        init(sampler: ElevationService.Sampler, columns: CoordinateColumns) {
            self.sampler = sampler
            self.columns = columns
            plain = columns == .latitudeLongitude
            parsed = Array(repeating: (0, (0, 0, 0..<0, 0..<0, nil, nil)), count: Self.slots)
            untouched.reserveCapacity(Self.touchGroup)
        }

        mutating func prepare(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
            guard case .success(let p) = parse(line) else { return }
            parsed[number & (Self.slots - 1)] = (number, p)
            untouched.append((p.latitude, p.longitude))
            if untouched.count == Self.touchGroup {
                touched += untouched.withUnsafeBufferPointer { sampler.terrain.touch($0) }
                untouched.removeAll(keepingCapacity: true)
            }
        }

        /// Writes line `number`'s record. A method of the state, which it reads and changes in
        /// place: the same code in the transform's closure copied the whole state (324 bytes)
        /// and the geoid (152) to the stack for every line.
        mutating func transform(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, to out: inout OutputBuffer) {
            // The line parsed, ahead if it was.
            let slot = parsed[number & (Self.slots - 1)]
            switch slot.number == number ? .success(slot.point) : parse(line) {
            case .success(let p):
                do throws(CoordinateError) {
                    // The numbers' text as read, to copy where it is what formatting them would
                    // give; not a longitude that validation wrapped.
                    switch try sampler.lookUp(latitude: p.latitude, longitude: p.longitude) {
                    case let .height(latitude, longitude, elevation, geoidUndulation, filled):
                        ElevationRecord.writeHeight(line: number,
                                                    latitude: latitude, text: ElevationBatch.echo(line, p.latitudeText, p.latitudeDecimals, read: p.latitude, written: latitude),
                                                    longitude: longitude, text: ElevationBatch.echo(line, p.longitudeText, p.longitudeDecimals, read: p.longitude, written: longitude),
                                                    elevation: elevation, filled: filled, geoidUndulation: geoidUndulation, to: &out)
                    case .none(let e):
                        // No height: the answer says why.
                        let latitudeText = ElevationBatch.echo(line, p.latitudeText, p.latitudeDecimals, read: p.latitude, written: e.latitude)
                        let longitudeText = ElevationBatch.echo(line, p.longitudeText, p.longitudeDecimals, read: p.longitude, written: e.longitude)
                        ElevationRecord.write(e, line: number, readFrom: (latitudeText, longitudeText), to: &out)
                    }
                } catch {
                    LineErrorRecord.write(line: number, message: error.message, to: &out)
                }
            case .failure(let error):
                LineErrorRecord.write(line: number, message: error.message, to: &out)
            }
        }

        /// A line read by the input's columns: the common plain line in one pass that also
        /// learns whether its texts can be echoed, any other by the general readers.
        @inline(__always) private func parse(_ line: UnsafeBufferPointer<UInt8>) -> Parsed {
            if plain, let p = CoordinateLine.parsePlainLine(line) {
                return .success((p.latitude, p.longitude, p.latitudeText, p.longitudeText, p.latitudeDecimals, p.longitudeDecimals))
            }
            return (plain ? CoordinateLine.parseKeepingText(line) : CoordinateLine.parseKeepingText(line, columns: columns))
                .map { ($0.latitude, $0.longitude, $0.latitudeText, $0.longitudeText, nil, nil) }
        }
    }

    func run() async throws {
        let columns = BatchColumns()
        var lines = ParallelLines(jobs: jobs, header: columns.readHeader,
                                  makeState: { State(sampler: service.sampler(), columns: columns.current) }) { state, line, number, out in
            state.transform(line, number, to: &out)
        }
        lines.prepare = { state, line, number in state.prepare(line, number) }
        try await lines.run()
    }

    /// A coordinate's text as read, where it is exactly what ``ElevationRecord`` would write for
    /// the coordinate (`written`, the value validated, equal to the value `read`); nil elsewhere.
    /// `decimals`: the places to which the text is known to be that (nil: checked here).
    @inline(__always) static func echo(_ line: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, _ decimals: Range<Int>?,
                                       read: Double, written: Double) -> UnsafeBufferPointer<UInt8>? {
        guard written == read else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: line[text])
        if let decimals { return decimals.contains(ElevationRecord.coordinateDecimals) ? bytes : nil }
        return bytes.count <= JSONText.fixedCapacity
            && JSONText.isFixedDecimal(bytes, of: written, decimals: ElevationRecord.coordinateDecimals) ? bytes : nil
    }
}
