//! Laying a [`Document`] out at a width.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Block, BlockKind, Document, Run, flag};

/// Display width of a string as ratatui measures a span.
#[inline]
pub(crate) fn str_width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        UnicodeWidthStr::width(s)
    }
}

/// The style of a run in a block.
pub(crate) fn run_style(kind: BlockKind, flags: u16) -> Style {
    let mut st = match kind {
        BlockKind::Heading(1) => Style::new()
            .fg(Color::LightMagenta)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        BlockKind::Heading(2) => Style::new()
            .fg(Color::LightMagenta)
            .add_modifier(Modifier::BOLD),
        BlockKind::Heading(_) => Style::new().add_modifier(Modifier::BOLD),
        BlockKind::Pre => Style::new().fg(Color::Yellow),
        _ => Style::new(),
    };
    if flags == 0 {
        return st;
    }
    if flags & flag::BOLD != 0 {
        st = st.add_modifier(Modifier::BOLD);
    }
    if flags & flag::ITALIC != 0 {
        st = st.add_modifier(Modifier::ITALIC);
    }
    if flags & flag::CODE != 0 {
        st = st.fg(Color::Yellow);
    }
    if flags & flag::STRIKE != 0 {
        st = st.add_modifier(Modifier::CROSSED_OUT);
    }
    if flags & flag::UNDERLINE != 0 {
        st = st.add_modifier(Modifier::UNDERLINED);
    }
    if flags & flag::LINK != 0 {
        st = st.fg(Color::Cyan).add_modifier(Modifier::UNDERLINED);
    }
    if flags & (flag::LINKNUM | flag::SEP) != 0 {
        st = st.fg(Color::DarkGray);
    }
    if flags & flag::IMAGE != 0 {
        st = st.add_modifier(Modifier::ITALIC);
    }
    st
}

/// Byte length of the first user-perceived character of `s` (non-empty): a char with its
/// combining marks, variation selectors, emoji modifiers, ZWJ continuations and flag pairs.
fn cluster_len(s: &str) -> usize {
    let mut it = s.char_indices();
    let (_, first) = it.next().expect("non-empty");
    let mut end = first.len_utf8();
    let mut prev = first;
    let regional = |c: char| ('\u{1F1E6}'..='\u{1F1FF}').contains(&c);
    let mut ri_pair_done = !regional(first);
    for (i, c) in it {
        let joins = prev == '\u{200D}'
            || c == '\u{200D}'
            || ('\u{FE00}'..='\u{FE0F}').contains(&c)
            || ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
            || ('\u{E0020}'..='\u{E007F}').contains(&c)
            || (!ri_pair_done && regional(c))
            || c.width().is_none_or(|w| w == 0);
        if !joins {
            break;
        }
        if regional(c) {
            ri_pair_done = true;
        }
        end = i + c.len_utf8();
        prev = c;
    }
    end
}

/// Shown instead of a character wider than the whole line (a wide char at width 1).
const TOO_WIDE: &str = "…";

/// One line being filled.
struct LineBuf {
    spans: Vec<(String, Style)>,
    width: usize,
}

impl LineBuf {
    fn new() -> Self {
        LineBuf {
            spans: Vec::new(),
            width: 0,
        }
    }

    /// Append `s` of display width `w`. Same-style text merges into the previous span only
    /// across a space, so every span's measured width is the sum of what was added.
    fn push(&mut self, s: &str, style: Style, w: usize) {
        if let Some((last, st)) = self.spans.last_mut()
            && *st == style
            && (s.starts_with(' ') || last.ends_with(' '))
        {
            last.push_str(s);
        } else {
            self.spans.push((s.to_owned(), style));
        }
        self.width += w;
    }
}

/// Emits lines of one block with the right prefixes.
struct Emitter<'a> {
    out: &'a mut Vec<Line<'static>>,
    width: usize,
    prefix_first: (&'a str, usize),
    prefix_rest: (&'a str, usize),
    prefix_style: Style,
    lines_done: usize,
}

impl Emitter<'_> {
    fn avail(&self) -> usize {
        let pw = if self.lines_done == 0 {
            self.prefix_first.1
        } else {
            self.prefix_rest.1
        };
        self.width - pw
    }

    fn emit(&mut self, line: &mut LineBuf) {
        let (p, _) = if self.lines_done == 0 {
            self.prefix_first
        } else {
            self.prefix_rest
        };
        let mut spans: Vec<Span<'static>> = Vec::with_capacity(line.spans.len() + 1);
        if !p.is_empty() {
            spans.push(Span::styled(p.to_owned(), self.prefix_style));
        }
        spans.extend(line.spans.drain(..).map(|(s, st)| Span::styled(s, st)));
        enforce_width(&mut spans, self.width);
        self.out.push(Line::from(spans));
        line.width = 0;
        self.lines_done += 1;
    }
}

/// Last line of defence: whatever the estimates said, a line never exceeds `width`.
fn enforce_width(spans: &mut Vec<Span<'static>>, width: usize) {
    let mut total: usize = spans.iter().map(|s| str_width(&s.content)).sum();
    while total > width {
        let Some(last) = spans.last_mut() else { break };
        let content = last.content.to_mut();
        match content.pop() {
            Some(_) => {
                total = spans.iter().map(|s| str_width(&s.content)).sum();
            }
            None => {
                spans.pop();
            }
        }
    }
}

/// `prefix` cut to at most `max` columns.
fn fit_prefix(prefix: &str, max: usize) -> (&str, usize) {
    let w = str_width(prefix);
    if w <= max {
        return (prefix, w);
    }
    let mut used = 0;
    let mut end = 0;
    for (i, c) in prefix.char_indices() {
        let cw = c.width().unwrap_or(0);
        if used + cw > max {
            break;
        }
        used += cw;
        end = i + c.len_utf8();
    }
    (&prefix[..end], used)
}

impl Document {
    /// Word-wrapped lines for `width` columns: list indents and markers, styled headings,
    /// verbatim (hard-wrapped) code blocks, blank lines between blocks. No line is wider
    /// than `width` display columns.
    pub fn wrap(&self, width: u16) -> Vec<Line<'static>> {
        let mut out = Vec::with_capacity(self.blocks.len() * 2);
        if width == 0 {
            return out;
        }
        let width = width as usize;
        let mut word: Vec<(&str, Style, usize)> = Vec::new();
        for block in &self.blocks {
            if block.gap && !out.is_empty() {
                out.push(Line::default());
            }
            let max_prefix = width / 2;
            let mut em = Emitter {
                out: &mut out,
                width,
                prefix_first: fit_prefix(self.prefix(block.prefix_first), max_prefix),
                prefix_rest: fit_prefix(self.prefix(block.prefix_rest), max_prefix),
                prefix_style: if block.quoted {
                    Style::new().fg(Color::DarkGray)
                } else {
                    Style::new()
                },
                lines_done: 0,
            };
            match block.kind {
                BlockKind::Rule => {
                    let n = em.avail();
                    let mut line = LineBuf::new();
                    line.push(&"─".repeat(n), Style::new().fg(Color::DarkGray), n);
                    em.emit(&mut line);
                }
                BlockKind::Pre => self.wrap_pre(block, &mut em),
                _ => self.wrap_flow(block, &mut em, &mut word),
            }
        }
        out
    }

    fn wrap_pre(&self, block: &Block, em: &mut Emitter<'_>) {
        let style_of = |r: &Run| run_style(BlockKind::Pre, r.flags);
        let mut line = LineBuf::new();
        let mut any = false;
        for run in self.block_runs(block) {
            let style = style_of(run);
            let text = self.run_text(run);
            for (k, piece) in text.split('\n').enumerate() {
                if k > 0 {
                    em.emit(&mut line);
                    any = true;
                }
                place_hard(piece, style, &mut line, em);
            }
        }
        if !line.spans.is_empty() || !any {
            em.emit(&mut line);
        }
    }

    fn wrap_flow<'d>(
        &'d self,
        block: &Block,
        em: &mut Emitter<'_>,
        word: &mut Vec<(&'d str, Style, usize)>,
    ) {
        let mut line = LineBuf::new();
        let mut space: Option<Style> = None;
        word.clear();
        for run in self.block_runs(block) {
            let style = run_style(block.kind, run.flags);
            let mut rest = self.run_text(run);
            loop {
                match rest.find(' ') {
                    Some(i) => {
                        if i > 0 {
                            let p = &rest[..i];
                            word.push((p, style, str_width(p)));
                        }
                        commit_word(word, &mut space, &mut line, em);
                        space = Some(style);
                        rest = &rest[i + 1..];
                    }
                    None => {
                        if !rest.is_empty() {
                            word.push((rest, style, str_width(rest)));
                        }
                        break;
                    }
                }
            }
        }
        commit_word(word, &mut space, &mut line, em);
        if !line.spans.is_empty() || em.lines_done == 0 {
            em.emit(&mut line);
        }
    }
}

/// Place a word (pieces of different styles) on the line, wrapping before it if it does not
/// fit and breaking it if it is wider than a whole line.
fn commit_word(
    word: &mut Vec<(&str, Style, usize)>,
    space: &mut Option<Style>,
    line: &mut LineBuf,
    em: &mut Emitter<'_>,
) {
    if word.is_empty() {
        return;
    }
    let w: usize = word.iter().map(|p| p.2).sum();
    if line.width > 0 {
        if line.width + 1 + w <= em.avail() {
            line.push(" ", space.unwrap_or_default(), 1);
        } else {
            em.emit(line);
        }
    }
    *space = None;
    if line.width + w <= em.avail() {
        for &(p, st, pw) in word.iter() {
            line.push(p, st, pw);
        }
    } else {
        for &(p, st, _) in word.iter() {
            place_hard(p, st, line, em);
        }
    }
    word.clear();
}

/// Place text cluster by cluster, starting new lines as the current one fills.
fn place_hard(text: &str, style: Style, line: &mut LineBuf, em: &mut Emitter<'_>) {
    let mut rest = text;
    // Fast path: the whole piece fits.
    let tw = str_width(text);
    if line.width + tw <= em.avail() {
        if !text.is_empty() {
            line.push(text, style, tw);
        }
        return;
    }
    let mut chunk = String::new();
    let mut chunk_w = 0;
    while !rest.is_empty() {
        let n = cluster_len(rest);
        let cl = &rest[..n];
        rest = &rest[n..];
        let mut cw = str_width(cl);
        let mut cl = cl;
        let avail = em.avail();
        if line.width + chunk_w + cw > avail {
            if !chunk.is_empty() {
                line.push(&chunk, style, chunk_w);
                chunk.clear();
                chunk_w = 0;
            }
            if line.width > 0 {
                em.emit(line);
            }
            if cw > em.avail() {
                cl = TOO_WIDE;
                cw = 1;
            }
        }
        chunk.push_str(cl);
        chunk_w += cw;
    }
    if !chunk.is_empty() {
        line.push(&chunk, style, chunk_w);
    }
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
