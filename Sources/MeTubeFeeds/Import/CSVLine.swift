import MeTubeCore

/// RFC 4180 parsing of one CSV line: fields split at commas, quoted fields with doubled inner quotes.
///
/// Records never span lines here, so one broken line cannot swallow the lines after it.
enum CSVLine {
    /// Why a line is not valid CSV.
    enum Problem: Error, Equatable {
        /// A field opens a quote that the line never closes.
        case unterminatedQuote
        /// A closing quote is followed by something other than a comma.
        case textAfterClosingQuote

        /// The problem as a rejection reason.
        var reason: String {
            switch self {
            case .unterminatedQuote: "a quoted field is not closed"
            case .textAfterClosingQuote: "text follows a closing quote without a comma"
            }
        }
    }

    /// The fields of `line`, whitespace kept; a quote inside an unquoted field is kept as text.
    static func fields(of line: some StringProtocol) throws(Problem) -> [String] {
        let scalars = Array(line.unicodeScalars)
        var fields: [String] = []
        var index = 0
        while true {
            var field = String.UnicodeScalarView()
            if index < scalars.count, scalars[index] == "\"" {
                index = try readQuoted(scalars, after: index, into: &field)
                guard index == scalars.count || scalars[index] == "," else { throw .textAfterClosingQuote }
            } else {
                while index < scalars.count, scalars[index] != "," {
                    field.append(scalars[index])
                    index += 1
                }
            }
            fields.append(String(field))
            guard index < scalars.count else { return fields }
            index += 1
        }
    }

    /// Reads the quoted field opening at `quote` into `field`, turning `""` into `"`; returns the index after its closing quote.
    private static func readQuoted(
        _ scalars: [Unicode.Scalar], after quote: Int, into field: inout String.UnicodeScalarView
    ) throws(Problem) -> Int {
        var index = quote + 1
        while index < scalars.count {
            if scalars[index] == "\"" {
                guard index + 1 < scalars.count, scalars[index + 1] == "\"" else { return index + 1 }
                index += 1
            }
            field.append(scalars[index])
            index += 1
        }
        throw .unterminatedQuote
    }
}
