//! A set's report as one file for people who never open a terminal: an HTML page that asks
//! for nothing when opened (styles inline, charts as inline SVG, no script), readable on a
//! phone and printed; and the same as Markdown with its charts as SVG files beside it.
//! Pure: the report's readings in, text out.

use std::fmt::Write as _;

use crate::analysis::stance::Stance;
use crate::shareable::html::text;
use crate::shareable::markdown::{self, local_image};
use crate::track::changes::{self, ChangeKind};
use crate::track::diff::RunDiff;
use crate::track::local_time::reader_time;
use crate::track::map::{Band, BrandMap};
use crate::track::report_charts::{
    band_colour, how_to_read, land_path, map_key_rows, map_svg, map_svg_over, share_svg, stat_text,
};
use crate::track::stat::{RunStat, Share};
use crate::track::trends::Trends;

/// One answer that named a brand, with the sentence around its first mention.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub model: String,
    pub location: String,
    pub query: String,
    pub sentence: String,
    pub stance: Stance,
}

/// The answers of the last run that named one brand.
#[derive(Clone, Debug, PartialEq)]
pub struct BrandExamples {
    pub brand: String,
    /// The brand's names as the answers may write them (its name and aliases).
    pub names: Vec<String>,
    pub answers: Vec<Example>,
}

/// Everything the report shows, read from the store and the workspace file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportInput {
    pub set: String,
    /// When the report was written, as its reader reads it ("27 Nov 2026, 07:37 (UTC+01:00)").
    pub written_at: String,
    pub prompts: Vec<String>,
    pub terms: Vec<String>,
    pub models: Vec<String>,
    pub places: Vec<String>,
    pub trends: Trends,
    pub diff: Option<RunDiff>,
    pub maps: Vec<BrandMap>,
    pub examples: Vec<BrandExamples>,
    /// The cells whose answer changed from the run before last to the last.
    pub cell_changes: Vec<crate::track::answers_read::CellChanged>,
    /// The last run's cells pooled by model, place and device.
    pub roll_up: Vec<crate::analysis::roll_up::RollRow>,
}

/// Share of voice in the last run within each group (model or place): of every time a
/// watched brand was named there, the part that was this brand ([`RunStat::share_of_voice`]).
fn share_rows(trends: &Trends, by_model: bool) -> Vec<(String, Vec<f64>)> {
    let Some(last) = trends.runs.len().checked_sub(1) else {
        return Vec::new();
    };
    let mut groups: Vec<String> = Vec::new();
    for brand in &trends.brands {
        let list = if by_model {
            &brand.by_model
        } else {
            &brand.by_location
        };
        for (group, _) in list {
            if !groups.contains(group) {
                groups.push(group.clone());
            }
        }
    }
    groups
        .into_iter()
        .map(|group| {
            let shares = trends
                .brands
                .iter()
                .map(|brand| {
                    let list = if by_model {
                        &brand.by_model
                    } else {
                        &brand.by_location
                    };
                    list.iter()
                        .find(|(g, _)| *g == group)
                        .and_then(|(_, stats)| stats.get(last))
                        .and_then(RunStat::share_of_voice)
                        .unwrap_or(0.0)
                })
                .collect();
            (group, shares)
        })
        .collect()
}

/// "12% (2 of 16)": the answers recommending a brand in the last run and in the one before;
/// "–" where a run had no answers.
fn recommended_cells(runs: &[RunStat]) -> (String, String) {
    let cell = |stat: Option<&RunStat>| {
        stat.and_then(|s| {
            s.recommended_share()
                .map(|v| format!("{v:.0}% ({} of {})", s.recommended, s.answers))
        })
        .unwrap_or_else(|| "–".to_string())
    };
    let last = runs.len().checked_sub(1);
    (
        cell(last.and_then(|i| runs.get(i))),
        cell(
            last.and_then(|i| i.checked_sub(1))
                .and_then(|i| runs.get(i)),
        ),
    )
}

/// The domains cited most in the last run, with their share in the run before.
fn domain_rows(trends: &Trends) -> Vec<(String, f64, Option<f64>)> {
    let runs = trends.runs.len();
    let Some(last) = runs.checked_sub(1) else {
        return Vec::new();
    };
    let mut rows: Vec<(String, f64, Option<f64>)> = trends
        .sources
        .iter()
        .map(|d| {
            (
                d.domain.clone(),
                d.share.get(last).copied().unwrap_or(0.0),
                last.checked_sub(1).and_then(|i| d.share.get(i).copied()),
            )
        })
        .filter(|(_, now, _)| *now > 0.0)
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows.truncate(12);
    rows
}

/// The sentence with the brand's first name in it marked.
fn marked_sentence(sentence: &str, names: &[String]) -> String {
    let lower = sentence.to_lowercase();
    let found = names
        .iter()
        .filter(|n| !n.is_empty())
        .filter_map(|n| lower.find(&n.to_lowercase()).map(|at| (at, n.len())))
        .min_by_key(|(at, _)| *at);
    match found {
        // Lower-casing can change byte lengths outside ASCII: mark only where it did not.
        Some((at, len))
            if lower.len() == sentence.len()
                && sentence.is_char_boundary(at)
                && sentence.is_char_boundary(at + len) =>
        {
            format!(
                "{}<mark>{}</mark>{}",
                text(&sentence[..at]),
                text(&sentence[at..at + len]),
                text(&sentence[at + len..])
            )
        }
        _ => text(sentence).to_string(),
    }
}

fn stance_word(stance: Stance) -> &'static str {
    match stance {
        Stance::Recommended => "recommended",
        Stance::Cautioned => "cautioned",
        Stance::NotFound => "not found",
        Stance::Listed => "listed",
    }
}

/// The whole report as one HTML page.
pub fn html(input: &ReportInput) -> String {
    let trends = &input.trends;
    let mut page = String::with_capacity(64 * 1024);
    let _ = write!(page, "<header><h1>{}</h1>", text(&input.set));
    let _ = write!(
        page,
        r#"<p class="meta">{} · written {}</p>"#,
        text(&runs_sentence(trends)),
        text(&input.written_at)
    );
    page.push_str("<table class=\"vantage\">");
    for (label, list) in [
        ("Prompts", &input.prompts),
        ("Search terms", &input.terms),
        ("Models", &input.models),
        ("Places", &input.places),
    ] {
        if !list.is_empty() {
            let _ = write!(
                page,
                "<tr><th>{label}</th><td>{}</td></tr>",
                text(&list.join(" · "))
            );
        }
    }
    page.push_str("</table></header>");

    page.push_str(r#"<section id="visibility"><h2>Visibility over time</h2><p class="meta">The share of answers that name each brand, per run; each brand has its own colour, dash and marker.</p>"#);
    if trends.brands.is_empty() {
        page.push_str("<p>No brands are watched: add [[brands]] to vantage.toml.</p>");
    } else {
        page.push_str(&share_svg(trends, Share::Visibility));
        page.push_str(&how_html(trends, Share::Visibility));
        page.push_str(
            "<table><tr><th>Brand</th><th>Last run</th><th>Against the run before</th></tr>",
        );
        for brand in &trends.brands {
            let last = brand.overall.last().map_or("–".to_string(), stat_text);
            let change = brand.change.map_or("–".to_string(), |c| c.text());
            let _ = write!(
                page,
                "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                text(&brand.brand),
                text(&last),
                text(&change)
            );
        }
        page.push_str("</table>");
    }
    page.push_str("</section>");

    page.push_str(r#"<section id="share"><h2>Share of voice over time</h2><p class="meta">Each brand's mentions over every watched brand's mentions, per run.</p>"#);
    if !trends.brands.is_empty() {
        page.push_str(&share_svg(trends, Share::ShareOfVoice));
        page.push_str(&how_html(trends, Share::ShareOfVoice));
    }
    for (title, by_model) in [
        ("In the last run, by model", true),
        ("In the last run, by place", false),
    ] {
        let rows = share_rows(trends, by_model);
        if rows.is_empty() {
            continue;
        }
        let _ = write!(page, "<h3>{title}</h3><table><tr><th></th>");
        for brand in &trends.brands {
            let _ = write!(page, "<th>{}</th>", text(&brand.brand));
        }
        page.push_str("</tr>");
        for (group, shares) in rows {
            let _ = write!(page, "<tr><td>{}</td>", text(&group));
            for share in shares {
                let _ = write!(
                    page,
                    r#"<td class="n"><span class="bar" style="width:{:.0}px"></span>{share:.0}%</td>"#,
                    share * 0.6
                );
            }
            page.push_str("</tr>");
        }
        page.push_str("</table>");
    }
    page.push_str("</section>");

    page.push_str(r#"<section id="recommended"><h2>Recommended over time</h2><p class="meta">The share of answers that recommend each brand, per run.</p>"#);
    if !trends.brands.is_empty() {
        page.push_str(&share_svg(trends, Share::Recommended));
        page.push_str(&how_html(trends, Share::Recommended));
        page.push_str("<table><tr><th>Brand</th><th>Last run</th><th>The run before</th></tr>");
        for brand in &trends.brands {
            let (last, before) = recommended_cells(&brand.overall);
            let _ = write!(
                page,
                r#"<tr><td>{}</td><td class="n">{}</td><td class="n">{}</td></tr>"#,
                text(&brand.brand),
                text(&last),
                text(&before)
            );
        }
        page.push_str("</table>");
    }
    page.push_str("</section>");

    if !trends.brands.is_empty() {
        page.push_str(&crate::track::report_roll_up::html(&input.roll_up));
    }
    page.push_str(r#"<section id="map"><h2>Where each brand is named</h2><p class="legend">"#);
    for band in Band::ALL {
        let _ = write!(
            page,
            r#"<span><b style="color:{}">{}</b> {}</span>"#,
            band_colour(band),
            band.symbol(),
            band.meaning()
        );
    }
    // The land is drawn once and each map uses it.
    let _ = write!(
        page,
        r#"</p><svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs><g id="land">{}</g></defs></svg><div class="maps">"#,
        land_path()
    );
    for map in &input.maps {
        let _ = write!(
            page,
            "<figure><figcaption>{}</figcaption>",
            text(&map.brand)
        );
        page.push_str(&map_svg_over(map, r##"<use href="#land"/>"##));
        page.push_str(
            r#"<table class="places"><tr><th>#</th><th>Place</th><th class="n">Named in</th></tr>"#,
        );
        for [number, symbol, place, share] in map_key_rows(map) {
            let _ = write!(
                page,
                r#"<tr><td>{number}</td><td>{} {}</td><td class="n">{}</td></tr>"#,
                text(&symbol),
                text(&place),
                text(&share)
            );
        }
        page.push_str("</table>");
        if !map.unplaced.is_empty() {
            let _ = write!(
                page,
                r#"<p class="meta">Not on the map: {}</p>"#,
                text(&map.unplaced.join(", "))
            );
        }
        page.push_str("</figure>");
    }
    page.push_str("</div></section>");

    page.push_str(r#"<section id="sources"><h2>Domains cited most</h2>"#);
    let domains = domain_rows(trends);
    if domains.is_empty() {
        page.push_str("<p>No answer of the last run cited a page.</p>");
    } else {
        page.push_str("<table><tr><th>Domain</th><th>Share of citations, last run</th><th>The run before</th></tr>");
        for (domain, now, before) in domains {
            let before = before.map_or("–".to_string(), |b| format!("{b:.0}%"));
            let _ = write!(
                page,
                r#"<tr><td>{}</td><td class="n">{now:.0}%</td><td class="n">{before}</td></tr>"#,
                text(&domain)
            );
        }
        page.push_str("</table>");
    }
    page.push_str("</section>");

    page.push_str(r#"<section id="changes"><h2>What the last run changed</h2>"#);
    match &input.diff {
        None => page.push_str("<p>One run so far: the next one is compared with it.</p>"),
        Some(diff) => {
            page.push_str("<ul>");
            for line in changes::change_lines(diff, trends) {
                let (class, prefix) = match line.kind {
                    ChangeKind::Gained => ("gained", "+ "),
                    ChangeKind::Lost => ("lost", "− "),
                    ChangeKind::Brand {
                        different: true, ..
                    } => ("different", ""),
                    _ => ("", ""),
                };
                let brand = if line.brand.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", line.brand)
                };
                let _ = write!(
                    page,
                    r#"<li class="{class}">{prefix}{}{}</li>"#,
                    text(&brand),
                    text(&line.text)
                );
            }
            page.push_str("</ul>");
        }
    }
    page.push_str("</section>");

    page.push_str(&crate::track::report_answers::html(
        &input.cell_changes,
        &input.prompts,
        trends.runs.len(),
    ));
    page.push_str(r#"<section id="answers"><h2>What the answers said</h2>"#);
    for brand in &input.examples {
        let _ = write!(page, "<h3>{}</h3>", text(&brand.brand));
        if brand.answers.is_empty() {
            page.push_str("<p class=\"meta\">No answer of the last run named it.</p>");
            continue;
        }
        page.push_str("<ul>");
        for answer in &brand.answers {
            let _ = write!(
                page,
                r#"<li><span class="meta">{} · {} · “{}” · {}</span><br>{}</li>"#,
                text(&answer.model),
                text(&answer.location),
                text(&answer.query),
                stance_word(answer.stance),
                marked_sentence(&answer.sentence, &brand.names)
            );
        }
        page.push_str("</ul>");
    }
    page.push_str("</section><footer class=\"meta\"><p>Written by vantage.</p></footer>");
    crate::present::html_page::page(&format!("{} · vantage report", input.set), &page)
}

fn runs_sentence(trends: &Trends) -> String {
    let mut sentence = match trends.runs.as_slice() {
        [] => "No runs yet".to_string(),
        [only] => format!("1 run, {}", reader_time(only)),
        [first, .., last] => format!(
            "{} runs, {} to {}",
            trends.runs.len(),
            reader_time(first),
            reader_time(last)
        ),
    };
    // What the last run holds of its cells, and which runs hold too few to read alone.
    if let Some(last) = trends.held.last() {
        sentence.push_str(&format!("; the last holds {}", last.text()));
    }
    let incomplete: Vec<String> = trends
        .incomplete()
        .map(|(r, _)| format!("#{}", r + 1))
        .collect();
    if !incomplete.is_empty() {
        sentence.push_str(&format!(
            "; incomplete, drawn apart: {}",
            incomplete.join(", ")
        ));
    }
    sentence
}

/// The sentence under a chart that says how to read it.
fn how_html(trends: &Trends, share: Share) -> String {
    format!(
        r#"<p class="how">{}</p>"#,
        text(&how_to_read(trends, share))
    )
}

/// A chart file written beside a Markdown report.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartFile {
    pub name: String,
    pub svg: String,
}

/// The report as Markdown; its charts are files named after `stem` ("report" gives
/// "report-visibility.svg"), which the text shows as images. Every value is written as
/// Markdown text ([`markdown::text`]): a name or an answer's words never become markup.
pub fn markdown(input: &ReportInput, stem: &str) -> (String, Vec<ChartFile>) {
    let cell = markdown::text;
    let trends = &input.trends;
    let mut md = String::new();
    let mut charts = Vec::new();
    let _ = writeln!(md, "# {}\n", cell(&input.set));
    let _ = writeln!(
        md,
        "{} · written {}\n",
        cell(&runs_sentence(trends)),
        cell(&input.written_at)
    );
    for (label, list) in [
        ("Prompts", &input.prompts),
        ("Search terms", &input.terms),
        ("Models", &input.models),
        ("Places", &input.places),
    ] {
        if !list.is_empty() {
            let _ = writeln!(md, "- **{label}**: {}", cell(&list.join(" · ")));
        }
    }
    md.push_str("\n## Visibility over time\n\n");
    if !trends.brands.is_empty() {
        let name = format!("{stem}-visibility.svg");
        let _ = writeln!(
            md,
            "{}\n",
            local_image("Visibility of each brand over the runs", &name)
        );
        charts.push(ChartFile {
            name,
            svg: share_svg(trends, Share::Visibility),
        });
        let _ = writeln!(md, "{}\n", cell(&how_to_read(trends, Share::Visibility)));
        md.push_str("| Brand | Last run | Against the run before |\n|---|---:|---|\n");
        for brand in &trends.brands {
            let last = brand.overall.last().map_or("–".to_string(), stat_text);
            let change = brand.change.map_or("–".to_string(), |c| c.text());
            let _ = writeln!(
                md,
                "| {} | {} | {} |",
                cell(&brand.brand),
                cell(&last),
                cell(&change)
            );
        }
    }
    md.push_str("\n## Share of voice over time\n\n");
    if !trends.brands.is_empty() {
        let name = format!("{stem}-{}.svg", Share::ShareOfVoice.slug());
        let _ = writeln!(
            md,
            "{}\n",
            local_image("Share of voice of each brand over the runs", &name)
        );
        charts.push(ChartFile {
            name,
            svg: share_svg(trends, Share::ShareOfVoice),
        });
        let _ = writeln!(md, "{}", cell(&how_to_read(trends, Share::ShareOfVoice)));
    }
    for (title, by_model) in [
        ("In the last run, by model", true),
        ("In the last run, by place", false),
    ] {
        let rows = share_rows(trends, by_model);
        if rows.is_empty() {
            continue;
        }
        let _ = write!(md, "\n### {title}\n\n|  |");
        for brand in &trends.brands {
            let _ = write!(md, " {} |", cell(&brand.brand));
        }
        md.push_str("\n|---|");
        md.push_str(&"---:|".repeat(trends.brands.len()));
        md.push('\n');
        for (group, shares) in rows {
            let _ = write!(md, "| {} |", cell(&group));
            for share in shares {
                let _ = write!(md, " {share:.0}% |");
            }
            md.push('\n');
        }
    }
    md.push_str("\n## Recommended over time\n\n");
    if !trends.brands.is_empty() {
        let name = format!("{stem}-{}.svg", Share::Recommended.slug());
        let _ = writeln!(
            md,
            "{}\n",
            local_image("Recommended: each brand over the runs", &name)
        );
        charts.push(ChartFile {
            name,
            svg: share_svg(trends, Share::Recommended),
        });
        let _ = writeln!(md, "{}\n", cell(&how_to_read(trends, Share::Recommended)));
        md.push_str("| Brand | Last run | The run before |\n|---|---:|---:|\n");
        for brand in &trends.brands {
            let (last, before) = recommended_cells(&brand.overall);
            let _ = writeln!(
                md,
                "| {} | {} | {} |",
                cell(&brand.brand),
                cell(&last),
                cell(&before)
            );
        }
    }
    if !trends.brands.is_empty() {
        md.push_str(&crate::track::report_roll_up::markdown(&input.roll_up));
    }
    md.push_str("\n## Where each brand is named\n\n");
    for (i, map) in input.maps.iter().enumerate() {
        let name = format!("{stem}-map-{}.svg", i + 1);
        let _ = writeln!(
            md,
            "### {}\n\n{}\n",
            cell(&map.brand),
            local_image(&format!("Where {} was named", map.brand), &name)
        );
        charts.push(ChartFile {
            name,
            svg: map_svg(map),
        });
        md.push_str("| # | Place | Named in |\n|---:|---|---:|\n");
        for [number, symbol, place, share] in map_key_rows(map) {
            let _ = writeln!(
                md,
                "| {number} | {} {} | {} |",
                cell(&symbol),
                cell(&place),
                cell(&share)
            );
        }
        md.push('\n');
    }
    md.push_str(
        "## Domains cited most\n\n| Domain | Last run | The run before |\n|---|---:|---:|\n",
    );
    for (domain, now, before) in domain_rows(trends) {
        let before = before.map_or("–".to_string(), |b| format!("{b:.0}%"));
        let _ = writeln!(md, "| {} | {now:.0}% | {} |", cell(&domain), cell(&before));
    }
    md.push_str("\n## What the last run changed\n\n");
    match &input.diff {
        None => md.push_str("One run so far: the next one is compared with it.\n"),
        Some(diff) => {
            for line in changes::change_lines(diff, trends) {
                let prefix = match line.kind {
                    ChangeKind::Gained => "+ ",
                    ChangeKind::Lost => "− ",
                    _ => "",
                };
                let brand = if line.brand.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", line.brand)
                };
                // As one value, so that a leading "+" is text, not a list inside the item.
                let _ = writeln!(md, "- {}", cell(&format!("{prefix}{brand}{}", line.text)));
            }
        }
    }
    md.push_str(&crate::track::report_answers::markdown(
        &input.cell_changes,
        &input.prompts,
        trends.runs.len(),
    ));
    md.push_str("\n## What the answers said\n");
    for brand in &input.examples {
        let _ = writeln!(md, "\n### {}\n", cell(&brand.brand));
        if brand.answers.is_empty() {
            md.push_str("No answer of the last run named it.\n");
        }
        for answer in &brand.answers {
            let _ = writeln!(
                md,
                "- *{} · {} · “{}” · {}*: {}",
                cell(&answer.model),
                cell(&answer.location),
                cell(&answer.query),
                stance_word(answer.stance),
                cell(&answer.sentence)
            );
        }
    }
    (md, charts)
}
