import MeTubeCore
import Synchronization

/// Builds a ``SearchIndex`` off the event loop's thread, so that neither the first frame nor the
/// first search keystroke waits for tens of thousands of titles to be lower-cased.
final class SearchIndexBuilder: Sendable {
    private let finished = Mutex<(generation: Int, index: SearchIndex)?>(nil)

    /// Starts building the index of `library`, tagged with the model's library `generation`.
    func build(_ library: Library, generation: Int) {
        Task.detached(priority: .utility) {
            let index = SearchIndex(library)
            self.finished.withLock { $0 = (generation, index) }
        }
    }

    /// Takes the finished index, if one is waiting.
    func take() -> (generation: Int, index: SearchIndex)? {
        finished.withLock { result in
            defer { result = nil }
            return result
        }
    }
}
