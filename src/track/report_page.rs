//! A set's report as one file for people who never open a terminal: an HTML page that asks
//! for nothing when opened (styles inline, charts as inline SVG, no script), readable on a
//! phone and printed; and the same as Markdown with its charts as SVG files beside it.
//! Pure: the report's readings in, text out.

use std::fmt::Write as _;

use html_escape::{encode_double_quoted_attribute as attr, encode_text as text};

use crate::analysis::stance::Stance;
use crate::track::changes::{self, ChangeKind};
use crate::track::diff::RunDiff;
use crate::track::map::{Band, BrandMap};
use crate::track::stat::RunStat;
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
    /// When the report was written (RFC 3339).
    pub written_at: String,
    pub prompts: Vec<String>,
    pub terms: Vec<String>,
    pub models: Vec<String>,
    pub places: Vec<String>,
    pub trends: Trends,
    pub diff: Option<RunDiff>,
    pub maps: Vec<BrandMap>,
    pub examples: Vec<BrandExamples>,
}

/// Colours of the series, and for each a dash pattern and a marker, so series are told
/// apart printed in black and white too.
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];
const DASHES: [&str; 4] = ["", "6 4", "2 3", "10 3 2 3"];
const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
];

#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Marker {
    fn svg(self, x: f64, y: f64, fill: &str) -> String {
        match self {
            Marker::Circle => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{fill}"/>"#),
            Marker::Square => format!(
                r#"<rect x="{:.1}" y="{:.1}" width="8" height="8" fill="{fill}"/>"#,
                x - 4.0,
                y - 4.0
            ),
            Marker::Triangle => format!(
                r#"<polygon points="{x:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{fill}"/>"#,
                y - 5.0,
                x - 5.0,
                y + 4.0,
                x + 5.0,
                y + 4.0
            ),
            Marker::Diamond => format!(
                r#"<polygon points="{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}" fill="{fill}"/>"#,
                y - 5.0,
                x + 5.0,
                y + 5.0,
                x - 5.0
            ),
        }
    }
}

fn series_style(i: usize) -> (&'static str, &'static str, Marker) {
    (
        COLOURS[i % COLOURS.len()],
        DASHES[i % DASHES.len()],
        MARKERS[i % MARKERS.len()],
    )
}

/// The chart of each brand's visibility over the runs: one line per brand, with a legend.
pub fn visibility_svg(trends: &Trends) -> String {
    let (width, height) = (720.0, 320.0);
    let (left, right, top, bottom) = (44.0, 16.0, 16.0, 40.0);
    let plot_w = width - left - right;
    let plot_h = height - top - bottom;
    let runs = trends.runs.len();
    let x = |i: usize| {
        if runs <= 1 {
            left + plot_w / 2.0
        } else {
            left + plot_w * i as f64 / (runs - 1) as f64
        }
    };
    let y = |v: f64| top + plot_h * (1.0 - v / 100.0);
    let legend_rows = trends.brands.len().div_ceil(4);
    let total_h = height + 20.0 * legend_rows as f64;
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total_h}" role="img" aria-labelledby="vis-title" class="chart"><title id="vis-title">Visibility of each brand over the runs of the set, in percent of answers</title>"#
    );
    for tick in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let _ = write!(
            svg,
            r##"<line x1="{left}" x2="{}" y1="{:.1}" y2="{:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" font-size="15" text-anchor="end">{tick:.0}%</text>"##,
            left + plot_w,
            y(tick),
            y(tick),
            left - 6.0,
            y(tick) + 4.0
        );
    }
    for i in 0..runs {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{}" font-size="15" text-anchor="middle">#{}</text>"#,
            x(i),
            top + plot_h + 16.0,
            i + 1
        );
    }
    for (b, brand) in trends.brands.iter().enumerate() {
        let (colour, dash, marker) = series_style(b);
        let _ = write!(
            svg,
            r#"<g class="series" data-brand="{}"><title>{}</title>"#,
            attr(&brand.brand),
            text(&brand.brand)
        );
        // A run without an answer breaks the line rather than drawing it to zero.
        let mut segment: Vec<(f64, f64)> = Vec::new();
        let mut segments = Vec::new();
        for (i, stat) in brand.overall.iter().enumerate() {
            match stat.visibility() {
                Some(v) => segment.push((x(i), y(v))),
                None => segments.push(std::mem::take(&mut segment)),
            }
        }
        segments.push(segment);
        for points in segments.iter().filter(|s| s.len() > 1) {
            let list: Vec<String> = points
                .iter()
                .map(|(px, py)| format!("{px:.1},{py:.1}"))
                .collect();
            let _ = write!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>"#,
                list.join(" ")
            );
        }
        for (i, stat) in brand.overall.iter().enumerate() {
            if let Some(v) = stat.visibility() {
                svg.push_str(&marker.svg(x(i), y(v), colour));
                let _ = write!(
                    svg,
                    r#"<title>{} in run #{}: {}</title>"#,
                    text(&brand.brand),
                    i + 1,
                    text(&stat_text(stat))
                );
            }
        }
        svg.push_str("</g>");
        let (lx, ly) = (
            left + (b % 4) as f64 * 170.0,
            height + 6.0 + (b / 4) as f64 * 20.0,
        );
        let _ = write!(
            svg,
            r#"<line x1="{lx}" x2="{}" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>{}<text x="{}" y="{}" font-size="16">{}</text>"#,
            lx + 28.0,
            marker.svg(lx + 14.0, ly, colour),
            lx + 34.0,
            ly + 4.0,
            text(&brand.brand)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// "65% (43–82 %), position 1.4".
fn stat_text(stat: &RunStat) -> String {
    let Some(v) = stat.visibility() else {
        return "no answer".to_string();
    };
    let mut out = format!("{v:.0}%");
    if let Some((low, high)) = stat.interval() {
        let _ = write!(out, " ({low:.0}–{high:.0} %)");
    }
    if let Some(p) = stat.average_position() {
        let _ = write!(out, ", position {p:.1}");
    }
    out
}

/// Where the land is, as dots of a 2°×3° grid, drawn once from ratatui's own world map.
fn land_dots() -> &'static [(f64, f64)] {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Color;
    use ratatui::widgets::Widget;
    use ratatui::widgets::canvas::{Canvas, Map, MapResolution};
    static DOTS: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();
    DOTS.get_or_init(|| {
        let (w, h) = (180u16, 60u16);
        let area = Rect::new(0, 0, w, h);
        let mut buffer = Buffer::empty(area);
        Canvas::default()
            .marker(ratatui::symbols::Marker::Dot)
            .x_bounds([-180.0, 180.0])
            .y_bounds([-90.0, 90.0])
            .paint(|ctx| {
                ctx.draw(&Map {
                    resolution: MapResolution::High,
                    color: Color::Reset,
                });
            })
            .render(area, &mut buffer);
        let mut dots = Vec::new();
        for row in 0..h {
            for col in 0..w {
                if buffer[(col, row)].symbol() != " " {
                    dots.push((
                        -180.0 + (f64::from(col) + 0.5) * 360.0 / f64::from(w),
                        90.0 - (f64::from(row) + 0.5) * 180.0 / f64::from(h),
                    ));
                }
            }
        }
        dots
    })
}

fn band_colour(band: Band) -> &'static str {
    match band {
        Band::High => "#1a9850",
        Band::Middle => "#fdae61",
        Band::Low => "#f46d43",
        Band::None => "#a50026",
        Band::Unknown => "#999999",
    }
}

/// The land as one SVG path of dots.
fn land_path() -> String {
    let mut d = String::with_capacity(land_dots().len() * 22);
    for (lon, lat) in land_dots() {
        let (x, y) = (map_x(*lon), map_y(*lat));
        let _ = write!(d, "M{:.1} {:.1}h3v5h-3z", x - 1.5, y - 2.5);
    }
    format!(r##"<path fill="#b9c5d2" d="{d}"/>"##)
}

const MAP_WIDTH: f64 = 720.0;
const MAP_HEIGHT: f64 = 360.0;

fn map_x(lon: f64) -> f64 {
    (lon + 180.0) / 360.0 * MAP_WIDTH
}

fn map_y(lat: f64) -> f64 {
    (90.0 - lat) / 180.0 * MAP_HEIGHT
}

/// One brand's vantage points on the world, each marked by how visible the brand was there
/// in the last run (a colour and a symbol, so print keeps the difference). Standalone: the
/// land is drawn in it.
pub fn map_svg(map: &BrandMap) -> String {
    map_svg_over(map, &land_path())
}

/// The map with `land` as its land: the land's path, or a `<use>` of one drawn once in the
/// page.
fn map_svg_over(map: &BrandMap, land: &str) -> String {
    let (width, height) = (MAP_WIDTH, MAP_HEIGHT);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="map" data-brand="{}"><title>Where {} was named in the last run</title><rect width="{width}" height="{height}" fill="#f4f7fb"/>{land}"##,
        attr(&map.brand),
        text(&map.brand)
    );
    for point in &map.points {
        let (x, y) = (map_x(point.longitude), map_y(point.latitude));
        let colour = band_colour(point.band);
        let share = point
            .visibility
            .map_or("no answer".to_string(), |v| format!("{v:.0}%"));
        let _ = write!(
            svg,
            r##"<g class="point"><title>{}: {}</title><circle cx="{x:.1}" cy="{y:.1}" r="11" fill="{colour}" stroke="#fff" stroke-width="2"/><text x="{:.1}" y="{:.1}" font-size="22" font-weight="600" fill="#1d2329">{} {} {}</text></g>"##,
            text(&point.location),
            share,
            x + 15.0,
            y + 7.0,
            point.band.symbol(),
            text(point.short_name()),
            share
        );
    }
    svg.push_str("</svg>");
    svg
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
        page.push_str(&visibility_svg(trends));
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

    page.push_str(r#"<section id="share"><h2>Share of voice in the last run</h2>"#);
    for (title, by_model) in [("By model", true), ("By place", false)] {
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
    match trends.runs.as_slice() {
        [] => "No runs yet".to_string(),
        [only] => format!("1 run, {only}"),
        [first, .., last] => format!("{} runs, {first} to {last}", trends.runs.len()),
    }
}

/// A chart file written beside a Markdown report.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartFile {
    pub name: String,
    pub svg: String,
}

/// A Markdown cell: one line, pipes escaped.
fn cell(value: &str) -> String {
    value.replace('|', "\\|").replace('\n', " ")
}

/// The report as Markdown; its charts are files named after `stem` ("report" gives
/// "report-visibility.svg"), which the text links to.
pub fn markdown(input: &ReportInput, stem: &str) -> (String, Vec<ChartFile>) {
    let trends = &input.trends;
    let mut md = String::new();
    let mut charts = Vec::new();
    let _ = writeln!(md, "# {}\n", cell(&input.set));
    let _ = writeln!(
        md,
        "{} · written {}\n",
        runs_sentence(trends),
        input.written_at
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
        let _ = writeln!(md, "![Visibility of each brand over the runs]({name})\n");
        charts.push(ChartFile {
            name,
            svg: visibility_svg(trends),
        });
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
    md.push_str("\n## Share of voice in the last run\n");
    for (title, by_model) in [("By model", true), ("By place", false)] {
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
    md.push_str("\n## Where each brand is named\n\n");
    for (i, map) in input.maps.iter().enumerate() {
        let name = format!("{stem}-map-{}.svg", i + 1);
        let _ = writeln!(
            md,
            "### {}\n\n![Where {} was named]({name})\n",
            cell(&map.brand),
            cell(&map.brand)
        );
        charts.push(ChartFile {
            name,
            svg: map_svg(map),
        });
    }
    md.push_str(
        "## Domains cited most\n\n| Domain | Last run | The run before |\n|---|---:|---:|\n",
    );
    for (domain, now, before) in domain_rows(trends) {
        let before = before.map_or("–".to_string(), |b| format!("{b:.0}%"));
        let _ = writeln!(md, "| {} | {now:.0}% | {before} |", cell(&domain));
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
                let _ = writeln!(md, "- {prefix}{}{}", cell(&brand), cell(&line.text));
            }
        }
    }
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
