import MeTubeCore
import MeTubeTUI

extension TUICommand {
    /// `a` in the channels view: a handle, name or video link resolved as `metube channels add`
    /// resolves it (``LinkResolution``), run by the TUI off the key path.
    static func channelLinkResolver(settings: Settings) -> TUIOptions.ChannelLinkResolver {
        let resolution = LinkResolution(settings: settings)
        return { link in
            try await resolution.resolve([link])[link, default: .failure(.local(.cancelled))].get()
        }
    }
}
