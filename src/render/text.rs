//! Plain text and Markdown renderings of a [`Document`], laid out wide enough that
//! paragraphs stay on one line.

use super::marks::Mark;
use super::wrap::{affordable_width, tagged_lines, tidy_lines, view_pieces};
use super::{Body, Document};

/// Width for the unwrapped renderings: paragraphs longer than this wrap. A page of many
/// table rows gets less ([`affordable_width`]).
const UNWRAPPED: usize = 4_000;

impl Document {
    /// The text without styling or wrapping: one line per paragraph (code blocks keep their
    /// lines), list markers and quote bars kept, link numbers left out, blank lines where the
    /// view has them. Non-breaking spaces become plain spaces.
    pub fn plain_text(&self) -> String {
        self.plain
            .get_or_init(|| match &self.body {
                Body::Empty => String::new(),
                Body::Plain(text) => text.replace('\u{A0}', " "),
                Body::Tree(_) => render(self, false),
            })
            .clone()
    }

    /// Markdown for exporting an answer: `#` headings, `-`/`1.` lists, `>` quotes,
    /// `**bold**`, `*italic*`, `` `code` ``, fenced code blocks, `[text](url)`, `---` rules.
    pub fn to_markdown(&self) -> String {
        match &self.body {
            Body::Empty => String::new(),
            Body::Plain(text) => text.replace('\u{A0}', " "),
            Body::Tree(_) => render(self, true),
        }
    }
}

/// The document laid out at [`UNWRAPPED`] columns as text, in Markdown or not.
fn render(doc: &Document, markdown: bool) -> String {
    let width = UNWRAPPED.min(affordable_width(doc));
    let Some(lines) = tagged_lines(doc, width, markdown) else {
        return String::new();
    };
    let mut out = String::new();
    let mut in_code = false;
    let mut blank = false;
    for line in tidy_lines(lines) {
        let Some(line) = line else {
            blank = true;
            continue;
        };
        if line
            .tagged_strings()
            .all(|t| t.tag.contains(&Mark::LinkNumber) || t.s.trim().is_empty())
        {
            // Only a link's number, which only the view shows.
            continue;
        }
        let is_code = markdown && line.tagged_strings().any(|t| t.tag.contains(&Mark::Pre));
        // A fence closes before the blank line that follows its block and opens after
        // the one before it.
        if in_code && !is_code {
            out.push_str("```\n");
        }
        if std::mem::take(&mut blank) {
            out.push('\n');
        }
        if is_code && !in_code {
            out.push_str("```\n");
        }
        in_code = is_code;
        let start = out.len();
        let mut after_number = false;
        let pieces: Vec<(String, Vec<Mark>)> = if markdown {
            line.tagged_strings()
                .map(|t| (t.s.clone(), t.tag.clone()))
                .collect()
        } else {
            view_pieces(&line)
        };
        for (text, tags) in &pieces {
            if tags.contains(&Mark::LinkNumber) {
                // Nor the space before it.
                let kept = start + out[start..].trim_end_matches(' ').len();
                out.truncate(kept);
                after_number = true;
                continue;
            }
            let mut text = text.as_str();
            if std::mem::take(&mut after_number) && (out.len() == start || out.ends_with(' ')) {
                // The space that separated the number from what follows.
                text = text.trim_start_matches(' ');
            }
            if tags.contains(&Mark::Rule) {
                out.push_str(if markdown { "---" } else { "───" });
                continue;
            }
            out.extend(text.chars().map(|c| if c == '\u{A0}' { ' ' } else { c }));
        }
        let trimmed = start + out[start..].trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    }
    if in_code {
        out.push_str("```\n");
    }
    let end = out.trim_end().len();
    out.truncate(end);
    out
}
