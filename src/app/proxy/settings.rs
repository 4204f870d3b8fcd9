//! The Proxy tab's form: network, protocol, credentials and the targeting options that ride
//! in the username, each cycled, picked or typed.

use crate::api::Secret;
use crate::api::proxy::{
    ConnectionType, Network, Protocol, ProxyField, SESSION_TTL_MAX_MINUTES, SessionMode,
};

use crate::app::cycle;
use crate::app::input::{InputPrompt, InputTarget};
use crate::app::picker::PickerKind;
use crate::app::pickers;
use crate::app::{App, Effect, Popup};

/// The form's cells, in their order on screen: where and how to connect, then the
/// request's username options in the order they are written.
pub const FORM_ORDER: [ProxyField; 17] = form_order();

const FORM_CONNECTION: [ProxyField; 6] = [
    ProxyField::Network,
    ProxyField::Protocol,
    ProxyField::Fallback,
    ProxyField::Username,
    ProxyField::Key,
    ProxyField::TargetUrl,
];

const fn form_order() -> [ProxyField; 17] {
    let mut order = [ProxyField::Network; 17];
    let mut i = 0;
    while i < order.len() {
        order[i] = if i < FORM_CONNECTION.len() {
            FORM_CONNECTION[i]
        } else {
            ProxyField::OPTIONS[i - FORM_CONNECTION.len()]
        };
        i += 1;
    }
    order
}

/// What the text field of a username option says under it (`sessionttl`'s names its bound).
const OPTION_NOTES: [(ProxyField, &str); 5] = [
    (ProxyField::Zipcode, "A postal code; needs country."),
    (
        ProxyField::Asn,
        "An autonomous system number such as 3320; needs country.",
    ),
    (
        ProxyField::Session,
        "Any name: requests with the same session keep the same exit.",
    ),
    (
        ProxyField::SessionErr,
        "What a session does when its exit fails.",
    ),
    (
        ProxyField::Subaccount,
        "The subaccount the traffic is billed to.",
    ),
];

/// A field's label on the settings row.
pub fn cell_label(field: ProxyField) -> &'static str {
    match field {
        ProxyField::Network => "network",
        ProxyField::Protocol => "protocol",
        ProxyField::Fallback => "fallback",
        ProxyField::Username => "user",
        ProxyField::Key => "key",
        ProxyField::TargetUrl => "url",
        ProxyField::Country => "country",
        ProxyField::Subdivision => "subdiv",
        ProxyField::City => "city",
        ProxyField::Zipcode => "zip",
        ProxyField::Asn => "asn",
        ProxyField::Type => "type",
        ProxyField::Session => "session",
        ProxyField::SessionTtl => "ttl",
        ProxyField::SessionMode => "mode",
        ProxyField::SessionErr => "sessionerr",
        ProxyField::Subaccount => "subaccount",
    }
}

/// Changes one setting: cycles a choice, opens a picker or a text field.
pub(super) fn edit(app: &mut App, setting: ProxyField) -> Vec<Effect> {
    let proxy = &mut app.proxy;
    let o = &mut proxy.options;
    let text = |target: ProxyField, title: &str, value: Option<&str>, note: &str| {
        Popup::Input(
            InputPrompt::new(InputTarget::Proxy(target), title, value.unwrap_or(""))
                .with_note(note),
        )
    };
    let popup = match setting {
        ProxyField::Network => {
            proxy.network = cycle::next(Network::ALL, proxy.network);
            if proxy.network == Network::Isp {
                proxy.fallback = false;
            }
            return Vec::new();
        }
        ProxyField::Protocol => {
            proxy.protocol = cycle::next(Protocol::ALL, proxy.protocol);
            if proxy.protocol != Protocol::Https {
                proxy.fallback = false;
            }
            return Vec::new();
        }
        ProxyField::Fallback => {
            if proxy.network == Network::Isp || proxy.protocol != Protocol::Https {
                app.flash_info(
                    "The fallback port 1080 is for HTTPS on the residential network only.",
                );
            } else {
                proxy.fallback = !proxy.fallback;
            }
            return Vec::new();
        }
        ProxyField::Type => {
            o.kind = cycle::next_or_unset(ConnectionType::ALL, o.kind);
            return Vec::new();
        }
        ProxyField::SessionMode => {
            o.sessionmode = cycle::next_or_unset(SessionMode::ALL, o.sessionmode);
            return Vec::new();
        }
        ProxyField::Country => {
            Popup::Picker(pickers::location(PickerKind::Country, &proxy.location()))
        }
        ProxyField::Subdivision | ProxyField::City if o.country.is_none() => {
            app.flash_info("Choose a country first (c): subdivisions and cities belong to one.");
            return Vec::new();
        }
        ProxyField::Subdivision => Popup::Picker(pickers::location(
            PickerKind::Subdivision,
            &proxy.location(),
        )),
        ProxyField::City => Popup::Picker(pickers::location(PickerKind::City, &proxy.location())),
        ProxyField::Username => text(
            setting,
            "Proxy username",
            Some(&proxy.username),
            "The bare username; the options are added to it.",
        ),
        ProxyField::Key => Popup::Input(
            InputPrompt::new(InputTarget::Proxy(setting), "API key", "")
                .masked()
                .with_note("Kept in memory for this session only; shown as dots."),
        ),
        ProxyField::TargetUrl => text(
            setting,
            "Target URL",
            Some(&proxy.target_url),
            "The page to fetch through the proxy (http:// or https://).",
        ),
        ProxyField::Zipcode
        | ProxyField::Asn
        | ProxyField::Session
        | ProxyField::SessionTtl
        | ProxyField::SessionErr
        | ProxyField::Subaccount => {
            let value = o
                .pairs()
                .into_iter()
                .find_map(|(field, value)| (field == setting).then_some(value));
            let note = if setting == ProxyField::SessionTtl {
                format!(
                    "How long a session keeps its exit, 1 to {SESSION_TTL_MAX_MINUTES} minutes."
                )
            } else {
                OPTION_NOTES
                    .iter()
                    .find(|(field, _)| *field == setting)
                    .map_or_else(String::new, |(_, note)| (*note).to_string())
            };
            text(setting, setting.as_str(), value.as_deref(), &note)
        }
    };
    app.popup = Some(popup);
    Vec::new()
}

/// Sets what a text field held. An error keeps the field open with the message.
pub fn apply_input(app: &mut App, setting: ProxyField, text: &str) -> Result<(), String> {
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
        ProxyField::Username => proxy.username = trimmed.to_string(),
        ProxyField::Key => {
            proxy.key = Secret::new(text);
            proxy.key_typed = true;
        }
        ProxyField::TargetUrl => {
            proxy.target_url = value.unwrap_or_else(|| proxy.default_url.clone());
        }
        ProxyField::Zipcode => o.zipcode = value,
        ProxyField::Asn => o.asn = number("asn", "3320")?,
        ProxyField::Session => o.session = value,
        ProxyField::SessionTtl => o.sessionttl = number("sessionttl", "30")?,
        ProxyField::SessionErr => o.sessionerr = value,
        ProxyField::Subaccount => o.subaccount = value,
        _ => {}
    }
    Ok(())
}

/// Sets what a location picker chose; a new country clears the old one's subdivision and city.
pub fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let mut location = app.proxy.location();
    pickers::apply_location_only(&mut location, kind, value);
    let o = &mut app.proxy.options;
    o.country = location.country;
    o.subdivision = location.subdivision;
    o.city = location.city;
}
