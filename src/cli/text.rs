//! Answers and results pages as readable text for the terminal.

use crate::api::{AiAnswer, Completion, JobAnswer, Model, SearchAnswer, SearchResults};
use crate::present::answer::{self, SourceLink};
use crate::present::search_page::{paged_html, thousands};
use crate::render::{self, RenderOptions};
use crate::sanitize::one_line;

pub(super) fn job_text(answer: &JobAnswer) -> String {
    match answer {
        JobAnswer::Ai(ai) => ai_text(ai, Model::Chatgpt),
        JobAnswer::Search(SearchAnswer::Results(results)) => search_text(results),
        JobAnswer::Search(SearchAnswer::Html(html)) => html_text(&paged_html(html), None),
        // A page asked as Markdown comes back as Markdown: printed as it is.
        JobAnswer::Browser(body) if !body.trim_start().starts_with('<') => body.clone(),
        JobAnswer::Browser(html) => html_text(html, None),
    }
}

/// An HTML page as plain text followed by its numbered links.
pub(super) fn html_text(html: &str, drop_first: Option<&'static str>) -> String {
    let doc = render::html_to_document(
        html,
        &RenderOptions {
            drop_first,
            ..RenderOptions::default()
        },
    );
    let mut text = doc.plain_text();
    append_links(
        &mut text,
        "Links",
        doc.links().iter().map(|l| (&l.text, &l.url)),
    );
    text
}

pub(super) fn append_links<'a>(
    text: &mut String,
    heading: &str,
    links: impl Iterator<Item = (&'a String, &'a String)>,
) {
    let lines: Vec<String> = links
        .enumerate()
        .map(|(i, (title, url))| {
            let url = one_line(url);
            if title.is_empty() || title == url.as_ref() {
                format!("  {}. {url}", i + 1)
            } else {
                format!("  {}. {} — {url}", i + 1, one_line(title))
            }
        })
        .collect();
    if !lines.is_empty() {
        text.push_str(&format!("\n\n{heading}:\n{}", lines.join("\n")));
    }
}

/// An answer's sources under a heading, each as its card reads: the title (else the site)
/// and where it is from, the address, the snippet.
pub(super) fn sources_text(sources: &[SourceLink]) -> String {
    if sources.is_empty() {
        return String::new();
    }
    let mut text = String::from("\n\nSources:");
    for (i, source) in sources.iter().enumerate() {
        text.push_str(&format!(
            "\n  {}. {} — {}\n     {}",
            i + 1,
            one_line(source.headline()),
            one_line(&source.byline()),
            one_line(&source.url)
        ));
        if !source.snippet.is_empty() {
            text.push_str(&format!("\n     {}", one_line(&source.snippet)));
        }
    }
    text
}

/// The completion as plain text, its sources (from `sources` and citations inside the
/// answer, deduplicated) and its fanout queries.
pub fn ai_text(answer: &AiAnswer, requested_model: Model) -> String {
    match answer {
        AiAnswer::Html(html) => html_text(html, requested_model.hidden_label_tag()),
        AiAnswer::Completion(completion) => completion_text(completion, requested_model),
    }
}

fn completion_text(completion: &Completion, requested_model: Model) -> String {
    let model = completion.model.parse().unwrap_or(requested_model);
    let doc = render::html_to_document(
        &completion.completion,
        &RenderOptions {
            drop_first: model.hidden_label_tag(),
            cards: true,
            ..RenderOptions::default()
        },
    );
    let mut text = doc.plain_text().trim().to_string();
    text.push_str(&sources_text(&answer::answer_sources(
        &completion.sources,
        &doc,
    )));
    if !completion.fanouts.is_empty() {
        text.push_str("\n\nFanout queries:\n");
        text.push_str(
            &completion
                .fanouts
                .iter()
                .map(|q| format!("  - {}", one_line(q)))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    text.push('\n');
    text
}

/// Terms in double quotes, once: an exact phrase already quoted shows as typed.
pub(super) fn quoted_once(terms: &str) -> String {
    let already = terms.len() >= 2 && terms.starts_with('"') && terms.ends_with('"');
    if already {
        terms.to_string()
    } else {
        format!("\"{terms}\"")
    }
}

/// "1 result", "12,400 results".
pub(super) fn results_count(n: u64) -> String {
    format!(
        "{} {}",
        thousands(n),
        crate::plural::noun(n, "result", "results")
    )
}

/// Results as a ranked list, grouped by page, with sitelinks under each result.
pub fn search_text(results: &SearchResults) -> String {
    let mut text = String::new();
    let location = [&results.city, &results.subdivision, &results.country]
        .into_iter()
        .filter_map(|p| p.as_deref())
        .map(one_line)
        .collect::<Vec<_>>()
        .join(", ");
    text.push_str(&format!(
        "{} · {} · {}",
        if results.engine.is_empty() {
            "search".into()
        } else {
            one_line(&results.engine)
        },
        quoted_once(&one_line(&results.terms)),
        results_count(
            results
                .results_count
                .unwrap_or(results.results.len() as u64)
        ),
    ));
    if let Some(approx) = results.approx_results_count {
        text.push_str(&format!(" (about {})", thousands(approx)));
    }
    if let Some(pages) = results.page_count {
        text.push_str(&format!(
            " · {}",
            crate::plural::count(u64::from(pages), "page", "pages")
        ));
    }
    if !location.is_empty() {
        text.push_str(&format!(" · from {location}"));
    }
    text.push('\n');
    let mut page = None;
    let mut rank = 0;
    for result in &results.results {
        if page != Some(result.page) {
            page = Some(result.page);
            text.push_str(&format!("\nPage {}\n", result.page));
        }
        // Each field on its own line of the list: cleaned one by one, so that an escape
        // sequence left open in one cannot swallow the fields after it.
        let heading = one_line(result.heading());
        if result.kind.is_organic() {
            rank += 1;
            text.push_str(&format!("{rank:>3}. {heading}"));
            if !result.site.is_empty() {
                text.push_str(&format!(" — {}", one_line(&result.site)));
            }
            text.push('\n');
            text.push_str(&format!("     {}\n", one_line(result.target_url())));
            if !result.snippet.is_empty() {
                text.push_str(&format!("     {}\n", one_line(&result.snippet)));
            }
            for link in &result.sitelinks {
                text.push_str(&format!(
                    "       ↳ {} {}\n",
                    one_line(&link.title),
                    one_line(&link.url)
                ));
            }
        } else {
            text.push_str(&format!(
                "   · [{}] {heading}",
                one_line(result.kind.type_name())
            ));
            if let Some(answer) = &result.answer {
                text.push_str(&format!(" — {}", one_line(&answer.description)));
            }
            if !result.publisher.is_empty() {
                text.push_str(&format!(" — {}", one_line(&result.publisher)));
            }
            text.push('\n');
            let url = result.target_url();
            if !url.is_empty() {
                text.push_str(&format!("     {}\n", one_line(url)));
            }
        }
    }
    text
}
