//! Text from the service, made safe for a terminal (and, through `shareable`, for files).
//!
//! Anything the service sends (a device name, a title, an error body) may carry bytes that a
//! terminal obeys rather than prints: `ESC ] 0 ; … BEL` renames the window, `ESC ] 52 ; …`
//! sets the clipboard, `ESC [ 2 J` clears the screen, a lone CR overwrites what was printed,
//! a right-to-left override reverses it. [`for_terminal`] is the one gate every piece of such
//! text passes before it is printed or copied.
//!
//! The rule: a whole escape sequence (CSI, OSC up to BEL or ST, DCS/SOS/PM/APC strings, and
//! two-byte `ESC x` sequences, in their 7-bit and 8-bit forms) becomes one `␛`; any other
//! control character becomes a visible picture (`␀`…`␟` for C0, `␡` for DEL, `�` for C1);
//! bidirectional overrides and isolates are dropped. Why: a sequence's payload is meant for
//! the terminal (a title, clipboard bytes, colours), so printing it would be noise, but one
//! marker keeps the reader aware that something was removed; a lone control is shown so
//! that what arrived is not silently altered. Bidi controls have no visible form and
//! re-order what surrounds them, so they are the one thing removed without a trace.
//! Newline and tab stay; a CR directly before a newline is an ordinary line end and goes.

use std::borrow::Cow;

/// Shown in place of a whole escape sequence.
pub const ESCAPE_MARK: char = '␛';
/// Shown in place of a C1 control (they have no control picture of their own).
const C1_MARK: char = '\u{FFFD}';

/// Text safe to write to a terminal: see the module's rule. Borrows when nothing changes.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    clean(text, false)
}

/// Like [`for_terminal`], for a field shown on one line (a table cell, a name in a
/// sentence): newlines and tabs become spaces too.
pub fn one_line(text: &str) -> Cow<'_, str> {
    clean(text, true)
}

/// How much of a refused input a sentence quotes: enough to find it, never a pasted essay.
pub const QUOTED_CHARS: usize = 60;

/// A piece of outside or typed text quoted back in a sentence: on one line, as
/// [`one_line`] makes it, and cut to `max_chars` characters with `…`, so a pasted essay is
/// named by its start rather than printed whole.
pub fn excerpt(text: &str, max_chars: usize) -> String {
    let line = one_line(text.trim());
    match line.char_indices().nth(max_chars) {
        None => line.into_owned(),
        Some((cut, _)) => format!("{}…", line[..cut].trim_end()),
    }
}

/// Output printed "as received" (`--json` of a body that is not JSON, raw HTML): exact
/// into a pipe or a file, where a program reads it, and cleaned when a terminal would obey it.
pub fn as_received(text: &str, to_terminal: bool) -> Cow<'_, str> {
    if to_terminal {
        for_terminal(text)
    } else {
        Cow::Borrowed(text)
    }
}

/// True for a character that [`for_terminal`] changes (newline and tab are kept).
pub fn is_unsafe(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0B'..='\x1F' | '\x7F'..='\u{9F}') || is_bidi_control(c)
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn clean(text: &str, one_line: bool) -> Cow<'_, str> {
    let Some(first) = first_change(text, one_line) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    let mut chars = text[first..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' if one_line => out.push(' '),
            '\n' | '\t' => out.push(c),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\x1B' => {
                skip_after_escape(&mut chars);
                out.push(ESCAPE_MARK);
            }
            // The 8-bit introducers: CSI, and the string controls DCS, SOS, OSC, PM, APC.
            '\u{9B}' => {
                skip_control_sequence(&mut chars);
                out.push(ESCAPE_MARK);
            }
            '\u{90}' | '\u{98}' | '\u{9D}' | '\u{9E}' | '\u{9F}' => {
                skip_control_string(&mut chars);
                out.push(ESCAPE_MARK);
            }
            '\0'..='\x1F' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or(C1_MARK)),
            '\x7F' => out.push('␡'),
            '\u{80}'..='\u{9F}' => out.push(C1_MARK),
            c if is_bidi_control(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Where the first character to change starts. Scans bytes: every such character starts
/// with a byte below 0x20, 0x7F, 0xC2 (C1) or 0xE2 (bidi), and those bytes only ever start
/// a character, so only they are decoded.
fn first_change(text: &str, one_line: bool) -> Option<usize> {
    text.bytes()
        .enumerate()
        .filter(|(_, b)| *b < 0x20 || matches!(b, 0x7F | 0xC2 | 0xE2))
        .find(|(at, _)| {
            text[*at..]
                .chars()
                .next()
                .is_some_and(|c| is_unsafe(c) || (one_line && matches!(c, '\n' | '\t')))
        })
        .map(|(at, _)| at)
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After an ESC: the rest of the sequence it starts.
fn skip_after_escape(chars: &mut Chars<'_>) {
    match chars.peek().copied() {
        Some('[') => {
            chars.next();
            skip_control_sequence(chars);
        }
        Some(']' | 'P' | 'X' | '^' | '_') => {
            chars.next();
            skip_control_string(chars);
        }
        // `ESC` intermediates* final: charset designations, keypad modes, resets.
        Some('\x20'..='\x2F') => {
            while chars.next_if(|c| matches!(c, '\x20'..='\x2F')).is_some() {}
            chars.next_if(|c| matches!(c, '\x30'..='\x7E'));
        }
        Some('\x30'..='\x7E') => {
            chars.next();
        }
        _ => {}
    }
}

/// CSI: parameter bytes, intermediate bytes, then one final byte. Anything else ends it.
fn skip_control_sequence(chars: &mut Chars<'_>) {
    while chars.next_if(|c| matches!(c, '\x30'..='\x3F')).is_some() {}
    while chars.next_if(|c| matches!(c, '\x20'..='\x2F')).is_some() {}
    chars.next_if(|c| matches!(c, '\x40'..='\x7E'));
}

/// OSC, DCS, SOS, PM, APC: everything up to BEL or ST (`ESC \` or 8-bit ST), which a
/// terminal swallows too. CAN and SUB abort the string; an ESC not starting ST ends it and is
/// read as the start of the next sequence.
fn skip_control_string(chars: &mut Chars<'_>) {
    while let Some(&c) = chars.peek() {
        match c {
            '\x07' | '\u{9C}' | '\x18' | '\x1A' => {
                chars.next();
                return;
            }
            '\x1B' => {
                chars.next();
                if chars.next_if_eq(&'\\').is_none() {
                    skip_after_escape(chars);
                }
                return;
            }
            _ => {
                chars.next();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_text_is_borrowed_untouched() {
        let text = "Bästa vandringskängor — 2025\n\tsee https://example.com/?q=a&b=c 日本語";
        assert!(matches!(for_terminal(text), Cow::Borrowed(t) if t == text));
        assert!(matches!(one_line("a b"), Cow::Borrowed("a b")));
    }

    #[test]
    fn an_excerpt_is_one_line_cut_at_its_cap() {
        assert_eq!(excerpt("  short\nline ", 40), "short line");
        let long = "é".repeat(3000);
        let cut = excerpt(&long, 40);
        assert_eq!(cut.chars().count(), 41);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt("a\x1b]0;x\x07b", 40), "a␛b");
    }

    #[test]
    fn the_reported_attacks_leave_one_mark_each() {
        assert_eq!(for_terminal("Pixel\x1b]0;owned\x07 9"), "Pixel␛ 9");
        assert_eq!(
            for_terminal("a\x1b]52;c;ZWNobyBoaQ==\x1b\\b"),
            "a␛b",
            "OSC 52 ended by ST"
        );
        assert_eq!(for_terminal("\x1b[2Jtitle"), "␛title");
        assert_eq!(for_terminal("\x1b[38;5;196mred\x1b[0m"), "␛red␛");
        assert_eq!(for_terminal("x\x1bcy"), "x␛y", "RIS, a two-byte sequence");
        assert_eq!(for_terminal("x\x1b(By"), "x␛y", "charset designation");
        assert_eq!(
            for_terminal("x\x1bPq#0;2;0;0;0\x1b\\y"),
            "x␛y",
            "DCS (sixel)"
        );
        assert_eq!(for_terminal("x\x1b]8;;http://e\x07link"), "x␛link");
        assert_eq!(for_terminal("x\x1b"), "x␛", "a lone ESC at the end");
    }

    #[test]
    fn eight_bit_controls_are_handled_like_their_escape_forms() {
        assert_eq!(for_terminal("a\u{9b}2Jb"), "a␛b");
        assert_eq!(for_terminal("a\u{9d}0;title\u{9c}b"), "a␛b");
        assert_eq!(for_terminal("a\u{85}b"), "a\u{FFFD}b");
    }

    #[test]
    fn lone_controls_are_shown_and_line_ends_kept() {
        assert_eq!(for_terminal("a\rb"), "a␍b");
        assert_eq!(for_terminal("a\r\nb"), "a\nb");
        assert_eq!(
            for_terminal("bell\x07 nul\0 del\x7f bs\x08"),
            "bell␇ nul␀ del␡ bs␈"
        );
        assert_eq!(one_line("a\nb\tc\r\nd"), "a b c d");
    }

    #[test]
    fn bidi_overrides_and_isolates_are_removed() {
        assert_eq!(for_terminal("abc\u{202E}fed\u{202C}"), "abcfed");
        assert_eq!(for_terminal("\u{2066}x\u{2069}"), "x");
        assert_eq!(for_terminal("שלום"), "שלום");
    }

    #[test]
    fn output_as_received_is_exact_only_away_from_a_terminal() {
        let body = "<title>\x1b]0;x\x07</title>\r\n";
        assert!(matches!(as_received(body, false), Cow::Borrowed(b) if b == body));
        assert_eq!(as_received(body, true), "<title>␛</title>\n");
    }

    #[test]
    fn a_large_clean_text_is_not_copied() {
        let big = "lorem ipsum dolor sit amet ".repeat(200_000);
        assert!(matches!(for_terminal(&big), Cow::Borrowed(_)));
    }

    /// Strings rich in the characters that matter: controls, escape introducers, sequence
    /// bytes, bidi controls, plus any character at all.
    fn hostile_text() -> impl Strategy<Value = String> {
        let interesting = prop_oneof![
            (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap_or('x')),
            (0x7Fu32..0xA0).prop_map(|c| char::from_u32(c).unwrap_or('x')),
            prop::sample::select(vec![
                '\x1b', '[', ']', '\\', 'P', '_', '^', ';', '0', '2', 'J', '\u{202E}', '\u{2066}',
                '\u{2069}', '\u{202A}', '\n', '\t', '\r',
            ]),
            any::<char>(),
        ];
        prop::collection::vec(interesting, 0..64).prop_map(|v| v.into_iter().collect())
    }

    fn assert_clean(cleaned: &str, allow_newlines: bool) {
        for c in cleaned.chars() {
            assert!(!is_unsafe(c), "{c:?} survived in {cleaned:?}");
            if !allow_newlines {
                assert!(!matches!(c, '\n' | '\t'), "{c:?} survived in {cleaned:?}");
            }
        }
    }

    proptest! {
        #[test]
        fn no_control_survives(text in hostile_text()) {
            assert_clean(&for_terminal(&text), true);
            assert_clean(&one_line(&text), false);
        }

        #[test]
        fn no_control_survives_any_string(text in any::<String>()) {
            assert_clean(&for_terminal(&text), true);
        }

        #[test]
        fn cleaning_twice_changes_nothing_more(text in hostile_text()) {
            let once = for_terminal(&text).into_owned();
            prop_assert_eq!(for_terminal(&once), once.as_str());
        }

        #[test]
        fn text_without_controls_passes_unchanged(text in "[^\\x00-\\x1f\\x7f-\\u{9f}\\u{202a}-\\u{202e}\\u{2066}-\\u{2069}]*") {
            prop_assert!(matches!(for_terminal(&text), Cow::Borrowed(t) if t == text));
        }
    }
}
