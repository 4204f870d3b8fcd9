//! The one keymap table: key handling looks actions up here, and the help overlay lists it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::api::proxy::ProxyField;

/// Where a binding applies. Lookups go from the most specific context to `Global`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// Always, even inside a text field.
    Global,
    /// Outside text fields and popups: single keys act.
    Normal,
    /// Inside a text field (the prompt editor, a picker's filter).
    Editing,
    /// A popup (picker, export, help) is open.
    Popup,
    /// Any text field: the prompt editors, filters, pickers and popups. Never looked up: the
    /// field itself takes these keys (`input::edit_line`); they are here for help.
    TextField,
    /// A form with a location (Chat, Search), outside text fields.
    Form,
    /// The Chat tab, outside text fields.
    Chat,
    /// The Search tab, outside text fields.
    Search,
    /// Reading an answer or a list of results.
    Viewer,
    /// The results list of Search.
    Results,
    /// The AI overview pane of Search (its sources and related questions).
    Overview,
    /// The Page tab, outside its address field.
    Page,
    /// The row of settings of a form (model, device, location…).
    Settings,
    /// The Proxy tab, outside text fields.
    Proxy,
    /// The Jobs tab, outside its filter.
    Jobs,
    /// The History tab, outside its filter.
    History,
    /// The Compare tab, outside text fields.
    Compare,
    /// The Brands pane over Chat, outside its editor.
    Brands,
    /// The Brands pane's editor of one brand: name, aliases, domains.
    BrandEditor,
    /// Typing a `/` search in an answer or a page.
    Finding,
    /// The Track tab.
    Track,
    /// Track's Discover list.
    Discover,
    /// Track's form of one set.
    SetEditor,
    /// Track's answers of one cell (prompt × model × place) over its runs.
    CellAnswers,
    /// A list view of Chat's answer (Sources, Mentions, Fanouts): Enter acts on the row.
    AnswerList,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Normal => "Outside text fields",
            Context::Editing => "In a text field",
            Context::Popup => "In a popup",
            Context::TextField => "Editing text (every field)",
            Context::Form => "Chat and Search forms",
            Context::Chat => "Chat",
            Context::Search => "Search",
            Context::Viewer => "Reading answers and results",
            Context::Results => "Search results",
            Context::Overview => "AI overview pane",
            Context::Page => "Page",
            Context::Settings => "Settings row",
            Context::Proxy => "Proxy",
            Context::Jobs => "Jobs",
            Context::History => "History",
            Context::Compare => "Compare",
            Context::Brands => "Brands (b in Chat)",
            Context::BrandEditor => "A brand's form (a or Enter in Brands)",
            Context::Finding => "Typing a / search",
            Context::Track => "Track",
            Context::AnswerList => "Chat's Sources, Mentions and Fanouts",
            Context::Discover => "Discover (D in Track)",
            Context::SetEditor => "A set's form (e or n in Track)",
            Context::CellAnswers => "A cell's answers (a in Track)",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    /// The command palette: every action of the tab, found by name and run.
    Palette,
    SelectTab(usize),
    FocusNext,
    FocusPrev,
    /// Leave a text field, close a popup.
    Back,
    /// Send the request of the focused form.
    Send,
    Newline,
    EditPrompt,
    Cancel,
    Filter,
    Copy,
    Open,
    Export,
    PickModel,
    PickDevice,
    PickCountry,
    PickSubdivision,
    PickCity,
    PickLanguage,
    PickDisplay,
    CycleFormat,
    ToggleCache,
    /// Compare: how many times each column is asked (1, 3, 5, 10).
    CycleSamples,
    /// Compare: the focused column shows its next (or previous) sample's answer.
    NextSample,
    PrevSample,
    /// Track: the last run's sources by kind and gaps, or the chart.
    ToggleReadings,
    /// Brands: the names stored answers put forward that nobody tracks.
    DiscoverNames,
    /// Chat: search each fanout of the answer from its place, and read who ranks there.
    FanoutCoverage,
    /// Track: find prompts worth tracking around a topic.
    DiscoverPrompts,
    /// Discover: mark the prompt, or take the mark away.
    ToggleMark,
    /// Discover: add the marked prompts to a set.
    AddToSet,
    /// Track: edit a set of the workspace file (or make one).
    EditSet,
    /// Track: make a set.
    NewSet,
    /// Track: the chart's lines by brand, by model, by place.
    SplitChart,
    /// Track: what the chart draws: visibility, share of voice, recommended share.
    ChartShare,
    /// Track: run the shown set now (after a yes to its calls).
    RunSet,
    /// Track: one prompt × model × place's answers over the runs, and what changed.
    CellAnswers,
    /// Track's set form: delete the set from the file.
    RemoveSet,
    NextView,
    PrevView,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Accept,
    Left,
    Right,
    NextPage,
    PrevPage,
    CycleIp,
    SwitchToDemo,
    /// Change one setting of the Proxy form (cycle it, pick it or type it).
    EditProxy(ProxyField),
    /// Unset the selected setting, or clear a text field.
    Clear,
    /// Switch a form between sync and async (queued job) mode.
    ToggleAsync,
    /// Poll the selected job now.
    PollNow,
    /// Re-submit a failed or expired job with its original request.
    Resubmit,
    /// Delete the selected job or history entry.
    Delete,
    /// Import a job by its kind and id.
    ImportJob,
    /// Diff another pair of the Page tab's vantage points.
    NextDiffPair,
    /// Put a history entry's request back into its form; run a compare column again.
    Rerun,
    /// Cancel every call of the tab.
    CancelAll,
    /// Scroll the columns together or one alone.
    ToggleSync,
    /// Compare answers or search ranks.
    ToggleMode,
    /// Sort the rows another way.
    SortBy,
    AddColumn,
    RemoveColumn,
    /// Move to the next or previous match of a search inside a text view.
    NextMatch,
    PrevMatch,
    /// Show or hide the credits spent today.
    ShowUsage,
    /// Fold or open the AI overview pane of Search.
    ToggleOverview,
    /// Pick the countries a page is also fetched from, to compare.
    PickCompareCountries,
    /// Cycle the difficulty pool of a page fetch.
    CycleDifficulty,
    /// A key a text field takes itself (see `Context::TextField`).
    EditText,
    /// Open or close the pane of tracked brands.
    OpenBrands,
    /// Add a brand to track.
    AddBrand,
}

/// A key, with the modifiers that must be held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

const fn key(code: KeyCode) -> Key {
    Key {
        code,
        modifiers: KeyModifiers::NONE,
    }
}

const fn ch(c: char) -> Key {
    key(KeyCode::Char(c))
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        modifiers: KeyModifiers::CONTROL,
    }
}

const fn shift(code: KeyCode) -> Key {
    Key {
        code,
        modifiers: KeyModifiers::SHIFT,
    }
}

const fn alt(code: KeyCode) -> Key {
    Key {
        code,
        modifiers: KeyModifiers::ALT,
    }
}

/// A binding of the built-in table.
pub(crate) struct DefaultBinding {
    pub context: Context,
    pub keys: &'static [Key],
    /// How the keys are written in the help overlay and the status bar.
    pub label: &'static str,
    pub action: Action,
    pub help: &'static str,
}

/// A binding in effect: the built-in one, or its keys as `keys.toml` moved them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Binding {
    pub context: Context,
    pub keys: Vec<Key>,
    /// How the keys are written in the help overlay and the status bar.
    pub label: String,
    pub action: Action,
    pub help: &'static str,
}

macro_rules! bind {
    ($context:ident, [$($key:expr),+], $label:literal, $action:expr, $help:literal) => {
        DefaultBinding {
            context: Context::$context,
            keys: &[$($key),+],
            label: $label,
            action: $action,
            help: $help,
        }
    };
}

// One line a binding reads best as a table.
#[rustfmt::skip]
pub(crate) static DEFAULTS: &[DefaultBinding] = &[
    bind!(Global, [ctrl('c')], "Ctrl+C", Action::Quit, "quit"),
    bind!(Global, [alt(KeyCode::Char('1'))], "Alt+1", Action::SelectTab(0), "first tab"),
    bind!(Global, [alt(KeyCode::Char('2'))], "Alt+2", Action::SelectTab(1), "second tab"),
    bind!(Global, [alt(KeyCode::Char('3'))], "Alt+3", Action::SelectTab(2), "third tab"),
    bind!(Global, [alt(KeyCode::Char('4'))], "Alt+4", Action::SelectTab(3), "fourth tab"),
    bind!(Global, [alt(KeyCode::Char('5'))], "Alt+5", Action::SelectTab(4), "fifth tab"),
    bind!(Global, [alt(KeyCode::Char('6'))], "Alt+6", Action::SelectTab(5), "sixth tab"),
    bind!(Global, [alt(KeyCode::Char('7'))], "Alt+7", Action::SelectTab(6), "seventh tab"),
    bind!(Global, [alt(KeyCode::Char('8'))], "Alt+8", Action::SelectTab(7), "eighth tab"),
    bind!(Global, [alt(KeyCode::Char('9'))], "Alt+9", Action::SelectTab(8), "ninth tab"),
    bind!(Global, [key(KeyCode::Tab)], "Tab", Action::FocusNext, "next pane"),
    bind!(Global, [key(KeyCode::BackTab)], "Shift+Tab", Action::FocusPrev, "previous pane"),
    bind!(Popup, [key(KeyCode::Esc)], "Esc", Action::Back, "close the popup"),
    bind!(Popup, [key(KeyCode::Enter)], "Enter", Action::Accept, "choose"),
    bind!(Popup, [key(KeyCode::Up), ctrl('p')], "↑", Action::Up, "previous item"),
    bind!(Popup, [key(KeyCode::Down), ctrl('n')], "↓", Action::Down, "next item"),
    bind!(Popup, [key(KeyCode::PageUp)], "PgUp", Action::PageUp, "page up"),
    bind!(Popup, [key(KeyCode::PageDown)], "PgDn", Action::PageDown, "page down"),
    bind!(Popup, [key(KeyCode::Home)], "Home", Action::Top, "first item"),
    bind!(Popup, [key(KeyCode::End)], "End", Action::Bottom, "last item (a typed value)"),
    bind!(TextField, [ctrl('a')], "Ctrl+A", Action::EditText, "start of the line"),
    bind!(TextField, [ctrl('e')], "Ctrl+E", Action::EditText, "end of the line"),
    bind!(TextField, [ctrl('w'), alt(KeyCode::Backspace)], "Ctrl+W", Action::EditText, "delete the word before the cursor"),
    bind!(TextField, [ctrl('u')], "Ctrl+U", Action::EditText, "delete to the start of the line"),
    bind!(TextField, [ctrl('k')], "Ctrl+K", Action::EditText, "delete to the end of the line"),
    bind!(TextField, [ctrl('z')], "Ctrl+Z", Action::EditText, "undo"),
    bind!(Editing, [key(KeyCode::Esc)], "Esc", Action::Back, "leave the text field"),
    bind!(Editing, [key(KeyCode::Enter)], "Enter", Action::Send, "send (billed)"),
    bind!(Editing, [alt(KeyCode::Enter), shift(KeyCode::Enter)], "Alt+Enter", Action::Newline, "new line"),
    bind!(Normal, [ch('q')], "q", Action::Quit, "quit"),
    bind!(Normal, [ch('?')], "?", Action::Help, "help"),
    bind!(Normal, [ch(':')], ":", Action::Palette, "command palette: find an action of the tab by name and run it"),
    bind!(Normal, [ch('/')], "/", Action::Filter, "filter"),
    bind!(Normal, [ch('y')], "y", Action::Copy, "copy"),
    bind!(Normal, [ch('o')], "o", Action::Open, "open link"),
    bind!(Normal, [ch('e')], "e", Action::Export, "export"),
    bind!(Normal, [ch('D')], "D", Action::SwitchToDemo, "switch to the demo simulator"),
    bind!(Normal, [ch('$')], "$", Action::ShowUsage, "credits spent today (usage)"),
    // Not Enter: Enter in a view that is read (an answer, a page) never spends a call.
    bind!(Form, [ch('R')], "R", Action::Send, "send again (billed)"),
    bind!(Form, [ch('i')], "i", Action::EditPrompt, "edit the prompt or terms"),
    bind!(Form, [ch('c')], "c", Action::PickCountry, "country"),
    bind!(Form, [ch('s')], "s", Action::PickSubdivision, "subdivision"),
    bind!(Form, [ch('t')], "t", Action::PickCity, "city (town)"),
    bind!(Form, [ch('l')], "l", Action::PickLanguage, "language"),
    bind!(Form, [ch('L')], "L", Action::PickDisplay, "display language"),
    bind!(Form, [ch('f')], "f", Action::CycleFormat, "format"),
    bind!(Form, [ch('x')], "x", Action::ToggleCache, "cache on/off"),
    bind!(Form, [key(KeyCode::Esc)], "Esc", Action::Cancel, "cancel the call"),
    bind!(Form, [ch('a')], "a", Action::ToggleAsync, "mode sync/async (async queues a job)"),
    bind!(Chat, [ch('m')], "m", Action::PickModel, "model"),
    bind!(Chat, [ch('d')], "d", Action::PickDevice, "device"),
    bind!(Chat, [ch('b')], "b", Action::OpenBrands, "tracked brands (add, edit, suggestions)"),
    bind!(Chat, [ch('F')], "F", Action::FanoutCoverage, "fan-out coverage: search each fanout from the answer's place (asks first, billed)"),
    bind!(AnswerList, [key(KeyCode::Enter)], "Enter", Action::Accept, "open the row"),
    bind!(Finding, [key(KeyCode::Enter)], "Enter", Action::Send, "keep the search (n N step)"),
    bind!(Finding, [key(KeyCode::Esc)], "Esc", Action::Back, "drop the search"),
    bind!(BrandEditor, [key(KeyCode::Enter)], "Enter", Action::Send, "save the brand"),
    bind!(BrandEditor, [key(KeyCode::Tab)], "Tab", Action::FocusNext, "next field"),
    bind!(BrandEditor, [key(KeyCode::BackTab)], "Shift+Tab", Action::FocusPrev, "previous field"),
    bind!(BrandEditor, [key(KeyCode::Esc)], "Esc", Action::Back, "cancel the edit"),
    bind!(Brands, [key(KeyCode::Enter)], "Enter", Action::Accept, "edit or track"),
    bind!(Brands, [ch('a')], "a", Action::AddBrand, "add a brand"),
    bind!(Brands, [ch('D')], "D", Action::DiscoverNames, "names the stored answers put forward, untracked"),
    bind!(Brands, [ch('d'), key(KeyCode::Delete)], "d", Action::Delete, "stop tracking the brand"),
    bind!(Brands, [key(KeyCode::Esc), ch('b')], "Esc b", Action::Back, "close the pane"),
    bind!(Brands, [key(KeyCode::Up), ch('k')], "↑ k", Action::Up, "previous row"),
    bind!(Brands, [key(KeyCode::Down), ch('j')], "↓ j", Action::Down, "next row"),
    bind!(Brands, [key(KeyCode::PageUp)], "PgUp", Action::PageUp, "page up"),
    bind!(Brands, [key(KeyCode::PageDown)], "PgDn", Action::PageDown, "page down"),
    bind!(Brands, [key(KeyCode::Home), ch('g')], "Home g", Action::Top, "first row"),
    bind!(Brands, [key(KeyCode::End), ch('G')], "End G", Action::Bottom, "last row"),
    bind!(Search, [ch('d')], "d", Action::PickDevice, "device (a phone's results page; desktop is none)"),
    bind!(Search, [ch('I')], "I", Action::CycleIp, "IP type residential/isp/random"),
    bind!(Search, [ch('A')], "A", Action::ToggleOverview, "AI overview pane: fold / open"),
    bind!(Overview, [key(KeyCode::Enter)], "Enter", Action::Accept, "open the source / search the question (billed)"),
    bind!(Page, [ch('d')], "d", Action::PickDevice, "device"),
    bind!(Page, [ch('h')], "h", Action::CycleDifficulty, "difficulty low/medium/high"),
    bind!(Page, [ch('C')], "C", Action::PickCompareCountries, "also fetch from a country (up to 2), to diff; a checked one is removed"),
    bind!(Page, [ch('p')], "p", Action::NextDiffPair, "diff another pair of vantage points"),
    bind!(Settings, [key(KeyCode::Left)], "←", Action::Left, "previous setting"),
    bind!(Settings, [key(KeyCode::Right)], "→", Action::Right, "next setting"),
    bind!(Settings, [key(KeyCode::Enter), ch(' ')], "Enter Space", Action::Accept, "change the setting"),
    bind!(Settings, [key(KeyCode::Delete), key(KeyCode::Backspace)], "Del", Action::Clear, "unset the setting"),
    bind!(Proxy, [key(KeyCode::Enter)], "Enter", Action::Send, "send through the proxy"),
    bind!(Proxy, [key(KeyCode::Esc)], "Esc", Action::Cancel, "cancel the request"),
    bind!(Proxy, [ch('n')], "n", Action::EditProxy(ProxyField::Network), "network residential/ISP"),
    bind!(Proxy, [ch('p')], "p", Action::EditProxy(ProxyField::Protocol), "protocol HTTPS/HTTP/SOCKS5"),
    bind!(Proxy, [ch('F')], "F", Action::EditProxy(ProxyField::Fallback), "HTTPS fallback port on/off"),
    bind!(Proxy, [ch('u')], "u", Action::EditProxy(ProxyField::Username), "proxy username"),
    bind!(Proxy, [ch('K')], "K", Action::EditProxy(ProxyField::Key), "API key"),
    bind!(Proxy, [ch('U')], "U", Action::EditProxy(ProxyField::TargetUrl), "target URL"),
    bind!(Proxy, [ch('c')], "c", Action::EditProxy(ProxyField::Country), "country"),
    bind!(Proxy, [ch('s')], "s", Action::EditProxy(ProxyField::Subdivision), "subdivision"),
    bind!(Proxy, [ch('t')], "t", Action::EditProxy(ProxyField::City), "city (town)"),
    bind!(Proxy, [ch('z')], "z", Action::EditProxy(ProxyField::Zipcode), "zipcode"),
    bind!(Proxy, [ch('a')], "a", Action::EditProxy(ProxyField::Asn), "asn"),
    bind!(Proxy, [ch('m')], "m", Action::EditProxy(ProxyField::Type), "type mobile/common/tv"),
    bind!(Proxy, [ch('S')], "S", Action::EditProxy(ProxyField::Session), "session"),
    bind!(Proxy, [ch('T')], "T", Action::EditProxy(ProxyField::SessionTtl), "session lifetime (minutes)"),
    bind!(Proxy, [ch('M')], "M", Action::EditProxy(ProxyField::SessionMode), "session mode strict/flex/norotate"),
    bind!(Proxy, [ch('E')], "E", Action::EditProxy(ProxyField::SessionErr), "sessionerr"),
    bind!(Proxy, [ch('A')], "A", Action::EditProxy(ProxyField::Subaccount), "subaccount"),
    bind!(Track, [key(KeyCode::Up), ch('k')], "↑ k", Action::Up, "previous run"),
    bind!(Track, [key(KeyCode::Down), ch('j')], "↓ j", Action::Down, "next run"),
    bind!(Track, [key(KeyCode::Home), ch('g')], "Home g", Action::Top, "first run"),
    bind!(Track, [key(KeyCode::End), ch('G')], "End G", Action::Bottom, "last run"),
    bind!(Track, [key(KeyCode::Enter)], "Enter", Action::Accept, "trends of the run's set"),
    bind!(Track, [ch('r')], "r", Action::Rerun, "read the runs again"),
    bind!(Track, [key(KeyCode::Left), ch('h')], "← h", Action::Left, "previous brand (list and map)"),
    bind!(Track, [key(KeyCode::Right), ch('l')], "→ l", Action::Right, "next brand (list and map)"),
    bind!(Track, [ch('m')], "m", Action::ToggleMode, "map of the vantage points, or the chart"),
    bind!(Track, [ch('x')], "x", Action::Export, "write the shown set's report as an HTML page"),
    bind!(Track, [ch('v')], "v", Action::SplitChart, "chart: every brand / the selected one by model / by place"),
    bind!(Track, [ch('c')], "c", Action::ChartShare, "chart: visibility / share of voice / recommended"),
    bind!(Track, [ch('s')], "s", Action::ToggleReadings, "sources by kind and gaps of the last run, or the chart"),
    bind!(Track, [ch('D')], "D", Action::DiscoverPrompts, "discover prompts around a topic (says its cost first, billed)"),
    bind!(Track, [ch('e')], "e", Action::EditSet, "edit a set: rename, prompts, models, places, brands"),
    bind!(Track, [ch('n')], "n", Action::NewSet, "make a new set"),
    bind!(Track, [ch('R')], "R", Action::RunSet, "run the shown set now (asks first, billed)"),
    bind!(Track, [ch('a')], "a", Action::CellAnswers, "a cell's answers over the runs (prompt × model × place)"),
    bind!(CellAnswers, [key(KeyCode::Up), ch('k')], "↑ k", Action::Up, "previous cell or run"),
    bind!(CellAnswers, [key(KeyCode::Down), ch('j')], "↓ j", Action::Down, "next cell or run"),
    bind!(CellAnswers, [key(KeyCode::Enter)], "Enter", Action::Accept, "open the cell's runs"),
    bind!(CellAnswers, [ch(' ')], "Space", Action::ToggleMark, "mark the run to compare (two at most)"),
    bind!(CellAnswers, [key(KeyCode::Tab)], "Tab", Action::NextView, "the selected run's answer / the changes"),
    bind!(CellAnswers, [key(KeyCode::PageUp)], "PgUp", Action::PageUp, "scroll up"),
    bind!(CellAnswers, [key(KeyCode::PageDown)], "PgDn", Action::PageDown, "scroll down"),
    bind!(CellAnswers, [key(KeyCode::Esc)], "Esc", Action::Back, "back to the cells, or close"),
    bind!(SetEditor, [key(KeyCode::Up), ch('k')], "↑ k", Action::Up, "previous row"),
    bind!(SetEditor, [key(KeyCode::Down), ch('j')], "↓ j", Action::Down, "next row"),
    bind!(SetEditor, [key(KeyCode::Home), ch('g')], "Home g", Action::Top, "first row"),
    bind!(SetEditor, [key(KeyCode::End), ch('G')], "End G", Action::Bottom, "last row"),
    bind!(SetEditor, [key(KeyCode::Enter)], "Enter", Action::Accept, "change the row (type, or pick)"),
    bind!(SetEditor, [ch('d'), key(KeyCode::Delete)], "d", Action::Delete, "remove the prompt, term, location or alert"),
    bind!(SetEditor, [ctrl('s'), ch('w')], "Ctrl+S w", Action::Send, "write the set to the workspace file (in an alert's form: keep the alert)"),
    bind!(SetEditor, [ch('X')], "X", Action::RemoveSet, "delete the set from the file"),
    bind!(SetEditor, [key(KeyCode::Esc)], "Esc", Action::Back, "close the form (asks when changed)"),
    bind!(Discover, [ch(' ')], "Space", Action::ToggleMark, "mark the prompt (again: unmark)"),
    bind!(Discover, [ch('a')], "a", Action::AddToSet, "add the marked prompts to a set"),
    bind!(Discover, [key(KeyCode::Esc)], "Esc", Action::Back, "close the list"),
    bind!(Discover, [key(KeyCode::Up), ch('k')], "↑ k", Action::Up, "previous prompt"),
    bind!(Discover, [key(KeyCode::Down), ch('j')], "↓ j", Action::Down, "next prompt"),
    bind!(Jobs, [key(KeyCode::Enter)], "Enter", Action::Accept, "open the result"),
    bind!(Jobs, [ch('r')], "r", Action::PollNow, "poll now"),
    bind!(Jobs, [ch('R')], "R", Action::Resubmit, "re-submit (failed, expired; billed)"),
    bind!(Jobs, [ch('d'), key(KeyCode::Delete)], "d", Action::Delete, "delete"),
    bind!(Jobs, [ch('i')], "i", Action::ImportJob, "import by id"),
    bind!(Jobs, [key(KeyCode::Esc)], "Esc", Action::Back, "close the result / drop the filter"),
    bind!(History, [key(KeyCode::Enter)], "Enter", Action::Accept, "re-open (no new call)"),
    bind!(History, [ch('r')], "r", Action::Rerun, "put it back in its form, to edit and send"),
    bind!(History, [ch('d'), key(KeyCode::Delete)], "d", Action::Delete, "delete"),
    bind!(History, [ch('F')], "F", Action::FanoutCoverage, "fan-out coverage of the stored answer (asks first, billed)"),
    bind!(History, [ch('/')], "/", Action::Filter, "search"),
    bind!(History, [key(KeyCode::Esc)], "Esc", Action::Back, "back to every entry (drop the search)"),
    bind!(Results, [key(KeyCode::Enter)], "Enter", Action::Accept, "details"),
    bind!(Compare, [ch('r')], "r", Action::Send, "run every column (asks first, billed)"),
    bind!(Compare, [ch('R')], "R", Action::Rerun, "run the focused column again (billed)"),
    bind!(Compare, [key(KeyCode::Esc)], "Esc", Action::Cancel, "cancel the focused column / leave full width"),
    bind!(Compare, [ctrl('x')], "Ctrl+X", Action::CancelAll, "cancel every column"),
    bind!(Compare, [ch('i')], "i", Action::EditPrompt, "edit the prompt or terms"),
    bind!(Compare, [ch('M')], "M", Action::ToggleMode, "compare answers / search ranks"),
    bind!(Compare, [ch('m')], "m", Action::PickModel, "add or remove a model"),
    bind!(Compare, [ch('d')], "d", Action::PickDevice, "add or remove a device"),
    bind!(Compare, [ch('c')], "c", Action::PickCountry, "add a location (country)"),
    bind!(Compare, [ch('s')], "s", Action::PickSubdivision, "subdivision of the last location"),
    bind!(Compare, [ch('t')], "t", Action::PickCity, "city of the last location"),
    bind!(Compare, [key(KeyCode::Delete), key(KeyCode::Backspace)], "Del", Action::Clear, "remove a location"),
    bind!(Compare, [ch('I')], "I", Action::CycleIp, "IP types (search): residential/isp/both/any"),
    bind!(Compare, [ch('f')], "f", Action::CycleFormat, "format for every column"),
    bind!(Compare, [ch('x')], "x", Action::ToggleCache, "cache on/off for every column"),
    bind!(Compare, [ch('a')], "a", Action::CycleSamples, "ask each column 1, 3, 5 or 10 times (samples)"),
    bind!(Compare, [ch('.')], ".", Action::NextSample, "the focused column's next sample"),
    bind!(Compare, [ch(',')], ",", Action::PrevSample, "the focused column's previous sample"),
    bind!(Compare, [ch('+')], "+", Action::AddColumn, "add a column from the Chat/Search settings"),
    bind!(Compare, [ch('-')], "-", Action::RemoveColumn, "remove the focused column"),
    bind!(Compare, [key(KeyCode::Left), ch('h')], "← h", Action::Left, "previous column"),
    bind!(Compare, [key(KeyCode::Right), ch('l')], "→ l", Action::Right, "next column"),
    bind!(Compare, [key(KeyCode::Enter)], "Enter", Action::Accept, "focused column full width / back"),
    bind!(Compare, [ch('z')], "z", Action::ToggleSync, "scroll columns together / one alone"),
    bind!(Compare, [ch('F')], "F", Action::FanoutCoverage, "fan-out coverage of the focused answer (asks first, billed)"),
    bind!(Compare, [ch('S')], "S", Action::SortBy, "sort ranks (search) / the matrix's brands (answers)"),
    bind!(Results, [key(KeyCode::Esc)], "Esc", Action::Back, "back to the list / cancel"),
    bind!(Results, [ch('n')], "n", Action::NextPage, "next page group (past the last: fetches more, billed)"),
    bind!(Results, [ch('p')], "p", Action::PrevPage, "previous page group"),
    bind!(Viewer, [ch(']'), key(KeyCode::Right)], "] →", Action::NextView, "next view"),
    bind!(Viewer, [ch('['), key(KeyCode::Left)], "[ ←", Action::PrevView, "previous view"),
    bind!(Viewer, [key(KeyCode::Up), ch('k')], "↑ k", Action::Up, "up / previous item"),
    bind!(Viewer, [key(KeyCode::Down), ch('j')], "↓ j", Action::Down, "down / next item"),
    bind!(Viewer, [key(KeyCode::PageUp)], "PgUp", Action::PageUp, "page up"),
    bind!(Viewer, [key(KeyCode::PageDown), ch(' ')], "PgDn Space", Action::PageDown, "page down"),
    bind!(Viewer, [key(KeyCode::Home), ch('g')], "Home g", Action::Top, "top"),
    bind!(Viewer, [key(KeyCode::End), ch('G')], "End G", Action::Bottom, "bottom"),
    bind!(Viewer, [ch('n')], "n", Action::NextMatch, "next match of / in the text"),
    bind!(Viewer, [ch('N')], "N", Action::PrevMatch, "previous match of / in the text"),
];

fn matches(k: &Key, event: &KeyEvent) -> bool {
    if k.code != event.code {
        return false;
    }
    // Terminals differ on whether Shift is reported with an upper-case letter or a symbol;
    // compare the other modifiers only, for printable characters.
    // Shift+Tab is BackTab, with or without Shift reported.
    let relevant = if matches!(event.code, KeyCode::Char(_) | KeyCode::BackTab) {
        event.modifiers - KeyModifiers::SHIFT
    } else {
        event.modifiers
    };
    let wanted = if matches!(k.code, KeyCode::Char(_) | KeyCode::BackTab) {
        k.modifiers - KeyModifiers::SHIFT
    } else {
        k.modifiers
    };
    relevant == wanted
}

/// The bindings in effect: the built-in table, with the keys `keys.toml` moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Keymap {
        Keymap {
            bindings: DEFAULTS
                .iter()
                .map(|d| Binding {
                    context: d.context,
                    keys: d.keys.to_vec(),
                    label: d.label.to_string(),
                    action: d.action,
                    help: d.help,
                })
                .collect(),
        }
    }
}

impl Keymap {
    pub(crate) fn from_bindings(bindings: Vec<Binding>) -> Keymap {
        Keymap { bindings }
    }

    /// Every binding, in the table's order.
    pub(crate) fn all(&self) -> &[Binding] {
        &self.bindings
    }

    /// The action bound to `event` in the first of `contexts` that binds it.
    pub(crate) fn lookup(&self, contexts: &[Context], event: &KeyEvent) -> Option<Action> {
        contexts.iter().find_map(|context| {
            self.bindings(*context)
                .find(|b| b.keys.iter().any(|k| matches(k, event)))
                .map(|b| b.action)
        })
    }

    /// Where else on this tab a key does something, when it does nothing where focus is: the
    /// first binding of it among `elsewhere` (the tab's help contexts) that is not in `here`.
    pub(crate) fn bound_elsewhere(
        &self,
        here: &[Context],
        elsewhere: &[Context],
        event: &KeyEvent,
    ) -> Option<&Binding> {
        elsewhere
            .iter()
            .filter(|context| !here.contains(context))
            .find_map(|context| {
                self.bindings(*context)
                    .find(|b| b.keys.iter().any(|k| matches(k, event)))
            })
    }

    /// The bindings of a context, for the help overlay and key hints.
    pub(crate) fn bindings(&self, context: Context) -> impl Iterator<Item = &Binding> {
        self.bindings.iter().filter(move |b| b.context == context)
    }

    /// The label of the first binding of `action` in `context`, for hints ("Esc cancel");
    /// `fallback` when the action has no key there.
    pub fn label_of<'a>(&'a self, context: Context, action: Action, fallback: &'a str) -> &'a str {
        self.bindings(context)
            .find(|b| b.action == action)
            .map_or(fallback, |b| b.label.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn the_first_context_that_binds_a_key_wins() {
        let keys = Keymap::default();
        let enter = press(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(
            keys.lookup(&[Context::Popup, Context::Global], &enter),
            Some(Action::Accept)
        );
        assert_eq!(
            keys.lookup(&[Context::Editing, Context::Global], &enter),
            Some(Action::Send)
        );
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(keys.lookup(&[Context::Editing, Context::Global], &q), None);
        assert_eq!(keys.lookup(&[Context::Normal], &q), Some(Action::Quit));
    }

    #[test]
    fn shifted_letters_match_whatever_the_terminal_reports() {
        let keys = Keymap::default();
        let upper = press(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(
            keys.lookup(&[Context::Viewer], &upper),
            Some(Action::Bottom)
        );
        let alt_enter = press(KeyCode::Enter, KeyModifiers::ALT);
        assert_eq!(
            keys.lookup(&[Context::Editing], &alt_enter),
            Some(Action::Newline)
        );
    }

    #[test]
    fn the_ip_type_is_the_same_key_in_search_and_compare() {
        let keys = Keymap::default();
        let search = keys.label_of(Context::Search, Action::CycleIp, "");
        assert!(!search.is_empty());
        assert_eq!(search, keys.label_of(Context::Compare, Action::CycleIp, ""));
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for (i, a) in DEFAULTS.iter().enumerate() {
            for b in &DEFAULTS[i + 1..] {
                if a.context != b.context {
                    continue;
                }
                for ka in a.keys {
                    assert!(
                        !b.keys.contains(ka),
                        "{:?} bound twice in {:?}",
                        ka,
                        a.context
                    );
                }
                // keys.toml names a binding by its context and action (a text field's own
                // keys are listed for help and are not moved).
                assert!(
                    a.action != b.action || a.context == Context::TextField,
                    "{:?} twice in {:?}",
                    a.action,
                    a.context
                );
            }
        }
    }
}
