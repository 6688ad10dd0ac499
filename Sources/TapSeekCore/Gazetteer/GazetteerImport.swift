import Foundation

/// Reads GeoNames dumps into a ``GazetteerBuilder``: plain `XX.txt` files, or zip archives
/// (`XX.zip`, `allCountries.zip`) whose `.txt` member other than `readme.txt` is the dump,
/// streamed and inflated on the fly.
public enum GazetteerImport {
    /// What one file gave.
    public struct FileReport: Sendable {
        public var path: String
        /// Lines read, rows read correctly, rows kept (classes T, H and the S codes kept).
        public var lines = 0, rows = 0, kept = 0
        /// Rows that could not be read, and the first of them by line.
        public var problemCount = 0
        public var problems: [GeoNamesReader.Problem] = []
        /// The countries of the rows kept (ISO codes; empty for rows in no country).
        public var countries: Set<String> = []
    }

    /// Reads every file into `builder`, in order.
    /// - Parameter progress: called as a file is read with its path, the bytes read and the
    ///   bytes it holds (decompressed, for a zip member).
    /// - Throws: ``GazetteerError`` naming the file that cannot be opened or read (a missing
    ///   file, a damaged archive, a zip without a dump); rows already added stay in `builder`.
    public static func read(_ paths: [String], into builder: inout GazetteerBuilder,
                            progress: ((_ path: String, _ done: Int, _ total: Int) -> Void)? = nil) throws(GazetteerError) -> [FileReport] {
        var reports: [FileReport] = []
        for path in paths {
            let (source, total) = try open(path)
            var reader = GeoNamesReader(source: source, name: path)
            var report = FileReport(path: path)
            var failure: GazetteerError?
            do throws(StreamReadError) {
                try reader.forEachFeature(progress: { progress?(path, $0, total) }) { feature, alternates in
                    guard failure == nil else { return }
                    do throws(GazetteerError) {
                        try builder.add(feature, alternateNames: alternates)
                        report.countries.insert(feature.isoCountryCode)
                    } catch {
                        failure = error
                    }
                }
            } catch {
                throw GazetteerError("\(path): \(error.message)")
            }
            if let failure { throw failure }
            report.lines = reader.lines
            report.rows = reader.rows
            report.kept = reader.kept
            report.problemCount = reader.problemCount
            report.problems = reader.problems
            reports.append(report)
        }
        return reports
    }

    /// The dump's bytes and their size.
    static func open(_ path: String) throws(GazetteerError) -> (any ByteSource, Int) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GazetteerError("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw GazetteerError("\(path): is a directory, not a GeoNames dump") }
        if ZipMembers.isZip(path: path) {
            do {
                let zip = try ZipMembers(path: path)
                let dumps = zip.memberNames.filter {
                    let file = $0.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
                    return file.hasSuffix(".txt") && file != "readme.txt"
                }
                guard let member = dumps.first else {
                    throw GazetteerError("\(path): holds no GeoNames dump (a .txt member other than readme.txt)")
                }
                return (try zip.bytes(of: member), zip.uncompressedSize(of: member) ?? 0)
            } catch let error as GazetteerError {
                throw error
            } catch {
                throw GazetteerError("\(path): \(error)")
            }
        }
        do throws(StreamReadError) {
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
            return (try FileByteSource(path: path), size)
        } catch {
            throw GazetteerError(error.message)
        }
    }
}
