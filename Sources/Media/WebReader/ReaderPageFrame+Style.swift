extension ReaderPageFrame {
    /// The whole style sheet, inline: a serif reading column of at most 40em, the system's sans-serif for titles and
    /// captions, Talevonia's colours (night and plum, amber accents) and a dark variant. System fonts only: a web font
    /// would be a request to somewhere else.
    static let style = """
        :root{color-scheme:light dark;--paper:#FBF8F3;--ink:#231E33;--muted:#6E6783;--accent:#8A2F6B;--rule:#E6DFEE;--shade:#F2EDF7}
        @media (prefers-color-scheme:dark){:root{--paper:#15111F;--ink:#ECE7F5;--muted:#A79FBD;--accent:#F4B860;--rule:#2E2742;--shade:#1F1930}}
        *,*::before,*::after{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
        body{margin:0;background:var(--paper);color:var(--ink);font:1.125rem/1.7 Charter,"Iowan Old Style",Georgia,"Noto Serif","DejaVu Serif",serif;\
        overflow-wrap:break-word}
        h1,h2,.subtitle,.byline,figcaption,table,footer,.notice p{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",sans-serif}
        main{max-width:40em;margin:0 auto;padding:2.5rem 1.25rem 1rem}
        img{max-width:100%;height:auto}
        header{text-align:center;margin:0 0 3rem}
        .cover{display:block;max-width:min(100%,16rem);margin:0 auto 2rem;border-radius:.75rem;box-shadow:0 .75rem 2rem rgb(27 20 64/.28)}
        h1{font-size:clamp(1.875rem,7vw,2.75rem);line-height:1.15;font-weight:800;letter-spacing:-.01em;margin:0 0 .5rem;text-wrap:balance}
        .subtitle{font-size:1.125rem;line-height:1.4;color:var(--muted);margin:0 0 .75rem}
        .byline{font-size:.9375rem;font-weight:600;letter-spacing:.02em;color:var(--accent);margin:0}
        section{margin:0 0 2.5rem}
        section+section{border-top:1px solid var(--rule);padding-top:2.25rem}
        h2{font-size:1.375rem;line-height:1.3;font-weight:700;margin:0 0 1rem}
        p{margin:0 0 1.1em}
        figure{margin:2rem 0}
        figure img{display:block;margin:0 auto;border-radius:.5rem}
        figcaption{margin-top:.625rem;font-size:.875rem;line-height:1.5;color:var(--muted);text-align:center}
        .table{overflow-x:auto;margin:1.5rem 0}
        table{border-collapse:collapse;width:100%;font-size:.9375rem;line-height:1.5}
        th,td{padding:.5rem .75rem;text-align:start;vertical-align:top;border-bottom:1px solid var(--rule)}
        th{font-weight:650;background:var(--shade);white-space:nowrap}
        footer{display:flex;align-items:center;justify-content:center;gap:.5rem;max-width:40em;margin:0 auto;padding:1.5rem 1.25rem 3rem;\
        border-top:1px solid var(--rule);font-size:.8125rem;color:var(--muted)}
        .notice{text-align:center;padding-top:20vh}
        .notice h1{margin-top:1.25rem}
        .notice p{color:var(--muted)}
        @media (min-width:48em){main{padding-top:4rem}.cover{max-width:18rem}}
        """
}
