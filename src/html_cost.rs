//! One linear look at the HTML before it is parsed, by anything: html5ever (through
//! html2text or scraper) and html2text are fast on pages as they are, but some shapes cost
//! them far more than their size (deep nesting, piles of unclosed formatting or table
//! elements: the parser walks its stack of open elements and its list of formatting
//! elements on every tag). Within these bounds that walk is short, so parsing takes time
//! linear in the page; past them a view is shown as plain text and a reading of the page
//! (brand names, the AI Overview) is skipped. Every parse of outside HTML passes here first.
//!
//! The bounds come from timing html2text 0.17 on generated pages in the dev profile
//! (dependencies at opt-level 1), where any page must be shown in under 2 s on a thread
//! with a 2 MB stack (a tokio worker's):
//! - nesting: html2text recurses once per level; 600 nested `<div>` fit in 2 MB of stack,
//!   700 overflow it. The live pages nest 30–40 deep.
//! - elements: about 50 µs each (11,000 paragraphs with 22,000 elements: 1.1 s; a table of
//!   20 × 500 cells: 0.47 s). The live Google page has 3,300 outside its scripts.
//! - text: about 0.55 s per MB (a 4 MB text node: 2.2 s). The live Google page has 9 KB.
//! - formatting elements left open are re-opened by the parser in every later block, so
//!   their cost is their number times the blocks after them; real pages leave almost none.
//! - nested tables: 64 take 42 ms, 128 take 0.27 s.

/// Largest page parsed at all (scripts and styles included).
pub const MAX_BYTES: usize = 6 * 1024 * 1024;
/// Most text (outside tags, scripts and styles) laid out.
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;
/// Most elements laid out.
pub const MAX_ELEMENTS: usize = 15_000;
/// Deepest element nesting laid out.
pub const MAX_DEPTH: usize = 256;
/// Most formatting elements (`<b>`, `<a>`, ...) left open at once.
pub const MAX_OPEN_FORMATTING: usize = 32;
/// Most re-openings of unclosed formatting elements (open ones times later elements).
pub const MAX_REOPENED: usize = 40_000;
/// Most tables open at once (nested tables).
pub const MAX_OPEN_TABLES: usize = 32;

/// Why a page is shown as plain text; each reads as the end of "Shown as plain text: …".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooCostly {
    Size(usize),
    Text,
    Elements,
    Depth,
    Formatting,
    Tables,
}

impl TooCostly {
    pub fn notice(self) -> String {
        let what = match self {
            TooCostly::Size(n) => format!(
                "the page is {:.1} MB, more than the {} MB laid out",
                n as f64 / 1_048_576.0,
                MAX_BYTES / 1_048_576
            ),
            TooCostly::Text => format!(
                "it holds more than {} MB of text",
                MAX_TEXT_BYTES / 1_048_576
            ),
            TooCostly::Elements => format!("it has more than {MAX_ELEMENTS} elements"),
            TooCostly::Depth => format!("its elements nest more than {MAX_DEPTH} deep"),
            TooCostly::Formatting => {
                "it leaves formatting elements unclosed across many blocks".to_owned()
            }
            TooCostly::Tables => format!("it nests more than {MAX_OPEN_TABLES} tables"),
        };
        format!("Shown as plain text: {what}, which would take too long to lay out.")
    }
}

/// Elements whose content is raw text up to their end tag.
const RAW_TEXT: &[&[u8]] = &[
    b"script",
    b"style",
    b"textarea",
    b"title",
    b"xmp",
    b"noembed",
    b"noframes",
    b"iframe",
];

/// Elements without an end tag.
const VOID: &[&[u8]] = &[
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta",
    b"source", b"track", b"wbr", b"param", b"keygen",
];

/// Elements whose end tag may be left out; the parser closes them, so they do not nest.
const OPTIONAL_END: &[&[u8]] = &[
    b"p",
    b"li",
    b"dt",
    b"dd",
    b"option",
    b"optgroup",
    b"tr",
    b"td",
    b"th",
    b"tbody",
    b"thead",
    b"tfoot",
    b"colgroup",
    b"caption",
    b"rb",
    b"rt",
    b"rp",
    b"html",
    b"head",
    b"body",
];

/// Elements the parser re-opens after a block boundary while they are unclosed.
const FORMATTING: &[&[u8]] = &[
    b"a", b"b", b"big", b"code", b"em", b"font", b"i", b"nobr", b"s", b"small", b"strike",
    b"strong", b"tt", b"u",
];

/// What the look found in a page that may be parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measures {
    /// Elements (outside scripts and styles): a layout costs about its lines times its
    /// width (html2text pads a table's rows to the table's width, and a table is as wide as
    /// its longest cell), so the layout's width is chosen from them.
    pub elements: usize,
}

/// `Ok` if the page can be converted with its layout within bounded time and memory.
pub fn check(html: &str) -> Result<Measures, TooCostly> {
    if html.len() > MAX_BYTES {
        return Err(TooCostly::Size(html.len()));
    }
    let b = html.as_bytes();
    let mut depth = 0usize;
    let mut formatting = 0usize;
    let mut reopened = 0usize;
    let mut tables = 0usize;
    let mut elements = 0usize;
    let mut text = 0usize;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        text += off;
        if text > MAX_TEXT_BYTES {
            return Err(TooCostly::Text);
        }
        i += off + 1;
        if b[i..].starts_with(b"!--") {
            i = find(b, i + 3, b"-->").map_or(b.len(), |e| e + 3);
            continue;
        }
        let closing = b.get(i) == Some(&b'/');
        let name_start = if closing { i + 1 } else { i };
        let name_end = name_start
            + b[name_start..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
        if name_end == name_start {
            // `<!doctype`, `<?xml`, or a lone `<` in text.
            continue;
        }
        let mut name = [0u8; 16];
        let len = (name_end - name_start).min(name.len());
        for (d, s) in name.iter_mut().zip(&b[name_start..name_start + len]) {
            *d = s.to_ascii_lowercase();
        }
        let name = &name[..len];
        let tag_end = tag_end(b, name_end);
        let self_closing = tag_end >= 2 && b[tag_end - 2] == b'/';
        i = tag_end;
        let is_formatting = FORMATTING.contains(&name);
        if closing {
            if is_formatting {
                formatting = formatting.saturating_sub(1);
            }
            if name == b"table" {
                tables = tables.saturating_sub(1);
            }
            if !OPTIONAL_END.contains(&name) && !VOID.contains(&name) {
                depth = depth.saturating_sub(1);
            }
            continue;
        }
        if RAW_TEXT.contains(&name) {
            i = skip_raw_text(b, i, name);
            continue;
        }
        elements += 1;
        if elements > MAX_ELEMENTS {
            return Err(TooCostly::Elements);
        }
        if self_closing || VOID.contains(&name) {
            continue;
        }
        if is_formatting {
            formatting += 1;
        } else {
            reopened += formatting;
        }
        if formatting > MAX_OPEN_FORMATTING || reopened > MAX_REOPENED {
            return Err(TooCostly::Formatting);
        }
        if name == b"table" {
            tables += 1;
            if tables > MAX_OPEN_TABLES {
                return Err(TooCostly::Tables);
            }
        }
        if !OPTIONAL_END.contains(&name) {
            depth += 1;
            if depth > MAX_DEPTH {
                return Err(TooCostly::Depth);
            }
        }
    }
    if text + (b.len() - i) > MAX_TEXT_BYTES {
        return Err(TooCostly::Text);
    }
    Ok(Measures { elements })
}

/// Index of `needle` in `hay` at or after `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay.get(from..)?, needle).map(|p| p + from)
}

/// Index just past the `>` that ends the tag whose attributes start at `from`, skipping
/// quoted attribute values.
pub fn tag_end(b: &[u8], from: usize) -> usize {
    let mut quote = None;
    for (k, &c) in b[from..].iter().enumerate() {
        match (quote, c) {
            (None, b'"' | b'\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => return from + k + 1,
            _ => {}
        }
    }
    b.len()
}

/// Index just past the end tag of the raw-text element `name` (or the end of input).
pub fn skip_raw_text(b: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(off) = find(b, i, b"</") {
        let start = off + 2;
        let end = start + name.len();
        if b.get(start..end)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
        {
            return tag_end(b, end);
        }
        i = start;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_markup_passes() {
        let page = "<!doctype html><html><head><style>a>b{}</style><script>if (a<b) {}</script>\
                    </head><body><div><p>one<p>two<ul><li>a<li>b</ul>\
                    <table><tr><td>x<td>y</table><img src=x><br/><!-- <div><div> --></div>";
        assert!(check(page).is_ok());
        let many_closed: String = "<div><b>x</b></div>".repeat(MAX_ELEMENTS / 2);
        assert!(check(&many_closed).is_ok());
    }

    #[test]
    fn costly_shapes_are_caught() {
        assert_eq!(check(&"<div>".repeat(MAX_DEPTH + 1)), Err(TooCostly::Depth));
        assert_eq!(
            check(&"<b>".repeat(MAX_OPEN_FORMATTING + 1)),
            Err(TooCostly::Formatting)
        );
        assert_eq!(
            check(&"<table><tr><td>".repeat(MAX_OPEN_TABLES + 1)),
            Err(TooCostly::Tables)
        );
        let big = "x".repeat(MAX_BYTES + 1);
        assert_eq!(check(&big), Err(TooCostly::Size(MAX_BYTES + 1)));
        assert_eq!(check(&"x".repeat(MAX_TEXT_BYTES + 1)), Err(TooCostly::Text));
        assert_eq!(
            check(&"<i></i>".repeat(MAX_ELEMENTS + 1)),
            Err(TooCostly::Elements)
        );
        assert_eq!(
            check(&format!(
                "{}{}",
                "<b>".repeat(MAX_OPEN_FORMATTING),
                "<p>x</p>".repeat(MAX_REOPENED / MAX_OPEN_FORMATTING + 1)
            )),
            Err(TooCostly::Formatting)
        );
        assert!(
            TooCostly::Depth
                .notice()
                .starts_with("Shown as plain text: ")
        );
    }

    #[test]
    fn attributes_with_angle_brackets_do_not_confuse() {
        let page = "<div title=\"a>b\" data-x='<div>'>x</div>".repeat(5_000);
        assert!(check(&page).is_ok());
        // Text inside a script is not text to lay out.
        let page = format!(
            "<script>{}</script><p>x</p>",
            "y".repeat(MAX_TEXT_BYTES * 2)
        );
        assert!(check(&page).is_ok());
    }
}
