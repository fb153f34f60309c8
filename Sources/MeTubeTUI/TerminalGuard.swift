internal import CNcursesw
import Foundation
import Synchronization

/// The termination signal received while the TUI runs (0 for none); written by the handler.
private let receivedSignal = Atomic<Int32>(0)

private let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
private let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

/// A first SIGINT/SIGTERM/SIGHUP asks the loop to stop (it restores the terminal itself); a second
/// one, if the loop did not get there, restores the terminal here and exits.
private func handleTermination(_ signal: Int32) {
    let (exchanged, _) = receivedSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
    if !exchanged {
        endwin()
        _exit(128 + signal)
    }
}

/// A crash restores the terminal, then dies of the same signal so the crash is still reported.
private func handleCrash(_ signal: Int32) {
    endwin()
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
}

/// Makes sure the terminal is restored however the TUI ends: quit, error (by scope), SIGINT,
/// SIGTERM, SIGHUP (by asking the loop to stop), or a crash (from the signal handler).
struct TerminalGuard: ~Copyable {
    private var previous: [(Int32, sigaction)] = []

    /// Installs the handlers and unblocks their signals and SIGWINCH, which a parent (a thread
    /// pool that blocks signals, then spawns) may have left blocked.
    init() {
        receivedSignal.store(0, ordering: .relaxed)
        for signal in terminationSignals { install(signal, handleTermination) }
        for signal in crashSignals { install(signal, handleCrash) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in terminationSignals + crashSignals + [SIGWINCH] { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// The termination signal received, if any.
    var signal: Int32? {
        let value = receivedSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    private mutating func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var old = sigaction()
        sigaction(signal, &action, &old)
        previous.append((signal, old))
    }

    deinit {
        for (signal, old) in previous {
            var restored = old
            sigaction(signal, &restored, nil)
        }
    }
}
