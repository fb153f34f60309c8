import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync

/// `metube rules`: what the config file's `[[rules]]` do.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Test the config file's [[rules]], or apply them to the whole library.",
        discussion: """
            Rules are tried in the order written; the first whose query matches a video decides for it, so when a skip rule and a hide rule both match, the one written first wins.
            A sync runs skip rules on the new videos it brings in, never on a video that has a mark. hide rules keep videos out of every view but all.
            """,
        subcommands: [RulesTestCommand.self, RulesApplyCommand.self]
    )
}

/// `metube rules test`: a dry run over the current library.
struct RulesTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "test", abstract: "Show what each rule would match in the library now, and why (changes nothing).")

    @OptionGroup var store: StoreAccess

    func run() throws {
        let rules = try store.settings().rules
        guard !rules.rules.isEmpty else {
            print("no [[rules]] in \(store.configFile.path)")
            return
        }
        let library = try store.openStore().library()
        let dryRun = RuleDryRun(rules, over: library)
        for (index, outcome) in dryRun.outcomes.enumerated() {
            let rule = outcome.rule
            print("\(index + 1). \(rule.name) (\(rule.action.rawValue)): \(DisplayText.line(rule.query.text, limit: 200))")
            print("   matches \(outcome.matched) video\(outcome.matched == 1 ? "" : "s"); decides \(outcome.decided)\(Self.effect(of: outcome))")
            for (earlier, count) in outcome.takenByEarlier.sorted(by: { $0.key < $1.key }) {
                let other = dryRun.outcomes[earlier].rule
                print("   \(count) taken by rule \(earlier + 1), \(other.name) (\(other.action.rawValue)), written earlier")
            }
            for video in outcome.examples {
                let channel = library.channels[video.channelID]?.displayName ?? video.channelID
                print("   e.g. \(video.id)  \(DisplayText.line(channel, limit: 40)) — \(DisplayText.line(video.title, limit: 100))")
            }
        }
        if dryRun.stoppedRegexes > 0 { printError(QueryOption.stoppedNote(dryRun.stoppedRegexes)) }
    }

    private static func effect(of outcome: RuleDryRun.Outcome) -> String {
        switch outcome.rule.action {
        case .hide: return ": hidden from every view but all"
        case .skip:
            let marked = outcome.alreadyMarked
            return ": new ones get skipped; \(marked) already marked (left alone), \(outcome.decided - marked) unmarked (rules apply --all would skip them)"
        }
    }
}

/// `metube rules apply --all`: runs the skip rules over the existing library.
struct RulesApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Skip what the skip rules match among the library's unmarked videos, in one write.",
        discussion: "Videos with a mark are left alone. Each mark says which rule made it (list --json: rule) and syncs like any other."
    )

    @OptionGroup var store: StoreAccess

    @Flag(help: "Run over every video of the library (required: a sync already runs rules on new videos).")
    var all = false

    @Flag(help: "Do it without asking.")
    var yes = false

    func validate() throws {
        guard all else { throw ValidationError("give --all: rules apply to the whole library (a sync already runs them on new videos)") }
    }

    func run() throws {
        let rules = try store.settings().rules
        let opened = try store.openStore()
        let count = RuleDryRun.skips(rules, in: opened.library()).count
        guard count > 0 else {
            print("no unmarked video matches a skip rule")
            return
        }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else { throw fail("would skip \(count) videos; give --yes to do it without a terminal", code: ExitStatus.usage) }
            print("Skip \(count) video\(count == 1 ? "" : "s")? [y/N] ", terminator: "")
            fflush(nil)
            guard readLine()?.lowercased().hasPrefix("y") == true else { return }
        }
        let marked = try withStoreErrors { () throws(StoreError) in
            try opened.transaction { transaction in
                let skips = RuleDryRun.skips(rules, in: transaction.library)
                transaction.skip(skips)
                return skips.count
            }
        }
        print("skipped \(marked) video\(marked == 1 ? "" : "s")")
    }
}
