//! The Compare tab's readings of the answers: the mention matrix, the sources of the focused
//! column, the word diff of two columns, and the brand rows of a search comparison. Marks do
//! not rely on colour alone (NO_COLOR): a cited cell carries `*`, removed words `[-…-]` and
//! strike-through, added words `{+…+}` and underline.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::analysis::mentions::{Mention, on_domain};
use crate::analysis::samples::{self, SampledBrand};
use crate::analysis::stance::Stance;
use crate::api::request::shorten;
use crate::app::App;
use crate::app::compare::{CompareFocus, CompareMode, CompareState};
use crate::present::compare::mentions::{self as brand_mentions, average_text, cell_text};

use super::super::text_view::visible_lines;
use super::super::{pane, theme};

/// Width of one column's cell in the matrix and in the brand rows.
const MATRIX_CELL: usize = 5;
/// The brand column of the matrix is at most this wide.
const BRAND_MAX: usize = 16;

fn focused(app: &App) -> bool {
    app.compare.focus == CompareFocus::Columns
}

fn message(frame: &mut Frame, area: Rect, lines: Vec<Line<'static>>) {
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

/// The width of a matrix's brand column: its longest name, within 5 and `BRAND_MAX`.
fn brand_column<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, BRAND_MAX)
}

/// The columns whose cells of `cell` characters fit `room`: the page holding the focused
/// column.
fn column_window(n: usize, selected: usize, room: usize, cell: usize) -> std::ops::Range<usize> {
    let per_page = (room / cell).max(1).min(n.max(1));
    let start = (selected / per_page) * per_page;
    start..(start + per_page).min(n)
}

/// The matrix header's column numbers, `cell` wide each, the focused one reversed.
fn column_numbers(
    shown: std::ops::Range<usize>,
    selected: usize,
    cell: usize,
) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for i in shown {
        let style = if i == selected {
            theme::title().add_modifier(Modifier::REVERSED)
        } else {
            theme::muted()
        };
        spans.push(Span::styled(
            format!("{:>width$}", format!("#{}", i + 1), width = cell - 1),
            style,
        ));
        spans.push(Span::raw(" "));
    }
    spans
}

/// Under a matrix: which columns are on screen when not all are, then which is which.
fn column_legend(compare: &CompareState, shown: std::ops::Range<usize>) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if shown.len() < compare.columns.len() {
        lines.push(Line::styled(
            format!(
                "Columns {}–{} of {} · ← → page through them",
                shown.start + 1,
                shown.end,
                compare.columns.len()
            ),
            theme::dim(),
        ));
    }
    for (i, column) in compare.columns.iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(format!("#{:<3}", i + 1), theme::muted()),
            Span::raw(column.vantage.label(CompareMode::Answers)),
        ]));
    }
    lines
}

fn cell_style(cell: &Option<Mention>) -> Style {
    match cell {
        Some(m) if m.position.is_some() && m.stance == Stance::Cautioned => {
            theme::error().add_modifier(Modifier::BOLD)
        }
        Some(m) if m.cited => theme::accent().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        Some(m) if m.position.is_some() => theme::ok().add_modifier(Modifier::BOLD),
        _ => theme::dim(),
    }
}

/// The mention matrix: brands × columns, then the key and which column is which.
pub(super) fn draw_matrix(app: &App, frame: &mut Frame, area: Rect) {
    let compare = &app.compare;
    let views = &compare.brand_views;
    let block = pane(
        Line::styled(
            format!(
                " Mentions · sorted by {} · S sorts · ] next view ",
                views.sort.label()
            ),
            theme::title(),
        ),
        focused(app),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if app.brands.is_empty() {
        return message(
            frame,
            inner,
            vec![
                Line::styled("No brands are tracked yet.", theme::title()),
                Line::styled(
                    "List them in vantage.toml (name, aliases, domains) or add them in the Brands pane; the matrix then shows where each answer names each brand.",
                    theme::dim(),
                ),
            ],
        );
    }
    if compare.columns.iter().all(|c| c.answer().is_none()) {
        return message(
            frame,
            inner,
            vec![Line::styled(
                "No answers yet: r runs every column, and the matrix fills as they land.",
                theme::dim(),
            )],
        );
    }
    if let Some(sampled) = &views.sampled {
        return draw_sampled_matrix(app, sampled, frame, inner);
    }
    let brand_width = brand_column(views.matrix.iter().map(|r| r.brand.as_str()));
    let fixed = brand_width + 1 + 6 + 6 + 6 + 1;
    let shown = column_window(
        compare.columns.len(),
        compare.selected,
        usize::from(inner.width).saturating_sub(fixed),
        MATRIX_CELL,
    );
    let mut header = vec![Span::styled(
        format!(
            "{:<brand_width$} {:>5} {:>5} {:>5} ",
            "brand", "vis", "avg", "SoV"
        ),
        theme::muted(),
    )];
    header.extend(column_numbers(shown.clone(), compare.selected, MATRIX_CELL));
    let mut lines = vec![Line::from(header)];
    for row in views.sorted() {
        let mut spans = vec![
            Span::styled(
                format!("{:<brand_width$} ", shorten(&row.brand, brand_width)),
                theme::title(),
            ),
            Span::raw(format!(
                "{:>4.0}% {:>5} {:>4.0}% ",
                row.visibility,
                average_text(row),
                row.share_of_voice
            )),
        ];
        for cell in &row.columns[shown.clone()] {
            spans.push(Span::styled(
                format!("{:>width$}", cell_text(cell), width = MATRIX_CELL - 1),
                cell_style(cell),
            ));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "n position · + recommended · ! cautioned · – not named · * site cited",
        theme::dim(),
    ));
    lines.push(Line::styled(
        "? no answer · vis % of answers naming it · SoV share of all mentions",
        theme::dim(),
    ));
    lines.extend(column_legend(compare, shown));
    let (visible, _) = visible_lines(&lines, compare.table_scroll, usize::from(inner.height));
    frame.render_widget(
        Paragraph::new(visible.to_vec()).wrap(Wrap { trim: false }),
        inner,
    );
}

/// The matrix's sorted order, or the listed one when it no longer fits the rows.
fn order_or_listed(order: &[usize], rows: usize) -> Vec<usize> {
    if order.len() == rows {
        order.to_vec()
    } else {
        (0..rows).collect()
    }
}

/// Width of one column's cell in the sampled matrix: "10/10!".
const SAMPLED_CELL: usize = 7;

/// The matrix over samples: per brand and column, the answers naming it of those back; per
/// brand its share over every answer with its interval, and whether the columns differ;
/// then the focused column's readings in full.
fn draw_sampled_matrix(app: &App, rows: &[SampledBrand], frame: &mut Frame, inner: Rect) {
    let compare = &app.compare;
    let views = &compare.brand_views;
    let brand_width = brand_column(rows.iter().map(|r| r.brand.as_str()));
    let fixed = brand_width + 1 + 6 + 8 + 5 + 1;
    let shown = column_window(
        compare.columns.len(),
        compare.selected,
        usize::from(inner.width).saturating_sub(fixed),
        SAMPLED_CELL,
    );
    let mut header = vec![Span::styled(
        format!(
            "{:<brand_width$} {:>6} {:>8} {:>5} ",
            "brand", "named", "95%", "SoV"
        ),
        theme::muted(),
    )];
    header.extend(column_numbers(
        shown.clone(),
        compare.selected,
        SAMPLED_CELL,
    ));
    let mut lines = vec![Line::from(header)];
    // The rows in the matrix's order (both list the brands alike).
    let order = brand_mentions::sorted_order(&views.matrix, views.sort);
    let ordered: Vec<&SampledBrand> = order_or_listed(&order, rows.len())
        .into_iter()
        .map(|i| &rows[i])
        .collect();
    for row in &ordered {
        let overall = &row.overall;
        let mut spans = vec![
            Span::styled(
                format!("{:<brand_width$} ", shorten(&row.brand, brand_width)),
                theme::title(),
            ),
            Span::raw(format!(
                "{:>6} {:>8} {:>4.0}% ",
                samples::cell_count(overall.named, overall.asked),
                format!("{:.0}–{:.0}%", overall.low, overall.high),
                row.share_of_voice
            )),
        ];
        for cell in &row.columns[shown.clone()] {
            let text = if cell.asked == 0 {
                "?".to_string()
            } else {
                let cautioned = if cell.cautioned > 0 { "!" } else { "" };
                format!("{}{cautioned}", samples::cell_count(cell.named, cell.asked))
            };
            let style = match cell {
                c if c.cautioned > 0 => theme::error().add_modifier(Modifier::BOLD),
                c if c.named > 0 => theme::ok().add_modifier(Modifier::BOLD),
                _ => theme::dim(),
            };
            spans.push(Span::styled(
                format!("{text:>width$}", width = SAMPLED_CELL - 1),
                style,
            ));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    let numbers: Vec<String> = (1..=compare.columns.len())
        .map(|n| format!("#{n}"))
        .collect();
    for row in &ordered {
        let verdict = row.difference_text(&numbers);
        let style = match &row.difference {
            Some(d) if d.different => theme::title(),
            _ => theme::dim(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{}: ", row.brand), theme::title()),
            Span::styled(verdict, style),
        ]));
    }
    lines.push(Line::raw(""));
    if let Some(column) = compare.columns.get(compare.selected) {
        let (back, asked) = column.samples_back();
        lines.push(Line::styled(
            format!(
                "#{} {}: {back} of {asked} answers back",
                compare.selected + 1,
                column.vantage.label(CompareMode::Answers)
            ),
            theme::title(),
        ));
        let cautioned = views.cautioned_in.get(compare.selected);
        for (row, &b) in ordered.iter().zip(&order_or_listed(&order, rows.len())) {
            if let Some(cell) = row.columns.get(compare.selected) {
                let mut spans = vec![Span::raw(format!(
                    "  {}: {}",
                    row.brand,
                    samples::cell_text(cell)
                ))];
                // Which answers warn: the column steps to them with . and ,
                if let Some(numbers) = cautioned.and_then(|c| c.get(b)).filter(|n| !n.is_empty()) {
                    let numbers: Vec<String> = numbers.iter().map(usize::to_string).collect();
                    spans.push(Span::styled(
                        format!(" (answer {}: . steps to it)", numbers.join(", ")),
                        theme::error(),
                    ));
                }
                lines.push(Line::from(spans));
            }
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled(
        "n/N named in n of N answers · ! cautioned in some · ? no answer · SoV share of all mentions",
        theme::dim(),
    ));
    lines.push(Line::styled(
        format!(
            "95% Wilson interval · a difference between columns by {}, corrected for the pairs",
            samples::TEST
        ),
        theme::dim(),
    ));
    lines.extend(column_legend(compare, shown));
    let (visible, _) = visible_lines(&lines, compare.table_scroll, usize::from(inner.height));
    frame.render_widget(
        Paragraph::new(visible.to_vec()).wrap(Wrap { trim: false }),
        inner,
    );
}

/// The pages the focused column's answer cites, with the tracked brand each belongs to.
pub(super) fn draw_sources(app: &App, frame: &mut Frame, area: Rect) {
    let compare = &app.compare;
    let column = compare.columns.get(compare.selected);
    let label = column.map_or(String::new(), |c| c.vantage.label(CompareMode::Answers));
    let block = pane(
        Line::styled(
            format!(
                " Sources of #{} {} · ← → column · ] next view ",
                compare.selected + 1,
                label
            ),
            theme::title(),
        ),
        focused(app),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(answer) = column.and_then(|c| c.answer()) else {
        return message(
            frame,
            inner,
            vec![Line::styled(
                "This column has no answer yet: ← → choose one that has, or r runs them all.",
                theme::dim(),
            )],
        );
    };
    if answer.sources.is_empty() {
        return message(
            frame,
            inner,
            vec![Line::styled("This answer cites no pages.", theme::dim())],
        );
    }
    let mut domains: Vec<&str> = answer.sources.iter().map(|s| s.domain.as_str()).collect();
    domains.sort_unstable();
    domains.dedup();
    let width = usize::from(inner.width);
    let mut lines = vec![Line::styled(
        format!(
            "{} from {}",
            crate::plural::count(answer.sources.len() as u64, "page", "pages"),
            crate::plural::count(domains.len() as u64, "domain", "domains")
        ),
        theme::muted(),
    )];
    for (i, source) in answer.sources.iter().enumerate() {
        let brand = app
            .brands
            .iter()
            .find(|b| b.domains.iter().any(|d| on_domain(&source.url, d)));
        let mut spans = vec![
            Span::styled(format!("{:>3}. ", i + 1), theme::muted()),
            Span::styled(source.domain.clone(), theme::title()),
        ];
        if let Some(brand) = brand {
            spans.push(Span::styled(
                format!(" [{}]", brand.name),
                theme::accent().add_modifier(Modifier::BOLD),
            ));
        }
        // The title, else the site's label; nothing more where that is the domain again.
        if source.headline() != source.domain {
            spans.push(Span::raw(" — "));
            let used: usize = spans.iter().map(|s| s.width()).sum();
            spans.push(Span::raw(shorten(
                source.headline(),
                width.saturating_sub(used),
            )));
        }
        lines.push(Line::from(spans));
        lines.push(Line::styled(
            format!("     {}", shorten(&source.url, width.saturating_sub(5))),
            theme::link(),
        ));
    }
    let (visible, _) = visible_lines(&lines, compare.table_scroll, usize::from(inner.height));
    frame.render_widget(Paragraph::new(visible.to_vec()), inner);
}

/// The focused column's answer against the base column's, word by word.
pub(super) fn draw_diff(app: &App, frame: &mut Frame, area: Rect) {
    let compare = &app.compare;
    let (base, other) = compare.diff_pair();
    let block = pane(
        Line::styled(
            format!(
                " Diff #{} → #{} · ← → other column · Enter makes it the base · ] next view ",
                base + 1,
                other + 1
            ),
            theme::title(),
        ),
        focused(app),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(cache) = &compare.diff else {
        let why = if base == other {
            "Both sides are the same column: ← → choose another to compare with it."
        } else {
            "Both columns need an answer: ← → choose one that has, Enter makes the focused one the base."
        };
        return message(frame, inner, vec![Line::styled(why, theme::dim())]);
    };
    let label = |i: usize| {
        compare
            .columns
            .get(i)
            .map_or(String::new(), |c| c.vantage.label(CompareMode::Answers))
    };
    let diff = &cache.diff;
    let mut lines = vec![
        Line::from(vec![
            Span::styled("[- ", crate::ui::word_diff::removed()),
            Span::raw(format!("#{} {}", base + 1, label(base))),
        ]),
        Line::from(vec![
            Span::styled("{+ ", crate::ui::word_diff::added()),
            Span::raw(format!("#{} {}", other + 1, label(other))),
        ]),
        Line::styled(
            format!(
                "{} words removed · {} added · {} shared · {:.0}% alike",
                diff.removed_words,
                diff.added_words,
                diff.same_words,
                diff.similarity()
            ),
            theme::muted(),
        ),
        Line::raw(""),
    ];
    lines.extend(crate::ui::word_diff::lines(diff));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((compare.table_scroll.min(usize::from(u16::MAX)) as u16, 0)),
        inner,
    );
}

/// The brand rows of a search comparison: per column, the best rank of any of the brand's
/// domains, in cells as wide as the rank table's.
pub(super) fn brand_rank_lines(app: &App, cell: usize) -> Vec<Line<'static>> {
    let ranks = &app.compare.brand_views.ranks;
    ranks
        .iter()
        .map(|row| {
            let mut spans = vec![Span::raw(" ")];
            for rank in &row.ranks {
                let (text, style) = match rank {
                    Some(r) => (format!("{r}"), theme::accent().add_modifier(Modifier::BOLD)),
                    None => ("–".to_string(), theme::dim()),
                };
                spans.push(Span::styled(format!("{text:<cell$}"), style));
            }
            spans.push(Span::styled(
                format!("◆ {} (best of its domains)", row.brand),
                theme::title(),
            ));
            Line::from(spans)
        })
        .collect()
}
