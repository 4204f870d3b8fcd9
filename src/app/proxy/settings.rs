//! The Proxy tab's form: network, protocol, credentials and the targeting options that ride
//! in the username, each cycled, picked or typed.

use crate::api::Secret;
use crate::api::proxy::{
    ConnectionType, Network, Protocol, ProxyField, SESSION_TTL_MAX_MINUTES, SessionMode,
};

use crate::app::input::{InputPrompt, InputTarget};
use crate::app::picker::PickerKind;
use crate::app::pickers;
use crate::app::{App, Effect, Popup};

/// The cells of the form, in their order on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxySetting {
    Network,
    Protocol,
    Fallback,
    Username,
    Key,
    Url,
    Country,
    Subdivision,
    City,
    Zipcode,
    Asn,
    Type,
    Session,
    SessionTtl,
    SessionMode,
    SessionErr,
    Subaccount,
}

impl ProxySetting {
    pub const ALL: [ProxySetting; 17] = [
        ProxySetting::Network,
        ProxySetting::Protocol,
        ProxySetting::Fallback,
        ProxySetting::Username,
        ProxySetting::Key,
        ProxySetting::Url,
        ProxySetting::Country,
        ProxySetting::Subdivision,
        ProxySetting::City,
        ProxySetting::Zipcode,
        ProxySetting::Asn,
        ProxySetting::Type,
        ProxySetting::Session,
        ProxySetting::SessionTtl,
        ProxySetting::SessionMode,
        ProxySetting::SessionErr,
        ProxySetting::Subaccount,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ProxySetting::Network => "network",
            ProxySetting::Protocol => "protocol",
            ProxySetting::Fallback => "fallback",
            ProxySetting::Username => "user",
            ProxySetting::Key => "key",
            ProxySetting::Url => "url",
            ProxySetting::Country => "country",
            ProxySetting::Subdivision => "subdiv",
            ProxySetting::City => "city",
            ProxySetting::Zipcode => "zip",
            ProxySetting::Asn => "asn",
            ProxySetting::Type => "type",
            ProxySetting::Session => "session",
            ProxySetting::SessionTtl => "ttl",
            ProxySetting::SessionMode => "mode",
            ProxySetting::SessionErr => "sessionerr",
            ProxySetting::Subaccount => "subaccount",
        }
    }

    /// The part of the request its messages point at.
    pub fn field(self) -> ProxyField {
        match self {
            ProxySetting::Network => ProxyField::Network,
            ProxySetting::Protocol => ProxyField::Protocol,
            ProxySetting::Fallback => ProxyField::Fallback,
            ProxySetting::Username => ProxyField::Username,
            ProxySetting::Key => ProxyField::Key,
            ProxySetting::Url => ProxyField::TargetUrl,
            ProxySetting::Country => ProxyField::Country,
            ProxySetting::Subdivision => ProxyField::Subdivision,
            ProxySetting::City => ProxyField::City,
            ProxySetting::Zipcode => ProxyField::Zipcode,
            ProxySetting::Asn => ProxyField::Asn,
            ProxySetting::Type => ProxyField::Type,
            ProxySetting::Session => ProxyField::Session,
            ProxySetting::SessionTtl => ProxyField::SessionTtl,
            ProxySetting::SessionMode => ProxyField::SessionMode,
            ProxySetting::SessionErr => ProxyField::SessionErr,
            ProxySetting::Subaccount => ProxyField::Subaccount,
        }
    }
}

/// The next of `all` after `current`, with "unset" between the last and the first.
fn cycle_option<T: Copy + PartialEq>(all: &[T], current: Option<T>) -> Option<T> {
    match current.and_then(|c| all.iter().position(|v| *v == c)) {
        None => all.first().copied(),
        Some(i) => all.get(i + 1).copied(),
    }
}

fn cycle<T: Copy + PartialEq>(all: &[T], current: T) -> T {
    let i = all.iter().position(|v| *v == current).unwrap_or(0);
    all[(i + 1) % all.len()]
}

/// Changes one setting: cycles a choice, opens a picker or a text field.
pub(super) fn edit(app: &mut App, setting: ProxySetting) -> Vec<Effect> {
    let proxy = &mut app.proxy;
    let o = &mut proxy.options;
    let text = |target: ProxySetting, title: &str, value: Option<&str>, note: &str| {
        Popup::Input(
            InputPrompt::new(InputTarget::Proxy(target), title, value.unwrap_or(""))
                .with_note(note),
        )
    };
    let popup = match setting {
        ProxySetting::Network => {
            proxy.network = cycle(Network::ALL, proxy.network);
            if proxy.network == Network::Isp {
                proxy.fallback = false;
            }
            return Vec::new();
        }
        ProxySetting::Protocol => {
            proxy.protocol = cycle(Protocol::ALL, proxy.protocol);
            if proxy.protocol != Protocol::Https {
                proxy.fallback = false;
            }
            return Vec::new();
        }
        ProxySetting::Fallback => {
            if proxy.network == Network::Isp || proxy.protocol != Protocol::Https {
                app.flash_info(
                    "The fallback port 1080 is for HTTPS on the residential network only.",
                );
            } else {
                proxy.fallback = !proxy.fallback;
            }
            return Vec::new();
        }
        ProxySetting::Type => {
            o.kind = cycle_option(ConnectionType::ALL, o.kind);
            return Vec::new();
        }
        ProxySetting::SessionMode => {
            o.sessionmode = cycle_option(SessionMode::ALL, o.sessionmode);
            return Vec::new();
        }
        ProxySetting::Country => {
            Popup::Picker(pickers::location(PickerKind::Country, &proxy.location()))
        }
        ProxySetting::Subdivision | ProxySetting::City if o.country.is_none() => {
            app.flash_info("Choose a country first (c): subdivisions and cities belong to one.");
            return Vec::new();
        }
        ProxySetting::Subdivision => Popup::Picker(pickers::location(
            PickerKind::Subdivision,
            &proxy.location(),
        )),
        ProxySetting::City => Popup::Picker(pickers::location(PickerKind::City, &proxy.location())),
        ProxySetting::Username => text(
            setting,
            "Proxy username",
            Some(&proxy.username),
            "The bare username; the options are added to it.",
        ),
        ProxySetting::Key => Popup::Input(
            InputPrompt::new(InputTarget::Proxy(setting), "API key", "")
                .masked()
                .with_note("Kept in memory for this session only; shown as dots."),
        ),
        ProxySetting::Url => text(
            setting,
            "Target URL",
            Some(&proxy.target_url),
            "The page to fetch through the proxy (http:// or https://).",
        ),
        ProxySetting::Zipcode => text(
            setting,
            "zipcode",
            o.zipcode.as_deref(),
            "A postal code; needs country.",
        ),
        ProxySetting::Asn => text(
            setting,
            "asn",
            o.asn.map(|n| n.to_string()).as_deref(),
            "An autonomous system number such as 3320; needs country.",
        ),
        ProxySetting::Session => text(
            setting,
            "session",
            o.session.as_deref(),
            "Any name: requests with the same session keep the same exit.",
        ),
        ProxySetting::SessionTtl => text(
            setting,
            "sessionttl",
            o.sessionttl.map(|n| n.to_string()).as_deref(),
            &format!("How long a session keeps its exit, 1 to {SESSION_TTL_MAX_MINUTES} minutes."),
        ),
        ProxySetting::SessionErr => text(
            setting,
            "sessionerr",
            o.sessionerr.as_deref(),
            "What a session does when its exit fails.",
        ),
        ProxySetting::Subaccount => text(
            setting,
            "subaccount",
            o.subaccount.as_deref(),
            "The subaccount the traffic is billed to.",
        ),
    };
    app.popup = Some(popup);
    Vec::new()
}

/// Sets what a text field held. An error keeps the field open with the message.
pub fn apply_input(app: &mut App, setting: ProxySetting, text: &str) -> Result<(), String> {
    let proxy = &mut app.proxy;
    let trimmed = text.trim();
    let value = (!trimmed.is_empty()).then(|| trimmed.to_string());
    let number = |what: &str, example: &str| -> Result<Option<u32>, String> {
        let digits = if what == "asn" {
            trimmed.trim_start_matches(['A', 'a', 'S', 's'])
        } else {
            trimmed
        };
        if digits.is_empty() {
            return Ok(None);
        }
        digits
            .parse::<u32>()
            .map(Some)
            .map_err(|_| format!("{what} must be a whole number such as {example}."))
    };
    let o = &mut proxy.options;
    match setting {
        ProxySetting::Username => proxy.username = trimmed.to_string(),
        ProxySetting::Key => {
            proxy.key = Secret::new(text);
            proxy.key_typed = true;
        }
        ProxySetting::Url => {
            proxy.target_url = value.unwrap_or_else(|| proxy.default_url.clone());
        }
        ProxySetting::Zipcode => o.zipcode = value,
        ProxySetting::Asn => o.asn = number("asn", "3320")?,
        ProxySetting::Session => o.session = value,
        ProxySetting::SessionTtl => o.sessionttl = number("sessionttl", "30")?,
        ProxySetting::SessionErr => o.sessionerr = value,
        ProxySetting::Subaccount => o.subaccount = value,
        _ => {}
    }
    Ok(())
}

/// Sets what a location picker chose; a new country clears the old one's subdivision and city.
pub fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let mut location = app.proxy.location();
    pickers::apply_location(&mut location, kind, value);
    let o = &mut app.proxy.options;
    o.country = location.country;
    o.subdivision = location.subdivision;
    o.city = location.city;
}
