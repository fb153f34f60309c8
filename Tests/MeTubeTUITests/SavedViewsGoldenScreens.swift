/// The expected screens of ``SavedViewsTests``: the fixture at 72×12 with two saved views.
enum SavedViewsGoldenScreens {
    static let picker = """
         metube · views (unseen, videos)
        ▸ 1       3       3  unwatched
          2       4       7  all
          3       0       2  watched
          4       0       1  skipped
          5       0       0  in-progress
          6       0       0  upcoming
          7       1       2  synth              channel:"Kitchen Synth"
          8       2       2  long               duration>20m and unwatched

         8 views │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status: n…
        ? help
        """

    static let confirmation = """
         metube · synth
        ✓ ○   5h Kitchen Synth  Modular synth in 10 minutes                10:00
          ●  3mo Kitchen Synth  Sourdough and a Moog                       12:34







         view synth │ 2 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured…
        Mark 2 videos of synth skipped? (y/n)
        """

    static let savedViewStatusLine = """
         metube · long
          ●  now Digital Found… PS6 hardware deep dive: what the specs…    30:34
        ↻ ●  42m 東京チャンネル 東京の夜景を歩く 🌃 4K散歩               1:02:03







         view long │ 2 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured …
        ? help
        """
}
