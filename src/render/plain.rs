//! The plain-text fallback: tags stripped, entities decoded, one linear pass. Used when a
//! page is too costly to lay out, and for link texts.

use super::links::{LinkList, resolve_href};
use super::{Card, Link, cards};
use crate::html_cost::{skip_raw_text, tag_end};

/// Elements whose content is never text to show.
const SKIPPED: &[&[u8]] = &[
    b"script",
    b"style",
    b"noscript",
    b"template",
    b"title",
    b"textarea",
    b"xmp",
    b"noembed",
    b"noframes",
    b"iframe",
    b"svg",
    b"button",
    b"select",
];

/// Elements that end a line.
fn is_break(name: &[u8]) -> bool {
    matches!(
        name,
        b"p" | b"div"
            | b"br"
            | b"li"
            | b"tr"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"table"
            | b"ul"
            | b"ol"
            | b"dl"
            | b"dt"
            | b"dd"
            | b"blockquote"
            | b"pre"
            | b"hr"
            | b"section"
            | b"article"
            | b"header"
            | b"footer"
            | b"nav"
            | b"main"
            | b"aside"
            | b"figure"
            | b"figcaption"
            | b"address"
            | b"form"
            | b"fieldset"
            | b"details"
            | b"summary"
            | b"caption"
    )
}

/// The text of `html` without its tags: blocks on their own lines, runs of white space
/// collapsed, at most one blank line in a row, every HTML5 entity decoded.
pub(crate) fn strip_tags(html: &str) -> String {
    let b = html.as_bytes();
    let mut raw = String::with_capacity(html.len() / 2);
    let mut i = 0;
    while i < b.len() {
        let Some(off) = memchr::memchr(b'<', &b[i..]) else {
            raw.push_str(&html[i..]);
            break;
        };
        raw.push_str(&html[i..i + off]);
        i += off + 1;
        if b[i..].starts_with(b"!--") {
            i = memchr::memmem::find(&b[i + 3..], b"-->").map_or(b.len(), |e| i + 3 + e + 3);
            continue;
        }
        let closing = b.get(i) == Some(&b'/');
        let name_start = if closing { i + 1 } else { i };
        let name_len = b[name_start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if name_len == 0 && !matches!(b.get(name_start), Some(b'!' | b'?')) {
            // A `<` that starts no tag is text.
            raw.push('<');
            continue;
        }
        let mut lower = [0u8; 16];
        let len = name_len.min(lower.len());
        lower[..len].copy_from_slice(&b[name_start..name_start + len]);
        lower[..len].make_ascii_lowercase();
        let name = &lower[..len];
        i = tag_end(b, name_start + name_len);
        if !closing && SKIPPED.contains(&name) {
            i = skip_raw_text(b, i, name);
            raw.push(' ');
        } else if is_break(name) {
            raw.push('\n');
        } else if matches!(name, b"td" | b"th" | b"img") {
            raw.push(' ');
        }
    }
    let decoded = html_escape::decode_html_entities(&raw);
    tidy(&decoded)
}

/// Most bytes of markup read for one link's text: a link left open runs to the next one.
const MAX_LINK_TEXT_BYTES: usize = 2_048;

/// The links of `html` without parsing it: each `<a href>` and its text (up to its `</a>`,
/// the next `<a`, or [`MAX_LINK_TEXT_BYTES`]), deduplicated by URL, and if `cards` their
/// cards (a line of the text a block). Linear in the page whatever its shape, for pages too
/// costly to parse.
pub(crate) fn scan_links(html: &str, cards: bool) -> (Vec<Link>, Vec<Card>) {
    let b = html.as_bytes();
    let mut links = LinkList::default();
    let mut i = 0;
    while let Some(off) = find_ci(b, i, b"<a") {
        let attrs_start = off + 2;
        i = attrs_start;
        if !b.get(attrs_start).is_some_and(|c| c.is_ascii_whitespace()) {
            continue;
        }
        let text_start = tag_end(b, attrs_start);
        let attrs = &html[attrs_start..text_start];
        i = text_start;
        let Some(url) = attribute(attrs, "href").and_then(|h| resolve_href(&h)) else {
            continue;
        };
        let mut text_end = (text_start + MAX_LINK_TEXT_BYTES).min(b.len());
        while !html.is_char_boundary(text_end) {
            text_end -= 1;
        }
        let text_end = text_start + link_text_len(&b[text_start..text_end]);
        let blocks: Vec<String> = strip_tags(&html[text_start..text_end])
            .lines()
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect();
        let card = cards.then(|| cards::read(&url, attribute(attrs, "title").as_deref(), &blocks));
        links.add(url, blocks.join(" "), card);
    }
    links.into_parts()
}

/// Length of a link's text in `window`: up to its `</a` or the next `<a` (which closes it).
fn link_text_len(window: &[u8]) -> usize {
    let mut at = 0;
    while let Some(off) = memchr::memchr(b'<', &window[at..]) {
        let lt = at + off;
        let name = match window.get(lt + 1) {
            Some(b'/') => lt + 2,
            _ => lt + 1,
        };
        if window
            .get(name)
            .is_some_and(|c| c.eq_ignore_ascii_case(&b'a'))
            && !window.get(name + 1).is_some_and(u8::is_ascii_alphanumeric)
        {
            return lt;
        }
        at = lt + 1;
    }
    window.len()
}

/// The decoded value of the attribute `name` (lower case) in a tag's attribute text.
fn attribute(attrs: &str, name: &str) -> Option<String> {
    // Lower case keeps every byte where it was.
    let lower = attrs.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut from = 0;
    loop {
        let at = from + memchr::memmem::find(&b[from..], name.as_bytes())?;
        from = at + name.len();
        if at > 0 && !b[at - 1].is_ascii_whitespace() {
            continue;
        }
        let rest = attrs[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        let value = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => rest[1..].split(q).next().unwrap_or(""),
            _ => rest
                .split(|c: char| c.is_ascii_whitespace() || c == '>')
                .next()
                .unwrap_or(""),
        };
        return Some(html_escape::decode_html_entities(value).into_owned());
    }
}

/// Index of `needle` (ASCII, starting with `<`, any case after it) in `hay` at or after
/// `from`.
fn find_ci(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let start = at + memchr::memchr(needle[0], hay.get(at..)?)?;
        if hay
            .get(start..start + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
        {
            return Some(start);
        }
        at = start + 1;
    }
}

/// Collapse white space within lines, trim lines, keep at most one blank line in a row.
/// Byte by byte: ASCII white space never occurs inside a multi-byte character.
pub(crate) fn tidy(text: &str) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut space = false;
    let mut newlines = 0;
    for &c in text.as_bytes() {
        match c {
            b' ' | b'\t' | b'\r' | b'\x0c' => space = true,
            b'\n' => {
                newlines += 1;
                space = false;
            }
            _ => {
                if !out.is_empty() {
                    if newlines > 0 {
                        out.push(b'\n');
                        if newlines > 1 {
                            out.push(b'\n');
                        }
                    } else if space {
                        out.push(b' ');
                    }
                }
                newlines = 0;
                space = false;
                out.push(c);
            }
        }
    }
    // Only ASCII bytes were left out, so the rest is still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_decodes() {
        assert_eq!(
            strip_tags(
                "<h1>T&amp;C</h1><script>x<y</script><p>a <b>b</b>&nbsp;c &hearts; &Scaron; \
                 &bigstar; &lt;i&gt;</p>\n\n\n<p>d</p><!-- hidden --><p>1 < 2</p>"
            ),
            "T&C\n\na b\u{A0}c ♥ Š ★ <i>\n\nd\n\n1 < 2"
        );
    }

    #[test]
    fn links_scanned_without_parsing() {
        let (links, cards) = scan_links(
            "<A HREF='/url?q=https://a.example/%3Fx&amp;sa=U'>A <b>one</b></a> <abbr>x</abbr>\
             <a class=x href=https://b.example/>  </a><a href=\"https://a.example/?x\">again</a>\
             <a href=\"#top\">top</a><a name=n>none</a>\
             <a title=\"Boots &amp; more\" href=\"https://c.example/\"><div>C</div><div>c.example</div>\
             <div>Worn in a week, they say.</div></a>",
            true,
        );
        assert_eq!(cards.len(), links.len());
        assert_eq!(cards[0].site, "A one");
        assert!(cards[1].is_bare());
        assert_eq!(
            (cards[2].title.as_str(), cards[2].site.as_str()),
            ("Boots & more", "C")
        );
        assert_eq!(cards[2].snippet, "Worn in a week, they say.");
        let got: Vec<(&str, &str)> = links
            .iter()
            .map(|l| (l.url.as_str(), l.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("https://a.example/?x", "A one"),
                ("https://b.example/", "b.example"),
                (
                    "https://c.example/",
                    "C c.example Worn in a week, they say."
                )
            ]
        );
    }

    #[test]
    fn every_html5_named_entity_decodes() {
        let mut checked = 0;
        for (name, &(a, b)) in html5ever::data::NAMED_ENTITIES.entries() {
            if !name.ends_with(';') {
                continue;
            }
            let expected: String = [a, b]
                .into_iter()
                .filter(|&c| c != 0)
                .filter_map(char::from_u32)
                .collect();
            if expected.chars().any(char::is_whitespace) {
                continue;
            }
            assert_eq!(
                strip_tags(&format!("x&{name}y")),
                format!("x{expected}y"),
                "&{name}"
            );
            checked += 1;
        }
        assert!(checked > 2_000);
    }

    #[test]
    fn unterminated_markup_ends_the_text() {
        assert_eq!(strip_tags("a<!-- open"), "a");
        assert_eq!(strip_tags("a<div class=\"x"), "a");
        assert_eq!(strip_tags("a<script>b"), "a");
    }
}
