extension Settings {
    /// These settings with the environment's overrides (``SettingName/environmentVariable``)
    /// laid over them; an empty variable counts as unset.
    public func applyingEnvironment(_ environment: [String: String]) throws(SettingsError) -> Settings {
        var settings = self
        for name in SettingName.allCases {
            guard let variable = name.environmentVariable, let text = environment[variable], !text.isEmpty else { continue }
            try settings.override(name, with: text, from: .environment, location: "environment \(variable)")
        }
        return settings
    }

    /// These settings with `name` set by the command-line flag `flag` to `text`.
    public func applyingFlag(_ flag: String, _ name: SettingName, _ text: String) throws(SettingsError) -> Settings {
        var settings = self
        try settings.override(name, with: text, from: .flag, location: flag)
        return settings
    }

    private mutating func override(_ name: SettingName, with text: String, from origin: SettingOrigin, location: String) throws(SettingsError) {
        let raw: SettingValue.Raw
        switch name.kind {
        case .text, .webURL, .choice, .absolutePath, .template, .apiKey: raw = .string(text)
        case .whole: raw = Int(text).map(SettingValue.Raw.integer) ?? .string(text)
        case .seconds, .number: raw = Double(text).map(SettingValue.Raw.number) ?? .string(text)
        case .flag: raw = Bool(text).map(SettingValue.Raw.bool) ?? .string(text)
        case .list: raw = .strings(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        guard let value = SettingValue(raw, as: name.kind) else {
            throw SettingsError(location: location, setting: "[\(name.section)] \(name.key)", message: "must be \(name.kind.expectation), not \(name.kind == .apiKey ? "the value given (not shown)" : text)")
        }
        set(name, to: value, from: origin)
        locations[name] = location
    }
}
