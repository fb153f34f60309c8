import Foundation
import MeTubeCore

extension SnapshotDecoding {
    /// A list of subscriptions from `data` (the document `scanner` reads), each decoded by
    /// `JSONDecoder` as ``StoreChange`` encodes it; an entry that is not understood is left out
    /// with a note, the rest are kept.
    static func subscriptions(_ scanner: inout JSONScanner, _ data: Data, _ notes: inout FieldNotes) throws(Failure) -> [Subscription]? {
        var subscriptions: [Subscription] = []
        let decoder = StoreCoding.decoder()
        try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
            let range = try scanner.skipValueRange()
            let bytes = data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
            do {
                subscriptions.append(try decoder.decode(Subscription.self, from: bytes))
            } catch {
                notes.add("a subscription that could not be read was left out")
            }
        }
        return subscriptions
    }
}
