//! The Compare tab's keys and pickers: the axes, the columns, the panes.

use crate::app::OsEffect;

use crate::api::{AiFormat, IpType, Location};

use crate::app::keymap::{Action, Context};
use crate::app::picker::PickerKind;
use crate::app::{App, Effect, ExportSource, Popup, export_prompt, pickers};

use super::run::{ask_rerun, ask_send_all, cancel_all, cancel_one, pump};
use super::{Column, CompareFocus, ComparePane, CompareState, refresh_views};
use crate::present::compare::overview::AnswerSource;
use crate::present::compare::summary::{self};
use crate::present::compare::{CompareMode, MAX_COLUMNS, Vantage};

/// Handles an action the keymap found, on the Compare tab; the views computed from the
/// columns follow.
pub(crate) fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let effects = act(app, action);
    refresh_views(app);
    effects
}

fn act(app: &mut App, action: Action) -> Vec<Effect> {
    let compare = &mut app.compare;
    let n = compare.columns.len();
    match action {
        Action::FocusNext | Action::FocusPrev => {
            compare.focus = match compare.focus {
                CompareFocus::Prompt => CompareFocus::Columns,
                CompareFocus::Columns => CompareFocus::Prompt,
            };
        }
        Action::Back if compare.find.as_ref().is_some_and(|f| f.typing) => compare.find = None,
        Action::Send if compare.find.as_ref().is_some_and(|f| f.typing) => {
            if let Some(find) = &mut compare.find {
                find.typing = false;
                if find.query.is_empty() {
                    compare.find = None;
                }
            }
        }
        Action::Cancel
            if compare.find.is_some()
                && !compare
                    .columns
                    .get(compare.selected)
                    .is_some_and(|c| c.queued || c.call.is_running()) =>
        {
            compare.find = None;
        }
        Action::Filter => {
            let has_answer = compare
                .columns
                .get(compare.selected)
                .is_some_and(|c| c.answer().is_some());
            if compare.mode == CompareMode::Answers && has_answer {
                compare.focus = CompareFocus::Columns;
                compare.pane = ComparePane::Columns;
                compare.find = Some(crate::app::text_search::TextSearch::start());
            } else {
                app.flash_info(
                    "/ searches the focused column's answer; ← → choose one that has answered.",
                );
            }
        }
        Action::NextMatch | Action::PrevMatch => {
            let moved = compare.step_find(action == Action::NextMatch);
            if !moved {
                app.flash_info("Press / to search the focused column first; n and N then move between matches.");
            }
        }
        Action::Back => compare.focus = CompareFocus::Columns,
        Action::EditPrompt => compare.focus = CompareFocus::Prompt,
        Action::Newline => compare.prompt.insert_newline(),
        Action::Send => return ask_send_all(app),
        Action::Rerun => return ask_rerun(app),
        Action::Cancel => {
            let running = compare
                .columns
                .get(compare.selected)
                .is_some_and(|c| c.queued || c.call.is_running());
            if running {
                let again = app.key_of(Context::Compare, Action::Rerun);
                app.flash_info(format!("Cancelled this column; {again} runs it again."));
                return cancel_one(app);
            }
            compare.full = false;
        }
        Action::CancelAll => {
            let effects = cancel_all(app);
            if !effects.is_empty() {
                app.flash_info(format!(
                    "Cancelled {}.",
                    crate::plural::count(effects.len() as u64, "call", "calls")
                ));
            }
            return effects;
        }
        Action::Left => {
            compare.selected = compare.selected.saturating_sub(1);
            compare.refresh_find();
        }
        Action::Right => {
            compare.selected = (compare.selected + 1).min(n.saturating_sub(1));
            compare.refresh_find();
        }
        Action::Accept
            if compare.mode == CompareMode::Answers && compare.pane == ComparePane::Diff =>
        {
            compare.diff_base = compare.selected;
            compare.table_scroll = 0;
            let base = compare.selected + 1;
            app.flash_info(format!(
                "Column {base} is the base of the diff; ← → choose the column to compare with it."
            ));
        }
        Action::Accept if n > 0 && compare.mode == CompareMode::Answers => {
            compare.full = !compare.full;
            compare.pane = ComparePane::Columns;
        }
        Action::Up => compare.scroll_by(-1),
        Action::Down => compare.scroll_by(1),
        Action::PageUp => compare.scroll_by(-10),
        Action::PageDown => compare.scroll_by(10),
        Action::Top => compare.scroll_by(isize::MIN / 2),
        Action::Bottom => compare.scroll_by(isize::MAX / 2),
        Action::NextView | Action::PrevView => {
            let all = ComparePane::ALL;
            let at = all.iter().position(|p| *p == compare.pane).unwrap_or(0);
            let step = if action == Action::NextView {
                1
            } else {
                all.len() - 1
            };
            compare.pane = all[(at + step) % all.len()];
            compare.full = false;
            compare.table_scroll = 0;
            if compare.pane == ComparePane::Diff && compare.selected == compare.diff_base {
                // A diff of a column with itself says nothing: start on the next one.
                compare.selected = (compare.diff_base + 1).min(n.saturating_sub(1));
            }
        }
        Action::ToggleSync => {
            compare.sync = !compare.sync;
            let text = if compare.sync {
                "Columns scroll together."
            } else {
                "Only the focused column scrolls."
            };
            app.flash_info(text);
        }
        Action::ToggleMode => {
            if compare.busy() > 0 {
                let cancel = app.key_of(Context::Compare, Action::CancelAll);
                app.flash_info(format!(
                    "Calls are running; {cancel} cancels them before switching."
                ));
                return Vec::new();
            }
            compare.mode = match compare.mode {
                CompareMode::Answers => CompareMode::Search,
                CompareMode::Search => CompareMode::Answers,
            };
            compare.columns.clear();
            compare.full = false;
            // The summary and the rank table share a scroll: a new table opens at its top.
            compare.table_scroll = 0;
            compare.rebuild();
            let text = match compare.mode {
                CompareMode::Answers => "Comparing chatbot answers: models × devices × locations.",
                CompareMode::Search => {
                    "Comparing search ranks: locations × IP types, with the Search tab's other settings."
                }
            };
            app.flash_info(text);
        }
        Action::SortBy if compare.mode == CompareMode::Answers => {
            let views = &mut compare.brand_views;
            views.sort = views.sort.next();
            let label = views.sort.label();
            app.flash_info(format!("Brands sorted by {label}."));
        }
        Action::SortBy => {
            compare.sort = compare.sort.next();
            summary::sort_rows(&mut compare.table, compare.sort);
            let label = compare.sort.label();
            app.flash_info(format!("Rows sorted by {label}."));
        }
        Action::CycleFormat => {
            compare.axes.format = crate::app::cycle::next(AiFormat::ALL, compare.axes.format);
            let format = compare.axes.format;
            app.flash_info(format!("Format for every column: {format}"));
        }
        Action::NextSample | Action::PrevSample => {
            let selected = compare.selected;
            let Some(column) = compare.columns.get_mut(selected) else {
                return Vec::new();
            };
            if column.step_sample(action == Action::NextSample) {
                let (_, asked) = column.samples_back();
                let text = format!(
                    "Column #{}: answer {} of {asked}.",
                    selected + 1,
                    column.showing + 1
                );
                app.flash_info(text);
            } else {
                app.flash_info(
                    "This column has one answer back: a asks each column several times (samples).",
                );
            }
        }
        Action::CycleSamples => {
            if compare.mode == CompareMode::Search {
                app.flash_info("Samples are for answers: a search is read once per column.");
                return Vec::new();
            }
            compare.axes.samples = match compare.axes.samples() {
                1 => 3,
                3 => 5,
                5 => 10,
                _ => 1,
            };
            let samples = compare.axes.samples();
            let text = if samples == 1 {
                "Each column asked once.".to_string()
            } else {
                format!(
                    "Each column asked {samples} times afresh (cache off); the mention matrix counts every answer, with its 95 % interval. {} runs.",
                    app.key_of(Context::Compare, Action::Send)
                )
            };
            app.flash_info(text);
        }
        Action::ToggleCache => {
            compare.axes.no_cache = !compare.axes.no_cache;
            let text = if compare.axes.no_cache {
                "Cache off for every column (expiration=0)."
            } else {
                "Cache on for every column (expiration=1)."
            };
            app.flash_info(text);
        }
        Action::CycleIp => {
            // none → residential → isp → both → none
            compare.axes.ips = match compare.axes.ips.as_slice() {
                [] => vec![IpType::Residential],
                [IpType::Residential] => vec![IpType::Isp],
                [IpType::Isp] => vec![IpType::Residential, IpType::Isp],
                _ => Vec::new(),
            };
            compare.rebuild();
        }
        Action::Clear => match location_picker(compare) {
            Some(picker) => app.popup = Some(Popup::Picker(picker)),
            None => app.flash_info("There is no location to remove."),
        },
        Action::AddColumn => {
            let vantage = match compare.mode {
                CompareMode::Answers => Vantage {
                    model: app.chat.settings.model,
                    device: app.chat.settings.device.clone(),
                    location: app.chat.settings.location.clone(),
                    ..Vantage::default()
                },
                CompareMode::Search => Vantage {
                    location: app.search.settings.location.clone(),
                    ip: app.search.settings.ip,
                    ..Vantage::default()
                },
            };
            let label = vantage.label(compare.mode);
            compare.columns.push(Column::new(vantage, true));
            compare.selected = compare.columns.len() - 1;
            compare.refresh_summary();
            let source = match compare.mode {
                CompareMode::Answers => "Chat",
                CompareMode::Search => "Search",
            };
            app.flash_info(format!(
                "Added a column from the {source} tab's settings: {label}."
            ));
        }
        Action::RemoveColumn => {
            if n == 0 {
                return Vec::new();
            }
            let mut effects = cancel_one(app);
            let compare = &mut app.compare;
            let column = compare.columns.remove(compare.selected);
            compare.selected = compare
                .selected
                .min(compare.columns.len().saturating_sub(1));
            compare.full = false;
            compare.refresh_summary();
            if !column.by_hand {
                app.flash_info("Removed; it comes back when the axes change.");
            }
            effects.extend(pump(app));
            return effects;
        }
        Action::PickModel => app.popup = Some(Popup::Picker(model_picker(compare, None))),
        Action::PickDevice => {
            app.popup = Some(Popup::Picker(device_picker(app, None)));
        }
        Action::PickCountry => {
            let picker = pickers::location(PickerKind::Country, &Location::default())
                .with_note("Adds a location; s and t then set its subdivision and city.");
            app.popup = Some(Popup::Picker(picker));
        }
        Action::PickSubdivision | Action::PickCity => {
            let Some(last) = compare.axes.locations.last() else {
                app.flash_info(
                    "Add a location with c first: subdivisions and cities belong to a country.",
                );
                return Vec::new();
            };
            let kind = if action == Action::PickCity {
                PickerKind::City
            } else {
                PickerKind::Subdivision
            };
            app.popup = Some(Popup::Picker(pickers::location(kind, last)));
        }
        Action::Export => {
            if compare.columns.iter().all(|c| c.outcome.is_none()) {
                app.flash_info("There is nothing to export yet: run the comparison first.");
            } else {
                let name = match compare.mode {
                    CompareMode::Answers => "vantage-compare.md",
                    CompareMode::Search => "vantage-compare-search.csv",
                };
                app.popup = Some(Popup::Input(export_prompt(
                    ExportSource::Comparison,
                    name.to_string(),
                )));
            }
        }
        Action::FanoutCoverage => {
            let column = compare.columns.get(compare.selected);
            match column.and_then(|c| c.shown_answer()) {
                Some(answer) => {
                    let answer = Box::new(answer.clone());
                    app.ask(crate::app::hub::Ask::FanoutCoverage(answer));
                }
                None if compare.mode == CompareMode::Search => app.flash_info(format!(
                    "{} searches an answer's fanouts: compare answers ({}), then focus a column.",
                    app.key_of(Context::Compare, Action::FanoutCoverage),
                    app.key_of(Context::Compare, Action::ToggleMode)
                )),
                None => app.flash_info(format!(
                    "The focused column has no answer yet: {} runs it.",
                    app.key_of(Context::Compare, Action::Send)
                )),
            }
        }
        Action::Copy => {
            let form = match compare.mode {
                CompareMode::Answers => crate::app::CompareForm::Markdown,
                CompareMode::Search => crate::app::CompareForm::Csv,
            };
            let text = crate::app::ExportText::Comparison(Box::new(compare.to_export()), form);
            app.flash_info("Copied the comparison.");
            return vec![Effect::Os(OsEffect::Copy(text))];
        }
        _ => {}
    }
    Vec::new()
}

/// The model picker as a multi-select over the comparison's sources.
fn model_picker(compare: &CompareState, at: Option<AnswerSource>) -> crate::app::picker::Picker {
    pickers::sources(&compare.axes.sources(), at)
}

/// The locations chosen so far, any of which Enter removes; `None` when there are none.
fn location_picker(compare: &CompareState) -> Option<crate::app::picker::Picker> {
    let locations = &compare.axes.locations;
    (!locations.is_empty()).then(|| {
        pickers::axis_locations(locations)
            .with_note("Enter removes the highlighted location; Esc when done.")
    })
}

/// The devices of the comparison's columns, from the list of what it compares (an answer's
/// or a results page's).
fn device_picker(app: &App, at: Option<&str>) -> crate::app::picker::Picker {
    let list = match app.compare.mode {
        CompareMode::Answers => crate::devices::DeviceList::Ai,
        CompareMode::Search => crate::devices::DeviceList::Search,
    };
    pickers::devices_checked(list, app.device_list(list), &app.compare.axes.devices, at)
}

/// Sets what a picker chose: models and devices toggle; a country adds a location;
/// subdivision and city set those of the last location.
pub(crate) fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    choose(app, kind, value);
    refresh_views(app);
}

fn choose(app: &mut App, kind: PickerKind, value: Option<String>) {
    let compare = &mut app.compare;
    match kind {
        PickerKind::Model => {
            let source = value.and_then(|v| v.parse::<AnswerSource>().ok());
            match source {
                Some(AnswerSource::Model(model)) => {
                    pickers::toggle(&mut compare.axes.models, model)
                }
                Some(AnswerSource::AiOverview) => compare.axes.overview = !compare.axes.overview,
                None => {}
            }
            compare.rebuild();
            app.popup = Some(Popup::Picker(model_picker(&app.compare, source)));
            return;
        }
        PickerKind::Device | PickerKind::SearchDevice => {
            if let Some(device) = &value {
                pickers::toggle(&mut compare.axes.devices, device.clone());
            }
            compare.rebuild();
            app.popup = Some(Popup::Picker(device_picker(app, value.as_deref())));
            return;
        }
        PickerKind::Country => {
            let mut location = Location::default();
            pickers::apply_location(&mut location, kind, value);
            if compare.axes.locations.contains(&location) {
                app.flash_info("That location is already a column axis.");
                return;
            }
            compare.axes.locations.push(location);
        }
        PickerKind::Subdivision | PickerKind::City => {
            if let Some(last) = compare.axes.locations.last_mut() {
                pickers::apply_location(last, kind, value);
            }
        }
        PickerKind::AxisLocation => {
            let at = value.and_then(|v| v.parse::<usize>().ok());
            if let Some(at) = at.filter(|at| *at < compare.axes.locations.len()) {
                compare.axes.locations.remove(at);
                compare.rebuild();
            }
            app.popup = location_picker(&app.compare).map(Popup::Picker);
            return;
        }
        PickerKind::Language | PickerKind::Display | PickerKind::TrackSet | PickerKind::Brand => {}
    }
    compare.rebuild();
}

/// The line that says what a send costs, by the price table: "8 columns = 8 calls (8
/// answers × 5 = 40 credits)", or why it is refused (too many, or more than the balance).
pub(crate) fn cost_line(app: &App) -> (String, bool) {
    let compare = &app.compare;
    let n = compare.columns.len();
    let samples = compare.samples_per_column();
    let s = if n == 1 { "" } else { "s" };
    let calls = compare.calls_by_kind();
    let too_many = match compare.mode {
        CompareMode::Search => true,
        CompareMode::Answers => samples > 1,
    };
    if n > MAX_COLUMNS && too_many {
        return (
            format!("{n} columns = {n} calls: too many, at most {MAX_COLUMNS}"),
            false,
        );
    }
    let text = if samples > 1 {
        let text = format!(
            "{n} column{s} × {samples} samples = {}",
            calls.in_words(&app.prices)
        );
        if crate::analysis::samples::check_sampled_comparison(samples, n).is_err() {
            return (
                format!(
                    "{text}: too many, at most {}",
                    crate::analysis::samples::MAX_SAMPLED_CALLS
                ),
                false,
            );
        }
        text
    } else if n > MAX_COLUMNS {
        format!(
            "{n} columns through the queue = {}",
            calls.in_words(&app.prices)
        )
    } else {
        format!("{n} column{s} = {}", calls.in_words(&app.prices))
    };
    match app.credits {
        super::super::Credits::Known(left) if left < calls.credits(&app.prices) => {
            (format!("{text}: {left} credits left"), false)
        }
        _ => (text, true),
    }
}
