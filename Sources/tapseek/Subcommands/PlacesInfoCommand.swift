import ArgumentParser
import Foundation
import TapSeek

/// `tapseek places info`: what the places index holds.
struct PlacesInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "List the imported countries, their feature counts and the index's size.",
        discussion: """
            Prints one JSON object: {"path","bytes","features","keys","countries":[{"isoCountryCode","features"},…]}. \
            Without --data, the index is the first places-index.bin of the TapSeek data directories \
            ($TAPSEEK_DATA, the installation, XDG data dirs). Exit 1 when none is imported.
            """
    )

    @OptionGroup var dataOption: PlacesDataOption

    func run() throws {
        let directory: URL? = dataOption.data.map { URL(fileURLWithPath: $0) }
        let path = directory.map { GazetteerFiles.index(in: $0) } ?? DataDirectories().file(named: Gazetteer.fileName)
        let gazetteer: Gazetteer?
        do {
            gazetteer = try GazetteerFiles.load(directory: directory)
        } catch {
            throw InputError(error.message)
        }
        guard let gazetteer, let path else {
            throw InputError("no places index at \(path?.path ?? GazetteerFiles.index(in: dataOption.directory).path): import GeoNames dumps with `tapseek places import FILE…`")
        }
        var out = OutputBuffer()
        out.append("{\"path\":")
        out.appendJSONString(path.path)
        out.append(",\"bytes\":\(gazetteer.byteCount),\"features\":\(gazetteer.featureCount),\"keys\":\(gazetteer.keyCount),\"countries\":[")
        for (i, c) in gazetteer.countries.enumerated() {
            if i > 0 { out.append(",") }
            out.append("{\"isoCountryCode\":")
            out.appendJSONString(c.isoCountryCode)
            out.append(",\"features\":\(c.features)}")
        }
        out.append("]}")
        out.newline()
        out.flush()
    }
}
