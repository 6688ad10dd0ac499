import Foundation
import TapSeek

/// `tapseek elevation --batch`: CSV `lat,lon` lines on stdin → one JSON line each on stdout,
/// in order, on all cores; a bad line becomes an error record naming it and the run goes on.
///
/// Each line is parsed a few lines ahead of its look-up (``ParallelLines/prepare``), and the
/// posts of every ``State/touchGroup`` points parsed are read together then: over random points
/// every look-up misses the cache, and read one by one, each behind a line's parsing and
/// writing, those misses were a third of the time; read in a tight group they overlap.
struct ElevationBatch {
    let service: ElevationService
    let jobs: Int

    /// One job's sampler, the lines parsed ahead (slot: line number modulo their count), and
    /// the points parsed whose posts are not read yet.
    struct State: Sendable {
        /// Points whose posts are read together.
        static let touchGroup = 16
        var sampler: ElevationService.Sampler
        var parsed: [(number: Int, point: Result<(latitude: Double, longitude: Double), CoordinateError>)]
        var untouched: [(latitude: Double, longitude: Double)] = []
        /// The posts read ahead, summed so that the reads are kept.
        var touched: Float = 0

        init(sampler: ElevationService.Sampler) {
            self.sampler = sampler
            parsed = Array(repeating: (0, .success((0, 0))), count: 2 * ParallelLines<State>.lookahead)
            untouched.reserveCapacity(Self.touchGroup)
        }

        mutating func prepare(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
            let point = CoordinateLine.parse(line)
            parsed[number % parsed.count] = (number, point)
            guard case .success(let p) = point else { return }
            untouched.append(p)
            if untouched.count == Self.touchGroup {
                for p in untouched { touched += sampler.terrain.touch(latitude: p.latitude, longitude: p.longitude) }
                untouched.removeAll(keepingCapacity: true)
            }
        }

        /// The line parsed, ahead if it was.
        func point(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) -> Result<(latitude: Double, longitude: Double), CoordinateError> {
            let slot = parsed[number % parsed.count]
            return slot.number == number ? slot.point : CoordinateLine.parse(line)
        }
    }

    func run() async throws {
        var lines = ParallelLines(jobs: jobs, isHeader: CoordinateLine.isHeader, makeState: { State(sampler: service.sampler()) }) { state, line, number, out in
            switch state.point(line, number) {
            case .success(let p):
                do throws(CoordinateError) {
                    ElevationRecord.write(try state.sampler.elevation(latitude: p.latitude, longitude: p.longitude), line: number, to: &out)
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
