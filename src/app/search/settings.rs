//! The Search tab's settings row: every parameter of `GET /search`, each set by a picker,
//! a typed number or a cycle.

use crate::api::request::{OFFSET_RANGE, SERPS_RANGE, SIZE_RANGE};
use crate::api::{Awaiting, IpType, Location, SearchFormat};

use crate::app::input::{InputPrompt, InputTarget};
use crate::app::layout::Cell;
use crate::app::picker::PickerKind;
use crate::app::pickers;
use crate::app::{App, Effect, Popup};

/// The settings row of the Search tab, in its order on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchSetting {
    Pages,
    Size,
    Offset,
    Ip,
    Device,
    Country,
    Subdivision,
    City,
    Uule,
    Language,
    Display,
    Format,
    Cache,
    Awaiting,
    Mode,
}

impl SearchSetting {
    pub const ALL: [SearchSetting; 15] = [
        SearchSetting::Pages,
        SearchSetting::Size,
        SearchSetting::Offset,
        SearchSetting::Ip,
        SearchSetting::Device,
        SearchSetting::Country,
        SearchSetting::Subdivision,
        SearchSetting::City,
        SearchSetting::Uule,
        SearchSetting::Language,
        SearchSetting::Display,
        SearchSetting::Format,
        SearchSetting::Cache,
        SearchSetting::Awaiting,
        SearchSetting::Mode,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SearchSetting::Pages => "pages",
            SearchSetting::Size => "size",
            SearchSetting::Offset => "offset",
            SearchSetting::Ip => "ip",
            SearchSetting::Device => "device",
            SearchSetting::Country => "country",
            SearchSetting::Subdivision => "subdiv",
            SearchSetting::City => "city",
            SearchSetting::Uule => "uule",
            SearchSetting::Language => "lang",
            SearchSetting::Display => "display",
            SearchSetting::Format => "format",
            SearchSetting::Cache => "cache",
            SearchSetting::Awaiting => "awaiting",
            SearchSetting::Mode => "mode",
        }
    }
}

/// Every parameter of the next search but the terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchSettings {
    pub serps: Option<u32>,
    pub size: Option<u32>,
    pub offset: Option<u32>,
    pub ip: Option<IpType>,
    /// The device the page is fetched as; none is a desktop.
    pub device: Option<String>,
    pub location: Location,
    pub uule: Option<String>,
    pub language: Option<String>,
    pub display: Option<String>,
    pub format: SearchFormat,
    pub no_cache: bool,
    pub awaiting: Vec<Awaiting>,
    /// Queue the search as a job (`mode=async`).
    pub async_mode: bool,
}

impl SearchSettings {
    pub fn value_text(&self, setting: SearchSetting) -> String {
        let number =
            |v: Option<u32>, unset: &str| v.map_or_else(|| unset.to_string(), |n| n.to_string());
        let text = |v: &Option<String>, unset: &str| {
            v.as_deref().map_or_else(
                || unset.to_string(),
                |s| crate::api::request::shorten(s, 22),
            )
        };
        match setting {
            SearchSetting::Pages => number(self.serps, "1"),
            SearchSetting::Size => number(self.size, "default"),
            SearchSetting::Offset => number(self.offset, "0"),
            SearchSetting::Ip => self.ip.map_or("random", IpType::as_str).to_string(),
            SearchSetting::Device => text(&self.device, crate::devices::DESKTOP),
            SearchSetting::Country => text(&self.location.country, "random"),
            SearchSetting::Subdivision => text(&self.location.subdivision, "random"),
            SearchSetting::City => text(&self.location.city, "random"),
            SearchSetting::Uule => text(&self.uule, "–"),
            SearchSetting::Language => text(&self.language, "–"),
            SearchSetting::Display => text(&self.display, "–"),
            SearchSetting::Format => self.format.as_str().to_string(),
            SearchSetting::Cache => if self.no_cache { "off" } else { "on" }.to_string(),
            SearchSetting::Mode => crate::app::call::mode_text(self.async_mode).to_string(),
            SearchSetting::Awaiting => {
                if self.awaiting.is_empty() {
                    "–".to_string()
                } else {
                    self.awaiting
                        .iter()
                        .map(|a| a.as_str())
                        .collect::<Vec<_>>()
                        .join("+")
                }
            }
        }
    }

    pub fn cells(&self) -> Vec<Cell> {
        SearchSetting::ALL
            .iter()
            .map(|s| Cell {
                label: s.label(),
                value: self.value_text(*s),
            })
            .collect()
    }
}

/// Opens the picker or input of a setting, or cycles it.
pub(super) fn change_setting(app: &mut App, setting: SearchSetting) -> Vec<Effect> {
    let settings = &mut app.search.settings;
    let number_prompt = |title: &str, value: Option<u32>, range: std::ops::RangeInclusive<u32>| {
        InputPrompt::new(
            InputTarget::Search(setting),
            title,
            value.map_or(String::new(), |v| v.to_string()),
        )
        .with_note(format!(
            "A whole number from {} to {}; empty leaves it to the service.",
            range.start(),
            range.end()
        ))
    };
    let popup = match setting {
        SearchSetting::Pages => Popup::Input(number_prompt(
            "Result pages (serps)",
            settings.serps,
            SERPS_RANGE,
        )),
        SearchSetting::Size => Popup::Input(number_prompt(
            "Results per page (size)",
            settings.size,
            SIZE_RANGE,
        )),
        SearchSetting::Offset => Popup::Input(number_prompt(
            "Results to skip (offset)",
            settings.offset,
            OFFSET_RANGE,
        )),
        SearchSetting::Uule => Popup::Input(
            InputPrompt::new(
                InputTarget::Search(setting),
                "uule (encoded location)",
                settings.uule.clone().unwrap_or_default(),
            )
            .with_note(
                "Where possible the service uses the real location instead. Empty unsets it.",
            ),
        ),
        SearchSetting::Device => {
            let list = crate::devices::DeviceList::Search;
            let at = settings.device.as_deref();
            Popup::Picker(pickers::devices_from(list, &app.search_devices, at))
        }
        SearchSetting::Country => {
            Popup::Picker(pickers::location(PickerKind::Country, &settings.location))
        }
        SearchSetting::Subdivision | SearchSetting::City if settings.location.country.is_none() => {
            app.flash_info("Choose a country first (c): subdivisions and cities belong to one.");
            return Vec::new();
        }
        SearchSetting::Subdivision => Popup::Picker(pickers::location(
            PickerKind::Subdivision,
            &settings.location,
        )),
        SearchSetting::City => {
            Popup::Picker(pickers::location(PickerKind::City, &settings.location))
        }
        SearchSetting::Language => Popup::Picker(pickers::language(
            PickerKind::Language,
            settings.language.as_deref(),
        )),
        SearchSetting::Display => Popup::Picker(pickers::language(
            PickerKind::Display,
            settings.display.as_deref(),
        )),
        SearchSetting::Ip => {
            settings.ip = match settings.ip {
                None => Some(IpType::Residential),
                Some(IpType::Residential) => Some(IpType::Isp),
                Some(IpType::Isp) => None,
            };
            let ip = settings.ip.map_or("random", IpType::as_str);
            app.flash_info(format!("IP type: {ip}"));
            return Vec::new();
        }
        SearchSetting::Format => {
            settings.format = match settings.format {
                SearchFormat::Json => SearchFormat::Html,
                SearchFormat::Html => SearchFormat::Json,
            };
            let format = settings.format;
            app.flash_info(format!("Format: {format}"));
            return Vec::new();
        }
        SearchSetting::Mode => {
            settings.async_mode = !settings.async_mode;
            let async_mode = settings.async_mode;
            let send = app.key_of(
                crate::app::keymap::Context::Editing,
                crate::app::keymap::Action::Send,
            );
            let text = crate::app::call::mode_flash(async_mode, &send);
            app.flash_info(text);
            return Vec::new();
        }
        SearchSetting::Cache => {
            settings.no_cache = !settings.no_cache;
            let no_cache = settings.no_cache;
            app.flash_info(if no_cache {
                "Cache off: a fresh results page (expiration=0)."
            } else {
                "Cache on: a cached page up to a day old may come back (expiration=1)."
            });
            return Vec::new();
        }
        SearchSetting::Awaiting => {
            // Cycles through none, each one, and all three.
            const CYCLE: [&[Awaiting]; 5] = [
                &[],
                &[Awaiting::Ai],
                &[Awaiting::Answers],
                &[Awaiting::Ads],
                &[Awaiting::Ai, Awaiting::Answers, Awaiting::Ads],
            ];
            let i = CYCLE
                .iter()
                .position(|c| *c == settings.awaiting.as_slice())
                .unwrap_or(0);
            settings.awaiting = CYCLE[(i + 1) % CYCLE.len()].to_vec();
            return Vec::new();
        }
    };
    app.popup = Some(popup);
    Vec::new()
}

/// Sets a value typed in an input popup; a bad number is refused with the reason.
pub fn apply_input(app: &mut App, setting: SearchSetting, typed: &str) -> Result<(), String> {
    let typed = typed.trim();
    let settings = &mut app.search.settings;
    let number = |range: std::ops::RangeInclusive<u32>| -> Result<Option<u32>, String> {
        if typed.is_empty() {
            return Ok(None);
        }
        match typed.parse::<u32>() {
            Ok(n) if range.contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "{typed:?} is not a whole number from {} to {}.",
                range.start(),
                range.end()
            )),
        }
    };
    match setting {
        SearchSetting::Pages => number(SERPS_RANGE).map(|v| settings.serps = v),
        SearchSetting::Size => number(SIZE_RANGE).map(|v| settings.size = v),
        SearchSetting::Offset => number(OFFSET_RANGE).map(|v| settings.offset = v),
        SearchSetting::Uule => {
            if typed.chars().count() > 1000 || typed.chars().any(char::is_control) {
                Err("A uule is at most 1,000 characters, with no control characters.".to_string())
            } else {
                settings.uule = (!typed.is_empty()).then(|| typed.to_string());
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

/// Sets what a picker chose in the Search form.
pub fn apply_choice(app: &mut App, kind: PickerKind, value: Option<String>) {
    let s = &mut app.search.settings;
    match kind {
        PickerKind::Country | PickerKind::Subdivision | PickerKind::City => {
            pickers::apply_location(&mut s.location, kind, value)
        }
        PickerKind::Language => s.language = value,
        PickerKind::Display => s.display = value,
        PickerKind::SearchDevice => s.device = value.as_deref().and_then(crate::devices::emulated),
        PickerKind::Model
        | PickerKind::Device
        | PickerKind::AxisLocation
        | PickerKind::TrackSet
        | PickerKind::Brand => {}
    }
}
