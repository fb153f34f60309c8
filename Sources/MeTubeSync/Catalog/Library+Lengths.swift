import MeTubeCore

extension Library {
    /// By channel of `channelIDs`, the ids of its newest videos (at most `limit`, newest first)
    /// whose length is unknown.
    func lengthlessVideoIDs(of channelIDs: Set<String>, limit: Int) -> [String: [String]] {
        guard !channelIDs.isEmpty else { return [:] }
        var lengthless: [String: [Video]] = [:]
        for video in videos where video.duration == nil && channelIDs.contains(video.channelID) {
            lengthless[video.channelID, default: []].append(video)
        }
        return lengthless.mapValues { videos in videos.sorted { $0.published > $1.published }.prefix(limit).map(\.id) }
    }

    /// The videos of `channelID` held without a length that `lengths` gives, with it, in id order;
    /// `besides` (videos arriving with their own) excepted.
    func lengthening(of channelID: String, by lengths: [String: Int], besides: Set<String>) -> [Video] {
        lengths.keys.sorted().compactMap { id in
            guard !besides.contains(id), var held = video(id), held.channelID == channelID, held.duration == nil else { return nil }
            held.duration = lengths[id]
            return held
        }
    }
}
