//! The Page tab: a URL, a vantage point (device, country, subdivision, city), difficulty,
//! format and mode; the page as that vantage point sees it, its links, and the same URL
//! fetched from up to two more countries with a word diff of the first two.

use std::collections::HashMap;

use crossterm::event::KeyEvent;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui_textarea::TextArea;

use crate::api::{ApiError, BrowserFormat, BrowserRequest, Difficulty, Location};
use crate::present::page::{DiffSide, PageDiff, PreparedPage};
use crate::store::RequestParams;

use super::call::CallState;
use super::keymap::{Action, Context};
use super::layout::{self, Cell};
use super::picker::PickerKind;
use super::{App, CallEffect, Effect, OsEffect, Popup, Tag, pickers};

/// The most countries a page is also fetched from, beside the form's vantage point.
pub const MAX_COMPARED: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageFocus {
    Url,
    Settings,
    View,
}

/// The settings row of the Page tab, in its order on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageSetting {
    Device,
    Country,
    Subdivision,
    City,
    Difficulty,
    Format,
    Mode,
    /// The countries the page is also fetched from, to compare.
    AlsoFrom,
}

impl PageSetting {
    pub const ALL: [PageSetting; 8] = [
        PageSetting::Device,
        PageSetting::Country,
        PageSetting::Subdivision,
        PageSetting::City,
        PageSetting::Difficulty,
        PageSetting::Format,
        PageSetting::Mode,
        PageSetting::AlsoFrom,
    ];

    pub fn label(self) -> &'static str {
        match self {
            PageSetting::Device => "device",
            PageSetting::Country => "country",
            PageSetting::Subdivision => "subdiv",
            PageSetting::City => "city",
            PageSetting::Difficulty => "difficulty",
            PageSetting::Format => "format",
            PageSetting::Mode => "mode",
            PageSetting::AlsoFrom => "also from",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageSettings {
    pub device: Option<String>,
    pub location: Location,
    pub difficulty: Option<Difficulty>,
    pub format: BrowserFormat,
    pub async_mode: bool,
    /// Country codes the same page is also fetched from.
    pub also_from: Vec<String>,
}

impl PageSettings {
    pub fn value_text(&self, setting: PageSetting) -> String {
        let text = |v: &Option<String>, unset: &str| {
            v.as_deref().map_or_else(
                || unset.to_string(),
                |s| crate::api::request::shorten(s, 22),
            )
        };
        match setting {
            PageSetting::Device => text(&self.device, crate::devices::DESKTOP),
            PageSetting::Country => text(&self.location.country, "random"),
            PageSetting::Subdivision => text(&self.location.subdivision, "random"),
            PageSetting::City => text(&self.location.city, "random"),
            PageSetting::Difficulty => self.difficulty.map_or("low", Difficulty::as_str).into(),
            PageSetting::Format => self.format.as_str().to_string(),
            PageSetting::Mode => super::call::mode_text(self.async_mode).to_string(),
            PageSetting::AlsoFrom if self.also_from.is_empty() => "–".to_string(),
            PageSetting::AlsoFrom => self.also_from.join("+"),
        }
    }

    pub fn cells(&self) -> Vec<Cell> {
        PageSetting::ALL
            .iter()
            .map(|s| Cell {
                label: s.label(),
                value: self.value_text(*s),
            })
            .collect()
    }
}

/// What the result pane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PageView {
    /// The page as the n-th vantage point saw it.
    Seen(usize),
    /// The links of the page on screen last.
    Links,
    /// The word diff of two vantage points with a page: the first two in the form's order,
    /// until `p` picks another pair.
    Diff,
}

/// One vantage point's fetch of the page.
#[derive(Debug)]
pub struct PageFetch {
    pub request: BrowserRequest,
    pub call: CallState,
    pub page: Option<Box<PreparedPage>>,
}

#[derive(Debug, Default)]
pub enum DiffState {
    /// Fewer than two pages to compare.
    #[default]
    None,
    Running(Tag),
    Ready(Box<PageDiff>),
}

pub struct PageTabState {
    pub url: TextArea<'static>,
    pub settings: PageSettings,
    pub focus: PageFocus,
    pub setting_cursor: usize,
    pub fetches: Vec<PageFetch>,
    pub view: PageView,
    pub scroll: HashMap<PageView, usize>,
    pub link_selected: usize,
    /// The vantage point seen last: the Links view lists its page's links.
    pub seen: usize,
    pub diff: DiffState,
    /// The fetches (indices) the diff compares, once one was asked.
    pub diff_pair: Option<(usize, usize)>,
    /// The country picker open adds a country to compare rather than setting the form's.
    picking_also_from: bool,
}

impl Default for PageTabState {
    fn default() -> Self {
        PageTabState::new()
    }
}

impl PageTabState {
    pub fn new() -> PageTabState {
        let mut url = TextArea::default();
        url.set_placeholder_text("https://… the page to fetch. Enter fetches it.");
        PageTabState {
            url,
            settings: PageSettings::default(),
            focus: PageFocus::Url,
            setting_cursor: 0,
            fetches: Vec::new(),
            view: PageView::Seen(0),
            scroll: HashMap::new(),
            link_selected: 0,
            seen: 0,
            diff: DiffState::None,
            diff_pair: None,
            picking_also_from: false,
        }
    }

    pub fn url_text(&self) -> String {
        self.url.lines().join("").trim().to_string()
    }

    pub fn set_url(&mut self, text: &str) {
        self.url.select_all();
        self.url.cut();
        self.url.insert_str(text.replace(['\n', '\r'], ""));
    }

    /// Puts a stored request's values back into the form: its address and vantage point,
    /// fetched from there alone.
    pub fn load_request(&mut self, request: &BrowserRequest) {
        self.set_url(&request.url);
        let s = &mut self.settings;
        s.device = request.device.clone();
        s.location = request.location.clone();
        s.difficulty = request.difficulty;
        s.format = request.format;
        s.also_from.clear();
    }

    /// The request of the form's own vantage point.
    pub fn request(&self) -> BrowserRequest {
        let s = &self.settings;
        BrowserRequest {
            url: self.url_text(),
            device: s.device.clone(),
            location: s.location.clone(),
            difficulty: s.difficulty,
            format: s.format,
            expiration: None,
        }
    }

    /// The form's request, then the same from each country to compare.
    pub fn requests(&self) -> Vec<BrowserRequest> {
        let first = self.request();
        let mut requests = vec![first.clone()];
        for country in &self.settings.also_from {
            requests.push(BrowserRequest {
                location: Location {
                    country: Some(country.clone()),
                    ..Location::default()
                },
                ..first.clone()
            });
        }
        requests
    }

    pub fn editing(&self) -> bool {
        self.focus == PageFocus::Url
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        match self.focus {
            PageFocus::Url => vec![Context::Editing],
            PageFocus::Settings => vec![Context::Settings, Context::Page, Context::Form],
            PageFocus::View => vec![Context::Viewer, Context::Page, Context::Form],
        }
    }

    pub fn edit(&mut self, key: KeyEvent) {
        // One line: a typed line break is not part of an address.
        if key.code == crossterm::event::KeyCode::Enter {
            return;
        }
        super::input::edit_text_area(&mut self.url, key);
    }

    pub fn paste(&mut self, text: &str) {
        self.focus = PageFocus::Url;
        self.url.insert_str(text.replace(['\n', '\r'], ""));
    }

    pub fn running(&self) -> usize {
        self.fetches.iter().filter(|f| f.call.is_running()).count()
    }

    /// Fetches whose page is not in yet.
    pub fn waiting(&self) -> usize {
        self.fetches.iter().filter(|f| f.call.is_waiting()).count()
    }

    /// The views the pane offers now: each fetch, the links, the diff once there are two.
    pub fn views(&self) -> Vec<PageView> {
        let mut views: Vec<PageView> = (0..self.fetches.len()).map(PageView::Seen).collect();
        if self.fetches.iter().any(|f| f.page.is_some()) {
            views.push(PageView::Links);
        }
        if !matches!(self.diff, DiffState::None) {
            views.push(PageView::Diff);
        }
        views
    }

    /// The page whose links the Links view lists: the one seen last, else the first.
    pub fn links_page(&self) -> Option<&PreparedPage> {
        self.fetches
            .get(self.seen)
            .and_then(|f| f.page.as_deref())
            .or_else(|| self.fetches.iter().find_map(|f| f.page.as_deref()))
    }

    /// Takes a page that arrived; returns the diff to compute once its two pages are in.
    pub fn on_done(
        &mut self,
        tag: Tag,
        result: Result<Box<PreparedPage>, ApiError>,
        diff_tag: Tag,
    ) -> Option<Vec<Effect>> {
        let fetch = self.fetches.iter_mut().find(|f| f.call.is_for(tag))?;
        match result {
            Ok(page) => {
                fetch.call = CallState::Idle;
                fetch.page = Some(page);
            }
            Err(error) => fetch.call = CallState::Failed(error),
        }
        let mut effects = Vec::new();
        // The diff pairs the first two vantage points in the form's order that did not
        // fail nor were cancelled (the form's own, then the first country to compare), once
        // both are in.
        let mut pair = self
            .fetches
            .iter()
            .enumerate()
            .filter(|(_, f)| f.page.is_some() || f.call.is_running());
        let (Some((left, _)), Some((right, _))) = (pair.next(), pair.next()) else {
            return Some(effects);
        };
        if matches!(self.diff, DiffState::None) {
            effects.extend(self.diff_of(left, right, diff_tag));
        }
        Some(effects)
    }

    /// Asks the diff of two fetches, when both have their page.
    fn diff_of(&mut self, left: usize, right: usize, tag: Tag) -> Option<Effect> {
        let page = |i: usize| self.fetches.get(i).and_then(|f| f.page.as_deref());
        let (left_page, right_page) = (page(left)?, page(right)?);
        let effect = Effect::Call(CallEffect::DiffPages {
            tag,
            left: DiffSide::from(left_page),
            right: DiffSide::from(right_page),
        });
        self.diff = DiffState::Running(tag);
        self.diff_pair = Some((left, right));
        self.scroll.remove(&PageView::Diff);
        Some(effect)
    }

    /// How many vantage points have their page: more than two give a choice of pair.
    pub fn pages_in(&self) -> usize {
        self.fetches.iter().filter(|f| f.page.is_some()).count()
    }

    /// Diffs the next pair of the vantage points with a page (in the form's order: 1–2, 1–3,
    /// 2–3, then 1–2 again). Says why not when there is no other pair.
    pub fn next_diff_pair(&mut self, tag: Tag) -> Result<Effect, &'static str> {
        let with_page: Vec<usize> = (0..self.fetches.len())
            .filter(|i| self.fetches[*i].page.is_some())
            .collect();
        if with_page.len() < 3 {
            return Err(
                "Only two pages to compare: add a country with C and fetch again to choose a pair.",
            );
        }
        let pairs: Vec<(usize, usize)> = with_page
            .iter()
            .enumerate()
            .flat_map(|(n, a)| with_page[n + 1..].iter().map(move |b| (*a, *b)))
            .collect();
        let next = self
            .diff_pair
            .and_then(|current| pairs.iter().position(|p| *p == current))
            .map_or(0, |at| (at + 1) % pairs.len());
        let (left, right) = pairs[next];
        self.view = PageView::Diff;
        self.diff_of(left, right, tag)
            .ok_or("Those pages are not in yet; wait for them, then press the key again.")
    }

    pub fn on_diffed(&mut self, tag: Tag, diff: Box<PageDiff>) {
        if matches!(self.diff, DiffState::Running(t) if t == tag) {
            self.diff = DiffState::Ready(diff);
        }
    }

    fn scroll_by(&mut self, delta: isize, height: usize) {
        if self.view == PageView::Links {
            let len = self.links_page().map_or(0, |p| p.links.len());
            if len > 0 {
                self.link_selected =
                    (self.link_selected as isize + delta).clamp(0, len as isize - 1) as usize;
            }
            return;
        }
        let lines = match self.view {
            PageView::Seen(i) => self
                .fetches
                .get(i)
                .and_then(|f| f.page.as_ref())
                .map_or(0, |p| p.text.wrapped_len()),
            PageView::Diff => match &self.diff {
                DiffState::Ready(diff) => diff.text.wrapped_len(),
                _ => 0,
            },
            PageView::Links => 0,
        };
        let max = lines.saturating_sub(height.max(1)) as isize;
        let current = self.scroll.get(&self.view).copied().unwrap_or(0) as isize;
        self.scroll
            .insert(self.view, (current + delta).clamp(0, max.max(0)) as usize);
    }

    fn focus_cycle(&mut self, forward: bool) {
        const ORDER: [PageFocus; 3] = [PageFocus::Url, PageFocus::Settings, PageFocus::View];
        let i = ORDER.iter().position(|f| *f == self.focus).unwrap_or(0);
        let next = if forward { i + 1 } else { i + ORDER.len() - 1 };
        self.focus = ORDER[next % ORDER.len()];
    }
}

/// Where the address, the settings and the result pane are.
pub struct PageAreas {
    pub url: Rect,
    pub settings: Rect,
    pub view: Rect,
}

pub fn page_areas(state: &PageTabState, body: Rect) -> PageAreas {
    let cells = state.settings.cells();
    let rows = layout::flow_rows(body.width, &layout::cell_widths(&cells), 1);
    let [url, settings, view] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(rows),
        Constraint::Min(3),
    ])
    .areas(body);
    PageAreas {
        url,
        settings,
        view,
    }
}

/// Rows the result pane shows at once (inside its border).
fn view_height(app: &App) -> usize {
    let areas = page_areas(&app.page, app.frame_areas().body);
    usize::from(areas.view.height.saturating_sub(2)).max(1)
}

/// Handles an action the keymap found, on the Page tab.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let height = view_height(app);
    let state = &mut app.page;
    match action {
        Action::FocusNext => state.focus_cycle(true),
        Action::FocusPrev => state.focus_cycle(false),
        Action::Back if state.running() > 0 => return cancel(app),
        Action::Back => state.focus = PageFocus::View,
        Action::EditPrompt => state.focus = PageFocus::Url,
        Action::Send => return send(app),
        Action::Cancel => return cancel(app),
        Action::Left => state.setting_cursor = state.setting_cursor.saturating_sub(1),
        Action::Right => {
            state.setting_cursor = (state.setting_cursor + 1).min(PageSetting::ALL.len() - 1)
        }
        Action::Accept => {
            let setting = PageSetting::ALL[state.setting_cursor.min(PageSetting::ALL.len() - 1)];
            return change_setting(app, setting);
        }
        Action::Clear => {
            let setting = PageSetting::ALL[state.setting_cursor.min(PageSetting::ALL.len() - 1)];
            clear_setting(&mut state.settings, setting);
        }
        Action::PickDevice => return change_setting(app, PageSetting::Device),
        Action::PickCountry => return change_setting(app, PageSetting::Country),
        Action::PickSubdivision => return change_setting(app, PageSetting::Subdivision),
        Action::PickCity => return change_setting(app, PageSetting::City),
        Action::CycleDifficulty => return change_setting(app, PageSetting::Difficulty),
        Action::CycleFormat => return change_setting(app, PageSetting::Format),
        Action::ToggleAsync => return change_setting(app, PageSetting::Mode),
        Action::PickCompareCountries => return change_setting(app, PageSetting::AlsoFrom),
        Action::NextDiffPair => {
            let tag = app.next_tag();
            return match app.page.next_diff_pair(tag) {
                Ok(effect) => {
                    let label = |i: usize| {
                        app.page
                            .fetches
                            .get(i)
                            .and_then(|f| f.page.as_deref())
                            .map_or_else(String::new, PreparedPage::vantage)
                    };
                    if let Some((left, right)) = app.page.diff_pair {
                        let text = format!("Diffing {} with {}.", label(left), label(right));
                        app.flash_info(text);
                    }
                    vec![effect]
                }
                Err(why) => {
                    app.flash_info(why);
                    Vec::new()
                }
            };
        }
        Action::PickLanguage | Action::PickDisplay | Action::ToggleCache => {
            app.flash_info("A page has no language or cache setting; the location sets both.")
        }
        Action::Up => state.scroll_by(-1, height),
        Action::Down => state.scroll_by(1, height),
        Action::PageUp => state.scroll_by(-(height as isize), height),
        Action::PageDown => state.scroll_by(height as isize, height),
        Action::Top => state.scroll_by(isize::MIN / 4, height),
        Action::Bottom => state.scroll_by(isize::MAX / 4, height),
        Action::NextView | Action::PrevView => {
            let views = state.views();
            if !views.is_empty() {
                let i = views.iter().position(|v| *v == state.view).unwrap_or(0);
                let next = if action == Action::NextView {
                    i + 1
                } else {
                    i + views.len() - 1
                };
                let next = views[next % views.len()];
                match next {
                    PageView::Seen(i) => state.seen = i,
                    PageView::Links => state.link_selected = 0,
                    PageView::Diff => {}
                }
                state.view = next;
            }
        }
        Action::Open => {
            if state.view != PageView::Links {
                if state.links_page().is_some() {
                    state.view = PageView::Links;
                    let open = app.key_of(Context::Normal, Action::Open);
                    app.flash_info(format!(
                        "Choose a link with ↑↓, then press {open} to open it."
                    ));
                } else {
                    app.flash_info("Fetch a page first; o then lists its links to open.");
                }
                return Vec::new();
            }
            let url = state
                .links_page()
                .and_then(|p| p.links.get(state.link_selected))
                .map(|l| l.url.clone());
            return match url {
                Some(url) => vec![Effect::Os(OsEffect::OpenUrl(url))],
                None => {
                    app.flash_info("This page has no links.");
                    Vec::new()
                }
            };
        }
        _ => {}
    }
    Vec::new()
}

fn clear_setting(settings: &mut PageSettings, setting: PageSetting) {
    match setting {
        PageSetting::Device => settings.device = None,
        PageSetting::Country => settings.location = Location::default(),
        PageSetting::Subdivision => {
            settings.location.subdivision = None;
            settings.location.city = None;
        }
        PageSetting::City => settings.location.city = None,
        PageSetting::Difficulty => settings.difficulty = None,
        PageSetting::Format => settings.format = BrowserFormat::default(),
        PageSetting::Mode => settings.async_mode = false,
        PageSetting::AlsoFrom => settings.also_from.clear(),
    }
}

/// Opens the picker of a setting, or cycles it.
fn change_setting(app: &mut App, setting: PageSetting) -> Vec<Effect> {
    let settings = &mut app.page.settings;
    let picker = match setting {
        PageSetting::Device => {
            let list = crate::devices::DeviceList::Ai;
            pickers::devices_from(list, &app.devices, settings.device.as_deref())
        }
        PageSetting::Country => pickers::location(PickerKind::Country, &settings.location),
        PageSetting::Subdivision | PageSetting::City if settings.location.country.is_none() => {
            app.flash_info("Choose a country first (c): subdivisions and cities belong to one.");
            return Vec::new();
        }
        PageSetting::Subdivision => pickers::location(PickerKind::Subdivision, &settings.location),
        PageSetting::City => pickers::location(PickerKind::City, &settings.location),
        // The countries compared are checked: choosing one adds or removes it, one at a time.
        PageSetting::AlsoFrom => {
            app.page.picking_also_from = true;
            pickers::location(PickerKind::Country, &Location::default())
                .with_checked(settings.also_from.iter().cloned())
        }
        PageSetting::Difficulty => {
            settings.difficulty = match settings.difficulty {
                None | Some(Difficulty::Low) => Some(Difficulty::Medium),
                Some(Difficulty::Medium) => Some(Difficulty::High),
                Some(Difficulty::High) => None,
            };
            let difficulty = settings.difficulty.map_or("low", Difficulty::as_str);
            app.flash_info(format!("Difficulty: {difficulty}"));
            return Vec::new();
        }
        PageSetting::Format => {
            settings.format = match settings.format {
                BrowserFormat::Rendered => BrowserFormat::Raw,
                BrowserFormat::Raw => BrowserFormat::Markdown,
                BrowserFormat::Markdown => BrowserFormat::Rendered,
            };
            let format = settings.format;
            app.flash_info(format!("Format: {format}"));
            return Vec::new();
        }
        PageSetting::Mode => {
            settings.async_mode = !settings.async_mode;
            let async_mode = settings.async_mode;
            let send = app.key_of(
                crate::app::keymap::Context::Editing,
                crate::app::keymap::Action::Send,
            );
            let text = super::call::mode_flash(async_mode, &send);
            app.flash_info(text);
            return Vec::new();
        }
    };
    app.popup = Some(Popup::Picker(picker));
    Vec::new()
}

/// Sets what a picker chose in the Page form.
pub fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let state = &mut app.page;
    if std::mem::take(&mut state.picking_also_from) {
        let (PickerKind::Country, Some(country)) = (kind, value) else {
            return;
        };
        let also_from = &mut state.settings.also_from;
        if let Some(at) = also_from.iter().position(|c| *c == country) {
            also_from.remove(at);
            app.flash_info(format!("{country} is no longer compared."));
        } else if also_from.len() >= MAX_COMPARED {
            app.flash_info(format!(
                "At most {MAX_COMPARED} countries are compared: choose a checked one to remove it first."
            ));
        } else {
            also_from.push(country);
        }
        return;
    }
    match kind {
        PickerKind::Device => {
            state.settings.device = value.as_deref().and_then(crate::devices::emulated)
        }
        PickerKind::Country | PickerKind::Subdivision | PickerKind::City => {
            pickers::apply_location(&mut state.settings.location, kind, value)
        }
        PickerKind::Model
        | PickerKind::SearchDevice
        | PickerKind::Language
        | PickerKind::Display
        | PickerKind::AxisLocation
        | PickerKind::TrackSet
        | PickerKind::Brand => {}
    }
}

/// Fetches the page from the form's vantage point and each country to compare; in async
/// mode, queues each as a job.
fn send(app: &mut App) -> Vec<Effect> {
    if app.page.running() > 0 {
        let cancel = app.key_of(Context::Form, Action::Cancel);
        app.flash_info(format!("The page is on its way; {cancel} cancels."));
        return Vec::new();
    }
    let requests = app.page.requests();
    for request in &requests {
        if !app.may_send(request.validate()) {
            return Vec::new();
        }
    }
    if app.page.settings.async_mode {
        let n = requests.len();
        app.flash_info(if n == 1 {
            "Queueing the page request…".to_string()
        } else {
            format!("Queueing {n} page requests…")
        });
        return requests
            .iter()
            .map(|r| Effect::submit_job(browser_params(r)))
            .collect();
    }
    let mut effects = Vec::new();
    let mut fetches = Vec::new();
    for request in requests {
        let tag = app.next_tag();
        let label = format!(
            "Fetching as {}",
            crate::present::page::vantage_label(&request)
        );
        fetches.push(PageFetch {
            request: request.clone(),
            call: CallState::running(tag, app.now, label, None),
            page: None,
        });
        effects.push(Effect::Call(CallEffect::FetchPage { tag, request }));
    }
    let state = &mut app.page;
    state.fetches = fetches;
    state.diff = DiffState::None;
    state.diff_pair = None;
    state.view = PageView::Seen(0);
    state.seen = 0;
    state.scroll.clear();
    state.link_selected = 0;
    state.focus = PageFocus::View;
    effects
}

/// A stored request back in the form, ready to edit and fetch again.
pub(crate) fn edit_again(app: &mut App, request: &BrowserRequest) {
    app.page.load_request(request);
    app.page.focus = PageFocus::Url;
    app.tab = super::Tab::Page;
    let send = app.key_of(Context::Editing, Action::Send);
    app.flash_info(format!(
        "The request is back in the form: edit it, then {send} fetches it."
    ));
}

/// A page request as History and the jobs keep it.
pub fn browser_params(request: &BrowserRequest) -> RequestParams {
    // A request of plain strings always serializes; the URL alone is the fallback.
    RequestParams::Browser(
        serde_json::to_value(request).unwrap_or_else(|_| serde_json::json!({ "url": request.url })),
    )
}

fn cancel(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    for fetch in &mut app.page.fetches {
        if let Some(tag) = fetch.call.tag() {
            fetch.call = CallState::Idle;
            effects.push(Effect::Call(CallEffect::Cancel(tag)));
        }
    }
    if !effects.is_empty() {
        app.flash_info("Cancelled.");
    }
    effects
}

/// A click on the Page tab's body.
pub fn on_click(app: &mut App, body: Rect, at: ratatui::layout::Position) -> Vec<Effect> {
    let areas = page_areas(&app.page, body);
    if areas.url.contains(at) {
        app.page.focus = PageFocus::Url;
    } else if areas.settings.contains(at) {
        app.page.focus = PageFocus::Settings;
        if let Some(i) = layout::cell_at(areas.settings, &app.page.settings.cells(), at) {
            app.page.setting_cursor = i;
            return change_setting(app, PageSetting::ALL[i]);
        }
    } else if areas.view.contains(at) {
        app.page.focus = PageFocus::View;
    }
    Vec::new()
}

/// The mouse wheel over the Page tab.
pub fn wheel(app: &mut App, delta: isize) {
    let height = view_height(app);
    app.page.scroll_by(delta, height);
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
