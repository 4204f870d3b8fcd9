//! The app's state, its messages and `update`, which returns effects and performs no I/O.
//! `tui.rs` carries the effects out and feeds the results back as messages.

pub mod brands;
pub mod call;
pub(crate) mod chat;
mod chat_settings;
pub(crate) mod compare;
pub mod coverage;
mod cycle;
pub mod discover;
mod effect;
mod events;
pub(crate) mod export;
pub mod history;
pub mod hub;
pub(crate) mod input;
pub mod jobs_tab;
// The keymap lives in `crate::keys`, shared with the CLI; the app names it as its own.
pub use crate::keys::file as keys_file;
pub use crate::keys::keymap;
pub(crate) mod layout;
pub(crate) mod list;
mod msg;
pub mod page;
pub mod palette;
pub(crate) mod picker;
pub(crate) mod pickers;
mod popup;
pub mod proxy;
pub mod search;
pub mod set_alerts;
pub mod sets;
pub mod settings_memory;
pub mod stored;
mod tabs;
pub(crate) mod text_search;
pub(crate) mod track;
pub mod track_answers;
pub mod usage;

pub use effect::{CallEffect, Effect, OsEffect, StoreEffect};
pub use export::{CompareForm, ExportSource, ExportText, WriteFailure, export_prompt};
pub use msg::{FileUnusable, Msg, StoredView, TrackRunSent, UserFile};
pub use popup::{Confirm, Popup};
pub use tabs::{Tab, TabSpec};

use std::time::{Duration, Instant};

use ratatui::layout::Rect;

use crate::api::ApiError;
use crate::devices::DeviceList;
use crate::fuzzy::FuzzyMatcher;
use crate::jobs::UnixMs;

use chat::ChatState;
use keymap::{Action, Context};
use proxy::ProxyState;

/// Identifies one request, so its answer finds its way back and can be cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(pub u64);

/// What the app is connected to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connection {
    pub demo: bool,
    /// host:port of the render service.
    pub host: String,
    /// The masked token, or `None` when no token is set.
    pub token: Option<String>,
    /// Where to set the token, for the banner.
    pub token_hint: String,
}

/// The balance, as last heard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credits {
    Unknown,
    Known(u64),
    /// A 402 was answered; the top-up URL from its message.
    Exhausted {
        topup_url: Option<String>,
    },
}

/// A device list of the service (`/ai/devices`, `/search/devices`), fetched once per session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Devices {
    NotFetched,
    Loading,
    Loaded(Vec<String>),
    Failed(String),
}

impl Devices {
    /// The names listed, none while the list is not at hand (a name then passes as typed).
    pub fn names(&self) -> &[String] {
        match self {
            Devices::Loaded(names) => names,
            _ => &[],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlashLevel {
    Info,
    Error,
}

/// A one-line message in the status bar, until the next key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flash {
    pub level: FlashLevel,
    pub text: String,
}

pub struct App {
    pub connection: Connection,
    pub tab: Tab,
    pub chat: ChatState,
    pub search: search::SearchState,
    pub compare: compare::CompareState,
    pub proxy: ProxyState,
    pub jobs: jobs_tab::JobsState,
    pub history: history::HistoryState,
    /// The brands tracked in answers, from the workspace file (empty without one).
    pub brands: Vec<crate::analysis::mentions::Brand>,
    pub brands_pane: brands::BrandsState,
    pub page: page::PageTabState,
    pub usage: usage::UsageState,
    pub track: track::TrackState,
    pub popup: Option<Popup>,
    pub credits: Credits,
    /// What each call costs: every cost said before a spend reads it (the config's table).
    pub prices: crate::price::Prices,
    /// The devices an AI answer can be asked as (`/ai/devices`).
    pub devices: Devices,
    /// The devices a results page can be fetched as (`/search/devices`).
    pub search_devices: Devices,
    pub flash: Option<Flash>,
    /// The clock, set by the event loop before each batch of messages, so `update` and the
    /// views never read it themselves.
    pub now: Instant,
    /// The wall clock in Unix milliseconds, set with `now`: the job scheduler's time.
    pub wall: UnixMs,
    /// The terminal's area, for layout and mouse hits.
    pub area: Rect,
    pub matcher: FuzzyMatcher,
    pub should_quit: bool,
    pub(crate) export: export::ExportState,
    /// The widest that answers wrap, centred in wider panes; 0 uses the whole pane.
    pub reading_width: u16,
    /// The keys in effect: the defaults, moved by `keys.toml`.
    pub keys: keymap::Keymap,
    /// Why `keys.toml` is not in use (its line), while it is broken.
    pub keys_problem: Option<String>,
    /// Why the theme file is not in use, while it is broken or missing.
    pub theme_problem: Option<String>,
    /// The styles the views draw with: a built-in theme or the user's file.
    pub theme: crate::theme::Theme,
    /// The settings as last saved or restored: a change after a message asks for a save.
    pub remembered: settings_memory::Remembered,
    /// The store's `data_version` as last read: another value means someone wrote it since.
    pub store_version: Option<i64>,
    /// What tabs asked of other tabs during this update, carried out at its end.
    asks: Vec<hub::Ask>,
    next_tag: u64,
}

impl App {
    /// One of the service's device lists, as this session has it.
    pub fn device_list(&self, list: DeviceList) -> &Devices {
        match list {
            DeviceList::Ai => &self.devices,
            DeviceList::Search => &self.search_devices,
        }
    }

    fn device_list_mut(&mut self, list: DeviceList) -> &mut Devices {
        match list {
            DeviceList::Ai => &mut self.devices,
            DeviceList::Search => &mut self.search_devices,
        }
    }

    pub fn new(connection: Connection, now: Instant) -> App {
        let mut app = App {
            connection,
            tab: Tab::Chat,
            chat: ChatState::new(),
            search: search::SearchState::new(),
            compare: compare::CompareState::new(),
            proxy: ProxyState::default(),
            jobs: jobs_tab::JobsState::default(),
            history: history::HistoryState::default(),
            brands: Vec::new(),
            brands_pane: brands::BrandsState::default(),
            page: page::PageTabState::new(),
            usage: usage::UsageState::default(),
            track: track::TrackState::default(),
            popup: None,
            credits: Credits::Unknown,
            prices: crate::price::Prices::default(),
            devices: Devices::NotFetched,
            search_devices: Devices::NotFetched,
            flash: None,
            now,
            wall: 0,
            area: Rect::new(0, 0, 80, 24),
            matcher: FuzzyMatcher::new(),
            should_quit: false,
            export: export::ExportState::default(),
            reading_width: crate::config::DEFAULT_READING_WIDTH,
            keys: keymap::Keymap::default(),
            keys_problem: None,
            theme_problem: None,
            theme: crate::theme::Theme::default(),
            remembered: settings_memory::Remembered::default(),
            store_version: None,
            asks: Vec::new(),
            next_tag: 1,
        };
        app.remembered = settings_memory::Remembered::of(&app);
        app
    }

    /// The effects to run once at start: the balance and the device list, when a token is set.
    /// The stored jobs are read (and resume polling) whether or not a token is set.
    pub fn start(&mut self) -> Vec<Effect> {
        // The version first: a write after it is seen, even before the jobs are read.
        let stored = [
            Effect::Store(StoreEffect::ReadDataVersion),
            Effect::Store(StoreEffect::LoadJobs),
        ];
        if self.connection.token.is_none() {
            return stored.into_iter().chain([brands::load(self)]).collect();
        }
        self.devices = Devices::Loading;
        self.search_devices = Devices::Loading;
        let usage = usage::refresh(self);
        vec![
            Effect::Call(CallEffect::FetchAccount),
            // The list saved last time shows until the fresh one arrives (or if it fails).
            Effect::Store(StoreEffect::LoadDevices),
            Effect::Call(CallEffect::FetchDevices(DeviceList::Ai)),
            Effect::Call(CallEffect::FetchDevices(DeviceList::Search)),
            brands::load(self),
        ]
        .into_iter()
        .chain(stored)
        // Credits spent today, for the usage overlay.
        .chain(usage)
        .collect()
    }

    pub fn set_clock(&mut self, now: Instant) {
        self.now = now;
    }

    /// The wall clock (Unix ms), for the job scheduler and the ages in the Jobs tab.
    pub fn set_wall(&mut self, wall: UnixMs) {
        self.wall = wall;
    }

    /// Switches tab, running what the tab does when it shows.
    pub fn select_tab(&mut self, tab: Tab) -> Vec<Effect> {
        self.tab = tab;
        let mut effects = (tab.spec().on_enter)(self);
        // Stored rows come into view: whatever was written since they were read shows.
        if tab.spec().on_store_changed.is_some() {
            effects.push(Effect::Store(StoreEffect::ReadDataVersion));
        }
        effects
    }

    /// True while a view of stored rows shows: the loop then looks at the store's version
    /// now and then, so that what another process writes appears. Idle elsewhere.
    pub fn watches_store(&self) -> bool {
        self.tab.spec().on_store_changed.is_some()
    }

    pub(crate) fn next_tag(&mut self) -> Tag {
        let tag = Tag(self.next_tag);
        self.next_tag += 1;
        tag
    }

    /// True while something on screen moves (a spinner, a countdown): the loop ticks only then.
    pub fn animating(&self) -> bool {
        self.in_flight() > 0
    }

    /// How many calls are waiting for an answer.
    pub fn in_flight(&self) -> usize {
        usize::from(self.chat.call.is_running())
            + usize::from(self.search.call.is_running())
            + usize::from(self.proxy.call.is_running())
            + self.other_calls()
    }

    /// Calls of the tabs that run several at once, each until its answer is in.
    fn other_calls(&self) -> usize {
        self.compare.running()
            + self.page.running()
            + self.chat.coverage_running()
            + self.track.discover.as_ref().map_or(0, |d| d.running())
    }

    /// How many calls quitting would lose: those still waiting for their answer (one that
    /// has landed is kept in History, and only its reading is left).
    pub fn waiting_for_answers(&self) -> usize {
        usize::from(self.chat.call.is_waiting())
            + usize::from(self.search.call.is_waiting())
            + usize::from(self.proxy.call.is_waiting())
            + self.compare.waiting()
            + self.page.waiting()
            + self.chat.coverage().map_or(0, |c| c.waiting())
            + self.track.discover.as_ref().map_or(0, |d| d.waiting())
    }

    /// Asks another tab to do something (see [`hub`]); done at the end of this update.
    pub fn ask(&mut self, ask: hub::Ask) {
        self.asks.push(ask);
    }

    /// The first key of an action where it is bound, for sentences ("Esc cancels it"): the
    /// key in effect, so a key `keys.toml` moved is named where it now is.
    pub fn key_of(&self, context: Context, action: Action) -> String {
        let label = self.keys.label_of(context, action, "");
        label
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    }

    pub fn flash_info(&mut self, text: impl Into<String>) {
        self.flash = Some(Flash {
            level: FlashLevel::Info,
            text: text.into(),
        });
    }

    pub fn flash_error(&mut self, text: impl Into<String>) {
        self.flash = Some(Flash {
            level: FlashLevel::Error,
            text: text.into(),
        });
    }

    /// True when keys go to a text field rather than acting as commands.
    pub fn editing(&self) -> bool {
        (self.tab.spec().editing)(self)
    }

    /// The contexts a key is looked up in, most specific first.
    pub fn key_contexts(&self) -> Vec<Context> {
        if self.popup.is_some() {
            return vec![Context::Popup, Context::Global];
        }
        if self.editing() {
            // The brand form over Chat says what its keys do there (save, next field).
            if self.tab == Tab::Chat && self.brands_pane.editing() {
                return vec![Context::BrandEditor, Context::Editing, Context::Global];
            }
            // A `/` search says what Enter and Esc do to it.
            let finding =
                |find: &Option<text_search::TextSearch>| find.as_ref().is_some_and(|f| f.typing);
            let typing_a_search = (self.tab == Tab::Chat && finding(&self.chat.find))
                || (self.tab == Tab::Search && finding(&self.search.find))
                || (self.tab == Tab::Compare && finding(&self.compare.find));
            if typing_a_search {
                return vec![Context::Finding, Context::Editing, Context::Global];
            }
            return vec![Context::Editing, Context::Global];
        }
        let mut contexts = (self.tab.spec().key_contexts)(self);
        contexts.extend([Context::Normal, Context::Global]);
        contexts
    }

    /// A warning that stays on screen until its cause is fixed: no token, no credits.
    pub fn banner(&self) -> Option<String> {
        if self.connection.token.is_none() && !self.connection.demo {
            return Some(format!(
                "No API token: set VANTAGE_TOKEN or MASSIVE_TOKEN, or `token` in {}. Press D to switch to the demo simulator.",
                self.connection.token_hint
            ));
        }
        if let Credits::Exhausted { topup_url } = &self.credits {
            return Some(match topup_url {
                Some(url) => format!("Out of credits (402): top up at {url}, then send again."),
                None => "Out of credits (402): top up your balance, then send again.".to_string(),
            });
        }
        None
    }

    /// The screen's areas as drawn now (the banner takes one or two lines when shown).
    pub fn frame_areas(&self) -> layout::FrameAreas {
        // Wrapped at words, so a path is not split; at most three rows, the last ending in
        // an ellipsis when even they are too few.
        let banner_lines = self.banner().map_or(0, |text| {
            layout::word_wrapped_rows(&text, self.area.width).clamp(1, 3) as u16
        });
        let status_lines = self.flash.as_ref().map_or(1, |flash| {
            // The badge, host and balance take about 40 columns before the message, which
            // wraps at words into at most three rows.
            let shown = format!("{} {}", "-".repeat(39), flash.text);
            layout::word_wrapped_rows(&shown, self.area.width).clamp(1, 3) as u16
        });
        layout::frame_with_banner(self.area, banner_lines, status_lines)
    }

    /// Whether a request may leave: it keeps every rule of the contract and a token is set.
    /// If not, says why in the status bar.
    pub(crate) fn may_send(&mut self, checked: Result<(), crate::api::InvalidRequest>) -> bool {
        if let Err(invalid) = checked {
            self.flash_error(format!("Not sent: {invalid}."));
            return false;
        }
        if self.connection.token.is_none() {
            self.flash_error(self.no_token_sentence());
            return false;
        }
        true
    }

    /// Why a call whose answer is read for the tracked brands (Chat's, Compare's) is not
    /// sent: the workspace file cannot be read. The CLI's `ai` and `compare` refuse the same
    /// way, with the same words, rather than count brands that are not the file's.
    pub(crate) fn brands_unread(&self) -> Option<String> {
        self.brands_pane
            .problem
            .as_ref()
            .map(|problem| format!("Not sent: {problem}"))
    }

    /// Why nothing is sent without a token, and the ways to set one.
    pub(crate) fn no_token_sentence(&self) -> String {
        format!(
            "Not sent: no API token. Set VANTAGE_TOKEN or MASSIVE_TOKEN, or `token` in {}; or press {} for the demo.",
            self.connection.token_hint,
            self.key_of(Context::Normal, Action::SwitchToDemo)
        )
    }

    /// Remembers what an error says about the account (credits, token).
    pub(crate) fn note_error(&mut self, error: &ApiError) {
        if let ApiError::NoCredits { topup_url, .. } = error {
            self.credits = Credits::Exhausted {
                topup_url: topup_url.clone(),
            };
        }
    }
}

/// The one entry point: a message in, effects out.
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    let mut effects = update_state(app, msg);
    effects.extend(hub::carry_out(app));
    popup::follow_waiting_calls(app);
    // Whatever changed a remembered setting (a picker, a cycle, a re-run), it is saved.
    effects.extend(settings_memory::save_if_changed(app));
    effects
}

fn update_state(app: &mut App, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(key) => events::on_key(app, key),
        Msg::Mouse(mouse) => events::on_mouse(app, mouse),
        Msg::Paste(text) => {
            match &mut app.popup {
                None => (app.tab.spec().on_paste)(app, &text),
                Some(Popup::Picker(picker)) => {
                    let filter = format!("{}{}", picker.filter, text.replace(['\n', '\r'], " "));
                    picker.set_filter(filter, &mut app.matcher);
                }
                Some(Popup::Input(input)) => input.value.push_str(text.trim()),
                Some(Popup::Help(_) | Popup::Palette(_) | Popup::Confirm(_)) => {}
            }
            Vec::new()
        }
        // Back from another window, perhaps from an editor: the user's files too.
        Msg::FocusGained => vec![
            Effect::Store(StoreEffect::ReadDataVersion),
            Effect::Os(OsEffect::ReadUserFiles),
            brands::look_again(app),
        ],
        Msg::LookAtStore => vec![Effect::Store(StoreEffect::ReadDataVersion)],
        Msg::UserFileRead(file) => {
            events::user_file_read(app, file);
            Vec::new()
        }
        Msg::StoreVersion(Ok(version)) => {
            let changed = app.store_version.is_some_and(|seen| seen != version);
            app.store_version = Some(version);
            match app.tab.spec().on_store_changed {
                Some(read_again) if changed => read_again(app),
                _ => Vec::new(),
            }
        }
        // A store that cannot be read says so through its health; nothing to read again.
        Msg::StoreVersion(Err(_)) => Vec::new(),
        Msg::Resize(width, height) => {
            app.area = Rect::new(0, 0, width, height);
            Vec::new()
        }
        Msg::Tick => Vec::new(),
        Msg::AiDone { tag, result } if app.compare.owns(tag) => {
            compare::on_ai_done(app, tag, result)
        }
        Msg::AiDone { tag, result } if app.track.owns_discovery(tag) => {
            discover::on_ai_done(app, tag, result)
        }
        Msg::SearchDone { tag, result } if app.track.owns_discovery(tag) => {
            discover::on_search_done(app, tag, result)
        }
        Msg::SearchDone { tag, result } if app.chat.owns_coverage(tag) => {
            coverage::on_search_done(app, tag, result)
        }
        Msg::SearchDone { tag, result } if app.compare.owns(tag) => {
            compare::on_search_done(app, tag, result)
        }
        Msg::AiDone { tag, result } => {
            if let Err(error) = &result {
                app.note_error(error);
            }
            let landed = app.chat.on_done(tag, result);
            if landed {
                chat::refresh_mentions(app);
                // The balance moved: ask again (free).
                vec![Effect::Call(CallEffect::FetchAccount)]
            } else {
                Vec::new()
            }
        }
        Msg::SearchDone { tag, result } => {
            if let Err(error) = &result {
                app.note_error(error);
            }
            if app.search.on_done(tag, result) {
                vec![Effect::Call(CallEffect::FetchAccount)]
            } else {
                Vec::new()
            }
        }
        Msg::PageDone { tag, result } => {
            if let Err(error) = &result {
                app.note_error(error);
            }
            // The diff's tag, in case this page is the second to arrive.
            let diff_tag = app.next_tag();
            let mut effects = app.page.on_done(tag, result, diff_tag).unwrap_or_default();
            effects.push(Effect::Call(CallEffect::FetchAccount));
            effects
        }
        Msg::PageDiffed { tag, diff } => {
            app.page.on_diffed(tag, diff);
            Vec::new()
        }
        Msg::Usage(result) => {
            usage::on_usage(app, result);
            Vec::new()
        }
        Msg::ProxyDone { tag, result } => {
            app.proxy.on_done(tag, result);
            Vec::new()
        }
        Msg::ProxyDefaults(defaults) => {
            app.proxy.set_defaults(defaults);
            Vec::new()
        }
        Msg::Retrying { tag, notice } => {
            let now = app.now;
            app.chat.call.on_retry(tag, notice.clone(), now);
            app.compare.on_retry(tag, notice.clone(), now);
            for fetch in &mut app.page.fetches {
                fetch.call.on_retry(tag, notice.clone(), now);
            }
            app.search.call.on_retry(tag, notice, now);
            Vec::new()
        }
        Msg::Landed { tag, bytes } => {
            let now = app.now;
            app.chat.call.on_landed(tag, bytes, now);
            app.compare.on_landed(tag, bytes, now);
            for fetch in &mut app.page.fetches {
                fetch.call.on_landed(tag, bytes, now);
            }
            app.search.call.on_landed(tag, bytes, now);
            if let Some(coverage) = app.chat.answer.as_mut().and_then(|a| a.coverage.as_mut()) {
                coverage.on_landed(tag, bytes, now);
            }
            if let Some(discover) = app.track.discover.as_mut() {
                discover.on_landed(tag, bytes, now);
            }
            Vec::new()
        }
        Msg::Devices(list, result) => {
            let mut effects = Vec::new();
            let devices = app.device_list_mut(list);
            *devices = match result {
                Ok(names) => {
                    effects.push(Effect::Store(StoreEffect::SaveDevices(list, names.clone())));
                    Devices::Loaded(names)
                }
                // A cached list stays usable when the fresh one cannot be had.
                Err(_) if matches!(devices, Devices::Loaded(_)) => return effects,
                Err(e) => Devices::Failed(e.to_string()),
            };
            pickers::refresh_device_picker(app);
            effects
        }
        Msg::DevicesCached(list, names) => {
            let devices = app.device_list_mut(list);
            if matches!(devices, Devices::Loading | Devices::NotFetched) && !names.is_empty() {
                *devices = Devices::Loaded(names);
                pickers::refresh_device_picker(app);
            }
            Vec::new()
        }
        Msg::Account(result) => {
            match result {
                Ok(account) => {
                    if let Some(credits) = account.credits {
                        app.credits = if credits == 0 {
                            match &app.credits {
                                Credits::Exhausted { .. } => app.credits.clone(),
                                _ => Credits::Exhausted { topup_url: None },
                            }
                        } else {
                            Credits::Known(credits)
                        };
                    }
                }
                Err(e) => app.note_error(&e),
            }
            // Calls landed (the balance is asked after each): the usage follows, throttled.
            usage::refresh(app).into_iter().collect()
        }
        Msg::CopyMade(text) => vec![Effect::Os(OsEffect::Copy(ExportText::Ready(text)))],
        Msg::FileWritten { path, result } => {
            export::on_written(app, path, result);
            Vec::new()
        }
        Msg::Opened { url, result } => {
            match result {
                Ok(()) => app.flash_info(format!("Opened {url}")),
                Err(e) => app.flash_error(format!(
                    "Could not open {url}: {e}. Press y to copy it instead."
                )),
            }
            Vec::new()
        }
        Msg::DemoStarted(result) => {
            match result {
                Ok(connection) => {
                    app.connection = connection;
                    app.credits = Credits::Unknown;
                    // The demo's store replaced the live one: what was read of it goes.
                    app.history = history::HistoryState::default();
                    app.jobs = jobs_tab::JobsState::default();
                    app.track = track::TrackState::default();
                    app.store_version = None;
                    app.flash_info("Switched to the demo simulator: no token, no network.");
                    return app.start();
                }
                Err(e) => app.flash_error(format!("The demo simulator could not start: {e}")),
            }
            Vec::new()
        }
        Msg::JobsLoaded(result) => jobs_tab::on_loaded(app, result),
        Msg::JobsCounted(result) => {
            jobs_tab::on_counted(app, result);
            Vec::new()
        }
        Msg::JobQueued(result) => jobs_tab::on_queued(app, result),
        Msg::TrackRunSent(result) => track::on_run_sent(app, result),
        Msg::JobPolled {
            id,
            outcome,
            result,
        } => {
            // A job that answers a comparison's column fills it as it lands.
            let answers_column = app
                .compare
                .columns
                .iter()
                .any(|c| c.job.as_ref() == Some(&id));
            let body = answers_column.then(|| result.clone()).flatten();
            let mut effects = jobs_tab::on_polled(app, id.clone(), outcome, result);
            if app.jobs.scheduler.is_settled() {
                track::on_jobs_settled(app);
            }
            if answers_column {
                let state = app.jobs.rows.iter().find(|r| r.id == id).map(|r| r.state);
                if let Some(state) = state {
                    effects.extend(compare::on_grid_job(app, &id, state, body));
                }
            }
            effects
        }
        Msg::GridQueued { tag, result } => compare::on_grid_queued(app, tag, result),
        Msg::JobsWake => jobs_tab::on_wake(app),
        Msg::HistoryPage(page) => {
            history::on_page(app, page);
            Vec::new()
        }
        Msg::HistoryCounted(count) => {
            history::on_count(app, count);
            Vec::new()
        }
        Msg::WorkspaceLoaded(result) => {
            track::forget_read(app);
            brands::on_loaded(app, result)
        }
        Msg::WorkspaceSaved {
            path,
            created,
            result,
        } => {
            let written = result.is_ok();
            track::forget_read(app);
            let mut effects = brands::on_saved(app, &path, created, result);
            // The Track tab reads a set it just wrote once the file holds it.
            if let Some(set) = app.track.show_when_written.take().filter(|_| written) {
                app.track.loading = true;
                effects.push(Effect::Store(StoreEffect::LoadTrack { set: Some(set) }));
            }
            effects
        }
        Msg::Discovered(result) => {
            brands::on_discovered(app, result);
            Vec::new()
        }
        Msg::TrackLoaded(result) => track::on_loaded(app, result),
        Msg::CellAnswersLoaded(result) => track_answers::on_loaded(app, result),
        Msg::TrackReading(progress) => {
            track::on_reading(app, progress);
            Vec::new()
        }
        Msg::Rerun(result) => {
            history::on_rerun(app, result);
            Vec::new()
        }
        Msg::StoredOpened(result) => stored::show(app, result),
        Msg::SettingsNotSaved(sentence) => {
            app.flash_error(sentence);
            Vec::new()
        }
        Msg::StoreUnwritable(sentence) => {
            app.flash_error(format!(
                "{sentence} Jobs and history live in memory only for the rest of this session."
            ));
            app.jobs.memory_only = Some(sentence);
            Vec::new()
        }
    }
}

/// Seconds left until `until`, rounded up, for countdowns.
pub fn seconds_until(now: Instant, until: Instant) -> u64 {
    let left = until.saturating_duration_since(now);
    left.as_secs() + u64::from(left.subsec_nanos() > 0)
}

/// Elapsed whole seconds with one decimal, for spinners.
pub fn elapsed_since(now: Instant, since: Instant) -> Duration {
    now.saturating_duration_since(since)
}

/// What the `update` tests of every tab start from.
#[cfg(test)]
pub(crate) mod test_support;

#[cfg(test)]
mod jobs_tests;
#[cfg(test)]
mod tests;
