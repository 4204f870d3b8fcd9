//! The report's charts as SVG: each brand's share over the runs (visibility, share of voice,
//! recommended), one line per brand told apart by colour, dash and marker so a black-and-white
//! print keeps them apart; and a world map per brand. Pure.

use std::fmt::Write as _;

use crate::shareable::html::{attr, text};

use crate::track::map::{Band, BrandMap};
use crate::track::stat::{RunStat, Share};
use crate::track::trends::Trends;

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

/// The chart of each brand's `share` over the runs (visibility, share of voice or
/// recommended): one line per brand, with a legend.
pub fn share_svg(trends: &Trends, share: Share) -> String {
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
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total_h}" role="img" aria-labelledby="{slug}-title" class="chart" data-share="{slug}"><title id="{slug}-title">{title} of each brand over the runs of the set, in percent: {meaning}</title>"#,
        slug = share.slug(),
        title = share.title(),
        meaning = share.meaning(),
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
            match share.of(stat) {
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
            if let Some(v) = share.of(stat) {
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
/// page.
pub(super) fn map_svg_over(map: &BrandMap, land: &str) -> String {
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
