//! Character references: named (a practical subset), decimal and hexadecimal.

/// What a `&` at the start of `s` stands for.
pub enum Decoded {
    /// A character, and how many bytes of `s` the reference used.
    Char(char, usize),
    /// A reference to a character we drop (soft hyphen, direction marks); bytes used.
    Nothing(usize),
    /// Not a reference: the `&` is literal.
    Literal,
}

/// Named references, sorted by name for binary search.
static NAMED: &[(&str, char)] = &[
    ("AElig", 'Æ'),
    ("Aacute", 'Á'),
    ("Agrave", 'À'),
    ("Aring", 'Å'),
    ("Auml", 'Ä'),
    ("Ccedil", 'Ç'),
    ("Dagger", '‡'),
    ("Eacute", 'É'),
    ("Egrave", 'È'),
    ("Iacute", 'Í'),
    ("Ntilde", 'Ñ'),
    ("Oacute", 'Ó'),
    ("Oslash", 'Ø'),
    ("Ouml", 'Ö'),
    ("Prime", '″'),
    ("Uacute", 'Ú'),
    ("Uuml", 'Ü'),
    ("aacute", 'á'),
    ("acirc", 'â'),
    ("aelig", 'æ'),
    ("agrave", 'à'),
    ("alpha", 'α'),
    ("amp", '&'),
    ("apos", '\''),
    ("aring", 'å'),
    ("asymp", '≈'),
    ("atilde", 'ã'),
    ("auml", 'ä'),
    ("bdquo", '„'),
    ("beta", 'β'),
    ("brvbar", '¦'),
    ("bull", '•'),
    ("ccedil", 'ç'),
    ("cent", '¢'),
    ("check", '✓'),
    ("copy", '©'),
    ("dagger", '†'),
    ("darr", '↓'),
    ("deg", '°'),
    ("delta", 'δ'),
    ("divide", '÷'),
    ("eacute", 'é'),
    ("ecirc", 'ê'),
    ("egrave", 'è'),
    ("emsp", '\u{2003}'),
    ("ensp", '\u{2002}'),
    ("euml", 'ë'),
    ("euro", '€'),
    ("frac12", '½'),
    ("frac14", '¼'),
    ("frac34", '¾'),
    ("gamma", 'γ'),
    ("ge", '≥'),
    ("gt", '>'),
    ("harr", '↔'),
    ("hellip", '…'),
    ("iacute", 'í'),
    ("icirc", 'î'),
    ("iexcl", '¡'),
    ("igrave", 'ì'),
    ("infin", '∞'),
    ("iquest", '¿'),
    ("iuml", 'ï'),
    ("lambda", 'λ'),
    ("laquo", '«'),
    ("larr", '←'),
    ("ldquo", '“'),
    ("le", '≤'),
    ("lrm", '\u{200E}'),
    ("lsaquo", '‹'),
    ("lsquo", '‘'),
    ("lt", '<'),
    ("macr", '¯'),
    ("mdash", '—'),
    ("micro", 'µ'),
    ("middot", '·'),
    ("minus", '−'),
    ("mu", 'μ'),
    ("nbsp", '\u{A0}'),
    ("ndash", '–'),
    ("ne", '≠'),
    ("not", '¬'),
    ("ntilde", 'ñ'),
    ("oacute", 'ó'),
    ("ocirc", 'ô'),
    ("ograve", 'ò'),
    ("ordf", 'ª'),
    ("ordm", 'º'),
    ("oslash", 'ø'),
    ("otilde", 'õ'),
    ("ouml", 'ö'),
    ("para", '¶'),
    ("permil", '‰'),
    ("pi", 'π'),
    ("plusmn", '±'),
    ("pound", '£'),
    ("prime", '′'),
    ("quot", '"'),
    ("raquo", '»'),
    ("rarr", '→'),
    ("rdquo", '”'),
    ("reg", '®'),
    ("rlm", '\u{200F}'),
    ("rsaquo", '›'),
    ("rsquo", '’'),
    ("sbquo", '‚'),
    ("sect", '§'),
    ("shy", '\u{AD}'),
    ("sigma", 'σ'),
    ("sup1", '¹'),
    ("sup2", '²'),
    ("sup3", '³'),
    ("szlig", 'ß'),
    ("thinsp", '\u{2009}'),
    ("times", '×'),
    ("trade", '™'),
    ("uacute", 'ú'),
    ("uarr", '↑'),
    ("ucirc", 'û'),
    ("ugrave", 'ù'),
    ("uuml", 'ü'),
    ("yacute", 'ý'),
    ("yen", '¥'),
    ("yuml", 'ÿ'),
    ("zwj", '\u{200D}'),
    ("zwnj", '\u{200C}'),
];

/// Names that browsers also accept without the trailing semicolon.
const LEGACY: &[&str] = &["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"];

/// Windows-1252 meanings of the C1 range, as browsers map `&#128;`..`&#159;`.
const C1: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

fn finish(c: char, used: usize) -> Decoded {
    match c {
        '\u{AD}' | '\u{200E}' | '\u{200F}' => Decoded::Nothing(used),
        c => Decoded::Char(c, used),
    }
}

/// Decode the character reference at the start of `s` (which begins with `&`).
pub fn decode(s: &str) -> Decoded {
    let b = s.as_bytes();
    debug_assert!(b.first() == Some(&b'&'));
    if b.get(1) == Some(&b'#') {
        let (hex, digits_start) = match b.get(2) {
            Some(b'x' | b'X') => (true, 3),
            _ => (false, 2),
        };
        let mut i = digits_start;
        let mut v: u32 = 0;
        while let Some(&c) = b.get(i) {
            let d = if hex {
                (c as char).to_digit(16)
            } else {
                (c as char).to_digit(10)
            };
            let Some(d) = d else { break };
            v = v
                .saturating_mul(if hex { 16 } else { 10 })
                .saturating_add(d);
            i += 1;
        }
        if i == digits_start {
            return Decoded::Literal;
        }
        if b.get(i) == Some(&b';') {
            i += 1;
        }
        let c = match v {
            0x80..=0x9F => C1[(v - 0x80) as usize],
            0 => '\u{FFFD}',
            v => char::from_u32(v).unwrap_or('\u{FFFD}'),
        };
        return finish(c, i);
    }
    let mut i = 1;
    while i < b.len() && i <= 33 && b[i].is_ascii_alphanumeric() {
        i += 1;
    }
    if i == 1 {
        return Decoded::Literal;
    }
    let name = &s[1..i];
    let Ok(idx) = NAMED.binary_search_by(|(n, _)| n.cmp(&name)) else {
        return Decoded::Literal;
    };
    let c = NAMED[idx].1;
    if b.get(i) == Some(&b';') {
        finish(c, i + 1)
    } else if LEGACY.contains(&name) && b.get(i) != Some(&b'=') {
        finish(c, i)
    } else {
        Decoded::Literal
    }
}

/// Decode all references in `s` (for attribute values and link text).
pub fn decode_all(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match decode(rest) {
            Decoded::Char(c, n) => {
                out.push(c);
                rest = &rest[n..];
            }
            Decoded::Nothing(n) => rest = &rest[n..],
            Decoded::Literal => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sorted() {
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn named_numeric_and_literal() {
        assert_eq!(
            decode_all(
                "a &amp; b &lt;&gt; &quot;&apos; &mdash;&ndash&hellip; &#65;&#x42;&#X43; &#151;"
            ),
            "a & b <> \"' —&ndash… ABC —"
        );
        assert_eq!(
            decode_all("&nbsp;&copy &reg;&trade;&times;&middot;"),
            "\u{A0}© ®™×·"
        );
        assert_eq!(decode_all("&rsquo;&lsquo;&ldquo;&rdquo;"), "’‘“”");
        assert_eq!(
            decode_all("R&D &unknown; & &#; &#x; &#0; &#xD800;"),
            "R&D &unknown; & &#; &#x; \u{FFFD} \u{FFFD}"
        );
        assert_eq!(decode_all("?a=1&copy=2&amp=3"), "?a=1&copy=2&amp=3");
        assert_eq!(decode_all("co&shy;op"), "coop");
        assert_eq!(decode_all("&#128512;&#x1F600"), "😀😀");
    }
}
