//! One pass from tokens to a [`Document`].

use std::collections::HashMap;

use unicode_width::UnicodeWidthStr;

use super::entities::{Decoded, decode, decode_all};
use super::links::{host_of, resolve_href};
use super::tokenizer::{Attrs, Token, Tokenizer};
use super::{Block, BlockKind, Document, Link, NO_LINK, RenderOptions, Run, Span32, flag};

/// How far down the open-element stack an end tag looks for its start tag. Bounds the work
/// on tag soup with thousands of unclosed elements.
const END_TAG_SEARCH: usize = 512;

/// Deepest nesting of list items, quotes and indents that still indents.
const MAX_NESTING: usize = 32;

/// Tags the builder treats specially.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    P,
    /// Block without a blank line around it: div, section, ...
    Div,
    Heading(u8),
    Ul,
    Ol,
    Li,
    Pre,
    Blockquote,
    Hr,
    Br,
    Table,
    Tr,
    Td,
    Th,
    Caption,
    Dl,
    Dt,
    Dd,
    Figure,
    Figcaption,
    Bold,
    Italic,
    Code,
    A,
    Strike,
    Underline,
    /// Superscript: footnote numbers in chat answers, shown as `[n]`.
    Sup,
    Img,
    /// Interactive or embedded element dropped with its content.
    Skip,
    /// Element without content or end tag (meta, link, input, ...).
    Void,
    Svg,
    Textarea,
    Other,
}

fn classify(name: &[u8]) -> Tag {
    match name {
        b"p" => Tag::P,
        b"div" | b"section" | b"article" | b"header" | b"footer" | b"main" | b"nav" | b"aside"
        | b"address" | b"details" | b"summary" | b"form" | b"fieldset" | b"legend" | b"center"
        | b"hgroup" | b"search" | b"body" | b"html" | b"tbody" | b"thead" | b"tfoot" | b"menu" => {
            Tag::Div
        }
        b"h1" => Tag::Heading(1),
        b"h2" => Tag::Heading(2),
        b"h3" => Tag::Heading(3),
        b"h4" => Tag::Heading(4),
        b"h5" => Tag::Heading(5),
        b"h6" => Tag::Heading(6),
        b"ul" => Tag::Ul,
        b"ol" => Tag::Ol,
        b"li" => Tag::Li,
        b"pre" | b"listing" | b"plaintext" => Tag::Pre,
        b"blockquote" => Tag::Blockquote,
        b"hr" => Tag::Hr,
        b"br" => Tag::Br,
        b"table" => Tag::Table,
        b"tr" => Tag::Tr,
        b"td" => Tag::Td,
        b"th" => Tag::Th,
        b"caption" => Tag::Caption,
        b"dl" => Tag::Dl,
        b"dt" => Tag::Dt,
        b"dd" => Tag::Dd,
        b"figure" => Tag::Figure,
        b"figcaption" => Tag::Figcaption,
        b"strong" | b"b" => Tag::Bold,
        b"em" | b"i" | b"cite" | b"var" | b"dfn" => Tag::Italic,
        b"code" | b"kbd" | b"samp" | b"tt" => Tag::Code,
        b"a" => Tag::A,
        b"s" | b"del" | b"strike" => Tag::Strike,
        b"u" | b"ins" => Tag::Underline,
        b"sup" => Tag::Sup,
        b"img" => Tag::Img,
        b"button" | b"select" | b"datalist" | b"canvas" | b"video" | b"audio" | b"object"
        | b"iframe" | b"script" | b"style" | b"noscript" | b"template" | b"title" | b"math"
        | b"noembed" | b"noframes" | b"xmp" | b"dialog" => Tag::Skip,
        b"area" | b"base" | b"col" | b"embed" | b"input" | b"link" | b"meta" | b"source"
        | b"track" | b"wbr" | b"param" | b"keygen" => Tag::Void,
        b"svg" => Tag::Svg,
        b"textarea" => Tag::Textarea,
        _ => Tag::Other,
    }
}

/// Lower-cased, length-capped tag name used to match end tags with start tags.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    len: u8,
    bytes: [u8; 23],
}

impl Key {
    fn new(name: &str) -> Key {
        let mut bytes = [0u8; 23];
        let n = name.len().min(23);
        for (d, s) in bytes.iter_mut().zip(name.as_bytes()[..n].iter()) {
            *d = s.to_ascii_lowercase();
        }
        Key {
            len: n as u8,
            bytes,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

/// What an open element changed, to be undone when it closes.
mod fx {
    pub const HIDDEN: u32 = 1;
    pub const BOLD: u32 = 1 << 1;
    pub const ITALIC: u32 = 1 << 2;
    pub const CODE: u32 = 1 << 3;
    pub const STRIKE: u32 = 1 << 4;
    pub const UNDER: u32 = 1 << 5;
    pub const LINK: u32 = 1 << 6;
    pub const HEADING: u32 = 1 << 7;
    pub const PRE: u32 = 1 << 8;
    pub const LIST: u32 = 1 << 9;
    pub const CONTAINER: u32 = 1 << 10;
    pub const ITEM: u32 = 1 << 11;
    pub const CELL: u32 = 1 << 12;
    pub const ROW: u32 = 1 << 13;
    pub const BREAK_END: u32 = 1 << 14;
    pub const GAP_END: u32 = 1 << 15;
    pub const P: u32 = 1 << 16;
    pub const SUP: u32 = 1 << 17;
}

struct Entry {
    key: Key,
    tag: Tag,
    fx: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ContainerKind {
    Quote,
    Item,
    Indent,
}

struct Container {
    kind: ContainerKind,
    marker: String,
    md_marker: String,
    used: bool,
}

struct List {
    ordered: bool,
    next: i64,
}

struct OpenLink {
    idx: u32,
    text: String,
}

/// Attributes the builder cares about.
#[derive(Default)]
struct AttrInfo<'a> {
    hidden: bool,
    href: Option<&'a str>,
    alt: Option<&'a str>,
    src: Option<&'a str>,
    start: Option<&'a str>,
    value: Option<&'a str>,
}

const HIDDEN_CLASSES: &[&str] = &[
    "sr-only",
    "visually-hidden",
    "cdk-visually-hidden",
    "screen-reader-text",
    "a11y-hidden",
];

fn style_hides(style: &str) -> bool {
    let lower: String = style
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase() as char)
        .collect();
    lower.contains("display:none") || lower.contains("visibility:hidden")
}

fn attr_info(attrs: &str) -> AttrInfo<'_> {
    let mut info = AttrInfo::default();
    if attrs.is_empty() {
        return info;
    }
    for (name, value) in Attrs::new(attrs) {
        let n = name.as_bytes();
        if n.eq_ignore_ascii_case(b"class") {
            if value
                .split_ascii_whitespace()
                .any(|c| HIDDEN_CLASSES.contains(&c))
            {
                info.hidden = true;
            }
        } else if n.eq_ignore_ascii_case(b"style") {
            if (value.contains(':')) && style_hides(value) {
                info.hidden = true;
            }
        } else if n.eq_ignore_ascii_case(b"hidden") || n.eq_ignore_ascii_case(b"popover") {
            // A popover is not displayed until script opens it.
            info.hidden = true;
        } else if n.eq_ignore_ascii_case(b"aria-hidden") {
            if value.trim().eq_ignore_ascii_case("true") {
                info.hidden = true;
            }
        } else if n.eq_ignore_ascii_case(b"href") {
            info.href.get_or_insert(value);
        } else if n.eq_ignore_ascii_case(b"alt") {
            info.alt.get_or_insert(value);
        } else if n.eq_ignore_ascii_case(b"src") {
            info.src.get_or_insert(value);
        } else if n.eq_ignore_ascii_case(b"start") {
            info.start.get_or_insert(value);
        } else if n.eq_ignore_ascii_case(b"value") {
            info.value.get_or_insert(value);
        }
    }
    info
}

#[inline]
fn is_html_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

struct Builder<'o> {
    opts: &'o RenderOptions,
    doc: Document,
    stack: Vec<Entry>,
    hidden: u32,
    bold: u32,
    italic: u32,
    code: u32,
    strike: u32,
    underline: u32,
    link: Option<OpenLink>,
    link_map: HashMap<String, u32>,
    headings: Vec<u8>,
    pre: u32,
    /// The next character is the first inside a `<pre>` (a leading newline is dropped).
    pre_fresh: bool,
    cells: u32,
    rows: u32,
    row_cells: u32,
    table_fresh: bool,
    lists: Vec<List>,
    containers: Vec<Container>,
    containers_ver: u32,
    /// (containers_ver, view rest prefix, markdown rest prefix, quoted) when no marker is pending.
    prefix_cache: Option<(u32, Span32, Span32, bool)>,
    items_open: u32,
    p_open: u32,
    block_open: bool,
    block_text_start: usize,
    pending_space: bool,
    pending_gap: bool,
    drop_first_done: bool,
}

pub(crate) fn build(html: &str, opts: &RenderOptions) -> Document {
    let mut b = Builder {
        opts,
        doc: Document {
            text: String::with_capacity(html.len() / 8),
            runs: Vec::with_capacity(html.len() / 256),
            blocks: Vec::with_capacity(html.len() / 1024),
            prefixes: String::new(),
            links: Vec::new(),
        },
        stack: Vec::with_capacity(64),
        hidden: 0,
        bold: 0,
        italic: 0,
        code: 0,
        strike: 0,
        underline: 0,
        link: None,
        link_map: HashMap::new(),
        headings: Vec::new(),
        pre: 0,
        pre_fresh: false,
        cells: 0,
        rows: 0,
        row_cells: 0,
        table_fresh: false,
        lists: Vec::new(),
        containers: Vec::new(),
        containers_ver: 0,
        prefix_cache: None,
        items_open: 0,
        p_open: 0,
        block_open: false,
        block_text_start: 0,
        pending_space: false,
        pending_gap: false,
        drop_first_done: false,
    };
    for tok in Tokenizer::new(html) {
        match tok {
            Token::Start {
                name,
                attrs,
                self_closing,
            } => b.start(name, attrs, self_closing),
            Token::End { name } => b.end(name),
            Token::Text(t) => {
                if b.hidden == 0 {
                    if b.pre > 0 {
                        b.pre_text(t);
                    } else {
                        b.text(t);
                    }
                }
            }
            Token::RawText(t) => {
                // Only textarea content shows; the rest (script, style, ...) is skipped.
                if b.hidden == 0 && b.stack.last().is_some_and(|e| e.tag == Tag::Textarea) {
                    b.text(t);
                }
            }
        }
    }
    b.finish()
}

impl Builder<'_> {
    fn finish(mut self) -> Document {
        self.pop_to(0);
        self.close_block();
        while self
            .doc
            .blocks
            .last()
            .is_some_and(|b| b.runs.0 == b.runs.1 && b.kind != BlockKind::Rule)
        {
            self.doc.blocks.pop();
        }
        for l in &mut self.doc.links {
            if l.text.is_empty() {
                l.text = host_of(&l.url).to_owned();
            }
        }
        self.doc
    }

    fn flags(&self) -> u16 {
        let mut f = 0;
        if self.bold > 0 {
            f |= flag::BOLD;
        }
        if self.italic > 0 {
            f |= flag::ITALIC;
        }
        if self.code > 0 {
            f |= flag::CODE;
        }
        if self.strike > 0 {
            f |= flag::STRIKE;
        }
        if self.underline > 0 {
            f |= flag::UNDERLINE;
        }
        if self.link.is_some() {
            f |= flag::LINK;
        }
        f
    }

    // ---- blocks -------------------------------------------------------------------------

    fn prefixes(&mut self) -> (Span32, Span32, Span32, Span32, bool) {
        let pending_marker = self.containers.iter().any(|c| !c.used);
        if !pending_marker
            && let Some((ver, view, md, quoted)) = self.prefix_cache
            && ver == self.containers_ver
        {
            return (view, view, md, md, quoted);
        }
        let buf = &mut self.doc.prefixes;
        let quoted = self
            .containers
            .iter()
            .any(|c| c.kind == ContainerKind::Quote);
        let mut spans = [(0u32, 0u32); 4];
        for (k, span) in spans.iter_mut().enumerate() {
            let start = buf.len();
            let first = k % 2 == 0;
            let md = k >= 2;
            for c in &self.containers {
                match c.kind {
                    ContainerKind::Quote => buf.push_str(if md { "> " } else { "│ " }),
                    ContainerKind::Item | ContainerKind::Indent => {
                        let m = if md { &c.md_marker } else { &c.marker };
                        if first && !c.used {
                            buf.push_str(m);
                        } else {
                            let w = m.width();
                            buf.extend(std::iter::repeat_n(' ', w));
                        }
                    }
                }
            }
            *span = (start as u32, buf.len() as u32);
        }
        for c in &mut self.containers {
            c.used = true;
        }
        self.prefix_cache = Some((self.containers_ver, spans[1], spans[3], quoted));
        (spans[0], spans[1], spans[2], spans[3], quoted)
    }

    fn ensure_block(&mut self) {
        if self.block_open {
            return;
        }
        let kind = if self.pre > 0 {
            BlockKind::Pre
        } else if let Some(&h) = self.headings.last() {
            BlockKind::Heading(h)
        } else if self.rows > 0 {
            BlockKind::Row
        } else {
            BlockKind::Para
        };
        let table_start = kind == BlockKind::Row && self.table_fresh;
        if kind == BlockKind::Row {
            self.table_fresh = false;
        }
        let gap = self.pending_gap && !self.doc.blocks.is_empty();
        self.pending_gap = false;
        let (pf, pr, mf, mr, quoted) = self.prefixes();
        let r = self.doc.runs.len() as u32;
        self.doc.blocks.push(Block {
            kind,
            runs: (r, r),
            prefix_first: pf,
            prefix_rest: pr,
            md_first: mf,
            md_rest: mr,
            gap,
            quoted,
            table_start,
        });
        self.block_open = true;
        self.block_text_start = self.doc.text.len();
        self.pending_space = false;
    }

    fn close_block(&mut self) {
        if !self.block_open {
            return;
        }
        self.block_open = false;
        let Some(block) = self.doc.blocks.last_mut() else {
            return;
        };
        if block.kind == BlockKind::Pre {
            // Drop trailing newlines.
            let first_run = block.runs.0 as usize;
            while self.doc.runs.len() > first_run {
                let last = self.doc.runs.last_mut().expect("non-empty");
                let s = &self.doc.text[last.start as usize..last.end as usize];
                let trimmed = s.trim_end_matches('\n').len() as u32;
                last.end = last.start + trimmed;
                if last.end == last.start {
                    self.doc.runs.pop();
                } else {
                    break;
                }
            }
        }
        block.runs.1 = self.doc.runs.len() as u32;
    }

    /// End the current block; `gap` asks for a blank line before the next one.
    fn break_block(&mut self, gap: bool) {
        if self.cells > 0 {
            // Inside a table cell everything stays on the row's line.
            if self.block_open {
                self.pending_space = true;
            }
            return;
        }
        if gap && self.items_open == 0 {
            self.pending_gap = true;
        }
        self.close_block();
    }

    fn ensure_run(&mut self, flags: u16) {
        let link = self.link.as_ref().map_or(NO_LINK, |l| l.idx);
        let len = self.doc.text.len() as u32;
        let first_run = self.doc.blocks.last().map_or(0, |b| b.runs.0) as usize;
        if self.doc.runs.len() > first_run
            && let Some(last) = self.doc.runs.last()
            && last.flags == flags
            && last.link == link
            && last.end == len
        {
            return;
        }
        self.doc.runs.push(Run {
            start: len,
            end: len,
            flags,
            link,
        });
    }

    #[inline]
    fn extend_run(&mut self) {
        let len = self.doc.text.len() as u32;
        if let Some(last) = self.doc.runs.last_mut() {
            last.end = len;
        }
    }

    /// Append a piece of collapsed text (no whitespace inside, except non-breaking).
    fn word(&mut self, s: &str, extra: u16) {
        self.ensure_block();
        let flags = self.flags() | extra;
        if self.pending_space && self.doc.text.len() > self.block_text_start {
            self.ensure_run(flags & !(flag::LINK | flag::UNDERLINE | flag::STRIKE));
            self.doc.text.push(' ');
            self.extend_run();
            if let Some(l) = &mut self.link
                && !l.text.is_empty()
            {
                l.text.push(' ');
            }
        }
        self.pending_space = false;
        self.ensure_run(flags);
        // U+FE0F (emoji presentation) is dropped too: terminals disagree on whether it makes
        // "⚙️" two columns wide, and a disagreement shifts everything right of it.
        let needs_filter = s
            .bytes()
            .any(|b| b < 0x20 || b == 0x7f || b == 0xC2 || b == 0xEF);
        let keep = |c: &char| !c.is_control() && *c != '\u{FE0F}';
        if needs_filter {
            self.doc.text.extend(s.chars().filter(keep));
        } else {
            self.doc.text.push_str(s);
        }
        self.extend_run();
        if let Some(l) = &mut self.link {
            if needs_filter {
                l.text.extend(s.chars().filter(keep));
            } else {
                l.text.push_str(s);
            }
        }
    }

    /// Text outside `<pre>`: whitespace collapsed, character references decoded.
    fn text(&mut self, raw: &str) {
        let b = raw.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if is_html_ws(c) {
                self.pending_space = true;
                i += 1;
            } else if c == b'&' {
                match decode(&raw[i..]) {
                    Decoded::Char(ch, n) => {
                        i += n;
                        if ch.is_ascii() && is_html_ws(ch as u8) {
                            self.pending_space = true;
                        } else {
                            let mut buf = [0u8; 4];
                            self.word(ch.encode_utf8(&mut buf), 0);
                        }
                    }
                    Decoded::Nothing(n) => i += n,
                    Decoded::Literal => {
                        self.word("&", 0);
                        i += 1;
                    }
                }
            } else {
                let start = i;
                while i < b.len() && !is_html_ws(b[i]) && b[i] != b'&' {
                    i += 1;
                }
                self.word(&raw[start..i], 0);
            }
        }
    }

    /// Text inside `<pre>`: verbatim, tabs expanded, references decoded.
    fn pre_text(&mut self, raw: &str) {
        let decoded;
        let s = if raw.contains('&') {
            decoded = decode_all(raw);
            decoded.as_str()
        } else {
            raw
        };
        if s.is_empty() {
            return;
        }
        let mut s = s;
        if self.pre_fresh {
            self.pre_fresh = false;
            s = s
                .strip_prefix("\r\n")
                .or_else(|| s.strip_prefix('\n'))
                .unwrap_or(s);
            if s.is_empty() {
                return;
            }
        }
        self.ensure_block();
        let flags = self.flags();
        self.ensure_run(flags);
        for ch in s.chars() {
            match ch {
                '\n' => self.doc.text.push('\n'),
                '\t' => self.doc.text.push_str("    "),
                c if c.is_control() => {}
                c => self.doc.text.push(c),
            }
        }
        self.extend_run();
        if let Some(l) = &mut self.link {
            l.text.push_str(s);
        }
    }

    // ---- tags ---------------------------------------------------------------------------

    fn push(&mut self, key: Key, tag: Tag, fx: u32) {
        self.stack.push(Entry { key, tag, fx });
    }

    fn find_open(&self, pred: impl Fn(Tag) -> Option<bool>) -> Option<usize> {
        // pred: Some(true) = found, Some(false) = boundary (stop), None = keep looking.
        let lo = self.stack.len().saturating_sub(END_TAG_SEARCH);
        for i in (lo..self.stack.len()).rev() {
            match pred(self.stack[i].tag) {
                Some(true) => return Some(i),
                Some(false) => return None,
                None => {}
            }
        }
        None
    }

    fn pop_to(&mut self, pos: usize) {
        while self.stack.len() > pos {
            let e = self.stack.pop().expect("non-empty");
            self.undo(e.fx);
        }
    }

    fn close_p(&mut self) {
        if self.p_open == 0 {
            return;
        }
        if let Some(pos) = self.find_open(|t| match t {
            Tag::P => Some(true),
            Tag::Td | Tag::Th | Tag::Table | Tag::Skip | Tag::Li => Some(false),
            _ => None,
        }) {
            self.pop_to(pos);
        }
    }

    fn undo(&mut self, fx: u32) {
        if fx == 0 {
            return;
        }
        if fx & fx::HIDDEN != 0 {
            self.hidden -= 1;
            return;
        }
        if fx & fx::LINK != 0 {
            self.finish_link();
        }
        if fx & fx::BOLD != 0 {
            self.bold -= 1;
        }
        if fx & fx::ITALIC != 0 {
            self.italic -= 1;
        }
        if fx & fx::CODE != 0 {
            self.code -= 1;
        }
        if fx & fx::STRIKE != 0 {
            self.strike -= 1;
        }
        if fx & fx::UNDER != 0 {
            self.underline -= 1;
        }
        if fx & fx::SUP != 0 {
            self.pending_space = false;
            self.word("]", 0);
        }
        if fx & fx::CELL != 0 {
            self.cells -= 1;
        }
        if fx & fx::HEADING != 0 {
            self.headings.pop();
            self.break_block(true);
        }
        if fx & fx::PRE != 0 {
            self.close_block();
            self.pre -= 1;
        }
        if fx & fx::P != 0 {
            self.p_open -= 1;
        }
        if fx & fx::ROW != 0 {
            self.break_block(false);
            self.rows -= 1;
        }
        if fx & fx::BREAK_END != 0 {
            self.break_block(false);
        }
        if fx & fx::GAP_END != 0 {
            self.break_block(true);
        }
        if fx & fx::CONTAINER != 0 {
            self.break_block(false);
            self.containers.pop();
            self.containers_ver += 1;
        }
        if fx & fx::ITEM != 0 {
            self.items_open -= 1;
        }
        if fx & fx::LIST != 0 {
            self.lists.pop();
            self.break_block(true);
        }
    }

    fn finish_link(&mut self) {
        let Some(l) = self.link.take() else { return };
        let text = l.text.trim();
        let link = &mut self.doc.links[l.idx as usize];
        if link.text.is_empty() && !text.is_empty() {
            link.text = text.to_owned();
        }
        if self.opts.number_links && self.hidden == 0 {
            self.ensure_block();
            let flags = flag::LINKNUM;
            self.ensure_run(flags);
            let n = l.idx + 1;
            if self.doc.text.len() > self.block_text_start {
                self.doc.text.push(' ');
            }
            use std::fmt::Write;
            let _ = write!(self.doc.text, "[{n}]");
            self.extend_run();
        }
    }

    fn start(&mut self, name: &str, attrs: &str, self_closing: bool) {
        let key = Key::new(name);
        let tag = classify(key.as_bytes());
        if matches!(tag, Tag::Void) || matches!(tag, Tag::Svg) && self_closing {
            return;
        }
        if self.hidden > 0 {
            if !matches!(tag, Tag::Br | Tag::Hr | Tag::Img) {
                self.push(key, tag, 0);
            }
            return;
        }
        let info = attr_info(attrs);
        let mut hidden = info.hidden || matches!(tag, Tag::Skip | Tag::Svg);
        if !hidden
            && !self.drop_first_done
            && let Some(d) = self.opts.drop_first
            && d.as_bytes().eq_ignore_ascii_case(key.as_bytes())
        {
            self.drop_first_done = true;
            hidden = true;
        }
        if hidden {
            if !matches!(tag, Tag::Br | Tag::Hr | Tag::Img) {
                self.hidden += 1;
                self.push(key, tag, fx::HIDDEN);
            }
            return;
        }
        let fx = match tag {
            Tag::Br => {
                self.br();
                return;
            }
            Tag::Hr => {
                self.close_p();
                self.break_block(true);
                if self.cells == 0 {
                    self.ensure_block();
                    if let Some(b) = self.doc.blocks.last_mut() {
                        b.kind = BlockKind::Rule;
                    }
                    self.close_block();
                    self.break_block(true);
                }
                return;
            }
            Tag::Img => {
                let alt = info.alt.map(decode_all).unwrap_or_default();
                let alt = alt.trim();
                let data = info.src.is_some_and(|s| {
                    s.trim_start()
                        .get(..5)
                        .is_some_and(|p| p.eq_ignore_ascii_case("data:"))
                });
                if !alt.is_empty() && !data {
                    let shown = format!(
                        "[image: {}]",
                        alt.split_whitespace().collect::<Vec<_>>().join(" ")
                    );
                    let link_text_len = self.link.as_ref().map(|l| l.text.len());
                    self.word(&shown, flag::IMAGE);
                    // In link text, the alt stands for itself.
                    if let (Some(l), Some(len)) = (&mut self.link, link_text_len) {
                        l.text.truncate(len);
                        if !l.text.is_empty() && !l.text.ends_with(' ') {
                            l.text.push(' ');
                        }
                        l.text.push_str(alt);
                    }
                }
                return;
            }
            Tag::P => {
                self.close_p();
                self.break_block(true);
                self.p_open += 1;
                fx::P | fx::GAP_END
            }
            Tag::Div => {
                if matches!(
                    key.as_bytes(),
                    b"div"
                        | b"section"
                        | b"article"
                        | b"header"
                        | b"footer"
                        | b"main"
                        | b"nav"
                        | b"aside"
                        | b"address"
                        | b"details"
                        | b"form"
                        | b"fieldset"
                        | b"center"
                        | b"menu"
                ) {
                    self.close_p();
                }
                self.break_block(false);
                fx::BREAK_END
            }
            Tag::Heading(n) => {
                self.close_p();
                self.break_block(true);
                self.headings.push(n);
                fx::HEADING
            }
            Tag::Ul | Tag::Ol => {
                self.close_p();
                self.break_block(true);
                let start = info
                    .start
                    .and_then(|s| s.trim().parse::<i64>().ok())
                    .unwrap_or(1);
                self.lists.push(List {
                    ordered: tag == Tag::Ol,
                    next: start,
                });
                fx::LIST
            }
            Tag::Li => {
                if let Some(pos) = self.find_open(|t| match t {
                    Tag::Li => Some(true),
                    Tag::Ul | Tag::Ol | Tag::Table | Tag::Td | Tag::Th => Some(false),
                    _ => None,
                }) {
                    self.pop_to(pos);
                }
                self.break_block(false);
                let depth = self.lists.len();
                let value = info.value.and_then(|v| v.trim().parse::<i64>().ok());
                let (marker, md_marker) = match self.lists.last_mut() {
                    Some(l) if l.ordered => {
                        let n = value.unwrap_or(l.next);
                        l.next = n.saturating_add(1);
                        (format!("{n}. "), format!("{n}. "))
                    }
                    _ => {
                        let b = match depth {
                            0 | 1 => "• ",
                            2 => "◦ ",
                            _ => "▪ ",
                        };
                        (b.to_owned(), "- ".to_owned())
                    }
                };
                self.items_open += 1;
                fx::ITEM
                    | self.push_container(Container {
                        kind: ContainerKind::Item,
                        marker,
                        md_marker,
                        used: false,
                    })
            }
            Tag::Pre => {
                self.close_p();
                self.break_block(true);
                self.pre += 1;
                self.pre_fresh = true;
                fx::PRE | fx::GAP_END
            }
            Tag::Blockquote => {
                self.close_p();
                self.break_block(true);
                fx::GAP_END
                    | self.push_container(Container {
                        kind: ContainerKind::Quote,
                        marker: String::new(),
                        md_marker: String::new(),
                        used: true,
                    })
            }
            Tag::Table => {
                self.close_p();
                self.break_block(true);
                self.table_fresh = true;
                fx::GAP_END
            }
            Tag::Tr => {
                if let Some(pos) = self.find_open(|t| match t {
                    Tag::Tr => Some(true),
                    Tag::Table => Some(false),
                    _ => None,
                }) {
                    self.pop_to(pos);
                }
                self.break_block(false);
                self.rows += 1;
                self.row_cells = 0;
                fx::ROW
            }
            Tag::Td | Tag::Th => {
                if let Some(pos) = self.find_open(|t| match t {
                    Tag::Td | Tag::Th => Some(true),
                    Tag::Tr | Tag::Table => Some(false),
                    _ => None,
                }) {
                    self.pop_to(pos);
                }
                if self.row_cells > 0 {
                    self.ensure_block();
                    self.ensure_run(flag::SEP);
                    self.doc.text.push_str(" │ ");
                    self.extend_run();
                    self.pending_space = false;
                }
                self.row_cells += 1;
                self.cells += 1;
                if tag == Tag::Th {
                    self.bold += 1;
                    fx::CELL | fx::BOLD
                } else {
                    fx::CELL
                }
            }
            Tag::Caption | Tag::Figcaption => {
                self.break_block(false);
                self.italic += 1;
                fx::ITALIC | fx::BREAK_END
            }
            Tag::Dl | Tag::Figure => {
                self.close_p();
                self.break_block(true);
                fx::GAP_END
            }
            Tag::Dt | Tag::Dd => {
                if let Some(pos) = self.find_open(|t| match t {
                    Tag::Dt | Tag::Dd => Some(true),
                    Tag::Dl => Some(false),
                    _ => None,
                }) {
                    self.pop_to(pos);
                }
                self.break_block(false);
                if tag == Tag::Dt {
                    self.bold += 1;
                    fx::BOLD | fx::BREAK_END
                } else {
                    self.push_container(Container {
                        kind: ContainerKind::Indent,
                        marker: "    ".to_owned(),
                        md_marker: String::new(),
                        used: true,
                    })
                }
            }
            Tag::Bold => {
                self.bold += 1;
                fx::BOLD
            }
            Tag::Italic => {
                self.italic += 1;
                fx::ITALIC
            }
            Tag::Code => {
                self.code += 1;
                fx::CODE
            }
            Tag::Strike => {
                self.strike += 1;
                fx::STRIKE
            }
            Tag::Underline => {
                self.underline += 1;
                fx::UNDER
            }
            Tag::Sup => {
                // A footnote mark reads "decide.[6]", not "decide.6".
                self.word("[", 0);
                fx::SUP
            }
            Tag::A => {
                // An <a> inside an open <a> ends the outer one's text.
                self.finish_link();
                match info.href.and_then(resolve_href) {
                    Some(url) => {
                        let idx = match self.link_map.get(&url) {
                            Some(&i) => i,
                            None => {
                                let i = self.doc.links.len() as u32;
                                self.link_map.insert(url.clone(), i);
                                self.doc.links.push(Link {
                                    url,
                                    text: String::new(),
                                });
                                i
                            }
                        };
                        self.link = Some(OpenLink {
                            idx,
                            text: String::new(),
                        });
                        fx::LINK
                    }
                    None => 0,
                }
            }
            Tag::Void | Tag::Skip | Tag::Svg | Tag::Textarea | Tag::Other => 0,
        };
        self.push(key, tag, fx);
    }

    /// Open a list item, quote or indent; beyond [`MAX_NESTING`] levels nothing more is
    /// indented (keeps prefixes, and their cost per block, bounded on tag soup).
    fn push_container(&mut self, c: Container) -> u32 {
        if self.containers.len() >= MAX_NESTING {
            return 0;
        }
        self.containers.push(c);
        self.containers_ver += 1;
        fx::CONTAINER
    }

    fn br(&mut self) {
        if self.pre > 0 {
            self.pre_text("\n");
        } else if self.cells > 0 {
            self.pending_space = true;
        } else if self.block_open {
            self.close_block();
        } else if let Some(last) = self.doc.blocks.last() {
            if self.pending_gap || last.runs.0 == last.runs.1 && last.kind != BlockKind::Rule {
                // Already blank: one blank line is enough.
                self.pending_gap = true;
            } else {
                self.ensure_block();
                self.close_block();
            }
        }
    }

    fn end(&mut self, name: &str) {
        let key = Key::new(name);
        if key.as_bytes() == b"br" {
            if self.hidden == 0 {
                self.br();
            }
            return;
        }
        let lo = self.stack.len().saturating_sub(END_TAG_SEARCH);
        if let Some(pos) = (lo..self.stack.len())
            .rev()
            .find(|&i| self.stack[i].key == key)
        {
            self.pop_to(pos);
        }
    }
}

/// The cheap links-only pass: anchors with their text, no hidden-element handling.
pub(crate) fn extract_links(html: &str) -> Vec<Link> {
    let mut links: Vec<Link> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut open: Option<(usize, String)> = None;
    let finish = |open: &mut Option<(usize, String)>, links: &mut Vec<Link>| {
        if let Some((i, text)) = open.take() {
            let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if links[i].text.is_empty() && !t.is_empty() {
                links[i].text = t;
            }
        }
    };
    for tok in Tokenizer::new(html) {
        match tok {
            Token::Start { name, attrs, .. } => {
                if name.eq_ignore_ascii_case("a") {
                    finish(&mut open, &mut links);
                    let info = attr_info(attrs);
                    if let Some(url) = info.href.and_then(resolve_href) {
                        let i = *index.entry(url.clone()).or_insert_with(|| {
                            links.push(Link {
                                url,
                                text: String::new(),
                            });
                            links.len() - 1
                        });
                        open = Some((i, String::new()));
                    }
                } else if name.eq_ignore_ascii_case("img")
                    && let Some((_, text)) = &mut open
                    && let Some(alt) = attr_info(attrs).alt
                {
                    text.push(' ');
                    text.push_str(&decode_all(alt));
                }
            }
            Token::End { name } => {
                if name.eq_ignore_ascii_case("a") {
                    finish(&mut open, &mut links);
                }
            }
            Token::Text(t) => {
                if let Some((_, text)) = &mut open {
                    text.push_str(&decode_all(t));
                }
            }
            Token::RawText(_) => {}
        }
    }
    finish(&mut open, &mut links);
    for l in &mut links {
        if l.text.is_empty() {
            l.text = host_of(&l.url).to_owned();
        }
    }
    links
}
