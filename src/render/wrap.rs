//! Laying a [`Document`] out at a width: html2text lays out its kept render tree, its
//! marks become ratatui styles, rules are drawn across the width.

use html2text::render::TaggedLine;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation as _;
use unicode_width::UnicodeWidthStr;

use super::marks::Mark;
use super::{Body, Document, config};

/// The colours prose is marked with: the dark theme's. The views map them to the theme in
/// use when they draw (`ui::theme::prose`), so a rendered and cached text follows a theme
/// changed later.
pub mod prose {
    use ratatui::style::Color;
    pub const HEADING: Color = Color::LightMagenta;
    pub const CODE: Color = Color::Yellow;
    pub const LINK: Color = Color::Cyan;
    /// Link numbers, rules, notices.
    pub const DIM: Color = Color::DarkGray;
    /// Continuation lines of raw text.
    pub const MUTED: Color = Color::Gray;
}

/// The style of text with these marks (outer first).
pub(crate) fn style_of(marks: &[Mark]) -> Style {
    marks.iter().fold(Style::new(), |st, mark| match mark {
        Mark::Plain => st,
        Mark::Heading(1) => st
            .fg(prose::HEADING)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        Mark::Heading(2) => st.fg(prose::HEADING).add_modifier(Modifier::BOLD),
        Mark::Heading(_) | Mark::Strong => st.add_modifier(Modifier::BOLD),
        Mark::Emphasis | Mark::Image => st.add_modifier(Modifier::ITALIC),
        Mark::Code | Mark::Pre => st.fg(prose::CODE),
        Mark::Strike => st.add_modifier(Modifier::CROSSED_OUT),
        Mark::Link(_) => st.fg(prose::LINK).add_modifier(Modifier::UNDERLINED),
        // A link's number is not part of the link.
        Mark::LinkNumber => Style::new().fg(prose::DIM),
        Mark::Rule => st.fg(prose::DIM),
    })
}

/// Widest layout tried when a page does not fit the width asked for.
const WIDEST: usize = 8_192;

/// Most cells (elements × columns) a layout may fill: a line costs its width (html2text
/// pads a table's rows to the table's width, and a table is as wide as its longest cell
/// allows), and a page has about as many lines as elements. The width is kept within this
/// budget whatever the page; text still wraps within it.
pub(crate) const LAYOUT_BUDGET: usize = 2_000_000;

/// Narrowest layout the budget may ask for.
const NARROWEST: usize = 120;

/// The widest layout `doc` may be given within [`LAYOUT_BUDGET`].
pub(crate) fn affordable_width(doc: &Document) -> usize {
    (LAYOUT_BUDGET / doc.elements.max(1)).clamp(NARROWEST, WIDEST)
}

/// html2text's lines at `width`, or laid out wider where something cannot fit (the lines
/// are cut to the width afterwards); `None` when there is nothing to lay out. Tables that
/// fit no affordable width are read cell by cell, as one column.
pub(crate) fn tagged_lines(
    doc: &Document,
    width: usize,
    markdown: bool,
) -> Option<Vec<TaggedLine<Vec<Mark>>>> {
    let Body::Tree(tree) = &doc.body else {
        return None;
    };
    let widest = affordable_width(doc).max(width);
    // Not html2text's own overflow mode: it miscounts overflowing lines.
    let mut layout_width = width;
    loop {
        match config(markdown).render_to_lines((**tree).clone(), layout_width) {
            Ok(lines) => return Some(lines),
            Err(html2text::Error::TooNarrow) if layout_width < widest => {
                layout_width = (layout_width * 2).clamp(16, widest);
            }
            Err(html2text::Error::TooNarrow) => {
                return config(markdown)
                    .raw_mode(true)
                    .render_to_lines((**tree).clone(), width)
                    .ok();
            }
            Err(_) => return None,
        }
    }
}

/// True when a line has no text but white space (outside code, where spaces count).
fn is_blank(line: &TaggedLine<Vec<Mark>>) -> bool {
    line.tagged_strings()
        .all(|t| t.s.trim().is_empty() && !t.tag.contains(&Mark::Pre))
}

/// The lines without blank lines at the start or the end, and at most one blank in a row.
pub(crate) fn tidy_lines(
    lines: Vec<TaggedLine<Vec<Mark>>>,
) -> impl Iterator<Item = Option<TaggedLine<Vec<Mark>>>> {
    let mut pending_blank = false;
    let mut started = false;
    lines
        .into_iter()
        .filter_map(move |line| {
            if is_blank(&line) {
                pending_blank = started;
                return None;
            }
            let blank_before = std::mem::take(&mut pending_blank);
            started = true;
            Some(if blank_before {
                vec![None, Some(line)]
            } else {
                vec![Some(line)]
            })
        })
        .flatten()
}

impl Document {
    /// Word-wrapped lines for `width` columns: list markers, styled headings and links,
    /// code, tables, rules, at most one blank line in a row. No line is wider than `width`
    /// display columns.
    pub fn wrap(&self, width: u16) -> Vec<Line<'static>> {
        if width == 0 {
            return Vec::new();
        }
        let width = width as usize;
        match &self.body {
            Body::Empty => Vec::new(),
            Body::Plain(text) => {
                let mut lines = wrap_plain(text, width);
                if self.notice.is_some() {
                    // The notice's lines, up to the blank line after it.
                    let style = Style::new().fg(prose::DIM).add_modifier(Modifier::ITALIC);
                    for line in lines.iter_mut().take_while(|l| l.width() > 0) {
                        line.style = style;
                    }
                }
                lines
            }
            Body::Tree(_) => {
                let Some(lines) = tagged_lines(self, width, false) else {
                    return Vec::new();
                };
                tidy_lines(lines)
                    .map(|line| match line {
                        None => Line::default(),
                        Some(line) => to_line(&line, width),
                    })
                    .collect()
            }
        }
    }
}

/// A line's pieces with the view's list bullets and quote bars: html2text's prefixes are
/// ASCII (`- `, `> `) as it counts their bytes as columns; the view draws `• ` and `│ `.
pub(crate) fn view_pieces(line: &TaggedLine<Vec<Mark>>) -> Vec<(String, Vec<Mark>)> {
    let mut pieces: Vec<(String, Vec<Mark>)> = line
        .tagged_strings()
        .map(|t| (t.s.clone(), t.tag.clone()))
        .collect();
    'line: for (text, tags) in pieces.iter_mut() {
        if tags.contains(&Mark::Pre) {
            break;
        }
        let mut out = String::with_capacity(text.len() + 4);
        let mut rest = text.as_str();
        let mut done = false;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix(' ') {
                out.push(' ');
                rest = r;
            } else if let Some(r) = rest.strip_prefix("> ") {
                out.push_str("│ ");
                rest = r;
            } else {
                if let Some(r) = rest.strip_prefix("- ") {
                    out.push_str("• ");
                    rest = r;
                }
                done = true;
                break;
            }
        }
        out.push_str(rest);
        *text = out;
        if done {
            break 'line;
        }
    }
    pieces
}

/// One of html2text's lines as a ratatui line, cut to `width`.
fn to_line(line: &TaggedLine<Vec<Mark>>, width: usize) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for (text, tags) in view_pieces(line) {
        if text.is_empty() {
            continue;
        }
        let style = style_of(&tags);
        if tags.contains(&Mark::Rule) {
            let n = width.saturating_sub(used);
            spans.push(Span::styled("─".repeat(n), style));
            used += n;
            continue;
        }
        // Terminals show a no-break space as a space; tests and copies want the space.
        let text = text.replace('\u{A0}', " ");
        let w = text.width();
        if used + w <= width {
            used += w;
            spans.push(Span::styled(text, style));
            continue;
        }
        // Cut at the width: html2text may overflow where nothing narrower fits.
        let mut cut = String::new();
        for g in text.graphemes(true) {
            let cw = g.width();
            if used + cw > width {
                break;
            }
            used += cw;
            cut.push_str(g);
        }
        if !cut.is_empty() {
            spans.push(Span::styled(cut, style));
        }
        break;
    }
    Line::from(spans)
}

/// Most lines of plain text laid out: a fallback page can hold megabytes of text, more
/// than anyone scrolls through; the rest stays in the copy and the export.
const MAX_PLAIN_LINES: usize = 10_000;

/// Plain text wrapped at spaces, words longer than a line broken.
fn wrap_plain(text: &str, width: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(para) = next_line(&mut rest) {
        wrap_paragraph(para, width, &mut out);
        if out.len() >= MAX_PLAIN_LINES {
            out.truncate(MAX_PLAIN_LINES);
            let more =
                "… The rest of this text is not shown here; copy or export it to read it all.";
            wrap_paragraph(more, width, &mut out);
            break;
        }
    }
    out
}

/// One paragraph of plain text, wrapped at spaces, words longer than a line broken.
fn wrap_paragraph(para: &str, width: usize, out: &mut Vec<Line<'static>>) {
    {
        let mut line = String::new();
        let mut used = 0;
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            if out.len() > MAX_PLAIN_LINES {
                return;
            }
            let ww = if word.is_ascii() {
                word.len()
            } else {
                word.width()
            };
            if used > 0 && used + 1 + ww <= width {
                line.push(' ');
                line.push_str(word);
                used += 1 + ww;
                continue;
            }
            if used > 0 {
                out.push(Line::from(std::mem::take(&mut line)));
                used = 0;
            }
            if ww <= width {
                line.push_str(word);
                used = ww;
                continue;
            }
            // By grapheme: a flag or a ZWJ sequence is never split across lines.
            for g in word.graphemes(true) {
                let cw = g.width();
                if used + cw > width && used > 0 {
                    out.push(Line::from(std::mem::take(&mut line)));
                    used = 0;
                }
                if cw <= width {
                    line.push_str(g);
                    used += cw;
                }
            }
        }
        out.push(Line::from(line));
    }
}

/// The next line of `rest` (without its `\n`), `None` at the end.
fn next_line<'a>(rest: &mut &'a str) -> Option<&'a str> {
    if rest.is_empty() {
        return None;
    }
    let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
    let line = &rest[..end];
    *rest = rest.get(end + 1..).unwrap_or("");
    Some(line)
}

/// Keeps the lines of the last width asked for, so redraws without a resize cost nothing.
#[derive(Debug, Default, Clone)]
pub struct WrappedCache {
    width: Option<u16>,
    lines: Vec<Line<'static>>,
}

impl WrappedCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The document's lines at `width`, re-wrapped only when the width changed.
    pub fn lines(&mut self, doc: &Document, width: u16) -> &[Line<'static>] {
        if self.width != Some(width) {
            self.lines = doc.wrap(width);
            self.width = Some(width);
        }
        &self.lines
    }

    /// Forget the cached lines (call when the document changes).
    pub fn invalidate(&mut self) {
        self.width = None;
        self.lines.clear();
    }
}

#[cfg(test)]
mod grapheme_tests {
    use super::*;

    #[test]
    fn flags_zwj_sequences_and_combining_marks_stay_whole_within_the_width() {
        // A word too long for the line, made of clusters of several code points each.
        let word = "🇩🇪🇫🇷👨‍👩‍👧‍👦e\u{301}\u{302}🏳️‍🌈".repeat(6);
        for width in [3, 4, 5, 7] {
            let lines = wrap_plain(&word, width);
            let mut again = String::new();
            for line in &lines {
                assert!(line.width() <= width, "{width}: {line:?}");
                for span in &line.spans {
                    again.push_str(&span.content);
                }
            }
            assert_eq!(again, word, "nothing lost, every cluster whole");
            for line in &lines {
                let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                assert!(
                    !text.starts_with('\u{200d}') && !text.starts_with('\u{301}'),
                    "{text:?}"
                );
            }
        }
    }
}
