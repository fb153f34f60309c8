/// The expected screens of ``DetailsPaneTests``: the fixture at 130×24 (beside) and 100×24 (below).
enum DetailsGoldenScreens {
    static let wide = """
         metube · all
          ●  now Digital Foun… PS6 hardware deep dive: what the spe…    30:34│▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ↻ ●  42m 東京チャンネ… 東京の夜景を歩く 🌃 4K散歩             1:02:03│▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▗▅▆▔▆▀▁▀▀▀▀▀
        ✓ ○   5h Kitchen Synth Modular synth in 10 minutes              10:00│▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▕▎▎  ▕▘▐▀▀▀▀▀
          ●   3d Digital Foun… Short: frame pacing                       0:45│▀▀▀▀▁▁▁▁▁▁▁▁▁▁▀▀▀▀▀▀▀▀▔▖▁▁▁▁▁▘▀▀▀▀▀
        ⚠ ⊘   2w 東京チャンネ… 🚀 Launch day recap 🎉                        │▀▀▀▀▐▔▔▔▔▔▔▔▔▏▀▀▀▀▀▀▀▀▀▔▆▅▀▅▔▀▀▀▀▀▀
          ●  3mo Kitchen Synth Sourdough and a Moog                     12:34│▀▀▀▀▐▔      ▀▏▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ✓ ○   2y Digital Foun… Retro console restoration story        1:30:00│▔▔▔▔▐▏      ▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔▔
                                                                             │▐▐▋▊▐▂▂▂▂▂▂▂▂▏▍▋▐▐▋▍▋▕▐▋▐▍▎▋▍▋▋▎▐▐▋
                                                                             │▐▐▋▋▍▍▍▋▊▍▋▍▍▏▐▋▐▐▋▍▋▕▐▋▐▍▎▋▍▋▋▎▐▐▋
                                                                             │▐▐▋▋▍▍▍▋▊▍▋▍▍▏▐▋▐▐▋▍▋▕▐▋▐▍▎▋▍▋▋▎▐▐▋
                                                                             │
                                                                             │PS6 hardware deep dive: what the specs really mean for games
                                                                             │Digital Foundry
                                                                             │2026-09-21 14:12 (just now) · 30:34
                                                                             │
                                                                             │2 chapters · 1 link · ] selects · P plays or copies
                                                                             │▸ 0:00 Intro
                                                                             │  1:02:03 Verdict
                                                                             │
                                                                             │Digital Foundry looks at the PS6.
                                                                             │
         7 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status: not configured
        ? help
        """

    static let narrowWaiting = """
         metube · all
          ●  now Digital Foundry      PS6 hardware deep dive: what the specs really mean for games     30:34
        ↻ ●  42m 東京チャンネル       東京の夜景を歩く 🌃 4K散歩                                     1:02:03
        ✓ ○   5h Kitchen Synth        Modular synth in 10 minutes                                      10:00
          ●   3d Digital Foundry      Short: frame pacing                                               0:45
        ⚠ ⊘   2w 東京チャンネル       🚀 Launch day recap 🎉
          ●  3mo Kitchen Synth        Sourdough and a Moog                                             12:34
        ✓ ○   2y Digital Foundry      Retro console restoration story                                1:30:00



        ────────────────────────────────────────────────────────────────────────────────────────────────────
        ································ PS6 hardware deep dive: what the specs really mean for games
        ································ Digital Foundry
        ································ 2026-09-21 14:12 (just now) · 30:34
        ································
        ···············…················ 2 chapters · 1 link · ] selects · P plays or copies
        ································ ▸ 0:00 Intro
        ································   1:02:03 Verdict
        ································
        ································ Digital Foundry looks at the PS6.

         7 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status: not configured
        ? help
        """

    static let narrowPlaceholder = """
         metube · all
          ●  now Digital Foundry      PS6 hardware deep dive: what the specs really mean for games     30:34
        ↻ ●  42m 東京チャンネル       東京の夜景を歩く 🌃 4K散歩                                     1:02:03
        ✓ ○   5h Kitchen Synth        Modular synth in 10 minutes                                      10:00
          ●   3d Digital Foundry      Short: frame pacing                                               0:45
        ⚠ ⊘   2w 東京チャンネル       🚀 Launch day recap 🎉
          ●  3mo Kitchen Synth        Sourdough and a Moog                                             12:34
        ✓ ○   2y Digital Foundry      Retro console restoration story                                1:30:00



        ────────────────────────────────────────────────────────────────────────────────────────────────────
        ································ PS6 hardware deep dive: what the specs really mean for games
        ································ Digital Foundry
        ································ 2026-09-21 14:12 (just now) · 30:34
        ································
        ·······not a JPEG (HTML)········ 2 chapters · 1 link · ] selects · P plays or copies
        ································ ▸ 0:00 Intro
        ································   1:02:03 Verdict
        ································
        ································ Digital Foundry looks at the PS6.

         7 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status: not configured
        ? help
        """
}
