//! The token: a `Secret` that never shows itself, and the mask that takes it out of every text
//! the service sends back before anything shows, logs, stores or indexes that text.

use std::fmt;

use aho_corasick::{AhoCorasick, MatchKind};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

/// The token. Its `Debug` and `Display` never show it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Option<Secret> {
        let value = value.into();
        let trimmed = value.trim();
        (!trimmed.is_empty()).then(|| Secret(trimmed.to_string()))
    }

    /// The value itself, for the one place that puts it in a header.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The last four characters behind dots, for showing which token is in use.
    pub(crate) fn masked(&self) -> String {
        let tail: String = self
            .0
            .chars()
            .rev()
            .take(4)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if self.0.chars().count() <= 8 {
            "••••".to_string()
        } else {
            format!("••••{tail}")
        }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(••••)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked())
    }
}

/// A token this long or longer is masked wherever it appears. A shorter one would also match
/// inside ordinary words (a token `demo` in "demonstrate"), so it is masked only where it
/// stands alone, between characters that cannot belong to a token.
pub const MASKED_ANYWHERE_LEN: usize = 8;

/// Finds the token in use in a text from the service, as written and in the forms a server
/// may echo it (percent-encoded, JSON-escaped), and puts [`Secret::masked`] in its place:
/// the same dots and last four characters the screen shows for it.
#[derive(Clone, Debug)]
pub(crate) struct TokenMask {
    finder: Option<AhoCorasick>,
    replacement: Vec<u8>,
    alone_only: bool,
    /// The token's bytes as UTF-8 and, when each of its characters fits in one, as Latin-1:
    /// looked for percent-encoded in any way a server may do it (any characters encoded or
    /// left as they are, hex in either case, `+` for a space).
    encoded: Vec<Vec<u8>>,
}

impl TokenMask {
    pub(crate) fn new(token: Option<&Secret>) -> TokenMask {
        let Some(token) = token else {
            return TokenMask::none();
        };
        let value = token.expose();
        // A server that reads the token as Latin-1 echoes each character as one byte.
        let latin1: Option<Vec<u8>> = value
            .chars()
            .map(|c| u8::try_from(u32::from(c)).ok())
            .collect();
        let latin1 = latin1.filter(|bytes| bytes.as_slice() != value.as_bytes());
        let mut encoded = vec![value.as_bytes().to_vec()];
        encoded.extend(latin1.clone());
        let mut forms: Vec<Vec<u8>> = vec![value.as_bytes().to_vec()];
        forms.extend(latin1);
        forms.push(
            utf8_percent_encode(value, NON_ALPHANUMERIC)
                .to_string()
                .into_bytes(),
        );
        if let Ok(quoted) = serde_json::to_string(value) {
            let inner = &quoted[1..quoted.len() - 1];
            forms.push(inner.as_bytes().to_vec());
            forms.push(inner.replace('/', "\\/").into_bytes());
        }
        forms.sort();
        forms.dedup();
        // Leftmost-longest: where one form is inside another, the whole of the longer goes.
        let finder = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&forms)
            .ok();
        TokenMask {
            finder,
            replacement: token.masked().into_bytes(),
            alone_only: value.chars().count() < MASKED_ANYWHERE_LEN,
            encoded,
        }
    }

    /// A mask that changes nothing (no token set).
    pub(crate) fn none() -> TokenMask {
        TokenMask {
            finder: None,
            replacement: Vec::new(),
            alone_only: false,
            encoded: Vec::new(),
        }
    }

    /// The bytes with every occurrence of the token masked, as written and in every
    /// encoding a server may echo it in.
    pub(crate) fn bytes(&self, text: Vec<u8>) -> Vec<u8> {
        let text = self.exact(text);
        if self.encoded.is_empty() || memchr::memchr(b'%', &text).is_none() {
            return text;
        }
        self.encoded
            .iter()
            .fold(text, |text, token| self.percent_encoded(text, token))
    }

    /// Every occurrence of `token` written with some of its bytes as `%XX` replaced.
    fn percent_encoded(&self, text: Vec<u8>, token: &[u8]) -> Vec<u8> {
        let mut masked = Vec::new();
        let (mut copied, mut at) = (0, 0);
        while at < text.len() {
            match encoded_match(&text, at, token) {
                Some(end) if !self.alone_only || stands_alone(&text, at, end) => {
                    masked.extend_from_slice(&text[copied..at]);
                    masked.extend_from_slice(&self.replacement);
                    copied = end;
                    at = end;
                }
                _ => at += 1,
            }
        }
        if copied == 0 {
            return text;
        }
        masked.extend_from_slice(&text[copied..]);
        masked
    }

    fn exact(&self, text: Vec<u8>) -> Vec<u8> {
        let Some(finder) = &self.finder else {
            return text;
        };
        let mut masked = Vec::new();
        let mut copied = 0;
        for found in finder.find_iter(&text) {
            if self.alone_only && !stands_alone(&text, found.start(), found.end()) {
                continue;
            }
            masked.extend_from_slice(&text[copied..found.start()]);
            masked.extend_from_slice(&self.replacement);
            copied = found.end();
        }
        if copied == 0 {
            return text;
        }
        masked.extend_from_slice(&text[copied..]);
        masked
    }

    /// The text with every occurrence of the token masked.
    pub(crate) fn text(&self, text: &str) -> String {
        // A match of a UTF-8 pattern in UTF-8 text starts and ends on character boundaries,
        // and the replacement is UTF-8: the result is UTF-8 whenever the input was.
        let masked = self.bytes(text.as_bytes().to_vec());
        match String::from_utf8(masked) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        }
    }
}

/// Where `token` ends if it is written at `start` with at least one byte percent-encoded
/// (`%2F` or `%2f`; `+` for a space); none if it is not.
fn encoded_match(text: &[u8], start: usize, token: &[u8]) -> Option<usize> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let (mut at, mut any_encoded) = (start, false);
    for &wanted in token {
        let byte = *text.get(at)?;
        if byte == b'%'
            && let (Some(high), Some(low)) = (
                text.get(at + 1).copied().and_then(hex),
                text.get(at + 2).copied().and_then(hex),
            )
            && high * 16 + low == wanted
        {
            at += 3;
            any_encoded = true;
        } else if byte == wanted {
            at += 1;
        } else if byte == b'+' && wanted == b' ' {
            at += 1;
            any_encoded = true;
        } else {
            return None;
        }
    }
    any_encoded.then_some(at)
}

/// Whether the bytes at `start..end` are not part of a longer word: a short token is masked
/// only where it is a word of its own.
fn stands_alone(text: &[u8], start: usize, end: usize) -> bool {
    let word = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_');
    let before = start.checked_sub(1).and_then(|i| text.get(i));
    !before.is_some_and(word) && !text.get(end).is_some_and(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(token: &str) -> TokenMask {
        TokenMask::new(Secret::new(token).as_ref())
    }

    #[test]
    fn the_token_never_shows_in_debug_and_shows_its_tail_in_display() {
        let secret = Secret::new("sk-live-1234567890abcd").unwrap();
        assert!(!format!("{secret:?}").contains("1234"));
        assert_eq!(secret.masked(), "••••abcd");
        assert_eq!(secret.to_string(), "••••abcd");
        assert_eq!(Secret::new("short").unwrap().masked(), "••••");
    }

    #[test]
    fn a_long_token_is_masked_wherever_it_appears() {
        let mask = mask("sk-live-1234567890abcd");
        assert_eq!(
            mask.text("bad token sk-live-1234567890abcd; xsk-live-1234567890abcdx"),
            "bad token ••••abcd; x••••abcdx"
        );
        assert_eq!(mask.text("no secret here"), "no secret here");
        let bytes = mask.bytes(b"\xff sk-live-1234567890abcd \xfe".to_vec());
        let mut expected = b"\xff ".to_vec();
        expected.extend_from_slice("••••abcd".as_bytes());
        expected.extend_from_slice(b" \xfe");
        assert_eq!(
            bytes, expected,
            "text that is not UTF-8 is masked all the same"
        );
    }

    #[test]
    fn the_echoed_forms_of_the_token_are_masked_too() {
        let mask = mask("tok/en+9\"abc=");
        let percent = utf8_percent_encode("tok/en+9\"abc=", NON_ALPHANUMERIC).to_string();
        for echoed in [
            "tok/en+9\"abc=".to_string(),
            percent,
            "tok/en+9\\\"abc=".to_string(),
            "tok\\/en+9\\\"abc=".to_string(),
        ] {
            let text = format!("{{\"error\":\"bad {echoed} here\"}}");
            let masked = mask.text(&text);
            assert!(!masked.contains("en+9"), "{echoed} → {masked}");
            assert!(masked.contains("bad ••••abc= here"), "{echoed} → {masked}");
        }
    }

    #[test]
    fn the_token_is_masked_in_any_percent_encoding_and_as_latin_1() {
        let token = "sk-live-SECRET/+=x";
        let masker = mask(token);
        let echoed = [
            "sk-live-SECRET%2F%2B%3Dx",     // the ordinary URL encoding
            "sk-live-SECRET/%2B%3Dx",       // with `/` left as is
            "sk-live-SECRET%2f%2b%3dx",     // hex in lower case
            "sk%2Dlive%2DSECRET%2F%2B%3Dx", // more encoded than needed
        ];
        for form in echoed {
            let said = masker.text(&format!("token={form}&next=1"));
            assert!(!said.contains("SECRET"), "{form}: {said}");
            assert!(said.ends_with("&next=1"), "{said}");
        }
        // A token of Latin-1 characters, echoed by a server that read it as Latin-1.
        let latin = mask("sk-lïve-sécret-9");
        let bytes: Vec<u8> = "sk-lïve-sécret-9".chars().map(|c| c as u8).collect();
        let masked = latin.bytes([b"key=".to_vec(), bytes.clone()].concat());
        assert!(!masked.windows(5).any(|w| w == b"cret-"), "{masked:?}");
        let percent: String = bytes.iter().map(|b| format!("%{b:02X}")).collect();
        assert!(
            !latin.text(&percent).contains("%63%72"),
            "percent-encoded Latin-1 too"
        );
    }

    #[test]
    fn a_short_token_is_masked_only_where_it_stands_alone() {
        let mask = mask("demo");
        assert_eq!(
            mask.text("demo: a demonstration of demo-mode, token=demo."),
            "••••: a demonstration of demo-mode, token=••••."
        );
    }

    #[test]
    fn no_token_changes_nothing() {
        let mask = TokenMask::new(None);
        assert_eq!(mask.text("anything"), "anything");
    }
}
