import ArgumentParser
import Foundation
import TapSeek

/// `tapseek places import FILE…`: GeoNames dumps into the places index.
struct PlacesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import GeoNames dumps (XX.txt, XX.zip, allCountries.zip) into the places index.",
        discussion: """
            Keeps the named natural features (GeoNames feature classes T and H) and the huts, hotels and \
            viewpoints of class S, with their alternate names, and writes places-index.bin into the data \
            directory; every command that answers places then uses it. Importing a country again replaces \
            its rows; other countries stay. Malformed rows are counted and named on stderr, not fatal. \
            Progress goes to stderr for large files. Exit 0 when the import is complete, 1 when nothing \
            could be imported (a file missing or unreadable: the index is then left as it was). \
            Data: GeoNames (geonames.org), CC BY 4.0.
            """
    )

    @Argument(help: "GeoNames dumps: XX.txt, XX.zip or allCountries.zip.")
    var files: [String] = []

    @OptionGroup var dataOption: PlacesDataOption

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one GeoNames file, such as CH.zip or allCountries.zip") }
    }

    func run() throws {
        let directory = dataOption.directory
        let target = GazetteerFiles.index(in: directory)
        var builder = GazetteerBuilder()
        var lastReport = Date()
        let reports: [GazetteerImport.FileReport]
        do {
            reports = try GazetteerImport.read(files, into: &builder) { path, done, total in
                // Large files only, every two seconds: a country file is read before anyone looks.
                guard total >= 64 << 20, Date().timeIntervalSince(lastReport) >= 2 else { return }
                lastReport = Date()
                StandardError.write("tapseek: \(path): \(done * 100 / max(total, 1)) % (\(done >> 20) of \(total >> 20) MiB)")
            }
        } catch {
            throw InputError(error.message)
        }
        for report in reports where report.problemCount > 0 {
            for problem in report.problems { StandardError.write("tapseek: warning: \(report.path): \(problem)") }
            let more = report.problemCount - report.problems.count
            StandardError.write("tapseek: warning: \(report.path): \(report.problemCount) malformed row\(report.problemCount == 1 ? "" : "s") skipped"
                                + (more > 0 ? " (\(more) not listed)" : ""))
        }
        let added = builder.featureCount
        guard added > 0 else {
            throw InputError("no feature of classes T, H or the kept S codes in \(files.joined(separator: ", ")): nothing imported")
        }
        let replaced = reports.reduce(into: Set<String>()) { $0.formUnion($1.countries) }
        do {
            if FileManager.default.fileExists(atPath: target.path), let existing = try GazetteerFiles.load(directory: directory) {
                try builder.keep(from: existing, except: replaced)
            }
        } catch {
            throw InputError("\(error.message) (remove \(target.path) to start afresh)")
        }
        let bytes = builder.build()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Written beside the index and renamed over it: a reader never sees half a file.
            let partial = directory.appendingPathComponent(Gazetteer.fileName + ".part")
            try Data(bytes).write(to: partial)
            guard rename(partial.path, target.path) == 0 else {
                throw InputError("cannot write \(target.path): \(String(cString: strerror(errno)))")
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("cannot write \(target.path): \(error.localizedDescription)")
        }
        let gazetteer = try? Gazetteer(contentsOf: target)
        let countries = replaced.sorted().map { $0.isEmpty ? "(no country)" : $0 }.joined(separator: " ")
        StandardError.write("tapseek: imported \(added) features (\(countries)) into \(target.path): \(gazetteer?.featureCount ?? added) features, \(bytes.count >> 10) KiB")
    }
}
