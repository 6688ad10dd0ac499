import Foundation
import TapSeek

/// The batch loop: stdin cut into blocks of lines, looked up on all cores, written in order.
struct GeocodeBatch {
    let index: GeocoderIndex
    let jobs: Int

    func run() async throws {
        let columns = BatchColumns()
        // The state: the columns, and whether they are plain lat,lon (the fast reader's).
        try await ParallelLines(jobs: jobs, header: columns.readHeader,
                                makeState: { (columns.current, columns.current == .latitudeLongitude) }) { [index] state, line, number, out in
            switch state.1 ? CoordinateLine.parseKeepingText(line) : CoordinateLine.parseKeepingText(line, columns: state.0) {
            case .success(let p):
                do throws(CoordinateError) {
                    let checked = try CoordinateError.validated(latitude: p.latitude, longitude: p.longitude)
                    let reference = try index.reference(latitude: checked.latitude, longitude: checked.longitude)
                    // The numbers' text as read, to copy where it is what formatting them would
                    // give; not a longitude that validation wrapped.
                    let texts = (latitude: UnsafeBufferPointer(rebasing: line[p.latitudeText]),
                                 longitude: checked.longitude == p.longitude ? UnsafeBufferPointer(rebasing: line[p.longitudeText]) : nil)
                    GeocodeRecord.write(line: number, latitude: checked.latitude, longitude: checked.longitude, readFrom: texts,
                                        reference, in: index, to: &out)
                } catch {
                    LineErrorRecord.write(line: number, message: error.message, to: &out)
                }
            case .failure(let error):
                LineErrorRecord.write(line: number, message: error.message, to: &out)
            }
        }.run()
    }
}
