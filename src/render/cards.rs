//! A link read as a source card: the title, the site, the snippet, each apart.
//!
//! A chat page lays a cited page out as a card inside its link: Gemini's holds the site's
//! label, its domain, the page's title and a snippet, each a block of its own; Copilot's
//! References carry the title in the link's `title` attribute, then the site (a label or the
//! domain), the title again and the bare URL; ChatGPT's citation pills hold the site's label
//! alone. The card is read by the parts themselves, whatever the model: a block that is the
//! URL or the domain is neither title nor site, the `title` attribute is the title, a short
//! label before the domain (or first in a card of several blocks) is the site, the first
//! block left is the title and what follows it the snippet. A lone short label is the site,
//! never the title.

use super::links::host_of;
use super::plain::tidy;

/// A cited page as its card shows it. Parts a card does not show are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Card {
    pub url: String,
    /// The page's title; empty when the card names only its site (a citation pill).
    pub title: String,
    /// The site's own label ("LeadDev", "Wikipedia"); empty when the card shows only the
    /// address.
    pub site: String,
    /// The words the card quotes from the page.
    pub snippet: String,
}

impl Card {
    /// Whether the card says nothing beyond its URL.
    pub fn is_bare(&self) -> bool {
        self.title.is_empty() && self.site.is_empty() && self.snippet.is_empty()
    }
}

/// Longest a site's label is, in characters.
const LABEL_MAX_CHARS: usize = 40;
/// Most words a site's label has.
const LABEL_MAX_WORDS: usize = 4;

/// Reads the card of the link to `url` from its `title` attribute and its text blocks (each
/// a run of text the page lays out apart, in document order, its white space tidied).
pub(crate) fn read(url: &str, title_attribute: Option<&str>, blocks: &[String]) -> Card {
    let title_attribute = title_attribute
        .map(|t| tidy(&t.replace('\n', " ")))
        .filter(|t| !t.is_empty() && !is_address(t) && !is_domain(t));
    let mut kept: Vec<String> = Vec::with_capacity(blocks.len());
    // Where the domain's block stood among the kept ones.
    let mut domain_at = None;
    for block in blocks {
        let block = without_more_count(block.trim());
        if block.is_empty() || is_index(block) || is_address(block) {
            continue;
        }
        if is_domain(without_index(block)) {
            domain_at.get_or_insert(kept.len());
            continue;
        }
        if title_attribute
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case(block))
        {
            continue;
        }
        kept.push(block.to_owned());
    }
    let site_at = match domain_at {
        // The label before the domain ("LeadDev", then "leaddev.com").
        Some(at) if at > 0 && is_label(&kept[at - 1]) => Some(at - 1),
        // The label first, where a title and more follow it, or where the title is known.
        _ if !kept.is_empty()
            && is_label(&kept[0])
            && (kept.len() >= 3 || title_attribute.is_some() || kept.len() == 1) =>
        {
            Some(0)
        }
        _ => None,
    };
    let site = site_at.map(|at| kept.remove(at)).unwrap_or_default();
    let title = match title_attribute {
        Some(title) => title,
        None if kept.is_empty() => String::new(),
        None => kept.remove(0),
    };
    let title = if title.eq_ignore_ascii_case(&site) {
        String::new()
    } else {
        title
    };
    Card {
        url: url.to_owned(),
        title,
        site,
        snippet: kept.join(" "),
    }
}

/// A number alone: a card's place in its list.
fn is_index(block: &str) -> bool {
    block.len() <= 3 && block.bytes().all(|b| b.is_ascii_digit())
}

/// The block without a trailing index (`www.rei.com 2` → `www.rei.com`).
fn without_index(block: &str) -> &str {
    match block.rsplit_once(' ') {
        Some((rest, index)) if is_index(index) => rest,
        _ => block,
    }
}

/// The block without the count of further sources a pill shows, set apart (`Wikipedia +2`)
/// or glued on as Perplexity's chips read (`research.contrary+2`).
fn without_more_count(block: &str) -> &str {
    match block.rsplit_once('+') {
        Some((rest, count)) if is_index(count) && !rest.trim_end().is_empty() => rest.trim_end(),
        _ => block,
    }
}

/// A URL written out: `https://…` without spaces.
fn is_address(block: &str) -> bool {
    let lower = block.get(..8).unwrap_or(block).to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && !block.contains(char::is_whitespace)
}

/// A host name written out (`www.aimadetools.com`, `leaddev.com`), or a page's address as
/// search pages break it up (`leaddev.com › ai › tools`).
fn is_domain(block: &str) -> bool {
    let host = block.split(" › ").next().unwrap_or(block).trim();
    let host = host_of(host);
    let Some((_, tld)) = host.rsplit_once('.') else {
        return false;
    };
    tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
        && host.split('.').all(|label| {
            !label.is_empty() && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        })
}

/// Short enough and plain enough to be a site's label rather than a page's title: a few
/// words, no numbers, none of the separators a title puts before its site ("… | NxCode",
/// "… - Zapier") and no sentence's end.
fn is_label(block: &str) -> bool {
    block.chars().count() <= LABEL_MAX_CHARS
        && block.split_whitespace().count() <= LABEL_MAX_WORDS
        && !block
            .split_whitespace()
            .any(|w| w.chars().any(|c| c.is_ascii_digit()) || matches!(w, "|" | "-" | "–" | "—"))
        && !block.contains(": ")
        && !block.ends_with(['.', '!', '?', ':'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(url: &str, title: Option<&str>, blocks: &[&str]) -> Card {
        let blocks: Vec<String> = blocks.iter().map(|b| (*b).to_owned()).collect();
        read(url, title, &blocks)
    }

    #[test]
    fn a_card_with_label_domain_title_and_snippet_reads_apart() {
        let read = card(
            "https://leaddev.com/ai/best",
            None,
            &[
                " LeadDev ",
                " leaddev.com ",
                " The best AI-coding tools in 2026 - LeadDev ",
                " Cursor: the AI-native IDE. Cursor remains … ",
            ],
        );
        assert_eq!(read.site, "LeadDev");
        assert_eq!(read.title, "The best AI-coding tools in 2026 - LeadDev");
        assert_eq!(read.snippet, "Cursor: the AI-native IDE. Cursor remains …");
        let no_snippet = card(
            "https://cloud.google.com/x",
            None,
            &[
                "Google Cloud",
                "cloud.google.com",
                "10+ Free AI tools for 2026",
            ],
        );
        assert_eq!(no_snippet.site, "Google Cloud");
        assert_eq!(no_snippet.title, "10+ Free AI tools for 2026");
        assert_eq!(no_snippet.snippet, "");
    }

    #[test]
    fn the_title_attribute_is_the_title_and_the_url_is_never_a_part() {
        let url = "https://www.aimadetools.com/blog/x/?utm_source=copilot.com";
        let domain_only = card(
            url,
            Some("Best AI Coding Tools in 2026"),
            &[
                "www.aimadetools.com",
                "Best AI Coding Tools in 2026",
                "https://www.aimadetools.com/blog/x/",
            ],
        );
        assert_eq!(domain_only.title, "Best AI Coding Tools in 2026");
        assert_eq!(domain_only.site, "");
        assert_eq!(domain_only.snippet, "");
        let labelled = card(
            "https://zapier.com/blog/ai-coding-tools/?utm_source=copilot.com",
            Some("The 9 best AI coding tools in 2026 - Zapier"),
            &[
                "Zapier",
                "The 9 best AI coding tools in 2026 - Zapier",
                "https://zapier.com/blog/ai-coding-tools/",
            ],
        );
        assert_eq!(labelled.site, "Zapier");
        assert_eq!(
            labelled.title,
            "The 9 best AI coding tools in 2026 - Zapier"
        );
        // A title attribute that is an address says nothing.
        let addressed = card(
            url,
            Some("https://www.aimadetools.com/"),
            &["Guide to tools"],
        );
        assert_eq!(addressed.title, "");
        assert_eq!(addressed.site, "Guide to tools");
    }

    #[test]
    fn a_pill_names_the_site_and_a_numbered_card_reads_its_title_site_and_snippet() {
        let pill = card("https://en.wikipedia.org/wiki/MCP", None, &["Wikipedia"]);
        assert_eq!((pill.site.as_str(), pill.title.as_str()), ("Wikipedia", ""));
        let more = card("https://en.wikipedia.org/wiki/MCP", None, &["Wikipedia +2"]);
        assert_eq!((more.site.as_str(), more.title.as_str()), ("Wikipedia", ""));
        let glued = card("https://en.wikipedia.org/wiki/MCP", None, &["Wikipedia+2"]);
        assert_eq!(
            (glued.site.as_str(), glued.title.as_str()),
            ("Wikipedia", "")
        );
        // Perplexity's chip names the site by its address: nothing of it is a title.
        let chip = card(
            "https://research.contrary.com/x",
            None,
            &["research.contrary+2"],
        );
        assert!(chip.is_bare(), "{chip:?}");
        let sentence = card(
            "https://rei.com/x",
            None,
            &["How to choose hiking boots that fit"],
        );
        assert_eq!(sentence.title, "How to choose hiking boots that fit");
        assert_eq!(sentence.site, "");
        let numbered = card(
            "https://www.rei.com/learn/boots",
            None,
            &[
                "The Best Hiking Boots of 2025, Tested | REI",
                "REI",
                "www.rei.com",
                "3",
                "Fit and sizing decide more than the brand does.",
            ],
        );
        assert_eq!(
            numbered.title,
            "The Best Hiking Boots of 2025, Tested | REI"
        );
        assert_eq!(numbered.site, "REI");
        assert_eq!(
            numbered.snippet,
            "Fit and sizing decide more than the brand does."
        );
        // The address with its number after it, as one block, is the domain.
        let joined = card(
            "https://www.rei.com/learn/boots",
            None,
            &["Boots Explained, Step by Step", "www.rei.com 1"],
        );
        assert_eq!(joined.title, "Boots Explained, Step by Step");
        assert!(joined.snippet.is_empty() && joined.site.is_empty());
    }

    #[test]
    fn what_is_a_label_a_domain_and_an_address() {
        assert!(is_label("PE Collective") && is_label("Runner's World"));
        assert!(!is_label("Top 10 tools") && !is_label("Boots - REI"));
        assert!(!is_label("It fits well."));
        assert!(is_domain("www.nxcode.io") && is_domain("leaddev.com › ai › best"));
        assert!(!is_domain("Cursor: the IDE.") && !is_domain("v1.2"));
        assert!(is_address("https://a.example/x") && !is_address("https://a b"));
        assert!(card("https://a.example/", None, &[]).is_bare());
    }
}
