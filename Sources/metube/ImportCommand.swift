import ArgumentParser

/// `metube import FILE`: follows the channels in a subscription export.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import subscriptions from a file.")
}
