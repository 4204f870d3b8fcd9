//! Which words of an answer are names worth tracking: the brands, shops and publishers it
//! puts forward, not its headings, measures or the words of the question. A term is put
//! forward by the answer's emphasis (bold, the head of a list item, a link's text), and kept
//! only with evidence that it is a name:
//!
//! - it is the text of a link to its own domain (`Switchback Travel` → switchbacktravel.com,
//!   `rei.com` → rei.com);
//! - it carries a model's marks: a digit, a capital inside a word, a word in capitals or a
//!   lone capital (`Kaha 2`, `OutdoorGearLab`, `REI`, `Targhee IV`, `X Ultra`);
//! - or the answer writes it capitalised in the middle of a sentence (`from the Scarpa Rush
//!   Trek`), where a common word would be in lower case.
//!
//! Terms that open with an article or a question word (`The official SDK`, `How to choose`,
//! `Best for`) and terms made only of the question's words are never names.

use std::collections::HashSet;

/// Words a name does not begin with: articles, question words, the superlatives of titles.
const NOT_A_NAME_START: &[&str] = &[
    "a", "an", "the", "how", "what", "why", "which", "when", "where", "who", "best", "top", "our",
    "your", "my", "in", "for", "with", "and", "or", "of", "to", "on", "at", "by", "if", "is",
    "are", "this", "that", "these", "those", "some", "all", "more", "most", "key", "step", "tip",
    "option", "part", "pick", "pros", "cons", "verdict", "summary",
];

/// Names an answer's HTML puts forward, to suggest as brands to track, in order of first
/// appearance, each once (ignoring case); `asked` is the prompt, whose words are not names.
pub fn candidates(html: &str, asked: &str) -> Vec<String> {
    let text = strip_tags(html);
    let links = links(html);
    let asked: HashSet<String> = words(asked).map(|w| w.to_lowercase()).collect();
    let mut found: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut consider = |raw: &str, href: Option<&str>| {
        let decoded = html_escape::decode_html_entities(raw);
        let term = decoded.split_whitespace().collect::<Vec<_>>().join(" ");
        let term = term.trim_matches(|c: char| !c.is_alphanumeric());
        // A label and its text ("Step 1: Fit") is a heading, not a name.
        if term.chars().count() < 2 || term.split(' ').count() > 5 || term.contains(':') {
            return;
        }
        if !seen.insert(super::mentions::fold_term(term)) {
            return;
        }
        let linked_to_itself = href.is_some_and(|href| names_its_domain(term, href))
            || links.iter().any(|(href, _)| names_its_domain(term, href));
        if is_name(term, &text, &asked, linked_to_itself) {
            found.push(term.to_string());
        }
    };
    for (tag, open, inner) in elements(html, &["strong", "b", "li", "a"]) {
        let inner_text = strip_tags(inner);
        match tag {
            "li" => {
                let head = inner_text
                    .split([':', '–', '—', '(', '\n'])
                    .next()
                    .unwrap_or_default()
                    .split(" - ")
                    .next()
                    .unwrap_or_default();
                consider(head, None);
            }
            "a" => consider(&inner_text, href_of(open).as_deref()),
            _ => consider(&inner_text, None),
        }
    }
    found
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
}

/// The evidence rules of the module's header, on one term.
fn is_name(term: &str, text: &str, asked: &HashSet<String>, linked_to_itself: bool) -> bool {
    let first = words(term).next().unwrap_or_default();
    if NOT_A_NAME_START.contains(&first.to_lowercase().as_str()) {
        return false;
    }
    if words(term).all(|w| asked.contains(&w.to_lowercase())) {
        return false;
    }
    if linked_to_itself {
        return true;
    }
    if !first.starts_with(char::is_uppercase) {
        return false;
    }
    // A digit, a capital inside a word, or a lone capital after the first word (X Ultra).
    let marked = words(term).enumerate().any(|(i, w)| {
        w.chars().any(|c| c.is_ascii_digit())
            || w.chars().skip(1).any(char::is_uppercase)
            || (i > 0 && w.chars().count() == 1 && w.starts_with(char::is_uppercase))
    });
    marked || capitalised_mid_sentence(term, text)
}

/// True when `text` writes `term`, as cased, after a word in lower case (or a comma): in
/// the middle of a sentence, where only names keep their capitals.
fn capitalised_mid_sentence(term: &str, text: &str) -> bool {
    text.match_indices(term).any(|(at, _)| {
        let after = text[at + term.len()..].chars().next();
        if after.is_some_and(char::is_alphanumeric) {
            return false;
        }
        let before = text[..at].trim_end_matches([' ', '\u{a0}']);
        if before.len() == text[..at].len() {
            return false;
        }
        // The word before: in lower case, letters only (a comma may end it); a line break
        // (a block's end), a full stop or a domain before is no evidence.
        let word = before
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or_default()
            .trim_end_matches(',');
        !word.is_empty() && word.chars().all(|c| c.is_lowercase() && c.is_alphabetic())
    })
}

/// True when `term` names the site `href` points at: its letters are the domain's name
/// (`Runner's World` → runnersworld.com), or it is the domain itself.
fn names_its_domain(term: &str, href: &str) -> bool {
    let Some(host) = url::Url::parse(href)
        .ok()
        .and_then(|u| u.host_str().map(str::to_lowercase))
    else {
        return false;
    };
    let host = host.trim_start_matches("www.");
    if term.eq_ignore_ascii_case(host) {
        return true;
    }
    let letters: String = term
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let name = host.split('.').next().unwrap_or_default();
    letters.len() >= 3 && letters == name
}

/// Every link of the HTML: its href and its text.
fn links(html: &str) -> Vec<(String, String)> {
    elements(html, &["a"])
        .into_iter()
        .filter_map(|(_, open, inner)| Some((href_of(open)?, strip_tags(inner))))
        .collect()
}

/// The `href` of an opening tag, entities decoded.
fn href_of(open: &str) -> Option<String> {
    let lower = open.to_ascii_lowercase();
    let at = lower.find("href=")? + "href=".len();
    let rest = &open[at..];
    let value = match rest.chars().next()? {
        quote @ ('"' | '\'') => rest[1..].split(quote).next()?,
        _ => rest.split([' ', '>']).next()?,
    };
    Some(html_escape::decode_html_entities(value).into_owned())
}

/// Each element named in `tags`, in document order (nested ones too): its name, its
/// opening tag and its inner HTML.
fn elements<'a>(html: &'a str, tags: &[&'static str]) -> Vec<(&'static str, &'a str, &'a str)> {
    let lower = html.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(offset) = lower[from..].find('<') {
        let open = from + offset;
        from = open + 1;
        let name_end = lower[from..]
            .find(|c: char| !c.is_ascii_alphanumeric())
            .map_or(lower.len(), |n| from + n);
        let Some(&tag) = tags.iter().find(|t| **t == &lower[from..name_end]) else {
            continue;
        };
        let Some(content_start) = lower[name_end..].find('>').map(|n| name_end + n + 1) else {
            break;
        };
        let close = format!("</{tag}");
        let content_end = lower[content_start..]
            .find(&close)
            .map_or(lower.len(), |n| content_start + n);
        found.push((
            tag,
            &html[open..content_start],
            &html[content_start..content_end],
        ));
    }
    found
}

/// Tags that end a block of text: what follows them does not continue a sentence.
const BLOCK_TAGS: &[&str] = &[
    "p",
    "li",
    "ul",
    "ol",
    "div",
    "br",
    "tr",
    "td",
    "th",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "section",
    "article",
    "dt",
    "dd",
];

/// The text of an HTML fragment, entities decoded: a block tag leaves a line break, any
/// other a space.
fn strip_tags(fragment: &str) -> String {
    let mut text = String::with_capacity(fragment.len());
    let mut tag = String::new();
    let mut in_tag = false;
    for c in fragment.chars() {
        match c {
            '<' => {
                in_tag = true;
                tag.clear();
            }
            '>' if in_tag => {
                in_tag = false;
                let name = tag
                    .trim_start_matches('/')
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .next()
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                text.push(if BLOCK_TAGS.contains(&name.as_str()) {
                    '\n'
                } else {
                    ' '
                });
            }
            _ if in_tag => tag.push(c),
            _ => text.push(c),
        }
    }
    html_escape::decode_html_entities(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kept_and_headings_measures_and_the_question_are_not() {
        let html = r#"<p>Most testers pick the <strong>Salomon X Ultra</strong>; others go
            for the Scarpa Rush Trek, sold by REI.</p>
            <ul><li><b>Scarpa Rush Trek</b>: roomy</li><li><b>Weight</b>: light is better,
            as weight tires you</li><li>Lowa Renegade - stiff</li>
            <li><b>Ankle support</b>: matters on scree</li></ul>
            <h3><b>How to choose hiking boots</b></h3><p><b>The official guide</b></p>
            <p><b>Hiking Boots</b></p>
            <a href="https://www.switchbacktravel.com/x">Switchback Travel</a>
            <a href="https://rei.com/y">rei.com</a> <a href="https://example.org">Read more</a>"#;
        assert_eq!(
            candidates(html, "best hiking boots"),
            [
                "Salomon X Ultra",
                "Scarpa Rush Trek",
                "Switchback Travel",
                "rei.com"
            ]
        );
    }

    #[test]
    fn a_capital_after_a_full_stop_is_not_evidence() {
        assert!(!capitalised_mid_sentence("Weight", "Light. Weight matters"));
        assert!(capitalised_mid_sentence("Keen", "try the Keen first"));
        assert!(!capitalised_mid_sentence("Keen", "try the Keenest"));
    }
}
