/// The style sheet of the pages for people, served as ``PageAsset/style``: system fonts, light and dark from the
/// system's setting, a table that becomes cards on a phone's width, and visible focus for the keyboard.
enum PageStyle {
    static let css = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1d2125; --muted: #5b6570; --line: #d9dee3; --accent: #0b57d0;
          --accent-fg: #ffffff; --row: #f5f7f9; --notice: #fff4d6; --danger: #b3261e; --ok: #146c2e;
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #15181b; --fg: #e4e7ea; --muted: #a3adb8; --line: #343a40; --accent: #8ab4f8;
            --accent-fg: #0b1a33; --row: #1d2125; --notice: #3d3214; --danger: #f2b8b5; --ok: #6dd58c;
          }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; background: var(--bg); color: var(--fg); }
        a { color: var(--accent); text-underline-offset: 0.15em; }
        a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible {
          outline: 3px solid var(--accent); outline-offset: 2px;
        }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 1rem; top: 0.5rem; background: var(--bg); padding: 0.25rem 0.5rem; }
        header.bar {
          display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline;
          padding: 0.75rem max(1rem, calc(50vw - 36rem)); border-bottom: 1px solid var(--line);
        }
        header.bar .home { font-weight: 700; text-decoration: none; color: var(--fg); }
        header.bar .store { color: var(--muted); overflow-wrap: anywhere; }
        main { padding: 1rem max(1rem, calc(50vw - 36rem)) 3rem; }
        h1 { font-size: 1.5rem; line-height: 1.25; margin: 0.5rem 0 1rem; overflow-wrap: anywhere; }
        .facts { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; margin: 0 0 1rem; }
        .facts div { min-width: 0; }
        .facts dt { color: var(--muted); font-size: 0.875rem; }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        form.filters { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 0 0 1rem; }
        label { display: block; font-size: 0.875rem; color: var(--muted); }
        input, textarea {
          font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--muted);
          border-radius: 6px; padding: 0.375rem 0.5rem; max-width: 100%;
        }
        input[type=search] { width: 18rem; }
        input.user { width: 7rem; }
        textarea { width: 100%; min-height: 10rem; }
        button {
          font: inherit; border: 0; border-radius: 6px; padding: 0.4rem 1rem; cursor: pointer;
          background: var(--accent); color: var(--accent-fg);
        }
        button.danger { background: transparent; color: var(--danger); border: 1px solid var(--danger); }
        .notice { min-height: 1.5rem; margin: 0 0 0.5rem; }
        .notice:not(:empty) { background: var(--notice); border-radius: 6px; padding: 0.25rem 0.75rem; }
        .notice.ok:not(:empty) { color: var(--ok); background: transparent; padding: 0; }
        .notice.error:not(:empty) { color: var(--danger); }
        table { width: 100%; border-collapse: collapse; }
        caption { text-align: left; color: var(--muted); padding: 0 0 0.5rem; }
        th, td { text-align: left; vertical-align: top; padding: 0.5rem; border-bottom: 1px solid var(--line); }
        th { font-size: 0.875rem; white-space: nowrap; }
        th a { color: inherit; }
        tbody tr:nth-child(even) { background: var(--row); }
        td.number { font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.title { overflow-wrap: anywhere; font-weight: 600; max-width: 24rem; }
        .hint { color: var(--muted); font-size: 0.875rem; margin: 0; }
        td.excerpt { color: var(--muted); overflow-wrap: anywhere; }
        nav.pages { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: 1rem 0; }
        nav.crumbs { margin: 0 0 0.5rem; }
        .empty { color: var(--muted); }
        article .meta { color: var(--muted); margin: 0 0 1rem; }
        article .body { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 48rem; }
        form.edit { display: grid; gap: 0.75rem; max-width: 48rem; margin: 2rem 0 0; }
        form.edit .actions { display: flex; gap: 1rem; }
        form.edit input:not(.user) { width: 100%; }
        .filtered { color: var(--muted); margin: -0.5rem 0 1rem; overflow-wrap: anywhere; }
        @media (max-width: 40rem) {
          caption, thead { display: block; }
          thead tr { display: flex; flex-wrap: wrap; gap: 0 1rem; }
          thead th { border: 0; padding: 0.25rem 0; }
          thead th:last-child { display: none; }
          table, tbody, tr, td { display: block; }
          td.title { max-width: none; }
          tr { border-bottom: 1px solid var(--line); padding: 0.5rem 0; }
          td { border: 0; padding: 0.125rem 0.5rem; }
          td.number::before { content: attr(data-label) " "; color: var(--muted); }
          input[type=search] { width: 100%; }
          form.filters > div:first-child { flex: 1 1 100%; }
        }
        """
}
