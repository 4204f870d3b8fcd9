//! Text that must fit a width: cut at a word (or, for one long word, a grapheme) and ended in
//! `…`, so a reader sees that something was left out. Every view whose line can be longer
//! than its pane goes through here rather than letting the terminal's edge cut a word.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// The mark of text left out.
pub(crate) const ELLIPSIS: &str = "…";

/// A word is cut rather than dropped when going back to the space before it would leave
/// less than this share of the width...
const WORD_CUT_SHARE: usize = 2;

/// ...or would drop more than this many columns of it: a long word (a URL, a path) keeps
/// what fits of it, which says more than the words before it alone.
const WORD_DROP_MOST: usize = 10;

/// Separators left dangling before an ellipsis are dropped with the space before them.
const DANGLING: &[&str] = &["·", "—", "–", "-", "›", "|", ","];

/// One grapheme of a styled line.
#[derive(Clone, Copy)]
struct Piece<'a> {
    text: &'a str,
    style: Style,
    width: usize,
}

impl Piece<'_> {
    fn is_space(&self) -> bool {
        self.text.chars().all(char::is_whitespace)
    }
}

fn pieces<'a>(spans: &'a [Span<'a>]) -> Vec<Piece<'a>> {
    spans
        .iter()
        .flat_map(|span| {
            span.content.graphemes(true).map(|g| Piece {
                text: g,
                style: span.style,
                width: g.width(),
            })
        })
        .collect()
}

fn width_of(pieces: &[Piece<'_>]) -> usize {
    pieces.iter().map(|p| p.width).sum()
}

/// The pieces back as spans, neighbours of one style joined.
fn spans_of(pieces: &[Piece<'_>]) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    for piece in pieces {
        match spans.last_mut() {
            Some(last) if last.style == piece.style => last.content.to_mut().push_str(piece.text),
            _ => spans.push(Span::styled(piece.text.to_string(), piece.style)),
        }
    }
    spans
}

/// How many pieces of `pieces` fill at most `width` columns.
fn fitting(pieces: &[Piece<'_>], width: usize) -> usize {
    let mut used = 0;
    for (i, piece) in pieces.iter().enumerate() {
        if used + piece.width > width {
            return i;
        }
        used += piece.width;
    }
    pieces.len()
}

/// Where to end a row of at most `width` columns when more follows: after the last whole
/// word that fits, unless that leaves too little, then at the last grapheme that fits.
fn row_end(pieces: &[Piece<'_>], width: usize) -> usize {
    let fits = fitting(pieces, width);
    if fits == pieces.len() || pieces[fits].is_space() {
        return fits;
    }
    match pieces[..fits].iter().rposition(Piece::is_space) {
        Some(space)
            if width_of(&pieces[..space]) * WORD_CUT_SHARE >= width
                && width_of(&pieces[space..fits]) <= WORD_DROP_MOST =>
        {
            space
        }
        _ => fits,
    }
}

/// The pieces ended in `…` within `width` columns (as many as fit before it).
fn cut_with_ellipsis(pieces: &[Piece<'_>], width: usize) -> Vec<Span<'static>> {
    if width == 0 {
        return Vec::new();
    }
    let mut end = row_end(pieces, width - 1);
    loop {
        while end > 0 && pieces[end - 1].is_space() {
            end -= 1;
        }
        // "a ·…" reads as a broken separator: "a…".
        if end > 1 && DANGLING.contains(&pieces[end - 1].text) && pieces[end - 2].is_space() {
            end -= 1;
            continue;
        }
        break;
    }
    let style = pieces
        .get(end.saturating_sub(1))
        .map_or_else(Style::default, |p| p.style);
    let mut spans = spans_of(&pieces[..end]);
    spans.push(Span::styled(ELLIPSIS, style));
    spans
}

/// The line whole when it fits `width` columns, else cut at a word and ended in `…`.
/// The line's own style and alignment are kept.
/// A line that fits is returned as it is: tables and lists call this for every cell of
/// every frame.
pub(crate) fn fit_line<'a>(line: Line<'a>, width: u16) -> Line<'a> {
    let width = usize::from(width);
    if line.width() <= width {
        return line;
    }
    let spans = cut_with_ellipsis(&pieces(&line.spans), width);
    let mut fitted = Line::from(spans).style(line.style);
    fitted.alignment = line.alignment;
    fitted
}

/// Plain text whole when it fits `width` columns, else cut at a word and ended in `…`.
pub(crate) fn fit_str(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let span = [Span::raw(text)];
    cut_with_ellipsis(&pieces(&span), width)
        .into_iter()
        .map(|s| s.content.into_owned())
        .collect()
}

/// The line wrapped at words into at most `rows` rows of `width` columns; the last row ends
/// in `…` when text is left over.
pub(crate) fn wrap_lines<'a>(line: Line<'a>, width: u16, rows: usize) -> Vec<Line<'a>> {
    let width = usize::from(width);
    if line.width() <= width && rows > 0 {
        return vec![line];
    }
    let all = pieces(&line.spans);
    let mut rest: &[Piece<'_>] = &all;
    let mut lines = Vec::new();
    while !rest.is_empty() && lines.len() < rows && width > 0 {
        let spans = if width_of(rest) <= width {
            let spans = spans_of(rest);
            rest = &[];
            spans
        } else if lines.len() + 1 == rows {
            let spans = cut_with_ellipsis(rest, width);
            rest = &[];
            spans
        } else {
            // A row that wraps breaks at its last space; only a word longer than the row
            // is split.
            let fits = fitting(rest, width).max(1);
            let mut end = if rest[fits].is_space() {
                fits
            } else {
                match rest[..fits].iter().rposition(Piece::is_space) {
                    Some(space) if space > 0 => space,
                    _ => fits,
                }
            };
            let mut kept = end;
            while kept > 0 && rest[kept - 1].is_space() {
                kept -= 1;
            }
            let spans = spans_of(&rest[..kept]);
            while end < rest.len() && rest[end].is_space() {
                end += 1;
            }
            rest = &rest[end..];
            spans
        };
        lines.push(Line::from(spans).style(line.style));
    }
    lines
}

/// Plain text wrapped at words (runs of white space read as one space) into at most `rows`
/// rows of `width` columns, the last ending in `…` when text is left over.
pub(crate) fn wrap_str(text: &str, width: usize, rows: usize) -> Vec<String> {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let width = u16::try_from(width).unwrap_or(u16::MAX);
    wrap_lines(Line::raw(words), width, rows)
        .into_iter()
        .map(|line| line.spans.into_iter().map(|s| s.content).collect())
        .collect()
}

/// A bordered pane whose title is cut to the pane's `width` (with `…` at a word), so a long
/// title never runs over the corner.
pub(crate) fn titled_block(title: String, width: u16) -> ratatui::widgets::Block<'static> {
    ratatui::widgets::Block::default()
        .borders(ratatui::widgets::Borders::ALL)
        .border_style(super::theme::border())
        .title(fit_line(
            Line::styled(title, super::theme::title()),
            width.saturating_sub(2),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line<'_>) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_line_that_fits_is_left_whole() {
        let line = fit_line(Line::raw("Enter send  Esc back"), 20);
        assert_eq!(text(&line), "Enter send  Esc back");
    }

    #[test]
    fn a_long_line_is_cut_after_a_word_and_marked() {
        let line = fit_line(Line::raw("Enter send  Esc back  Tab next pane"), 24);
        assert_eq!(text(&line), "Enter send  Esc back…");
        assert!(line.width() <= 24);
    }

    #[test]
    fn a_long_word_keeps_what_fits_and_a_separator_is_not_left_dangling() {
        assert_eq!(
            fit_str("https://www.rei.com › best-hiking-boots-of-2026", 36),
            "https://www.rei.com › best-hiking-b…"
        );
        assert_eq!(
            fit_str("perplexity · best boots · DE/Berlin", 26),
            "perplexity · best boots…"
        );
        // A snippet's list dash too; a hyphen inside a word stays.
        assert_eq!(
            fit_str("first, then weight. - Lowa GTX", 22),
            "first, then weight.…"
        );
        assert_eq!(fit_str("a well-made boot", 8), "a well-…");
    }

    #[test]
    fn one_long_word_is_cut_at_a_grapheme() {
        assert_eq!(
            fit_str("https://example.com/a/very/long/path", 12),
            "https://exa…"
        );
        // A wide character is never split: the cut falls before it.
        assert_eq!(fit_str("ab📍📍📍", 5), "ab📍…");
        assert_eq!(fit_str("é́é́é́é́", 3), "é́é́…");
    }

    #[test]
    fn styles_are_kept_up_to_the_cut() {
        let bold = Style::default().add_modifier(ratatui::style::Modifier::BOLD);
        let line = fit_line(
            Line::from(vec![
                Span::styled("Tab", bold),
                Span::raw(" next pane and more"),
            ]),
            14,
        );
        assert_eq!(line.spans[0].style, bold);
        assert_eq!(text(&line), "Tab next pane…");
    }

    #[test]
    fn wrapping_breaks_at_words_and_marks_what_is_left_out() {
        let line = Line::raw("No API token: set VANTAGE_TOKEN or MASSIVE_TOKEN, or press D");
        let rows = wrap_lines(line.clone(), 20, 2);
        let shown: Vec<String> = rows.iter().map(text).collect();
        assert_eq!(shown, ["No API token: set", "VANTAGE_TOKEN or…"]);
        assert_eq!(wrap_lines(line, 80, 2).len(), 1);
        assert_eq!(wrap_str("one  two\nthree", 7, 5), ["one two", "three"]);
        assert_eq!(fit_str("anything", 0), "");
    }
}
