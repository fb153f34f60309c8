import Foundation
import MeTubeCore

/// Reads Google Takeout's `subscriptions.csv` by column position: channel id, channel URL, channel title.
///
/// The header's wording depends on the export's locale, so the first row is skipped whatever it
/// says, unless it already holds a channel id.
enum TakeoutCSVReader {
    /// The number of columns a Takeout row has.
    static let columnCount = 3

    /// Reads every row of `text` into `collector`; a bad row is rejected and the rest still read.
    static func read(_ text: SubscriptionText, into collector: inout ImportCollector) {
        let rows = text.nonBlankLines
        for (offset, row) in rows.enumerated() {
            let location = "line \(row.number)"
            let fields: [String]
            do {
                fields = try CSVLine.fields(of: row.text)
            } catch {
                collector.reject(row.text, at: location, reason: error.reason)
                continue
            }
            let id = fields[0].trimmingCharacters(in: .whitespaces)
            if offset == 0, !ChannelID.isValid(id) { continue }
            guard fields.count <= columnCount else {
                collector.reject(row.text, at: location, reason: "\(fields.count) fields where 3 are expected (an unquoted comma in the title?)")
                continue
            }
            let reference = ChannelID.isValid(id) || fields.count < 2 ? id : fields[1]
            collector.offer(reference, title: fields.count == columnCount ? fields[2] : nil, at: location)
        }
    }
}
