/// The expected screens of ``GoldenScreenTests``, drawn at the sizes the tests give.
enum GoldenScreens {
    static let feedUnicode = """
         metube · all
          ●  now Digital Found… PS6 hardware deep dive: what the specs…    30:34
        ↻ ●  42m 東京チャンネル 東京の夜景を歩く 🌃 4K散歩               1:02:03
        ✓ ○   5h Kitchen Synth  Modular synth in 10 minutes                10:00
          ●   3d Digital Found… Short: frame pacing                         0:45
        ⚠ ⊘   2w 東京チャンネル 🚀 Launch day recap 🎉
          ●  3mo Kitchen Synth  Sourdough and a Moog                       12:34
        ✓ ○   2y Digital Found… Retro console restoration story          1:30:00


         7 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status: no…
        ? help
        """

    static let feedASCII = """
         metube - all
          *  now Digital Found~ PS6 hardware deep dive: what the specs~    30:34
        ~ *  42m ?????????????? ???????????????? ?? 4K????               1:02:03
        = o   5h Kitchen Synth  Modular synth in 10 minutes                10:00
          *   3d Digital Found~ Short: frame pacing                         0:45
        ! -   2w ?????????????? ?? Launch day recap ??
          *  3mo Kitchen Synth  Sourdough and a Moog                       12:34
        = o   2y Digital Found~ Retro console restoration story          1:30:00


         7 of 7 | ~ 1 pending | ! 1 conflict | hub: not configured | status: no~
        ? help
        """

    static let channels = """
         metube · channels (unseen, videos)
              2       3  Digital Foundry
              1       2  Kitchen Synth
              1       2  東京チャンネル






         3 channels │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status…
        ? help
        """

    static let channelsWithFetchResults = """
         metube · channels (unseen, videos)
              2       3  Digital Foundry                            ok 2 min ago
              1       2  Kitchen Synth
              1       2  東京チャンネル            failing since 13:13: HTTP 404






         3 channels │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status…
        ? help
        """

    static let conflicts = """
         metube · conflicts (m keeps mine, t takes theirs)
        ⚠ 🚀 Launch day recap … mine: skipped (laptop) │ theirs: watched (phone)








         1 conflict │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status…
        ? help
        """

    static let help = """
         metube · keys
         Navigation
           j Down C-n     Move down
           k Up           Move up
           PgDn C-f       Page down
           PgUp C-b       Page up
           g Home         Go to the first (newest) row
           G End          Go to the last (oldest) row

         Marks and opening
         43 actions │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status…
        ? help
        """

    static let smallest = """
         metube · all
          ●  now Digital… PS6 hardware…    30:34
        ↻ ●  42m 東京チ…  東京の夜景を…  1:02:03
        ✓ ○   5h Kitchen… Modular synt…    10:00
          ●   3d Digital… Short: frame…     0:45
        ⚠ ⊘   2w 東京チ…  🚀 Launch da…
          ●  3mo Kitchen… Sourdough an…    12:34
        ✓ ○   2y Digital… Retro consol…  1:30:00
         7 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ …
        ? help
        """

    static let tooSmall = """




                  terminal too small
                need 40×10, have 39×10




        """
}
