/// The users and channels an operator manages (`metube-server users|channels`), on either backend.
public protocol UserAndChannelAdministration: Sendable {
    /// Every user by name, without tokens.
    func users() async throws -> [AdministeredUser]
    /// Deletes the user `name` with their zones and records; their token stops working at once.
    func removeUser(name: String) async throws
    /// Gives the user `name` a new token and returns it (only its hash is stored).
    func rotateToken(name: String) async throws -> String
    /// Every registered channel with its number of stored videos, its newest upload and its fetches.
    func channels() async throws -> [AdministeredChannel]
    /// Deletes the channel `channelID` and its videos.
    func removeChannel(id channelID: String) async throws
}

extension ServerAdministration: UserAndChannelAdministration {}
