import ArgumentParser

@main
struct MeTubeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "metube", abstract: "Your YouTube subscription feed in the terminal.",
        subcommands: [LoginCommand.self])
}
