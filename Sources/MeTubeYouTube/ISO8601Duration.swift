/// The ISO 8601 durations the YouTube Data API gives as `contentDetails.duration`
/// (`PT4M13S`, `P1DT2H3M`, `P0D` for live and upcoming videos).
public enum ISO8601Duration {
    /// The longest video length accepted: 7 days, what metube's client accepts from a hub.
    public static let maxSeconds = CatalogVideo.maxDurationSeconds

    /// The length in whole seconds when `text` is a duration of weeks, days, hours, minutes and
    /// seconds (fractions of a second are dropped) of 1 s … ``maxSeconds``; nil otherwise: not a
    /// duration, years or months (whose length varies), zero (live or upcoming), or absurdly long.
    public static func seconds(_ text: String) -> Int? {
        var bytes = Array(text.utf8)[...]
        guard bytes.count <= 64, bytes.popFirst() == UInt8(ascii: "P"), !bytes.isEmpty else { return nil }
        var total = 0
        var inTime = false
        var seenUnits: Set<UInt8> = []
        var sawNumber = false
        while !bytes.isEmpty {
            if bytes.first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes.removeFirst()
                guard !bytes.isEmpty else { return nil }
                continue
            }
            let digits = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty, digits.count <= 9 else { return nil }
            bytes.removeFirst(digits.count)
            var fractionDropped = false
            if bytes.first == UInt8(ascii: ".") || bytes.first == UInt8(ascii: ",") {
                bytes.removeFirst()
                let fraction = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                guard !fraction.isEmpty, fraction.count <= 9 else { return nil }
                bytes.removeFirst(fraction.count)
                fractionDropped = true
            }
            guard let unit = bytes.popFirst(), seenUnits.insert(inTime ? unit | 0x80 : unit).inserted else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            let scale: Int
            switch (inTime, unit) {
            case (false, UInt8(ascii: "W")): scale = 7 * 86_400
            case (false, UInt8(ascii: "D")): scale = 86_400
            case (true, UInt8(ascii: "H")): scale = 3_600
            case (true, UInt8(ascii: "M")): scale = 60
            case (true, UInt8(ascii: "S")): scale = 1
            default: return nil
            }
            guard !fractionDropped || scale == 1 else { return nil }
            total += value * scale
            guard total <= maxSeconds else { return nil }
            sawNumber = true
        }
        guard sawNumber, total >= 1 else { return nil }
        return total
    }
}
