/// The force full resync (`R`): asked for, then confirmed with `y`.
extension ScreenModel {
    /// Asks whether to forget where the syncs stopped and fetch everything again.
    mutating func askForFullResync() -> [Effect] {
        guard services.values.contains(where: { $0 != .notConfigured }) else {
            message = FooterMessage(text: "sync is not configured", isError: false)
            return []
        }
        isConfirmingFullResync = true
        message = FooterMessage(text: "Full resync: forget where sync stopped and fetch everything again? (y/n)", isError: false)
        return []
    }

    /// Takes the answer to ``askForFullResync()``: `y` starts the full resync, any other key
    /// cancels it.
    mutating func confirmFullResync(_ key: Key) -> [Effect] {
        isConfirmingFullResync = false
        guard key == .character("y") || key == .character("Y") else {
            message = FooterMessage(text: "full resync cancelled", isError: false)
            return []
        }
        message = FooterMessage(text: "full resync: fetching everything again…", isError: false)
        return [.fullResync]
    }
}
