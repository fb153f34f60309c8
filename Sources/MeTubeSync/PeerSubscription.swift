import MeTubeAPI
import MeTubeCore
import MeTubeTransfer

/// Reads a `Subscription` record another client wrote into a ``SubscriptionVersion``, within
/// bounds: what is bad costs only its field or, when nothing sensible is left, its record, and
/// every such cost is described in the notes.
enum PeerSubscription {
    /// The server version a record describes, or `nil` (with a note) when it is not usable: a
    /// record name that is not a channel id, an empty or oversized change tag, or a `followed`
    /// that is missing or not a boolean. Tags that are not strings, are empty, too long or hold
    /// control characters are left out, and at most ``ChannelTags/maxCount`` are kept; a title is
    /// cut to ``PeerInput/maxTitleCharacters``; an out-of-range clock reading is ignored.
    static func version(of record: MarkSyncRecord, notes: inout [String]) -> SubscriptionVersion? {
        guard let name = record.recordName, ChannelID.isValid(name) else {
            notes.append("a subscription record whose name is not a channel id was dropped")
            return nil
        }
        guard let tag = record.recordChangeTag, (1...PeerInput.maxNameBytes).contains(tag.utf8.count) else {
            notes.append("subscription \(name): no usable change tag; dropped")
            return nil
        }
        guard let layout = SubscriptionRecord(record) else {
            notes.append("subscription \(name): `followed` is missing or not a boolean; dropped")
            return nil
        }
        let hlc = layout.hlc.flatMap(HybridTimestamp.init).flatMap { PeerInput.millis($0.millis) == nil ? nil : $0 }
            ?? PeerInput.millis(layout.lastModified).map { HybridTimestamp(millis: $0) } ?? HybridTimestamp(millis: 0)
        let deviceID = layout.deviceID.flatMap { $0.utf8.count <= PeerInput.maxNameBytes ? $0 : nil } ?? ""
        return SubscriptionVersion(changeTag: tag, followed: layout.followed, tags: layout.tags.map { tags(of: name, $0, notes: &notes) },
                                   title: layout.title.map(PeerInput.title), hlc: hlc, deviceID: deviceID)
    }

    /// The usable tags of `values`, noting what was left out.
    private static func tags(of name: String, _ values: [MarkSyncValue], notes: inout [String]) -> [String] {
        let strings = values.prefix(ChannelTags.maxCount * 4).compactMap(\.stringValue)
        let kept = ChannelTags.bounded(strings)
        if kept.count < values.count {
            notes.append("subscription \(name): \(values.count - kept.count) of \(values.count) tags left out (not text, repeated, over \(ChannelTags.maxCharacters) characters or \(ChannelTags.maxCount) tags, or holding control characters)")
        }
        return kept
    }
}
