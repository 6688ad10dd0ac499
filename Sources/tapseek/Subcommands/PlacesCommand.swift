import ArgumentParser
import Foundation
import TapSeek

/// `tapseek places …`: the gazetteer of named summits, passes, glaciers and lakes.
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Import GeoNames dumps and list what is imported (names of summits, lakes, glaciers, passes).",
        subcommands: [PlacesImportCommand.self, PlacesInfoCommand.self]
    )
}

/// `--data DIR` of the places commands.
struct PlacesDataOption: ParsableArguments {
    @Option(help: ArgumentHelp("Data directory of the places index (default: $TAPSEEK_DATA, else the user's data home ~/.local/share/tapseek).",
                               valueName: "DIR"))
    var data: String?

    /// Where the index is written, or read for `info`.
    var directory: URL { data.map { URL(fileURLWithPath: $0) } ?? GazetteerFiles.importDirectory() }
}
