//! Google's search operators the simulator honours, as live Google does: `site:` keeps every
//! organic result on that site (a host, a host and path, or a top-level domain such as
//! `.gov`), and a "quoted phrase" appears in each organic result's title or snippet.

use serde_json::Value;

use super::super::topic::{Topic, slugify, title_case};
use super::Candidate;

/// What the terms ask beyond their words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Operators {
    /// `site:` without its scheme and trailing slash, lower-cased: "lu.ma", "lu.ma/berlin",
    /// ".gov".
    pub site: Option<String>,
    /// Each quoted phrase, as typed.
    pub phrases: Vec<String>,
    /// The words searched, operators taken out and phrases kept as words: what the results
    /// are about.
    pub plain: String,
}

/// Reads the operators out of the terms. A quote left open runs to the end, as Google reads
/// it; the first `site:` counts.
pub(crate) fn read(terms: &str) -> Operators {
    let mut operators = Operators::default();
    let mut words: Vec<&str> = Vec::new();
    for (i, part) in terms.split('"').enumerate() {
        if i % 2 == 1 {
            let phrase = part.split_whitespace().collect::<Vec<_>>().join(" ");
            if !phrase.is_empty() {
                words.extend(part.split_whitespace());
                operators.phrases.push(phrase);
            }
            continue;
        }
        for word in part.split_whitespace() {
            match site_of(word) {
                Some(site) => {
                    operators.site.get_or_insert(site);
                }
                None => words.push(word),
            }
        }
    }
    operators.plain = words.join(" ");
    operators
}

fn site_of(word: &str) -> Option<String> {
    let (name, value) = word.split_once(':')?;
    if !name.eq_ignore_ascii_case("site") {
        return None;
    }
    let value = value.to_ascii_lowercase();
    let value = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"))
        .unwrap_or(&value);
    let value = value.trim_end_matches('/');
    (!value.is_empty()).then(|| value.to_string())
}

/// The pages of one site about the topic, as many as asked and ten more, ranked in order:
/// what Google answers when `site:` narrows the search. A top-level domain spreads them over
/// sites under it.
pub(super) fn on_site(site: &str, topic: &Topic, needed: usize) -> Vec<Candidate> {
    let (host, path) = site.split_once('/').unwrap_or((site, ""));
    let section = if path.is_empty() {
        String::new()
    } else {
        format!("{path}/")
    };
    let words: Vec<String> = topic.subject.split(' ').map(slugify).collect();
    (0..needed + 10)
        .map(|n| {
            let host = if host.starts_with('.') {
                format!("www.{}{n}{host}", words[n % words.len()])
            } else {
                host.to_string()
            };
            let name = site_name(&host);
            let page = if n == 0 {
                topic.slug.clone()
            } else {
                format!("{}-{n}", topic.slug)
            };
            Candidate {
                url: format!("https://{host}/{section}{page}"),
                title: topic.article_title(&name, n),
                host,
                site: name,
                base: n as f64,
            }
        })
        .collect()
}

/// "lu.ma" → "Lu", "www.rei.com" → "Rei": the name a results page shows for a host.
fn site_name(host: &str) -> String {
    let host = host.strip_prefix("www.").unwrap_or(host);
    title_case(host.split('.').next().unwrap_or(host))
}

/// Puts each quoted phrase an organic result lacks at the head of its snippet, as Google
/// quotes the passage that matched.
pub(super) fn show_phrases(result: &mut Value, phrases: &[String]) {
    let is_organic = result
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.starts_with("organic"));
    if !is_organic || phrases.is_empty() {
        return;
    }
    let text = |field: &str| {
        result
            .get(field)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_lowercase()
    };
    let seen = format!("{} {}", text("title"), text("snippet"));
    let missing: Vec<&str> = phrases
        .iter()
        .filter(|phrase| !seen.contains(&phrase.to_lowercase()))
        .map(String::as_str)
        .collect();
    if missing.is_empty() {
        return;
    }
    let snippet = result.get("snippet").and_then(Value::as_str).unwrap_or("");
    let quoted = format!("{} ... {snippet}", missing.join(" ... "));
    if let Some(map) = result.as_object_mut() {
        map.insert("snippet".into(), Value::String(quoted));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn site_and_phrases_are_read_out_of_the_terms() {
        let asked = read("tech meetups site:https://LU.MA/ \"in  Berlin\" 2025");
        assert_eq!(asked.site.as_deref(), Some("lu.ma"));
        assert_eq!(asked.phrases, vec!["in Berlin"]);
        assert_eq!(asked.plain, "tech meetups in Berlin 2025");
        let open = read("\"never closed phrase");
        assert_eq!(open.phrases, vec!["never closed phrase"]);
        assert_eq!(read("site: boots").site, None);
        assert_eq!(read("mysite:x boots").site, None);
        assert_eq!(read("boots").plain, "boots");
    }

    proptest! {
        #[test]
        fn any_terms_read_without_panic_into_clean_parts(
            terms in prop::collection::vec(
                prop::sample::select(vec![
                    "site:", "SITE:", "\"", " ", "lu.ma", "https://", "/", "é", ":", "boots", "\u{1f}",
                ]),
                0..20,
            ).prop_map(|parts| parts.concat())
        ) {
            let asked = read(&terms);
            if let Some(site) = &asked.site {
                prop_assert!(!site.is_empty() && !site.contains(char::is_whitespace), "{site:?}");
            }
            prop_assert!(asked.phrases.iter().all(|p| !p.is_empty() && !p.contains('"')));
            prop_assert!(!asked.plain.contains('"'));
        }
    }
}
