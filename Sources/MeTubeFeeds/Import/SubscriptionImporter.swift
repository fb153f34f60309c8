import Foundation
import MeTubeCore

/// Reads subscription files exported by YouTube, NewPipe, FreeTube, newsboat, or written by hand.
public enum SubscriptionImporter {
    /// Detects the format of `data` and reads its channels.
    ///
    /// Entries that name no valid channel id, and repeats of a channel, are listed as rejected with
    /// their location and reason; they never stop the good entries from being read. Every channel
    /// gets `importedAt` as its `addedAt`. `fileName` helps detection only (see
    /// `SubscriptionFormat.detect(data:fileName:)`).
    ///
    /// - Throws: `MeTubeCoreError.unrecognizedFormat` naming what the input looks like when no format
    ///   fits; `MeTubeCoreError.malformedInput` when a JSON export does not parse or has the wrong
    ///   shape, or when an OPML file breaks before its first feed.
    public static func read(_ data: Data, fileName: String?, importedAt: Date = Date()) throws(MeTubeCoreError) -> SubscriptionImport {
        let text = try SubscriptionText(decoding: data)
        let format = try SubscriptionFormat.identify(text, fileName: fileName)
        var collector = ImportCollector(importedAt: importedAt)
        switch format {
        case .takeoutCSV: TakeoutCSVReader.read(text, into: &collector)
        case .opml: try OPMLReader.read(text, into: &collector)
        case .newPipeJSON: try NewPipeReader.read(text, into: &collector)
        case .freeTube: try FreeTubeReader.read(text, into: &collector)
        case .newsboatURLs, .plainList: FeedListReader.read(text, into: &collector)
        }
        return SubscriptionImport(format: format, channels: collector.channels, links: collector.links, rejected: collector.rejected)
    }
}
