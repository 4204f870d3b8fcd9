//! One linear pass before html5ever: the contents of `<script>` elements (nothing shows
//! them) and of `<style>` elements beyond their hiding rules (the only ones used, see
//! [`hiding_rules`]) are left out. html5ever reads raw text one character at a time, and on
//! a search page that text is more than half of the bytes.
//!
//! The page must parse to the same tree otherwise, so the pass follows the tokenizer where it
//! decides what is markup (comments, quoted attribute values, the raw-text elements) and
//! stops changing anything where it could not be sure: after `<plaintext>` or `<frameset>`,
//! and from an `<svg>` or `<math>` that holds raw-text elements on.

use std::borrow::Cow;

use memchr::memmem;

use super::dom::hiding_rules;

/// Raw-text and RCDATA elements kept as they are: their content is text, not markup.
const KEPT_RAW: &[&[u8]] = &[
    b"textarea",
    b"title",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];

/// Elements after which the pass changes nothing more.
const STOPS: &[&[u8]] = &[b"plaintext", b"frameset"];

/// Foreign content: `<script>` and `<style>` inside are not raw text there.
const FOREIGN: &[&[u8]] = &[b"svg", b"math"];

/// The page without the contents of its scripts and with only the hiding rules of its style
/// sheets; borrowed when there is nothing to leave out.
pub(crate) fn slim(html: &str) -> Cow<'_, str> {
    let b = html.as_bytes();
    let mut out = String::new();
    // `html[..copied]` is accounted for in `out`.
    let mut copied = 0;
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let Some(tag) = markup_at(b, i + off) else {
            i += off + 1;
            continue;
        };
        i = tag.end;
        let Tag::Start { name, self_closing } = tag.kind else {
            continue;
        };
        let name = &b[name.0..name.1];
        let is = |wanted: &[u8]| name.eq_ignore_ascii_case(wanted);
        if is(b"script") || is(b"style") {
            let close = raw_text_end(b, i, name);
            // `<!--` in a script changes where it ends (the tokenizer's escaped states).
            if is(b"script") && memmem::find(&b[i..close], b"<!--").is_some() {
                break;
            }
            out.push_str(&html[copied..i]);
            if is(b"style") {
                out.push_str(&hiding_rules(&html[i..close]));
            }
            copied = close;
            i = close;
        } else if KEPT_RAW.iter().any(|n| is(n)) {
            i = raw_text_end(b, i, name);
        } else if STOPS.iter().any(|n| is(n)) {
            break;
        } else if FOREIGN.iter().any(|n| is(n)) && !self_closing {
            match foreign_end(b, i, name) {
                Some(end) => i = end,
                None => break,
            }
        }
    }
    if copied == 0 {
        return Cow::Borrowed(html);
    }
    out.push_str(&html[copied..]);
    Cow::Owned(out)
}

/// What a `<` starts, as html5ever's tokenizer reads it.
struct Markup {
    kind: Tag,
    /// Just past its end.
    end: usize,
}

enum Tag {
    /// A start tag: its name's byte range, and whether it ends in `/>`.
    Start {
        name: (usize, usize),
        self_closing: bool,
    },
    /// An end tag: its name's byte range.
    End { name: (usize, usize) },
    /// A comment, a doctype, or a bogus comment.
    Other,
}

/// The markup the `<` at `lt` starts; `None` when it is text.
fn markup_at(b: &[u8], lt: usize) -> Option<Markup> {
    let at = lt + 1;
    let rest = &b[at..];
    let other = |end: usize| Markup {
        kind: Tag::Other,
        end,
    };
    if let Some(after) = rest.strip_prefix(b"!--") {
        return Some(other(comment_end(b, b.len() - after.len())));
    }
    if rest.starts_with(b"!") || rest.starts_with(b"?") {
        return Some(other(byte_after(b, at, b'>')));
    }
    if let Some(after) = rest.strip_prefix(b"/") {
        let name_at = at + 1;
        return match after.first() {
            Some(c) if c.is_ascii_alphabetic() => {
                let name_end = name_end(b, name_at);
                let (end, _) = tag_end(b, name_end);
                Some(Markup {
                    kind: Tag::End {
                        name: (name_at, name_end),
                    },
                    end,
                })
            }
            Some(b'>') => Some(other(name_at + 1)),
            Some(_) => Some(other(byte_after(b, name_at, b'>'))),
            None => None,
        };
    }
    if !rest.first().is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let name_end = name_end(b, at);
    let (end, self_closing) = tag_end(b, name_end);
    Some(Markup {
        kind: Tag::Start {
            name: (at, name_end),
            self_closing,
        },
        end,
    })
}

fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Where a tag name starting at `from` ends.
fn name_end(b: &[u8], from: usize) -> usize {
    from + b[from..]
        .iter()
        .take_while(|&&c| !is_space(c) && c != b'/' && c != b'>')
        .count()
}

/// Just past the first `byte` at or after `from`, or the end of input.
fn byte_after(b: &[u8], from: usize, byte: u8) -> usize {
    memchr::memchr(byte, &b[from..]).map_or(b.len(), |k| from + k + 1)
}

/// Just past the end of a comment whose text starts at `from` (after `<!--`): `-->`,
/// `--!>`, or at once for `<!-->` and `<!--->`.
fn comment_end(b: &[u8], from: usize) -> usize {
    let rest = &b[from..];
    if rest.starts_with(b">") {
        return from + 1;
    }
    if rest.starts_with(b"->") {
        return from + 2;
    }
    // `--!>` is looked for only before the first `-->`: a page has hundreds of comments,
    // and a search to the end of the page for each one would cost more than parsing it.
    let plain = memmem::find(rest, b"-->").map_or(rest.len(), |k| k + 3);
    let banged = memmem::find(&rest[..plain], b"--!>").map(|k| k + 4);
    from + banged.unwrap_or(plain)
}

/// Just past the `>` of a tag whose attributes start at `from`, following the tokenizer's
/// attribute states (a quote opens a value only after `=`); and whether it ended in `/>`.
fn tag_end(b: &[u8], from: usize) -> (usize, bool) {
    #[derive(Clone, Copy)]
    enum State {
        BeforeName,
        Name,
        AfterName,
        BeforeValue,
        Unquoted,
    }
    let mut state = State::BeforeName;
    let mut i = from;
    while let Some(&c) = b.get(i) {
        i += 1;
        state = match (state, c) {
            (_, b'>') => return (i, false),
            (State::Unquoted, c) if is_space(c) => State::BeforeName,
            (State::Unquoted, _) => State::Unquoted,
            (State::BeforeValue, b'"' | b'\'') => {
                i = byte_after(b, i, c);
                // After a quoted value: `/>` closes, anything else starts a name.
                State::BeforeName
            }
            (State::BeforeValue, c) if is_space(c) => State::BeforeValue,
            (State::BeforeValue, _) => State::Unquoted,
            (_, b'/') => {
                if b.get(i) == Some(&b'>') {
                    return (i + 1, true);
                }
                State::BeforeName
            }
            (State::BeforeName | State::AfterName, c) if is_space(c) => state,
            (State::Name, c) if is_space(c) => State::AfterName,
            (State::Name | State::AfterName, b'=') => State::BeforeValue,
            // Any other character, `=` and quotes included, is part of a name.
            (State::BeforeName | State::AfterName | State::Name, _) => State::Name,
        };
    }
    (b.len(), false)
}

/// Where the raw text of `name` that starts at `from` ends: at its end tag's `<`, or at the
/// end of input.
fn raw_text_end(b: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(k) = memmem::find(&b[i..], b"</") {
        let at = i + k;
        let after = at + 2 + name.len();
        if b.get(at + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && b.get(after)
                .is_some_and(|&c| is_space(c) || c == b'/' || c == b'>')
        {
            return at;
        }
        i = at + 2;
    }
    b.len()
}

/// Just past the end tag that closes the foreign element `name` whose content starts at
/// `from`; `None` when the content holds an element whose text the tokenizer might read raw
/// (the pass then stops: it could no longer tell markup from text).
fn foreign_end(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = from;
    while let Some(off) = memchr::memchr(b'<', &b[i..]) {
        let lt = i + off;
        if b[lt + 1..].starts_with(b"![CDATA[") {
            i = memmem::find(&b[lt..], b"]]>").map_or(b.len(), |k| lt + k + 3);
            continue;
        }
        let Some(tag) = markup_at(b, lt) else {
            i = lt + 1;
            continue;
        };
        i = tag.end;
        match tag.kind {
            Tag::Start {
                name: (s, e),
                self_closing,
            } => {
                let found = &b[s..e];
                let raw = [b"script".as_slice(), b"style"]
                    .iter()
                    .chain(KEPT_RAW)
                    .chain(STOPS)
                    .any(|n| found.eq_ignore_ascii_case(n));
                if raw {
                    return None;
                }
                if found.eq_ignore_ascii_case(name) && !self_closing {
                    depth += 1;
                }
            }
            Tag::End { name: (s, e) } if b[s..e].eq_ignore_ascii_case(name) => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            Tag::End { .. } | Tag::Other => {}
        }
    }
    Some(b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_emptied_and_styles_keep_their_hiding_rules() {
        let page = "<head><script src=x>var a = '</p>';</script>\
                    <style>.a{color:red} .b { display : none } @media x{.c{display:none}}</style>\
                    </head><body><p>text</p><SCRIPT type=\"a>b\">1<2</script ></body>";
        assert_eq!(
            slim(page),
            "<head><script src=x></script>\
             <style> .b { display : none }</style>\
             </head><body><p>text</p><SCRIPT type=\"a>b\"></script ></body>"
        );
    }

    #[test]
    fn markup_that_only_looks_like_a_script_is_left_alone() {
        for page in [
            "<p>no scripts here</p>",
            "<!-- <script>x</script> -->",
            "<textarea><script>x</script></textarea>",
            "<title><style>x</style></title>",
            "<p title='<script>'>x</p>",
            "<p data-x=\"<style>\">x</p>",
            "<scripts>x</scripts>",
            "<svg><style>x</style></svg><script>y</script>",
            "<math><title>x</title></math><script>y</script>",
            "<plaintext><script>x</script>",
            "<script>a<!--<script>b</script>c</script>",
        ] {
            assert_eq!(slim(page), page, "{page}");
        }
    }

    #[test]
    fn the_live_search_page_loses_most_of_its_bytes() {
        let page = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/live/search-google-sample.html"
        ))
        .unwrap();
        let slimmed = slim(&page);
        assert!(slimmed.len() < page.len() / 2, "{} bytes", slimmed.len());
        assert!(!slimmed.contains("function("));
    }

    #[test]
    fn the_tokenizer_s_edge_cases_are_followed() {
        // `--!>` ends a comment too, and a comment without an end runs to the end.
        assert_eq!(
            slim("<!-- a --!><script>x</script><!-- b"),
            "<!-- a --!><script></script><!-- b"
        );
        assert_eq!(slim("<!-- <script>x</script>"), "<!-- <script>x</script>");
        // `<!-->` is a whole comment; the script after it is real.
        assert_eq!(slim("<!--><script>x</script>"), "<!--><script></script>");
        // A script's end tag must end its name.
        assert_eq!(slim("<script>a</scripts>b</script>c"), "<script></script>c");
        // A quote inside an unquoted value does not open a string.
        assert_eq!(
            slim("<p a=b\"c><script>x</script>"),
            "<p a=b\"c><script></script>"
        );
        // A closed svg, even nested, gives back the page's own scripts.
        assert_eq!(
            slim("<svg><svg><path/></svg></svg><script>x</script>"),
            "<svg><svg><path/></svg></svg><script></script>"
        );
        // An unterminated script runs to the end.
        assert_eq!(slim("<p>a<script>b"), "<p>a<script>");
    }
}
