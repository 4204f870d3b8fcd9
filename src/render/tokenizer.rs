//! A small, forgiving, single-pass HTML tokenizer over borrowed input.
//!
//! It never allocates, never panics on malformed input and always advances, so it terminates
//! on any input. Comments, doctypes, CDATA sections and processing instructions are skipped.
//! The content of raw-text elements (`script`, `style`, `textarea`, ...) is returned as one
//! [`Token::RawText`] followed by the matching end tag.

/// One piece of markup. Text is returned undecoded (character references intact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// `<name attrs>`; `attrs` is the raw attribute source, parse it with [`Attrs`].
    Start {
        name: &'a str,
        attrs: &'a str,
        self_closing: bool,
    },
    /// `</name>`.
    End { name: &'a str },
    /// Character data between tags.
    Text(&'a str),
    /// The whole content of a raw-text element (script, style, textarea, title, ...).
    RawText(&'a str),
}

/// Elements whose content is not markup; the tokenizer jumps to their end tag.
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "noscript", "template", "svg", "math", "xmp", "iframe",
    "noembed", "noframes",
];

/// Streaming tokenizer; use it as an iterator.
pub struct Tokenizer<'a> {
    src: &'a str,
    pos: usize,
    /// Set after the start tag of a raw-text element: the name whose end tag closes it.
    raw: Option<&'a str>,
    /// End tag to emit after the raw text.
    pending_end: Option<&'a str>,
}

impl<'a> Tokenizer<'a> {
    pub fn new(src: &'a str) -> Self {
        Tokenizer {
            src,
            pos: 0,
            raw: None,
            pending_end: None,
        }
    }

    fn raw_text(&mut self, name: &'a str) -> Token<'a> {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        let mut i = start;
        let n = name.len();
        while let Some(off) = find_byte(&bytes[i..], b'<') {
            let lt = i + off;
            if bytes.get(lt + 1) == Some(&b'/')
                && bytes.len() >= lt + 2 + n
                && bytes[lt + 2..lt + 2 + n].eq_ignore_ascii_case(name.as_bytes())
                && matches!(
                    bytes.get(lt + 2 + n),
                    None | Some(b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
                )
            {
                // Skip the end tag itself.
                let end = find_byte(&bytes[lt..], b'>').map_or(bytes.len(), |o| lt + o + 1);
                self.pos = end;
                self.pending_end = Some(name);
                return Token::RawText(&self.src[start..lt]);
            }
            i = lt + 1;
        }
        self.pos = bytes.len();
        self.pending_end = Some(name);
        Token::RawText(&self.src[start..])
    }
}

impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if let Some(name) = self.pending_end.take() {
            return Some(Token::End { name });
        }
        if let Some(name) = self.raw.take() {
            return Some(self.raw_text(name));
        }
        let src = self.src;
        let bytes = src.as_bytes();
        loop {
            let start = self.pos;
            if start >= bytes.len() {
                return None;
            }
            if bytes[start] != b'<' {
                let end = find_byte(&bytes[start..], b'<').map_or(bytes.len(), |o| start + o);
                self.pos = end;
                return Some(Token::Text(&src[start..end]));
            }
            let next = bytes.get(start + 1).copied();
            match next {
                Some(b'!') => {
                    let rest = &bytes[start..];
                    self.pos = if rest.starts_with(b"<!--") {
                        if rest[4..].starts_with(b">") {
                            start + 5
                        } else if rest[4..].starts_with(b"->") {
                            start + 6
                        } else {
                            find_sub(&bytes[start + 4..], b"-->")
                                .map_or(bytes.len(), |o| start + 4 + o + 3)
                        }
                    } else if rest.len() >= 9 && rest[2..9].eq_ignore_ascii_case(b"[CDATA[") {
                        find_sub(&bytes[start + 9..], b"]]>")
                            .map_or(bytes.len(), |o| start + 9 + o + 3)
                    } else {
                        find_byte(&bytes[start..], b'>').map_or(bytes.len(), |o| start + o + 1)
                    };
                }
                Some(b'?') => {
                    self.pos =
                        find_byte(&bytes[start..], b'>').map_or(bytes.len(), |o| start + o + 1);
                }
                Some(b'/') => {
                    let name_start = start + 2;
                    match bytes.get(name_start) {
                        Some(c) if c.is_ascii_alphabetic() => {
                            let name_end = scan_name(bytes, name_start);
                            let close = find_byte(&bytes[name_end..], b'>');
                            match close {
                                Some(o) => {
                                    self.pos = name_end + o + 1;
                                    return Some(Token::End {
                                        name: &src[name_start..name_end],
                                    });
                                }
                                None => {
                                    self.pos = bytes.len();
                                    return None;
                                }
                            }
                        }
                        Some(b'>') => self.pos = start + 3,
                        Some(_) => {
                            self.pos = find_byte(&bytes[start..], b'>')
                                .map_or(bytes.len(), |o| start + o + 1);
                        }
                        None => {
                            // A lone "</" at the end: literal text.
                            self.pos = bytes.len();
                            return Some(Token::Text(&src[start..]));
                        }
                    }
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let name_start = start + 1;
                    let name_end = scan_name(bytes, name_start);
                    let mut i = name_end;
                    let mut self_closing = false;
                    let attrs_end;
                    loop {
                        i = skip_ws(bytes, i);
                        match bytes.get(i) {
                            None => {
                                // EOF inside a tag: the tag is dropped.
                                self.pos = bytes.len();
                                return None;
                            }
                            Some(b'>') => {
                                attrs_end = i;
                                self.pos = i + 1;
                                break;
                            }
                            Some(b'/') => {
                                if bytes.get(i + 1) == Some(&b'>') {
                                    self_closing = true;
                                    attrs_end = i;
                                    self.pos = i + 2;
                                    break;
                                }
                                i += 1;
                            }
                            Some(_) => match skip_attr(bytes, i) {
                                Some(e) => i = e,
                                None => {
                                    self.pos = bytes.len();
                                    return None;
                                }
                            },
                        }
                    }
                    let name = &src[name_start..name_end];
                    let attrs = &src[name_end..attrs_end];
                    if !self_closing && RAW_TEXT.iter().any(|r| r.eq_ignore_ascii_case(name)) {
                        self.raw = Some(name);
                    }
                    return Some(Token::Start {
                        name,
                        attrs,
                        self_closing,
                    });
                }
                _ => {
                    // A '<' that starts no tag is literal text.
                    let end =
                        find_byte(&bytes[start + 1..], b'<').map_or(bytes.len(), |o| start + 1 + o);
                    self.pos = end;
                    return Some(Token::Text(&src[start..end]));
                }
            }
        }
    }
}

#[inline]
pub(crate) fn find_byte(hay: &[u8], b: u8) -> Option<usize> {
    hay.iter().position(|&c| c == b)
}

fn find_sub(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = needle[0];
    let mut i = 0;
    while let Some(o) = find_byte(&hay[i..], first) {
        let at = i + o;
        if hay[at..].starts_with(needle) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

#[inline]
fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_ws(bytes[i]) {
        i += 1;
    }
    i
}

/// End of a tag name starting at `i` (a name ends at whitespace, `/` or `>`).
fn scan_name(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && !is_ws(bytes[i]) && bytes[i] != b'/' && bytes[i] != b'>' {
        i += 1;
    }
    i
}

/// One attribute starting at `i` (not whitespace, `/` or `>`): its name span, value span and end.
struct AttrSpan {
    name: (usize, usize),
    value: Option<(usize, usize)>,
    end: usize,
}

fn parse_attr(bytes: &[u8], i: usize) -> Option<AttrSpan> {
    let name_start = i;
    // The first character is part of the name whatever it is (even '=' or a quote).
    let mut j = i + 1;
    while j < bytes.len() && !is_ws(bytes[j]) && !matches!(bytes[j], b'/' | b'>' | b'=') {
        j += 1;
    }
    let name = (name_start, j);
    let k = skip_ws(bytes, j);
    if bytes.get(k) != Some(&b'=') {
        return Some(AttrSpan {
            name,
            value: None,
            end: j,
        });
    }
    let v = skip_ws(bytes, k + 1);
    match bytes.get(v) {
        None => None,
        Some(&q) if q == b'"' || q == b'\'' => {
            let close = find_byte(&bytes[v + 1..], q)?;
            Some(AttrSpan {
                name,
                value: Some((v + 1, v + 1 + close)),
                end: v + 2 + close,
            })
        }
        Some(_) => {
            let mut e = v;
            while e < bytes.len() && !is_ws(bytes[e]) && bytes[e] != b'>' {
                e += 1;
            }
            Some(AttrSpan {
                name,
                value: Some((v, e)),
                end: e,
            })
        }
    }
}

fn skip_attr(bytes: &[u8], i: usize) -> Option<usize> {
    parse_attr(bytes, i).map(|a| a.end)
}

/// Iterator over `(name, raw value)` pairs of a tag's attribute source.
/// Values are undecoded; an attribute without a value yields `""`.
pub struct Attrs<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Attrs<'a> {
    pub fn new(src: &'a str) -> Self {
        Attrs { src, pos: 0 }
    }
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let bytes = self.src.as_bytes();
        loop {
            let i = skip_ws(bytes, self.pos);
            match bytes.get(i) {
                None => {
                    self.pos = bytes.len();
                    return None;
                }
                Some(b'/' | b'>') => self.pos = i + 1,
                Some(_) => {
                    let Some(a) = parse_attr(bytes, i) else {
                        self.pos = bytes.len();
                        return None;
                    };
                    self.pos = a.end.max(i + 1);
                    let name = &self.src[a.name.0..a.name.1];
                    let value = a.value.map_or("", |(s, e)| &self.src[s..e]);
                    return Some((name, value));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Token<'_>> {
        Tokenizer::new(s).collect()
    }

    #[test]
    fn basic_tags_and_text() {
        let t = toks("<p class=\"a b\" id=x>Hi <b>there</b></p>");
        assert_eq!(
            t,
            vec![
                Token::Start {
                    name: "p",
                    attrs: " class=\"a b\" id=x",
                    self_closing: false
                },
                Token::Text("Hi "),
                Token::Start {
                    name: "b",
                    attrs: "",
                    self_closing: false
                },
                Token::Text("there"),
                Token::End { name: "b" },
                Token::End { name: "p" },
            ]
        );
    }

    #[test]
    fn attrs_parse_quotes_and_bare() {
        let a: Vec<_> = Attrs::new(" a='1 > 2' b=\"x\" c d=e/ f").collect();
        assert_eq!(
            a,
            vec![
                ("a", "1 > 2"),
                ("b", "x"),
                ("c", ""),
                ("d", "e/"),
                ("f", "")
            ]
        );
    }

    #[test]
    fn quoted_gt_does_not_end_tag() {
        let t = toks("<a title=\"1 > 0\">x</a>");
        assert_eq!(t.len(), 3);
        assert_eq!(t[1], Token::Text("x"));
    }

    #[test]
    fn comments_doctype_cdata_skipped() {
        let t = toks("<!DOCTYPE html><!-- <p>no</p> -->a<![CDATA[ x ]]>b<?xml ?>c<!---->d");
        let texts: Vec<_> = t
            .iter()
            .filter_map(|t| {
                if let Token::Text(s) = t {
                    Some(*s)
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(texts, vec!["a", "b", "c", "d"]);
    }

    #[test]
    fn raw_text_elements() {
        let t = toks("<script>if (a < b) { x = '</div>'; }</SCRIPT >after");
        assert_eq!(t[1], Token::RawText("if (a < b) { x = '</div>'; }"));
        assert_eq!(t[2], Token::End { name: "script" });
        assert_eq!(t[3], Token::Text("after"));
    }

    #[test]
    fn stray_lt_is_text() {
        let t = toks("a < b <3 <=c");
        let all: String = t
            .iter()
            .map(|t| if let Token::Text(s) = t { *s } else { "" })
            .collect();
        assert_eq!(all, "a < b <3 <=c");
    }

    #[test]
    fn self_closing() {
        let t = toks("<br/><img src=a.png />");
        assert!(matches!(
            t[0],
            Token::Start {
                name: "br",
                self_closing: true,
                ..
            }
        ));
        assert!(matches!(
            t[1],
            Token::Start {
                name: "img",
                self_closing: true,
                attrs: " src=a.png "
            }
        ));
    }
}
