//! The report's charts as SVG: each brand's share over the runs (visibility, share of voice,
//! recommended), one line per brand told apart by colour, dash and marker so a black-and-white
//! print keeps them apart; and a world map per brand. Pure.

use std::fmt::Write as _;

use crate::shareable::html::{attr, text};

use crate::track::chart_scale::{self, PercentScale};
use crate::track::map::{Band, BrandMap};
use crate::track::stat::{RunStat, Share};
use crate::track::trends::Trends;

/// Colours of the series; each also has a dash pattern and a marker, so series are told
/// apart printed in black and white too: 4 dashes × 6 markers give twelve pairs, each
/// series `i` < 12 its own (`i % 4`, `i % 6`).
const COLOURS: [&str; 12] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#393b79", "#843c39",
];
const DASHES: [&str; 4] = ["", "6 4", "2 3", "10 3 2 3"];
const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
];

#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
    Cross,
}

impl Marker {
    fn svg(self, x: f64, y: f64, fill: &str) -> String {
        let polygon = |points: [(f64, f64); 4]| {
            let list: Vec<String> = points
                .iter()
                .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx, y + dy))
                .collect();
            format!(r#"<polygon points="{}" fill="{fill}"/>"#, list.join(" "))
        };
        match self {
            Marker::Circle => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{fill}"/>"#),
            Marker::Square => format!(
                r#"<rect x="{:.1}" y="{:.1}" width="8" height="8" fill="{fill}"/>"#,
                x - 4.0,
                y - 4.0
            ),
            Marker::Triangle => polygon([(0.0, -5.0), (-5.0, 4.0), (5.0, 4.0), (0.0, -5.0)]),
            Marker::Diamond => polygon([(0.0, -5.0), (5.0, 0.0), (0.0, 5.0), (-5.0, 0.0)]),
            Marker::TriangleDown => polygon([(0.0, 5.0), (-5.0, -4.0), (5.0, -4.0), (0.0, 5.0)]),
            Marker::Cross => format!(
                r#"<path d="M{:.1} {:.1}h3v-3h3v3h3v3h-3v3h-3v-3h-3z" fill="{fill}"/>"#,
                x - 4.5,
                y - 1.5
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

/// The charts' text size in their own units. A chart is drawn 440 wide, so on a phone 390
/// px wide (374 px of page) its text is 14 × 374 / 440 ≈ 12 px; the page caps a chart's width
/// so the text stays moderate on a wide screen.
pub const CHART_WIDTH: f64 = 440.0;
pub const CHART_FONT: f64 = 14.0;

/// How wide text of `chars` characters at `size` is taken to be: a little wider than most
/// sans-serif faces draw it, so what is laid out apart stays apart.
pub fn text_width(chars: usize, size: f64) -> f64 {
    chars as f64 * size * 0.6
}

/// `text` cut with `…` to `chars` characters at most.
fn cut(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let kept: String = text.chars().take(chars.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

/// The y-axis of the chart of `share`: 0 to a round top above the highest value.
pub fn share_scale(trends: &Trends, share: Share) -> PercentScale {
    PercentScale::of(
        trends
            .brands
            .iter()
            .flat_map(|b| b.overall.iter().filter_map(|s| share.of(s))),
    )
}

/// The sentence under the chart of `share`: what a point is and what its height means.
pub fn how_to_read(trends: &Trends, share: Share) -> String {
    let top = share_scale(trends, share).top;
    let height = match share {
        Share::Visibility => "the share of that run's answers that named the brand",
        Share::ShareOfVoice => {
            "the brand's part of every mention of a watched brand in that run (the brands add up to 100 %)"
        }
        Share::Recommended => {
            "the share of that run's answers that recommended the brand, not only named it"
        }
    };
    let mut sentence = format!(
        "Each line is a brand and each point a run, oldest on the left; a point's height is {height}, on a scale of 0 to {top:.0} %. Lines differ by marker and dash as well as colour."
    );
    for (r, held) in trends.incomplete() {
        sentence.push_str(&format!(
            " Run #{} holds only {}, too few to read alone: the lines leave it out.",
            r + 1,
            held.text()
        ));
    }
    sentence
}

/// The chart of each brand's `share` over the runs (visibility, share of voice or
/// recommended): one line per brand, the runs by date under it, and a legend that wraps
/// onto as many rows as the brands need.
pub fn share_svg(trends: &Trends, share: Share) -> String {
    let (width, font) = (CHART_WIDTH, CHART_FONT);
    // Room on the left for "100%" in a wide face (DejaVu Sans draws it about 40 units wide).
    let (left, right, top) = (50.0, 12.0, 14.0);
    let plot_w = width - left - right;
    let plot_h = 190.0;
    let runs = trends.runs.len();
    let x = |i: usize| {
        if runs <= 1 {
            left + plot_w / 2.0
        } else {
            left + plot_w * i as f64 / (runs - 1) as f64
        }
    };
    let scale = share_scale(trends, share);
    let y = |v: f64| top + plot_h * (1.0 - v / scale.top);
    let legend = legend_layout(
        &trends
            .brands
            .iter()
            .map(|b| b.brand.as_str())
            .collect::<Vec<_>>(),
        width - 8.0,
    );
    let legend_top = top + plot_h + 42.0;
    let rows = legend.iter().map(|e| e.row + 1).max().unwrap_or(0);
    let total_h = legend_top + 22.0 * rows as f64;
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total_h}" role="img" aria-labelledby="{slug}-title" class="chart" data-share="{slug}" font-size="{font}"><title id="{slug}-title">{title} of each brand over the runs of the set, in percent: {meaning}</title>"#,
        slug = share.slug(),
        title = share.title(),
        meaning = share.meaning(),
    );
    for tick in scale.ticks() {
        let _ = write!(
            svg,
            r##"<line x1="{left}" x2="{}" y1="{:.1}" y2="{:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" font-size="{font}" text-anchor="end">{tick:.0}%</text>"##,
            left + plot_w,
            y(tick),
            y(tick),
            left - 4.0,
            y(tick) + font * 0.35
        );
    }
    // The runs' dates, as many as fit apart: the first and the last, then those between.
    let dates = chart_scale::run_dates(&trends.runs);
    let mut taken: Vec<(f64, f64)> = Vec::new();
    let last = runs.saturating_sub(1);
    for i in std::iter::once(0)
        .chain((last > 0).then_some(last))
        .chain(1..last)
    {
        let Some(date) = dates.get(i) else { continue };
        let w = text_width(date.chars().count(), font);
        let (anchor, from) = match i {
            _ if runs <= 1 => ("middle", x(i) - w / 2.0),
            0 => ("start", x(i)),
            i if i == last => ("end", x(i) - w),
            _ => ("middle", x(i) - w / 2.0),
        };
        if taken
            .iter()
            .any(|&(a, b)| from < b + 8.0 && a < from + w + 8.0)
        {
            continue;
        }
        taken.push((from, from + w));
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="{font}" text-anchor="{anchor}">{}</text>"#,
            x(i),
            top + plot_h + 20.0,
            text(date)
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
        // A run without an answer, or holding too few of its cells, breaks the line.
        for (i, stat) in brand.overall.iter().enumerate() {
            match share.of(stat).filter(|_| trends.complete(i)) {
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
            if let Some(v) = share.of(stat).filter(|_| trends.complete(i)) {
                svg.push_str(&marker.svg(x(i), y(v), colour));
                let reading = match share {
                    Share::Visibility => stat_text(stat),
                    Share::ShareOfVoice => format!(
                        "{v:.0}% of the mentions ({} of {})",
                        stat.mentions, stat.all_mentions
                    ),
                    Share::Recommended => format!(
                        "{v:.0}% of the answers ({} of {})",
                        stat.recommended, stat.answers
                    ),
                };
                let _ = write!(
                    svg,
                    r#"<title>{} in run #{}: {}</title>"#,
                    text(&brand.brand),
                    i + 1,
                    text(&reading)
                );
            }
        }
        svg.push_str("</g>");
    }
    for (b, entry) in legend.iter().enumerate() {
        let (colour, dash, marker) = series_style(b);
        let (lx, ly) = (4.0 + entry.x, legend_top + 22.0 * entry.row as f64);
        let _ = write!(
            svg,
            r#"<g class="legend-entry"><line x1="{lx:.1}" x2="{:.1}" y1="{ly:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>{}<text x="{:.1}" y="{:.1}" font-size="{font}">{}</text></g>"#,
            lx + 24.0,
            marker.svg(lx + 12.0, ly, colour),
            lx + 30.0,
            ly + font * 0.35,
            text(&entry.name)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// One legend entry: its name (cut with `…` only when wider than a row) and where it goes.
struct LegendEntry {
    name: String,
    x: f64,
    row: usize,
}

/// The legend's entries laid out in rows of `width`: the sample (30 wide), the name, a gap.
fn legend_layout(names: &[&str], width: f64) -> Vec<LegendEntry> {
    let most = ((width - 30.0) / (CHART_FONT * 0.6)).floor().max(1.0) as usize;
    let mut entries = Vec::new();
    let (mut x, mut row) = (0.0, 0);
    for name in names {
        let name = cut(name, most);
        let w = 30.0 + text_width(name.chars().count(), CHART_FONT);
        if x > 0.0 && x + w > width {
            x = 0.0;
            row += 1;
        }
        entries.push(LegendEntry { name, x, row });
        x += w + 16.0;
    }
    entries
}

/// "65% (43–82 %), position 1.4".
pub(super) fn stat_text(stat: &RunStat) -> String {
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

pub(super) fn band_colour(band: Band) -> &'static str {
    match band {
        Band::High => "#1a9850",
        Band::Middle => "#fdae61",
        Band::Low => "#f46d43",
        Band::None => "#a50026",
        Band::Unknown => "#999999",
    }
}

/// The land as one SVG path of dots.
pub(super) fn land_path() -> String {
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
/// page. Each point is numbered; the numbers are placed apart (with a leader line to their
/// point) so nearby places never print over each other, and [`map_key_rows`] names them.
pub(super) fn map_svg_over(map: &BrandMap, land: &str) -> String {
    let (width, height) = (MAP_WIDTH, MAP_HEIGHT);
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="map" data-brand="{}"><title>Where {} was named in the last run</title><rect width="{width}" height="{height}" fill="#f4f7fb"/>{land}"##,
        attr(&map.brand),
        text(&map.brand)
    );
    let points: Vec<(f64, f64)> = map
        .points
        .iter()
        .map(|p| (map_x(p.longitude), map_y(p.latitude)))
        .collect();
    let numbers: Vec<String> = (1..=points.len()).map(|n| n.to_string()).collect();
    let placed = place_labels(&points, &numbers);
    for (&(x, y), label) in points.iter().zip(&placed) {
        let (cx, cy) = label.centre();
        let _ = write!(
            svg,
            r##"<line x1="{x:.1}" y1="{y:.1}" x2="{cx:.1}" y2="{cy:.1}" stroke="#1d2329" stroke-width="1.5"/>"##
        );
    }
    for ((point, &(x, y)), (number, label)) in map
        .points
        .iter()
        .zip(&points)
        .zip(numbers.iter().zip(&placed))
    {
        let colour = band_colour(point.band);
        let share = point
            .visibility
            .map_or("no answer".to_string(), |v| format!("{v:.0}%"));
        let _ = write!(
            svg,
            r##"<g class="point"><title>{number}. {}: {}</title><circle cx="{x:.1}" cy="{y:.1}" r="9" fill="{colour}" stroke="#fff" stroke-width="2"/><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="4" fill="#fff" stroke="{colour}" stroke-width="2"/><text class="place" x="{:.1}" y="{:.1}" font-size="{MAP_FONT}" font-weight="600" text-anchor="middle" fill="#1d2329">{number}</text></g>"##,
            text(&point.location),
            share,
            label.x0,
            label.y0,
            label.x1 - label.x0,
            label.y1 - label.y0,
            label.centre().0,
            label.baseline(),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The map's text size in its own units: 22 × 374 / 720 ≈ 11.4 px on a phone 390 px wide.
pub const MAP_FONT: f64 = 22.0;

/// A label's box on the map: where its text and its frame go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelBox {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl LabelBox {
    /// The frame around `chars` characters of map text centred on (`x`, `y`).
    fn around(x: f64, y: f64, chars: usize) -> LabelBox {
        let (w, h) = (text_width(chars, MAP_FONT) + 10.0, MAP_FONT + 6.0);
        LabelBox {
            x0: x - w / 2.0,
            y0: y - h / 2.0,
            x1: x + w / 2.0,
            y1: y + h / 2.0,
        }
    }

    fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }

    /// Where the text's baseline goes for it to sit in the middle of the box.
    fn baseline(&self) -> f64 {
        self.centre().1 + MAP_FONT * 0.35
    }

    pub fn intersects(&self, other: &LabelBox) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }
}

/// Where each point's label goes: the nearest spot around it (in rings of eight
/// directions, farther out each ring) whose box stays on the map and touches neither a label
/// already placed nor any point.
fn place_labels(points: &[(f64, f64)], labels: &[String]) -> Vec<LabelBox> {
    let dot = |&(x, y): &(f64, f64)| LabelBox {
        x0: x - 10.0,
        y0: y - 10.0,
        x1: x + 10.0,
        y1: y + 10.0,
    };
    let dots: Vec<LabelBox> = points.iter().map(dot).collect();
    let on_map =
        |b: &LabelBox| b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= MAP_WIDTH && b.y1 <= MAP_HEIGHT;
    let mut placed: Vec<LabelBox> = Vec::new();
    for (&(x, y), label) in points.iter().zip(labels) {
        let chars = label.chars().count();
        let mut chosen = None;
        'rings: for ring in 0..40 {
            let distance = 26.0 + 16.0 * f64::from(ring);
            for step in 0..16 {
                let angle = std::f64::consts::PI * f64::from(step) / 8.0;
                let (cx, cy) = (x + distance * angle.cos(), y - distance * angle.sin());
                let candidate = LabelBox::around(cx, cy, chars);
                if on_map(&candidate)
                    && !placed.iter().any(|p| p.intersects(&candidate))
                    && !dots.iter().any(|d| d.intersects(&candidate))
                {
                    chosen = Some(candidate);
                    break 'rings;
                }
            }
        }
        // A map full to its edges keeps the label beside its point.
        placed.push(chosen.unwrap_or_else(|| LabelBox::around(x + 26.0, y, chars)));
    }
    placed
}

/// The map's key, a row per numbered point: its number, its band's symbol, the place and
/// the share of answers there that named the brand.
pub fn map_key_rows(map: &BrandMap) -> Vec<[String; 4]> {
    map.points
        .iter()
        .enumerate()
        .map(|(i, point)| {
            [
                (i + 1).to_string(),
                point.band.symbol().to_string(),
                point.short_name().to_string(),
                point
                    .visibility
                    .map_or("no answer".to_string(), |v| format!("{v:.0}%")),
            ]
        })
        .collect()
}
