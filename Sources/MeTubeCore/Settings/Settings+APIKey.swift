import Foundation

extension Settings {
    /// The largest `[youtube] api-key-file` read.
    public static let maximumAPIKeyFileBytes = 4_096

    /// These settings with the key of the file `[youtube] api-key-file` names as `[youtube]
    /// api-key` (surrounding whitespace removed), unless a stronger source (the environment's
    /// `METUBE_YOUTUBE_API_KEY`, a flag) set the key. Both set in the same place, a file that
    /// cannot be read, is larger than ``maximumAPIKeyFileBytes`` or does not hold a key are
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
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SettingsError(location: location, setting: setting, message: "cannot read \(DisplayText.line(path, limit: 200))")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumAPIKeyFileBytes + 1)) ?? nil
        guard let data, data.count <= Self.maximumAPIKeyFileBytes, let contents = String(data: data, encoding: .utf8) else {
            throw SettingsError(location: location, setting: setting,
                                message: "\(DisplayText.line(path, limit: 200)) must be a UTF-8 text of at most \(Self.maximumAPIKeyFileBytes) bytes")
        }
        let key = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard SettingValue.isAPIKey(key) else {
            throw SettingsError(location: location, setting: setting,
                                message: "\(DisplayText.line(path, limit: 200)) must hold \(SettingKind.apiKey.expectation)")
        }
        var settings = self
        settings.set(.youTubeAPIKey, to: .text(key), from: fileOrigin)
        settings.locations[.youTubeAPIKey] = DisplayText.line(path, limit: 200)
        return settings
    }
}
