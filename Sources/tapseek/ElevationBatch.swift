import Foundation
import TapSeek

/// `tapseek elevation --batch`: CSV `lat,lon` lines on stdin → one JSON line each on stdout,
/// in order, on all cores; a bad line becomes an error record naming it and the run goes on.
struct ElevationBatch {
    let service: ElevationService
    let jobs: Int

    func run() async throws {
        try await ParallelLines(jobs: jobs, isHeader: CoordinateLine.isHeader, makeState: { service.sampler() }) { sampler, line, number, out in
            switch CoordinateLine.parse(line) {
            case .success(let p):
                do throws(CoordinateError) {
                    ElevationRecord.write(try sampler.elevation(latitude: p.latitude, longitude: p.longitude), line: number, to: &out)
                } catch {
                    LineErrorRecord.write(line: number, message: error.message, to: &out)
                }
            case .failure(let error):
                LineErrorRecord.write(line: number, message: error.message, to: &out)
            }
        }.run()
    }
}
