import MeTubeCore

/// Writes subscriptions as OPML 1.1, laid out like YouTube's subscription-manager export.
public enum OPMLExport {
    /// The OPML document for `channels`, in their order: one `rss` outline per channel inside a
    /// "YouTube Subscriptions" folder, each with the channel's feed URL as `xmlUrl` and its title
    /// (the id when it has none) as `text` and `title`. Newsboat (`newsboat -i`), FreeTube, NewPipe
    /// and `SubscriptionImporter` read it back.
    public static func render(_ channels: [Channel]) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="1.1">"#,
            "  <head>",
            "    <title>metube subscriptions</title>",
            "  </head>",
            "  <body>",
            #"    <outline text="YouTube Subscriptions" title="YouTube Subscriptions">"#,
        ]
        for channel in channels {
            let name = escaped(channel.displayName)
            let feedURL = "https://www.youtube.com/feeds/videos.xml?channel_id=\(escaped(channel.id))"
            lines.append(#"      <outline text="\#(name)" title="\#(name)" type="rss" xmlUrl="\#(feedURL)" />"#)
        }
        lines += ["    </outline>", "  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` escaped for a double-quoted XML attribute; characters XML 1.0 cannot hold are dropped.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result += "&#\(scalar.value);"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
