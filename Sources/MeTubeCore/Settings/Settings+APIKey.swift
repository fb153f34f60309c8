import Foundation

extension Settings {
    /// These settings with the key of the file `[youtube] api-key-file` names as `[youtube]
    /// api-key` (surrounding whitespace removed), unless a stronger source (the environment's
    /// `METUBE_YOUTUBE_API_KEY`, a flag) set the key. Both set in the same place, a file that
    /// cannot be read, is larger than ``APIKeyFile/maximumBytes`` or does not hold a key are
    /// errors naming the setting and where it was set.
    public func readingAPIKeyFile() throws(SettingsError) -> Settings {
        guard let path = text(.youTubeAPIKeyFile) else { return self }
        let fileOrigin = origins[.youTubeAPIKeyFile] ?? .default
        let keyOrigin = origins[.youTubeAPIKey] ?? .default
        let location = locations[.youTubeAPIKeyFile] ?? file ?? "config"
        let setting = "[youtube] api-key-file"
        if text(.youTubeAPIKey) != nil {
            if keyOrigin > fileOrigin { return self }
            if keyOrigin == fileOrigin { throw SettingsError(location: location, setting: setting, message: "set api-key or api-key-file, not both") }
        }
        let shown = DisplayText.line(path, limit: 200)
        let key: String
        switch APIKeyFile.read(path) {
        case .key(let read): key = read
        case .unreadable: throw SettingsError(location: location, setting: setting, message: "cannot read \(shown)")
        case .notText:
            throw SettingsError(location: location, setting: setting, message: "\(shown) must be a UTF-8 text of at most \(APIKeyFile.maximumBytes) bytes")
        case .notAKey: throw SettingsError(location: location, setting: setting, message: "\(shown) must hold \(SettingKind.apiKey.expectation)")
        }
        var settings = self
        settings.set(.youTubeAPIKey, to: .text(key), from: fileOrigin)
        settings.locations[.youTubeAPIKey] = shown
        return settings
    }
}
