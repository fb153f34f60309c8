/// What an administration command reports besides the server's own failures (``ServerError``).
enum AdminError: Error, CustomStringConvertible {
    /// The database holds no user or channel of that name: exit ``AdminExit/unknownName``.
    case unknownName(String)

    /// No user is named `name`.
    static func noUser(_ name: String) -> AdminError { .unknownName("no user named \(name)") }

    /// No channel `channelID` is registered.
    static func noChannel(_ channelID: String) -> AdminError { .unknownName("no channel \(channelID)") }

    var description: String {
        switch self {
        case .unknownName(let message): message
        }
    }
}
