//! Text prepared once when a response lands, and wrapped once per width: a frame only slices
//! the visible lines out of the cache.

use std::cell::RefCell;
use std::sync::Arc;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation as _;
use unicode_width::UnicodeWidthStr as _;

use crate::render::Document;

#[derive(Clone)]
enum Source {
    /// Styled text from HTML, word-wrapped.
    Document(Document),
    /// Verbatim text (raw HTML, JSON), hard-wrapped at the width.
    Raw(String),
}

/// A body of text that re-wraps on resize without re-parsing.
pub struct TextBody {
    source: Source,
    cache: RefCell<Option<(u16, Arc<[Line<'static>]>)>>,
}

/// A copy keeps the text and wraps it afresh (the answer Compare hands to Chat).
impl Clone for TextBody {
    fn clone(&self) -> TextBody {
        TextBody {
            source: self.source.clone(),
            cache: RefCell::new(None),
        }
    }
}

impl std::fmt::Debug for TextBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.source {
            Source::Document(_) => f.write_str("TextBody(document)"),
            Source::Raw(text) => write!(f, "TextBody({} raw bytes)", text.len()),
        }
    }
}

impl TextBody {
    pub fn document(document: Document) -> TextBody {
        TextBody {
            source: Source::Document(document),
            cache: RefCell::new(None),
        }
    }

    pub fn raw(text: &str) -> TextBody {
        TextBody {
            source: Source::Raw(text.to_string()),
            cache: RefCell::new(None),
        }
    }

    pub fn as_document(&self) -> Option<&Document> {
        match &self.source {
            Source::Document(d) => Some(d),
            Source::Raw(_) => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        match &self.source {
            Source::Document(d) => d.is_empty(),
            Source::Raw(text) => text.trim().is_empty(),
        }
    }

    /// The lines at this width, from the cache when the width has not changed.
    pub fn lines(&self, width: u16) -> Arc<[Line<'static>]> {
        let width = width.max(1);
        if let Some((cached_width, lines)) = &*self.cache.borrow()
            && *cached_width == width
        {
            return Arc::clone(lines);
        }
        let lines: Arc<[Line<'static>]> = match &self.source {
            Source::Document(d) => d.wrap(width).into(),
            Source::Raw(raw) => hard_wrap(raw, width).into(),
        };
        *self.cache.borrow_mut() = Some((width, Arc::clone(&lines)));
        lines
    }

    /// How many lines the last wrap produced (0 before the first draw).
    pub fn wrapped_len(&self) -> usize {
        self.cache.borrow().as_ref().map_or(0, |(_, l)| l.len())
    }
}

/// One occurrence of searched text: its wrapped line, and where it starts and ends there (in
/// characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

/// Where a search is made: without case, character by character.
fn folded(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// The character ranges of `line` where `query` occurs, ignoring case, not overlapping.
pub fn ranges_in(line: &Line<'_>, query: &str) -> Vec<(usize, usize)> {
    let needle: Vec<char> = query.chars().map(folded).collect();
    if needle.is_empty() {
        return Vec::new();
    }
    let hay: Vec<char> = line
        .spans
        .iter()
        .flat_map(|s| s.content.chars())
        .map(folded)
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        if hay[i..i + needle.len()] == needle[..] {
            out.push((i, i + needle.len()));
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

impl TextBody {
    /// Every occurrence of `query` in the lines as last drawn (or at 80 columns before the
    /// first draw). A match broken over two wrapped lines is not found.
    pub fn find(&self, query: &str) -> Vec<Found> {
        let width = self.cache.borrow().as_ref().map_or(80, |(w, _)| *w);
        let lines = self.lines(width);
        let mut found = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            for (start, end) in ranges_in(line, query) {
                found.push(Found {
                    line: index,
                    start,
                    end,
                });
            }
        }
        found
    }
}

/// Cuts verbatim lines at the display width; a continuation is marked in the gutter colour.
fn hard_wrap(raw: &str, width: u16) -> Vec<Line<'static>> {
    let width = width as usize;
    let mut out = Vec::with_capacity(raw.len() / 40);
    for line in raw.lines() {
        if line.is_empty() {
            out.push(Line::default());
            continue;
        }
        let mut current = String::new();
        let mut current_width = 0;
        let mut first = true;
        // By grapheme, measured as ratatui draws it: a flag, a ZWJ sequence or a letter
        // with its combining marks is one cell or two, never cut in its middle.
        for g in line.graphemes(true) {
            let g = if g == "\t" { " " } else { g };
            let w = g.width();
            if current_width + w > width && !current.is_empty() {
                out.push(raw_line(std::mem::take(&mut current), first));
                first = false;
                current_width = 0;
            }
            if !g.chars().any(char::is_control) {
                current.push_str(g);
                current_width += w;
            }
        }
        out.push(raw_line(current, first));
    }
    out
}

fn raw_line(text: String, first: bool) -> Line<'static> {
    if first {
        Line::from(text)
    } else {
        Line::from(Span::styled(
            text,
            Style::default().fg(crate::render::prose::MUTED),
        ))
    }
}

/// Markdown whose headings sit `by` levels deeper (at most `######`), to nest it under a
/// heading of its own: an answer's `##` inside a comparison's `## 1. ChatGPT` becomes
/// `####`. Fenced code is left as it is.
pub fn demote_headings(markdown: &str, by: usize) -> String {
    let mut out = String::with_capacity(markdown.len() + 16);
    let mut in_fence = false;
    for line in markdown.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        let is_heading =
            !in_fence && (1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\n']);
        if is_heading {
            out.push_str(&"#".repeat((hashes + by).min(6)));
            out.push_str(&line[hashes..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_is_cut_at_the_width_and_cached() {
        let body = TextBody::raw("abcdefghij\n\nxy");
        let lines = body.lines(4);
        let texts: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        assert_eq!(texts, vec!["abcd", "efgh", "ij", "", "xy"]);
        assert!(Arc::ptr_eq(&lines, &body.lines(4)));
        assert_eq!(body.lines(20).len(), 3);
    }

    #[test]
    fn headings_are_demoted_outside_code_and_never_past_six() {
        let md = "# Top\n## Sub\ntext #not\n```\n# code\n```\n##### Deep\n";
        assert_eq!(
            super::demote_headings(md, 2),
            "### Top\n#### Sub\ntext #not\n```\n# code\n```\n###### Deep\n"
        );
    }
}
