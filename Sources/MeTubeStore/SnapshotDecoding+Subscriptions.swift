import Foundation
import MeTubeCore
import MeTubeJSON

extension SnapshotDecoding {
    /// A list of subscriptions, each decoded by `JSONDecoder` as ``StoreChange`` encodes it from the
    /// bytes `slice` gives for its range in the document `scanner` reads; an entry that is not
    /// understood is left out with a note, the rest are kept.
    static func subscriptions(_ scanner: inout JSONScanner, _ slice: (Range<Int>) -> Data, _ notes: inout FieldNotes) throws(Failure) -> [Subscription]? {
        var subscriptions: [Subscription] = []
        let decoder = StoreCoding.decoder()
        try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
            let range = try scanner.skipValueRange()
            let bytes = slice(range)
            do {
                subscriptions.append(try decoder.decode(Subscription.self, from: bytes))
            } catch {
                notes.add("a subscription that could not be read was left out")
            }
        }
        return subscriptions
    }
}
