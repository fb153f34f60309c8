import ArgumentParser

@main
struct MeTubeServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "metube-server", abstract: "The MeTube hub and status server.")
}
