//! Link targets: which hrefs count, unwrapping redirect links, hosts for icon-only links.

use percent_encoding::percent_decode_str;

/// The link target an `href` (as parsed, entities decoded) stands for, or `None` for hrefs
/// that lead nowhere useful (empty, `#fragment` only, `javascript:`). Redirect wrappers
/// like Google's `/url?q=<target>&...` are unwrapped to their target.
pub fn resolve_href(href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    if href
        .get(..11)
        .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
    {
        return None;
    }
    if let Some(target) = unwrap_redirect(href) {
        return Some(target);
    }
    Some(href.to_owned())
}

/// `/url?q=https://...&sa=U` (relative or on a google host) → the target.
fn unwrap_redirect(href: &str) -> Option<String> {
    let query = if let Some(q) = href.strip_prefix("/url?") {
        q
    } else {
        let rest = href
            .strip_prefix("https://")
            .or_else(|| href.strip_prefix("http://"))?;
        let slash = rest.find('/')?;
        let host = &rest[..slash];
        if !host.contains("google.") {
            return None;
        }
        rest[slash..].strip_prefix("/url?")?
    };
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        if (k == "q" || k == "url") && !v.is_empty() {
            let target = percent_decode(v);
            if target.starts_with("http://") || target.starts_with("https://") {
                return Some(target);
            }
        }
    }
    None
}

fn percent_decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// The host of an absolute URL (`https://host:port/...` → `host:port`), or the URL itself.
pub fn host_of(url: &str) -> &str {
    let Some(idx) = url.find("://") else {
        return url;
    };
    let rest = &url[idx + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let host = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    if host.is_empty() { url } else { host }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_useless_hrefs() {
        assert_eq!(resolve_href(""), None);
        assert_eq!(resolve_href("  "), None);
        assert_eq!(resolve_href("#top"), None);
        assert_eq!(resolve_href("JavaScript:void(0)"), None);
        assert_eq!(resolve_href("javascript:"), None);
        assert_eq!(
            resolve_href(" /search?q=a&b=c ").as_deref(),
            Some("/search?q=a&b=c")
        );
        assert_eq!(
            resolve_href("https://a.b/c#d").as_deref(),
            Some("https://a.b/c#d")
        );
    }

    #[test]
    fn unwraps_google_redirects() {
        assert_eq!(
            resolve_href("/url?q=https://example.com/a%3Fb%3D1%26c%3D2&sa=U&ved=x").as_deref(),
            Some("https://example.com/a?b=1&c=2")
        );
        assert_eq!(
            resolve_href("https://www.google.com/url?sa=t&url=https%3A%2F%2Fex.org%2F&ved=1")
                .as_deref(),
            Some("https://ex.org/")
        );
        // Not a web target: kept as given.
        assert_eq!(
            resolve_href("/url?q=%2Fsearch").as_deref(),
            Some("/url?q=%2Fsearch")
        );
        assert_eq!(percent_decode("%E6%97%A5%2"), "日%2");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("https://user@www.ex.com:8080/x?y"),
            "www.ex.com:8080"
        );
        assert_eq!(host_of("https://ex.com"), "ex.com");
        assert_eq!(host_of("/relative"), "/relative");
    }
}

/// Links deduplicated by URL as they are found, in document order, each with its card when
/// cards are read; linear in their number.
#[derive(Debug, Default)]
pub(crate) struct LinkList {
    links: Vec<super::Link>,
    /// Empty unless cards are read; then one per link, in the same order.
    cards: Vec<super::Card>,
    index: std::collections::HashMap<String, usize>,
}

impl LinkList {
    /// Adds the link to `url`, or gives a text to the one already there if it had only its
    /// host (and its card, if that said nothing); returns its 1-based number. An empty text
    /// stands for the URL's host. Every link of a list comes with its card, or none does.
    pub(crate) fn add(&mut self, url: String, text: String, card: Option<super::Card>) -> usize {
        if let Some(&i) = self.index.get(&url) {
            let known = &mut self.links[i];
            if known.text == host_of(&known.url) && !text.is_empty() {
                known.text = text;
            }
            if let (Some(card), Some(known)) = (card, self.cards.get_mut(i))
                && known.is_bare()
            {
                *known = card;
            }
            return i + 1;
        }
        let text = if text.is_empty() {
            host_of(&url).to_owned()
        } else {
            text
        };
        self.index.insert(url.clone(), self.links.len());
        self.links.push(super::Link { url, text });
        self.cards.extend(card);
        self.links.len()
    }

    /// The link numbered `n` (1-based).
    pub(crate) fn get(&self, n: usize) -> Option<&super::Link> {
        self.links.get(n.checked_sub(1)?)
    }

    /// The links and, in the same order, their cards (none when cards were not read).
    pub(crate) fn into_parts(self) -> (Vec<super::Link>, Vec<super::Card>) {
        (self.links, self.cards)
    }
}
