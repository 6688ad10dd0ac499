import ArgumentParser

@main
struct TapSeekCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapseek",
        abstract: "What is that, over there? Offline sightlines over real elevation data.",
        subcommands: [
            ElevationCommand.self,
            DEMCommand.self,
        ]
    )
}
