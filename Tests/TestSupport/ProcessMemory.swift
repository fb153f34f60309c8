import Foundation

/// This process's memory as Linux reports it in `/proc/self/status`, for the benchmarks.
public enum ProcessMemory {
    /// The peak resident set size of this process so far, in MiB (`VmHWM`); NaN when unknown.
    public static func peakResidentMiB() -> Double { statusMiB("VmHWM:") }

    /// The resident set size of this process now, in MiB (`VmRSS`); NaN when unknown.
    public static func residentMiB() -> Double { statusMiB("VmRSS:") }

    /// The peak resident set size of process `pid` so far, in MiB (`VmHWM`); NaN when unknown.
    public static func peakResidentMiB(of pid: Int32) -> Double { statusMiB("VmHWM:", of: "\(pid)") }

    private static func statusMiB(_ field: String, of process: String = "self") -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kib / 1024
    }
}
