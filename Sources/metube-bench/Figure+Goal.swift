import Foundation

extension Figure {
    /// Whether `value` meets `goal`, for a goal that opens with a comparison and a number in the
    /// figure's unit (`<= 100`, `< 1.5 x`, `>= 500 req/s`, `= 0`; words after the number are
    /// notes); nil for a goal that only asks for a report. A value that could not be measured
    /// (infinite or not a number) meets no goal but `>`/`>=` against infinity.
    var met: Bool? {
        let goal = goal.trimmingCharacters(in: .whitespaces)
        guard let comparison = ["<=", ">=", "<", ">", "="].first(where: { goal.hasPrefix($0) }) else { return nil }
        let rest = goal.dropFirst(comparison.count).drop(while: { $0 == " " })
        let number = rest.prefix(while: { $0.isNumber || $0 == "." || $0 == "," || $0 == "_" }).filter { $0 != "," && $0 != "_" }
        guard let target = Double(number) else { return nil }
        guard !value.isNaN else { return false }
        switch comparison {
        case "<=": return value <= target
        case ">=": return value >= target
        case "<": return value < target
        case ">": return value > target
        default: return value == target
        }
    }

    /// `met`, `NOT met`, or empty when the goal only asks for a report: the table's verdict column.
    var verdict: String {
        switch met {
        case true?: "met"
        case false?: "NOT met"
        case nil: ""
        }
    }
}
