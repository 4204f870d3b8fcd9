//! The Proxy tab: a request through the residential or ISP proxy network, its credentials and
//! targeting options (which ride in the username), and the response in its views.

use crate::app::{CallEffect, OsEffect};
use std::collections::HashMap;

use ratatui::layout::{Position, Rect};

use crate::api::proxy::{
    ConnectionType, Network, Protocol, ProxyEndpoints, ProxyError, ProxyField, ProxyFieldError,
    ProxyOptions, ProxyRequest, SessionMode, build_username, curl_command,
};
use crate::api::{Location, Secret};

use super::call::CallState;
use super::keymap::{Action, Context};
use super::layout;
use super::{App, Effect, Tag};

mod response;
mod settings;

pub use response::{PreparedProxy, ResponseState, ResponseView, prepare};
use settings::edit;
pub use settings::{FORM_ORDER, apply_choice, apply_input, cell_label};

/// The target used when nothing else is known: the simulator's page reporting the exit.
pub const DEMO_TARGET_URL: &str = "http://target.vantage.test/ip";
/// The target on the live service until the user types one.
pub const LIVE_TARGET_URL: &str = "https://example.com/";

/// What the Proxy tab starts with: from the config file and environment, or the simulator.
/// The key's `Debug` is masked.
#[derive(Clone, Debug, Default)]
pub struct ProxyDefaults {
    pub username: Option<String>,
    pub key: Option<Secret>,
    pub endpoints: Option<ProxyEndpoints>,
    pub target_url: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProxyFocus {
    Form,
    Response,
}

pub struct ProxyState {
    pub network: Network,
    pub protocol: Protocol,
    pub fallback: bool,
    pub username: String,
    /// The API key, from the config or typed; shown masked only.
    pub key: Option<Secret>,
    pub key_typed: bool,
    pub target_url: String,
    pub options: ProxyOptions,
    pub endpoints: Option<ProxyEndpoints>,
    pub focus: ProxyFocus,
    /// The cell selected while the form has focus.
    pub cursor: usize,
    pub call: CallState<ProxyError>,
    pub response: Option<ResponseState>,
    default_url: String,
}

impl Default for ProxyState {
    fn default() -> Self {
        ProxyState::new(ProxyDefaults::default())
    }
}

impl ProxyState {
    pub fn new(defaults: ProxyDefaults) -> ProxyState {
        let mut state = ProxyState {
            network: Network::Residential,
            protocol: Protocol::Https,
            fallback: false,
            username: String::new(),
            key: None,
            key_typed: false,
            target_url: String::new(),
            options: ProxyOptions::default(),
            endpoints: None,
            focus: ProxyFocus::Form,
            cursor: 0,
            call: CallState::Idle,
            response: None,
            default_url: String::new(),
        };
        state.set_defaults(defaults);
        state
    }

    /// Takes new defaults (at start, or after a switch to the demo), keeping what was typed.
    pub fn set_defaults(&mut self, defaults: ProxyDefaults) {
        if self.target_url.is_empty() || self.target_url == self.default_url {
            self.target_url = defaults.target_url.clone();
        }
        self.default_url = defaults.target_url;
        if let Some(username) = defaults.username {
            self.username = username;
        }
        if !self.key_typed {
            self.key = defaults.key;
        }
        self.endpoints = defaults.endpoints;
    }

    pub fn key_contexts(&self) -> Vec<Context> {
        match self.focus {
            ProxyFocus::Form => vec![Context::Proxy, Context::Settings],
            ProxyFocus::Response => vec![Context::Viewer, Context::Proxy],
        }
    }

    fn request_with(&self, key: Secret) -> ProxyRequest {
        let mut request = ProxyRequest::new(&self.username, key, &self.target_url);
        request.network = self.network;
        request.protocol = self.protocol;
        request.use_fallback_port = self.fallback;
        request.options = self.options.clone();
        request
    }

    /// The request the form describes, when a key is set.
    pub fn request(&self) -> Option<ProxyRequest> {
        self.key.clone().map(|key| self.request_with(key))
    }

    /// The username exactly as it will be sent, options included.
    pub fn full_username(&self) -> String {
        match self.request() {
            Some(request) => request.full_username(),
            None => build_username(self.username.trim(), &self.options),
        }
    }

    /// The proxy the request will go to: `socks5h://host:port`.
    pub fn proxy_url(&self) -> Option<String> {
        let endpoints = self.endpoints.as_ref()?;
        let mut request = self.request_with(Secret::new("unset")?);
        if request.network == Network::Isp {
            // Show the address that would be used once the fallback is turned off.
            request.use_fallback_port &= request.protocol == Protocol::Https;
        }
        request.proxy_url(endpoints).ok()
    }

    /// Every rule the form breaks, each at its field; nothing is sent while any is broken.
    pub fn errors(&self) -> Vec<ProxyFieldError> {
        let Some(placeholder) = Secret::new("unset") else {
            return Vec::new();
        };
        let request = self.request_with(self.key.clone().unwrap_or(placeholder));
        let mut errors = request.check();
        if self.key.is_none() {
            errors.push(ProxyFieldError {
                field: ProxyField::Key,
                message: "is not set; press K to type your API key (or set VANTAGE_PROXY_KEY)"
                    .to_string(),
            });
        }
        match &self.endpoints {
            None => errors.push(ProxyFieldError {
                field: ProxyField::Network,
                message: "no proxy hosts are known; set proxy_host and isp_proxy_host in the config file, or press D for the demo".to_string(),
            }),
            Some(endpoints) => {
                if let Err(ProxyError::Invalid(more)) = request.address(endpoints) {
                    for error in more {
                        if !errors.iter().any(|e| e.field == error.field) {
                            errors.push(error);
                        }
                    }
                }
            }
        }
        errors
    }

    /// The messages at one field.
    pub fn errors_at(&self, field: ProxyField) -> Vec<String> {
        self.errors()
            .into_iter()
            .filter(|e| e.field == field)
            .map(|e| e.message)
            .collect()
    }

    /// The text a cell shows.
    pub fn value_text(&self, setting: ProxyField) -> String {
        let o = &self.options;
        let or_dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "–".to_string());
        let cut = |s: String, n: usize| crate::api::request::shorten(&s, n);
        match setting {
            ProxyField::Network => self.network.as_str().to_string(),
            ProxyField::Protocol => self.protocol.as_str().to_ascii_uppercase(),
            ProxyField::Fallback => if self.fallback { "on" } else { "off" }.to_string(),
            ProxyField::Username if self.username.trim().is_empty() => "unset".to_string(),
            ProxyField::Username => cut(self.username.clone(), 24),
            ProxyField::Key => self
                .key
                .as_ref()
                .map_or_else(|| "unset".to_string(), |_| "••••".to_string()),
            ProxyField::TargetUrl => cut(self.target_url.clone(), 40),
            ProxyField::Country => or_dash(&o.country),
            ProxyField::Subdivision => or_dash(&o.subdivision),
            ProxyField::City => cut(or_dash(&o.city), 20),
            ProxyField::Zipcode => or_dash(&o.zipcode),
            ProxyField::Asn => o.asn.map_or_else(|| "–".to_string(), |n| n.to_string()),
            ProxyField::Type => o.kind.map_or("–", ConnectionType::as_str).to_string(),
            ProxyField::Session => cut(or_dash(&o.session), 20),
            ProxyField::SessionTtl => o
                .sessionttl
                .map_or_else(|| "–".to_string(), |n| format!("{n} min")),
            ProxyField::SessionMode => o.sessionmode.map_or("–", SessionMode::as_str).to_string(),
            ProxyField::SessionErr => cut(or_dash(&o.sessionerr), 20),
            ProxyField::Subaccount => cut(or_dash(&o.subaccount), 20),
        }
    }

    /// "label value" cells, for the form.
    pub fn cells(&self) -> Vec<(ProxyField, String)> {
        FORM_ORDER
            .iter()
            .map(|s| (*s, format!("{} {}", cell_label(*s), self.value_text(*s))))
            .collect()
    }

    /// Takes the response of the request in flight; those of cancelled requests are dropped.
    pub fn on_done(&mut self, tag: Tag, result: Result<Box<PreparedProxy>, ProxyError>) {
        if !self.call.is_for(tag) {
            return;
        }
        match result {
            Ok(prepared) => {
                self.call = CallState::Idle;
                self.response = Some(ResponseState {
                    prepared,
                    view: ResponseView::Body,
                    scroll: HashMap::new(),
                });
            }
            Err(error) => self.call = CallState::Failed(error),
        }
    }

    pub fn scroll_by(&mut self, delta: isize) {
        let Some(response) = &mut self.response else {
            return;
        };
        let view = response.view;
        let max = response
            .prepared
            .body_of(view)
            .wrapped_len()
            .saturating_sub(1);
        let next = (response.scroll_of(view) as isize + delta).max(0) as usize;
        response.scroll.insert(view, next.min(max));
    }

    fn switch_view(&mut self, forward: bool) {
        let Some(response) = &mut self.response else {
            return;
        };
        let all = ResponseView::ALL;
        let i = all.iter().position(|v| *v == response.view).unwrap_or(0);
        let next = if forward { i + 1 } else { i + all.len() - 1 };
        response.view = all[next % all.len()];
    }

    fn location(&self) -> Location {
        Location {
            country: self.options.country.clone(),
            subdivision: self.options.subdivision.clone(),
            city: self.options.city.clone(),
        }
    }

    /// Unsets a cell (back to its default, for network, protocol and URL).
    fn clear(&mut self, setting: ProxyField) {
        let o = &mut self.options;
        match setting {
            ProxyField::Network => self.network = Network::Residential,
            ProxyField::Protocol => self.protocol = Protocol::Https,
            ProxyField::Fallback => self.fallback = false,
            ProxyField::Username => self.username.clear(),
            ProxyField::Key => {
                self.key = None;
                self.key_typed = true;
            }
            ProxyField::TargetUrl => self.target_url = self.default_url.clone(),
            ProxyField::Country => {
                o.country = None;
                o.subdivision = None;
                o.city = None;
            }
            ProxyField::Subdivision => o.subdivision = None,
            ProxyField::City => o.city = None,
            ProxyField::Zipcode => o.zipcode = None,
            ProxyField::Asn => o.asn = None,
            ProxyField::Type => o.kind = None,
            ProxyField::Session => o.session = None,
            ProxyField::SessionTtl => o.sessionttl = None,
            ProxyField::SessionMode => o.sessionmode = None,
            ProxyField::SessionErr => o.sessionerr = None,
            ProxyField::Subaccount => o.subaccount = None,
        }
    }
}

/// Handles an action the keymap found, on the Proxy tab.
pub fn on_action(app: &mut App, action: Action) -> Vec<Effect> {
    let page = page_height(app) as isize;
    let proxy = &mut app.proxy;
    match action {
        Action::FocusNext | Action::FocusPrev => {
            proxy.focus = match proxy.focus {
                ProxyFocus::Form => ProxyFocus::Response,
                ProxyFocus::Response => ProxyFocus::Form,
            }
        }
        Action::Send => return send(app),
        Action::Cancel => {
            if let Some(tag) = proxy.call.tag() {
                proxy.call = CallState::Idle;
                app.flash_info("Cancelled.");
                return vec![Effect::Call(CallEffect::Cancel(tag))];
            }
            if proxy.call.error().is_some() {
                proxy.call = CallState::Idle;
            }
            proxy.focus = ProxyFocus::Form;
        }
        Action::NextView => proxy.switch_view(true),
        Action::PrevView => proxy.switch_view(false),
        Action::Up => proxy.scroll_by(-1),
        Action::Down => proxy.scroll_by(1),
        Action::PageUp => proxy.scroll_by(-page),
        Action::PageDown => proxy.scroll_by(page),
        Action::Top => proxy.scroll_by(isize::MIN / 2),
        Action::Bottom => proxy.scroll_by(isize::MAX / 2),
        Action::Left => proxy.cursor = proxy.cursor.saturating_sub(1),
        Action::Right => proxy.cursor = (proxy.cursor + 1).min(FORM_ORDER.len() - 1),
        Action::Accept => {
            let setting = FORM_ORDER[proxy.cursor.min(FORM_ORDER.len() - 1)];
            return edit(app, setting);
        }
        Action::Clear => {
            let setting = FORM_ORDER[proxy.cursor.min(FORM_ORDER.len() - 1)];
            proxy.clear(setting);
        }
        Action::EditProxy(setting) => {
            if let Some(i) = FORM_ORDER.iter().position(|s| *s == setting) {
                proxy.cursor = i;
            }
            proxy.focus = ProxyFocus::Form;
            return edit(app, setting);
        }
        Action::Copy => return copy(app),
        Action::Open | Action::Export | Action::Filter => {
            app.flash_info("The Proxy tab copies (y) the curl command; it has nothing to open, export or filter.");
        }
        _ => {}
    }
    Vec::new()
}

fn send(app: &mut App) -> Vec<Effect> {
    if app.proxy.call.is_running() {
        let cancel = app.key_of(Context::Proxy, Action::Cancel);
        app.flash_info(format!(
            "A request is already running; {cancel} cancels it."
        ));
        return Vec::new();
    }
    let errors = app.proxy.errors();
    if let Some(first) = errors.first() {
        let more = match errors.len() {
            1 => String::new(),
            n => format!(" ({} more at their fields)", n - 1),
        };
        app.flash_error(format!("Not sent: {first}{more}."));
        app.proxy.focus = ProxyFocus::Form;
        if let Some(i) = FORM_ORDER.iter().position(|s| *s == first.field) {
            app.proxy.cursor = i;
        }
        return Vec::new();
    }
    let Some(request) = app.proxy.request() else {
        return Vec::new();
    };
    let tag = app.next_tag();
    let proxy = &mut app.proxy;
    proxy.call = CallState::running(
        tag,
        app.now,
        format!(
            "Fetching through the {} network over {}",
            proxy.network,
            proxy.protocol.as_str().to_ascii_uppercase()
        ),
        None,
    );
    proxy.response = None;
    proxy.focus = ProxyFocus::Response;
    vec![Effect::Call(CallEffect::SendProxy {
        tag,
        request: Box::new(request),
    })]
}

/// Copies the equivalent curl command, key included (it shows as dots everywhere else).
fn copy(app: &mut App) -> Vec<Effect> {
    let proxy = &app.proxy;
    let (Some(request), Some(endpoints)) = (proxy.request(), proxy.endpoints.as_ref()) else {
        app.flash_error("Set the key (K) first: the curl command needs it.");
        return Vec::new();
    };
    let command = curl_command(&request, endpoints, true);
    app.flash_info("Copied the curl command, key included (it shows as •••• here).");
    vec![Effect::Os(OsEffect::Copy(command.into()))]
}

/// Lines the response pane shows at once, for paging.
fn page_height(app: &App) -> usize {
    let areas = proxy_areas(&app.proxy, app.frame_areas().body);
    areas.response.height.saturating_sub(5).max(1) as usize
}

/// Where the form and the response are, inside the tab's body.
pub struct ProxyAreas {
    pub form: Rect,
    /// The cells, inside the form's border.
    pub cells: Rect,
    pub response: Rect,
}

/// The form takes its cells, the username line and the messages; the response the rest.
pub fn proxy_areas(proxy: &ProxyState, body: Rect) -> ProxyAreas {
    let inner_width = body.width.saturating_sub(2);
    let widths = cell_widths(proxy);
    let rows = layout::flow_rows(inner_width, &widths, 1);
    // The username as sent, then each broken rule, as wrapped lines.
    let mut lines = vec![format!("sends as {}", proxy.full_username())];
    lines.extend(proxy.errors().iter().map(|e| format!("✗ {e}")));
    let text_rows: u16 = lines
        .iter()
        .map(|l| {
            let w = unicode_width::UnicodeWidthStr::width(l.as_str());
            // A wrapped message may need a spare row where words move down.
            if w <= usize::from(inner_width) {
                1
            } else {
                w.div_ceil(usize::from(inner_width.max(1))) as u16 + 1
            }
        })
        .sum();
    let form_height = (rows + text_rows + 2).min(body.height.saturating_sub(6).max(3));
    let form = Rect {
        height: form_height,
        ..body
    };
    let response = Rect {
        y: body.y + form_height,
        height: body.height.saturating_sub(form_height),
        ..body
    };
    let cells = Rect::new(
        form.x + 1,
        form.y + 1,
        inner_width,
        rows.min(form.height.saturating_sub(2)),
    );
    ProxyAreas {
        form,
        cells,
        response,
    }
}

/// The display width of each cell.
pub fn cell_widths(proxy: &ProxyState) -> Vec<u16> {
    use unicode_width::UnicodeWidthStr;
    proxy
        .cells()
        .iter()
        .map(|(_, text)| text.width() as u16 + 2)
        .collect()
}

/// A click on the Proxy tab's body: focus what was clicked; a cell is changed.
pub fn on_click(app: &mut App, body: Rect, at: Position) -> Vec<Effect> {
    let areas = proxy_areas(&app.proxy, body);
    if areas.cells.contains(at) {
        app.proxy.focus = ProxyFocus::Form;
        let cells = layout::flow(areas.cells.width, &cell_widths(&app.proxy), 1);
        if let Some(i) = cells.iter().position(|c| {
            Rect::new(areas.cells.x + c.x, areas.cells.y + c.y, c.width, 1).contains(at)
        }) {
            app.proxy.cursor = i;
            return edit(app, FORM_ORDER[i]);
        }
    } else if areas.form.contains(at) {
        app.proxy.focus = ProxyFocus::Form;
    } else if areas.response.contains(at) {
        app.proxy.focus = ProxyFocus::Response;
    }
    Vec::new()
}
