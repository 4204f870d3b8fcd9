//! The Track tab's map: the world's coastlines on a canvas, each vantage point of the shown
//! set at its city (or country) with a symbol for how visible the selected brand was there
//! in the newest run, and a legend. The points come from `track::map`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Map, MapResolution};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::track::map::{Band, BrandMap};
use crate::track::view::TrackView;

use super::theme;

/// High resolution: measured on a debug build, a whole Track frame with the map took
/// 1.0 ms at 100×32 and 2.7 ms at 200×60 with it, against 0.94 and 2.3 ms with the low
/// one, and its coastlines read better on a wide terminal.
const RESOLUTION: MapResolution = MapResolution::High;

/// Up to this many points, each is named on the map.
const NAMED_POINTS: usize = 12;

fn band_style(band: Band) -> Style {
    theme::band(band)
}

pub(super) fn draw(frame: &mut Frame, area: Rect, view: &TrackView, brand: usize) {
    let set = view.set.as_deref().unwrap_or("");
    let Some(map) = view.maps.get(brand) else {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme::border())
            .title(Span::styled(format!(" Map of {set} "), theme::title()));
        frame.render_widget(
            Paragraph::new("No brands are watched: track some in Chat's Brands pane.")
                .style(theme::dim())
                .block(block),
            area,
        );
        return;
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border())
        .title(Line::from(vec![
            Span::styled(format!(" {} ", map.brand), theme::title()),
            Span::styled(
                format!("in the last run of {set} · ← → brand "),
                theme::dim(),
            ),
        ]));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let legend = legend(map);
    let legend_height = u16::try_from(legend.len()).unwrap_or(1);
    let [map_area, legend_area] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(legend_height)]).areas(inner);
    draw_world(frame, map_area, map);
    frame.render_widget(Paragraph::new(legend), legend_area);
}

fn draw_world(frame: &mut Frame, area: Rect, map: &BrandMap) {
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([-180.0, 180.0])
        .y_bounds([-60.0, 85.0])
        .paint(|ctx| {
            ctx.draw(&Map {
                resolution: RESOLUTION,
                color: theme::map_land().fg.unwrap_or(Color::Reset),
            });
            // Drawn after the coastlines so a point is never hidden by them; the strongest
            // band last, so it wins where two cities share a cell.
            ctx.layer();
            let mut points: Vec<_> = map.points.iter().collect();
            points.sort_by_key(|p| p.band);
            // Names beside the symbols while they are few enough not to cover each other.
            let named = points.len() <= NAMED_POINTS;
            for point in points {
                let mut spans = vec![Span::styled(point.band.symbol(), band_style(point.band))];
                if named {
                    spans.push(Span::styled(
                        format!(" {}", point.short_name()),
                        theme::muted(),
                    ));
                }
                ctx.print(point.longitude, point.latitude, Line::from(spans));
            }
        });
    frame.render_widget(canvas, area);
}

/// The symbols that occur, what they mean, and (on a line of its own) what could not be
/// placed.
fn legend(map: &BrandMap) -> Vec<Line<'static>> {
    let mut spans = Vec::new();
    for band in Band::ALL {
        let count = map.points.iter().filter(|p| p.band == band).count();
        if count == 0 {
            continue;
        }
        spans.push(Span::styled(band.symbol(), band_style(band)));
        spans.push(Span::raw(format!(" {}: {count}  ", band.meaning())));
    }
    if map.points.is_empty() {
        spans.push(Span::styled("no vantage point to place", theme::dim()));
    }
    let mut lines = vec![Line::from(spans)];
    if !map.unplaced.is_empty() {
        lines.push(Line::styled(
            format!("not on the map: {}", map.unplaced.join(", ")),
            theme::dim(),
        ));
    }
    lines
}
