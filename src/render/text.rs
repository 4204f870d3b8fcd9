//! Plain text and Markdown renderings of a [`Document`].

use super::{Block, BlockKind, Document, NO_LINK, Run, flag};

impl Document {
    /// The text without styling or wrapping: one line per block (code blocks keep their
    /// lines), list markers and quote bars kept, link numbers left out, blank lines where the
    /// view has them. Non-breaking spaces become plain spaces.
    pub fn plain_text(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + self.blocks.len() * 4);
        for (i, b) in self.blocks.iter().enumerate() {
            if i > 0 {
                out.push('\n');
                if b.gap {
                    out.push('\n');
                }
            }
            let first = self.prefix(b.prefix_first);
            let rest = self.prefix(b.prefix_rest);
            out.push_str(first);
            if b.kind == BlockKind::Rule {
                out.push_str("───");
                continue;
            }
            let content_start = out.len();
            for r in self.block_runs(b) {
                if r.flags & flag::LINKNUM != 0 {
                    continue;
                }
                let mut t = self.run_text(r);
                if b.kind != BlockKind::Pre
                    && t.starts_with(' ')
                    && (out.len() == content_start || out.ends_with(' '))
                {
                    // The space after a skipped link number.
                    t = &t[1..];
                }
                if b.kind == BlockKind::Pre {
                    for (k, l) in t.split('\n').enumerate() {
                        if k > 0 {
                            out.push('\n');
                            out.push_str(rest);
                        }
                        out.push_str(l);
                    }
                } else {
                    out.extend(t.chars().map(|c| if c == '\u{A0}' { ' ' } else { c }));
                }
            }
            // A trailing link number could leave a space behind.
            let trimmed = out.trim_end_matches(' ').len();
            out.truncate(trimmed);
        }
        out
    }

    /// Markdown for exporting an answer: `#` headings, `-`/`1.` lists, `>` quotes,
    /// `**bold**`, `*italic*`, `` `code` ``, fenced code blocks, `[text](url)`, tables.
    pub fn to_markdown(&self) -> String {
        let mut out = String::with_capacity(self.text.len() * 2);
        let mut prev: Option<&Block> = None;
        for b in &self.blocks {
            if let Some(p) = prev {
                let tight = !b.gap
                    && (b.kind == BlockKind::Row && p.kind == BlockKind::Row && !b.table_start
                        || b.md_rest.0 != b.md_rest.1);
                out.push_str(if tight { "\n" } else { "\n\n" });
            }
            prev = Some(b);
            let first = self.prefix(b.md_first);
            let rest = self.prefix(b.md_rest);
            let runs = self.block_runs(b);
            match b.kind {
                BlockKind::Rule => {
                    out.push_str(first);
                    out.push_str("---");
                }
                BlockKind::Pre => {
                    let body: String = runs.iter().map(|r| self.run_text(r)).collect();
                    let mut fence = String::from("```");
                    while body.contains(fence.as_str()) {
                        fence.push('`');
                    }
                    out.push_str(first);
                    out.push_str(&fence);
                    for l in body.split('\n') {
                        out.push('\n');
                        out.push_str(rest);
                        out.push_str(l);
                    }
                    out.push('\n');
                    out.push_str(rest);
                    out.push_str(&fence);
                }
                BlockKind::Heading(n) => {
                    out.push_str(first);
                    for _ in 0..n {
                        out.push('#');
                    }
                    out.push(' ');
                    self.md_inline(runs, &mut out);
                }
                BlockKind::Para => {
                    out.push_str(first);
                    self.md_inline(runs, &mut out);
                }
                BlockKind::Row => {
                    out.push_str(first);
                    out.push_str("| ");
                    self.md_inline(runs, &mut out);
                    out.push_str(" |");
                    if b.table_start {
                        let table_cols = runs
                            .iter()
                            .filter(|r| r.flags & flag::SEP != 0)
                            .map(|r| self.run_text(r).matches('│').count())
                            .sum::<usize>()
                            + 1;
                        out.push('\n');
                        out.push_str(rest);
                        out.push('|');
                        for _ in 0..table_cols {
                            out.push_str(" --- |");
                        }
                    }
                }
            }
        }
        out
    }

    /// Inline Markdown for a block's runs, grouped by link.
    fn md_inline(&self, runs: &[Run], out: &mut String) {
        let block_start = out.len();
        let mut i = 0;
        while i < runs.len() {
            let r = &runs[i];
            if r.flags & flag::LINKNUM != 0 {
                i += 1;
                // What followed the number may start with a space: avoid doubling it.
                if let Some(next) = runs.get(i)
                    && self.run_text(next) == " "
                    && (out.len() == block_start || out.ends_with(' '))
                {
                    i += 1;
                }
                continue;
            }
            if r.flags & flag::SEP != 0 {
                // Adjacent separators (empty cells) share one run.
                out.push_str(&self.run_text(r).replace('│', "|"));
                i += 1;
                continue;
            }
            if r.link != NO_LINK {
                let mut j = i;
                let mut inner = String::new();
                while j < runs.len()
                    && runs[j].link == r.link
                    && runs[j].flags & (flag::LINKNUM | flag::SEP) == 0
                {
                    md_run(self.run_text(&runs[j]), runs[j].flags, &mut inner);
                    j += 1;
                }
                let url = &self.links[r.link as usize].url;
                let lead = inner.len() - inner.trim_start().len();
                out.push_str(&inner[..lead]);
                let body = inner.trim();
                out.push('[');
                out.push_str(body);
                out.push_str("](");
                for c in url.chars() {
                    match c {
                        ' ' => out.push_str("%20"),
                        '(' => out.push_str("%28"),
                        ')' => out.push_str("%29"),
                        c => out.push(c),
                    }
                }
                out.push(')');
                if inner.trim_end().len() < inner.len() && !body.is_empty() {
                    out.push(' ');
                }
                i = j;
            } else {
                md_run(self.run_text(r), r.flags, out);
                i += 1;
            }
        }
    }
}

/// One run with its emphasis markers; spaces at the edges stay outside the markers.
fn md_run(text: &str, flags: u16, out: &mut String) {
    let body = text.trim_matches(' ');
    if body.is_empty() {
        out.push_str(text);
        return;
    }
    let lead = text.len() - text.trim_start_matches(' ').len();
    let trail = text.len() - text.trim_end_matches(' ').len();
    out.push_str(&text[..lead]);
    if flags & flag::CODE != 0 {
        let ticks = if body.contains('`') { "`` " } else { "`" };
        let close = if body.contains('`') { " ``" } else { "`" };
        let mut marks = String::new();
        if flags & flag::BOLD != 0 {
            marks.push_str("**");
        }
        out.push_str(&marks);
        out.push_str(ticks);
        out.push_str(body);
        out.push_str(close);
        out.push_str(&marks);
    } else {
        let mut open = String::new();
        if flags & flag::BOLD != 0 {
            open.push_str("**");
        }
        if flags & flag::ITALIC != 0 && flags & flag::IMAGE == 0 {
            open.push('*');
        }
        if flags & flag::STRIKE != 0 {
            open.push_str("~~");
        }
        out.push_str(&open);
        for c in body.chars() {
            match c {
                '\\' | '*' | '_' | '`' | '[' | ']' | '<' => {
                    out.push('\\');
                    out.push(c);
                }
                '\u{A0}' => out.push(' '),
                c => out.push(c),
            }
        }
        let close: String = open.chars().rev().collect();
        out.push_str(&close);
    }
    out.push_str(&text[text.len() - trail..]);
}
