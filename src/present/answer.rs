//! A chat answer made ready to draw: converted once, off the UI task, when it lands.

use std::time::Duration;

use crate::analysis::mentions::{self, Brand, Mention};
use crate::analysis::outline::Outline;
use crate::analysis::products::Suggested;
use crate::api::decode::{RawResponse, decode_ai};
use crate::api::{AiAnswer, AiFormat, AiRequest, Completion, Fetched, Location, Model};
use crate::render::{self, Card, RenderOptions};

use super::Stop;
use super::text::TextBody;

/// The views of an answer, in the order they cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnswerView {
    Answer,
    Sources,
    Fanouts,
    Ads,
    Prompt,
    Html,
    Json,
    /// The tracked brands the answer names, in the answer's order (its list's, else prose).
    Mentions,
}

impl AnswerView {
    pub fn title(self) -> &'static str {
        match self {
            AnswerView::Answer => "Answer",
            AnswerView::Sources => "Sources",
            AnswerView::Fanouts => "Fanouts",
            AnswerView::Ads => "Ads",
            AnswerView::Prompt => "Prompt",
            AnswerView::Html => "HTML",
            AnswerView::Json => "JSON",
            AnswerView::Mentions => "Mentions",
        }
    }
}

/// Where a source link was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceOrigin {
    /// The answer's `sources` section.
    Sources,
    /// A citation inside the answer itself.
    Citation,
    /// A link of a rendered/raw page.
    Page,
}

/// A cited page, read from its card: title, site, address and snippet apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLink {
    /// The page's title; empty when the citation names only its site (a ChatGPT pill).
    pub title: String,
    /// The site's own label ("LeadDev", "Wikipedia"), else its domain.
    pub site: String,
    /// The page, without tracking parameters (`utm_*`) or a text fragment (`#:~:text=`).
    pub url: String,
    /// The page's host without `www.`.
    pub domain: String,
    /// The words the card quotes from the page; empty when it quotes none.
    pub snippet: String,
    pub origin: SourceOrigin,
}

impl SourceLink {
    /// The source a card stands for; `None` for a link that is no web page.
    pub fn of_card(card: &Card, origin: SourceOrigin) -> Option<SourceLink> {
        if !card.url.starts_with("http") {
            return None;
        }
        let domain = domain_of(&card.url);
        Some(SourceLink {
            title: card.title.clone(),
            site: match card.site.is_empty() {
                true => domain.clone(),
                false => card.site.clone(),
            },
            url: clean_url(&card.url),
            domain,
            snippet: card.snippet.clone(),
            origin,
        })
    }

    /// What names the source in a list: its title, else its site.
    pub fn headline(&self) -> &str {
        match self.title.is_empty() {
            false => &self.title,
            true => &self.site,
        }
    }

    /// Where it is from, under its headline: the site and the domain ("LeadDev ·
    /// leaddev.com"), the domain alone where the site is the headline or is the domain.
    pub fn byline(&self) -> String {
        let site_is_domain = self.site.eq_ignore_ascii_case(&self.domain)
            || self
                .site
                .eq_ignore_ascii_case(&format!("www.{}", self.domain));
        if self.title.is_empty() || site_is_domain || self.domain.is_empty() {
            self.domain.clone()
        } else {
            format!("{} · {}", self.site, self.domain)
        }
    }

    /// Fills what this reading of the page lacks from another reading of it.
    fn fill_from(&mut self, other: &SourceLink) {
        if self.title.is_empty() {
            self.title.clone_from(&other.title);
        }
        if self.site == self.domain && other.site != other.domain {
            self.site.clone_from(&other.site);
        }
        if self.snippet.is_empty() {
            self.snippet.clone_from(&other.snippet);
        }
    }
}

/// The line above the answer: what was asked of whom, from where, and what came back.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerHeader {
    pub model: Model,
    pub device: Option<String>,
    pub location: Location,
    pub elapsed: Duration,
    pub bytes: usize,
    pub cache_allowed: bool,
    pub format: AiFormat,
}

impl AnswerHeader {
    pub fn describe(&self) -> String {
        format!(
            "{} · {} · {} · {} · {} · {}",
            self.model.display_name(),
            self.device.as_deref().unwrap_or(crate::devices::DESKTOP),
            self.location.describe(),
            crate::measure::duration(self.elapsed),
            crate::measure::size(self.bytes as u64),
            if self.cache_allowed {
                "cache allowed"
            } else {
                "fresh (no cache)"
            }
        )
    }
}

/// Everything the views of one answer need, prepared once.
#[derive(Clone, Debug)]
pub struct PreparedAnswer {
    pub request: AiRequest,
    pub header: AnswerHeader,
    pub views: Vec<AnswerView>,
    pub answer: TextBody,
    pub sources: Vec<SourceLink>,
    pub fanouts: Vec<String>,
    pub ads: Option<TextBody>,
    /// How many ads: the distinct pages the ads link to.
    pub ad_count: usize,
    pub prompt: Option<TextBody>,
    pub html: TextBody,
    pub json: Option<TextBody>,
    /// The body as received, for export and copy.
    pub body: String,
    /// The answer as Markdown, for export and copy.
    pub markdown: String,
    /// The answer's words, for comparisons.
    pub plain_text: String,
    /// The answer's shape (its lists, numbered headings and tables, with their subjects),
    /// where brands are read; its text alone when the page was too costly to parse.
    pub outline: Outline,
    /// Names the answer puts forward (bold terms, list heads, links), to suggest as brands,
    /// products under their brands.
    pub candidates: Vec<Suggested>,
    /// The answer is a results page's AI Overview (a comparison's `ai-overview` column), not
    /// a chatbot's: the header's model then only stands in.
    pub ai_overview: bool,
    /// The page was past the bounds of a reading in its shape: its text was read as prose,
    /// and the names it puts forward are not known.
    pub read_as_text: bool,
}

fn domain_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| {
            u.host_str()
                .map(|h| h.trim_start_matches("www.").to_string())
        })
        .unwrap_or_default()
}

/// A URL without its tracking parameters (`utm_*`) and fragment, so that the same page cited
/// as `…?utm_source=chatgpt.com` and listed plainly counts once.
pub fn canonical_url(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return url.to_string();
    };
    let kept: Vec<(String, String)> = parsed
        .query_pairs()
        .filter(|(k, _)| !k.starts_with("utm_"))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    parsed.set_fragment(None);
    if kept.is_empty() {
        parsed.set_query(None);
    } else {
        parsed.query_pairs_mut().clear().extend_pairs(kept);
    }
    parsed.to_string()
}

/// A URL without its tracking parameters (`utm_*`) and its text fragment (`#:~:text=…`, a
/// highlight the chatbot adds): the page as its site names it. Other URLs stay as they are.
pub fn clean_url(url: &str) -> String {
    let tracked = url.contains("utm_");
    let highlighted = url.contains(":~:");
    if !tracked && !highlighted {
        return url.to_string();
    }
    let Ok(mut parsed) = url::Url::parse(url) else {
        return url.to_string();
    };
    if tracked && parsed.query_pairs().any(|(k, _)| k.starts_with("utm_")) {
        let kept: Vec<(String, String)> = parsed
            .query_pairs()
            .filter(|(k, _)| !k.starts_with("utm_"))
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        if kept.is_empty() {
            parsed.set_query(None);
        } else {
            parsed.query_pairs_mut().clear().extend_pairs(kept);
        }
    }
    if let Some(fragment) = parsed.fragment()
        && let Some((before, _)) = fragment.split_once(":~:")
    {
        let before = before.to_string();
        parsed.set_fragment((!before.is_empty()).then_some(before.as_str()));
    }
    parsed.to_string()
}

/// The cards of several places as sources, each page once (by [`canonical_url`]) where it
/// is first found, with what a later card of it says that the first did not.
pub fn merge_sources(groups: Vec<(Vec<Card>, SourceOrigin)>) -> Vec<SourceLink> {
    let mut out: Vec<SourceLink> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (cards, origin) in groups {
        for card in &cards {
            let Some(source) = SourceLink::of_card(card, origin) else {
                continue;
            };
            match seen.entry(canonical_url(&card.url)) {
                std::collections::hash_map::Entry::Occupied(at) => {
                    out[*at.get()].fill_from(&source);
                }
                std::collections::hash_map::Entry::Vacant(at) => {
                    at.insert(out.len());
                    out.push(source);
                }
            }
        }
    }
    out
}

/// An answer's sources: the cards of its `sources` section first, then the pages its text
/// cites, each page once.
pub fn answer_sources(sources_html: &str, answer: &render::Document) -> Vec<SourceLink> {
    merge_sources(vec![
        (render::extract_cards(sources_html), SourceOrigin::Sources),
        (answer.cards().to_vec(), SourceOrigin::Citation),
    ])
}

/// Converts a fetched answer into its views. Pure and possibly slow: run it off the UI task.
pub fn prepare(request: AiRequest, fetched: Fetched<AiAnswer>) -> PreparedAnswer {
    prepare_until(request, fetched, &Stop::default())
}

/// What an answer is prepared for: to be shown (every view), or only to be read for its
/// brands, sources and names (the views' layouts — JSON, Markdown, ads, prompt — skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    View,
    Reading,
}

/// A stored answer's body (a JSON completion, or the model's page as HTML) made ready to
/// read again; `None` for a body that is neither.
pub fn prepare_stored(request: AiRequest, body: &str) -> Option<PreparedAnswer> {
    prepare_stored_for(request, body, Purpose::View)
}

/// A stored answer read for its brands, sources and names only: what tracking, discovery
/// and the report's counts need, without laying out views nobody will see.
pub fn prepare_to_read(request: AiRequest, body: &str) -> Option<PreparedAnswer> {
    prepare_stored_for(request, body, Purpose::Reading)
}

fn prepare_stored_for(request: AiRequest, body: &str, purpose: Purpose) -> Option<PreparedAnswer> {
    // A completion or the model's page, read as it was when it arrived (bounds included:
    // one kept before answers were bounded is skipped); any other body has nothing to read.
    if !body.trim_start().starts_with(['{', '<']) {
        return None;
    }
    let raw = RawResponse {
        status: 200,
        content_type: String::new(),
        body: body.to_owned(),
        elapsed: Duration::ZERO,
    };
    let value = decode_ai(&raw).ok()?;
    let fetched = Fetched {
        value,
        body: raw.body,
        status: raw.status,
        content_type: raw.content_type,
        elapsed: raw.elapsed,
    };
    Some(prepare_for(request, fetched, &Stop::default(), purpose))
}

/// [`prepare`], skipping what is left once `stop` is set (the answer is then dropped).
pub fn prepare_until(
    request: AiRequest,
    fetched: Fetched<AiAnswer>,
    stop: &Stop,
) -> PreparedAnswer {
    prepare_for(request, fetched, stop, Purpose::View)
}

fn prepare_for(
    request: AiRequest,
    fetched: Fetched<AiAnswer>,
    stop: &Stop,
    purpose: Purpose,
) -> PreparedAnswer {
    let view = purpose == Purpose::View;
    let requested_model = request.effective_model();
    let mut header = AnswerHeader {
        model: requested_model,
        device: request.device.clone(),
        location: request.location.clone(),
        elapsed: fetched.elapsed,
        bytes: fetched.body.len(),
        cache_allowed: request.expiration != Some(0),
        format: request.format,
    };
    match fetched.value {
        AiAnswer::Completion(completion) => {
            prepare_completion(request, header, *completion, fetched.body, stop, purpose)
        }
        AiAnswer::Html(html) => {
            let doc = render::html_to_document(
                &html,
                &RenderOptions {
                    drop_first: requested_model.hidden_label_tag(),
                    cards: true,
                    ..RenderOptions::default()
                },
            );
            let sources = merge_sources(vec![(doc.cards().to_vec(), SourceOrigin::Page)]);
            header.format = request.format;
            let markdown = if view {
                doc.to_markdown()
            } else {
                String::new()
            };
            let (outline, candidates, plain_text, read_as_text) = shape(
                &html,
                &request.prompt,
                requested_model.hidden_label_tag(),
                &doc,
                stop,
            );
            let candidates = without_sources(candidates, &sources, &outline);
            PreparedAnswer {
                request,
                header,
                views: vec![
                    AnswerView::Answer,
                    AnswerView::Sources,
                    AnswerView::Mentions,
                    AnswerView::Html,
                ],
                answer: TextBody::document(doc),
                sources,
                fanouts: Vec::new(),
                ads: None,
                ad_count: 0,
                prompt: None,
                html: TextBody::raw(if view { &html } else { "" }),
                json: None,
                markdown,
                plain_text,
                outline,
                candidates,
                ai_overview: false,
                read_as_text,
                body: fetched.body,
            }
        }
    }
}

fn prepare_completion(
    request: AiRequest,
    mut header: AnswerHeader,
    completion: Completion,
    body: String,
    stop: &Stop,
    purpose: Purpose,
) -> PreparedAnswer {
    // Only to read: the layouts of the views are skipped as if stopped.
    let skip_views = stop.is_set() || purpose == Purpose::Reading;
    let model = completion.model.parse().unwrap_or(header.model);
    header.model = model;
    // What the service reports it used wins over what was asked (it picks when unset).
    if completion.device.is_some() {
        header.device = completion.device.clone();
    }
    if completion.country.is_some() {
        header.location = Location {
            country: completion.country.clone(),
            subdivision: completion.subdivision.clone(),
            city: completion.city.clone(),
        };
    }
    let options = RenderOptions {
        drop_first: model.hidden_label_tag(),
        cards: true,
        ..RenderOptions::default()
    };
    let answer = render::html_to_document(&completion.completion, &options);
    // Each later step is skipped once the answer is no longer wanted; the ads and the
    // prompt cite nothing.
    let others = RenderOptions {
        cards: false,
        ..options
    };
    let render = |html: &str| match skip_views {
        true => render::Document::default(),
        false => render::html_to_document(html, &others),
    };
    let sources = match stop.is_set() {
        true => Vec::new(),
        false => answer_sources(&completion.sources, &answer),
    };
    let ads_doc = (!completion.ads.trim().is_empty()).then(|| render(&completion.ads));
    let ad_count = ads_doc.as_ref().map_or(0, |doc| {
        let mut urls: Vec<&str> = doc.links().iter().map(|l| l.url.as_str()).collect();
        urls.sort_unstable();
        urls.dedup();
        urls.len().max(1)
    });
    let ads = ads_doc.map(TextBody::document);
    let prompt = render(&completion.prompt);
    let json = match skip_views {
        true => String::new(),
        false => render::pretty_json(&body).unwrap_or_else(|| body.clone()),
    };
    let markdown = match skip_views {
        true => String::new(),
        false => answer.to_markdown(),
    };
    let (outline, candidates, plain_text, read_as_text) = shape(
        &completion.completion,
        &request.prompt,
        model.hidden_label_tag(),
        &answer,
        stop,
    );
    let candidates = without_sources(candidates, &sources, &outline);
    PreparedAnswer {
        request,
        header,
        views: vec![
            AnswerView::Answer,
            AnswerView::Sources,
            AnswerView::Mentions,
            AnswerView::Fanouts,
            AnswerView::Ads,
            AnswerView::Prompt,
            AnswerView::Html,
            AnswerView::Json,
        ],
        answer: TextBody::document(answer),
        sources,
        fanouts: completion.fanouts,
        ads,
        ad_count,
        prompt: Some(TextBody::document(prompt)),
        html: TextBody::raw(if skip_views { "" } else { &completion.html }),
        json: Some(TextBody::raw(&json)),
        markdown,
        plain_text,
        outline,
        candidates,
        ai_overview: false,
        read_as_text,
        body,
    }
}

/// The names the answer puts forward that are not sources: the sites it cites (unless it
/// puts one forward as an item's subject), publishers and testing bodies.
fn without_sources(
    candidates: Vec<Suggested>,
    sources: &[SourceLink],
    outline: &Outline,
) -> Vec<Suggested> {
    let mut names = super::discover::SourceNames::default();
    names.add(sources, outline);
    names.brands_of(candidates)
}

/// The answer's shape, the names it puts forward and its words: the shape's text, which
/// leaves out what the page hides and its citation chips (the rendered document's text, read
/// as prose, when the page is too costly to parse, and then `true`); nothing once the answer
/// is no longer wanted.
fn shape(
    html: &str,
    prompt: &str,
    hidden_label: Option<&'static str>,
    doc: &render::Document,
    stop: &Stop,
) -> (Outline, Vec<Suggested>, String, bool) {
    if stop.is_set() {
        return (Outline::default(), Vec::new(), String::new(), false);
    }
    match crate::analysis::names::shape_and_names(html, prompt, hidden_label) {
        (Some(outline), names) => {
            let words = outline.text.clone();
            (outline, names, words, false)
        }
        (None, names) => {
            let words = doc.plain_text();
            (Outline::prose(&words), names, words, true)
        }
    }
}

impl PreparedAnswer {
    /// How the answer mentions each of `brands`, read in its shape; its sources count as
    /// cited. The one reading of an answer's brands, for the app, the CLI and tracking.
    pub fn mentions(&self, brands: &[Brand]) -> Vec<Mention> {
        let urls: Vec<&str> = self.sources.iter().map(|s| s.url.as_str()).collect();
        mentions::read(&self.outline, &urls, brands)
    }

    /// The Markdown file `e` writes: the prompt, the header, the answer, its sources.
    pub fn export_markdown(&self) -> String {
        self.to_export().markdown()
    }

    /// What the Markdown export is made of, taken so that the file is made off the UI task.
    pub fn to_export(&self) -> AnswerExport {
        AnswerExport {
            prompt: self.request.prompt.clone(),
            header: self.header.describe(),
            markdown: self.markdown.clone(),
            sources: self.sources.clone(),
            fanouts: self.fanouts.clone(),
        }
    }

    /// The JSON file `e` writes: the body as received, pretty when it is JSON, its control
    /// characters as escapes.
    pub fn export_json(&self) -> String {
        crate::shareable::json::received(&self.body)
    }

    /// The text of a view, when it is a text body.
    pub fn body_of(&self, view: AnswerView) -> Option<&TextBody> {
        match view {
            AnswerView::Answer => Some(&self.answer),
            AnswerView::Ads => self.ads.as_ref(),
            AnswerView::Prompt => self.prompt.as_ref(),
            AnswerView::Html => Some(&self.html),
            AnswerView::Json => self.json.as_ref(),
            AnswerView::Sources | AnswerView::Fanouts | AnswerView::Mentions => None,
        }
    }

    /// How many items a list view has (sources, fanouts).
    pub fn list_len(&self, view: AnswerView) -> usize {
        match view {
            AnswerView::Sources => self.sources.len(),
            AnswerView::Fanouts => self.fanouts.len(),
            _ => 0,
        }
    }
}

/// What an answer's Markdown export is made of, taken from the answer so that the file is
/// made where it is written, off the UI task.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerExport {
    pub prompt: String,
    pub header: String,
    pub markdown: String,
    pub sources: Vec<SourceLink>,
    pub fanouts: Vec<String>,
}

impl AnswerExport {
    /// The prompt, the header, the answer, its sources and fanouts. What came from outside
    /// is written through [`crate::shareable::markdown`].
    pub fn markdown(&self) -> String {
        use crate::shareable::markdown;
        let mut out = format!(
            "# {}\n\n_{}_\n\n{}\n",
            markdown::text(self.prompt.trim()),
            markdown::text(&self.header),
            markdown::foreign(self.markdown.trim()).trim_end()
        );
        if !self.sources.is_empty() {
            out.push_str("\n## Sources\n\n");
            for (i, s) in self.sources.iter().enumerate() {
                out.push_str(&format!(
                    "{}. {} — {}",
                    i + 1,
                    markdown::link(s.headline(), &s.url),
                    markdown::text(&s.byline())
                ));
                if !s.snippet.is_empty() {
                    out.push_str(&format!("  \n   {}", markdown::text(&s.snippet)));
                }
                out.push('\n');
            }
        }
        if !self.fanouts.is_empty() {
            out.push_str("\n## Fanout queries\n\n");
            for q in &self.fanouts {
                out.push_str(&format!("- {}\n", markdown::text(q)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_no_longer_wanted_skips_what_is_left() {
        let completion = Completion {
            completion: "<p>Try the <b>Salomon X Ultra</b>.</p>".to_owned(),
            prompt: "<p>boots</p>".to_owned(),
            ..Completion::default()
        };
        let fetched = || Fetched {
            value: AiAnswer::Completion(Box::new(completion.clone())),
            body: "{}".to_owned(),
            status: 200,
            content_type: "application/json".to_owned(),
            elapsed: Duration::from_millis(5),
        };
        let whole = prepare(AiRequest::new("boots"), fetched());
        assert!(!whole.plain_text.is_empty());
        assert!(!whole.candidates.is_empty());
        let stop = Stop::default();
        stop.set();
        let stopped = prepare_until(AiRequest::new("boots"), fetched(), &stop);
        assert!(stopped.plain_text.is_empty());
        assert!(stopped.candidates.is_empty());
        assert!(stopped.prompt.as_ref().is_some_and(TextBody::is_empty));
    }

    #[test]
    fn tracking_parameters_do_not_make_a_second_source() {
        assert_eq!(
            canonical_url("https://a.example/x?utm_source=chatgpt.com#frag"),
            "https://a.example/x"
        );
        assert_eq!(
            canonical_url("https://a.example/x?id=3&utm_medium=y"),
            "https://a.example/x?id=3"
        );
        let card = |url: &str| Card {
            url: url.to_string(),
            ..Card::default()
        };
        let merged = merge_sources(vec![
            (
                vec![card("https://a.example/x?utm_source=chatgpt.com")],
                SourceOrigin::Citation,
            ),
            (
                vec![card("https://a.example/x"), card("javascript:void(0)")],
                SourceOrigin::Sources,
            ),
        ]);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].headline(), "a.example");
        assert_eq!(merged[0].url, "https://a.example/x");
    }

    #[test]
    fn a_later_card_of_a_page_fills_what_the_first_lacks() {
        let merged = merge_sources(vec![
            (
                vec![Card {
                    url: "https://www.rei.com/boots#:~:text=fit".into(),
                    title: "Boots that fit".into(),
                    ..Card::default()
                }],
                SourceOrigin::Sources,
            ),
            (
                vec![Card {
                    url: "https://www.rei.com/boots?utm_source=chatgpt.com".into(),
                    site: "REI".into(),
                    snippet: "Fit first.".into(),
                    ..Card::default()
                }],
                SourceOrigin::Citation,
            ),
        ]);
        assert_eq!(merged.len(), 1);
        let rei = &merged[0];
        assert_eq!(
            (rei.title.as_str(), rei.site.as_str(), rei.snippet.as_str()),
            ("Boots that fit", "REI", "Fit first.")
        );
        assert_eq!(rei.url, "https://www.rei.com/boots");
        assert_eq!(rei.origin, SourceOrigin::Sources);
        assert_eq!(rei.byline(), "REI · rei.com");
    }

    #[test]
    fn clean_urls_lose_tracking_and_highlights_only() {
        assert_eq!(
            clean_url("https://a.example/x?id=3&utm_source=copilot.com#part"),
            "https://a.example/x?id=3#part"
        );
        assert_eq!(
            clean_url("https://a.example/x#:~:text=Cursor%3A%20the"),
            "https://a.example/x"
        );
        assert_eq!(
            clean_url("https://a.example/x#top:~:text=a"),
            "https://a.example/x#top"
        );
        assert_eq!(clean_url("https://a.example"), "https://a.example");
    }
}
