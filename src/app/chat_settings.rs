//! Chat's settings row: the vantage point and output of the next call, cell by cell.

use super::call::mode_text;
use super::keymap::Action;
use super::layout;
use crate::api::{AiFormat, Location, Model};

/// The settings row, in its order on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Model,
    Device,
    Country,
    Subdivision,
    City,
    Language,
    Display,
    Format,
    Cache,
    Mode,
}

impl Setting {
    pub const ALL: [Setting; 10] = [
        Setting::Model,
        Setting::Device,
        Setting::Country,
        Setting::Subdivision,
        Setting::City,
        Setting::Language,
        Setting::Display,
        Setting::Format,
        Setting::Cache,
        Setting::Mode,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Setting::Model => "model",
            Setting::Device => "device",
            Setting::Country => "country",
            Setting::Subdivision => "subdiv",
            Setting::City => "city",
            Setting::Language => "lang",
            Setting::Display => "display",
            Setting::Format => "format",
            Setting::Cache => "cache",
            Setting::Mode => "mode",
        }
    }

    /// The key that opens or changes it, from the keymap.
    pub fn action(self) -> Action {
        match self {
            Setting::Model => Action::PickModel,
            Setting::Device => Action::PickDevice,
            Setting::Country => Action::PickCountry,
            Setting::Subdivision => Action::PickSubdivision,
            Setting::City => Action::PickCity,
            Setting::Language => Action::PickLanguage,
            Setting::Display => Action::PickDisplay,
            Setting::Format => Action::CycleFormat,
            Setting::Cache => Action::ToggleCache,
            Setting::Mode => Action::ToggleAsync,
        }
    }
}

/// The vantage point and output of the next call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatSettings {
    pub model: Option<Model>,
    pub device: Option<String>,
    pub location: Location,
    pub language: Option<String>,
    pub display: Option<String>,
    pub format: AiFormat,
    /// False sends expiration=0: a fresh answer.
    pub no_cache: bool,
    /// Queue the call as a job (`mode=async`) instead of waiting for the answer.
    pub async_mode: bool,
}

impl ChatSettings {
    /// The text a setting shows: its value, or what the service does when it is unset.
    pub fn value_text(&self, setting: Setting) -> String {
        let or_random = |v: &Option<String>| v.clone().unwrap_or_else(|| "random".to_string());
        let cut = |s: String| crate::api::request::shorten(&s, 22);
        match setting {
            Setting::Model => self
                .model
                .map_or_else(|| "chatgpt".to_string(), |m| m.as_str().to_string()),
            Setting::Device => cut(self
                .device
                .clone()
                .unwrap_or_else(|| crate::devices::DESKTOP.to_string())),
            Setting::Country => or_random(&self.location.country),
            Setting::Subdivision => or_random(&self.location.subdivision),
            Setting::City => cut(or_random(&self.location.city)),
            Setting::Language => self.language.clone().unwrap_or_else(|| "–".to_string()),
            Setting::Display => self.display.clone().unwrap_or_else(|| "–".to_string()),
            Setting::Format => self.format.as_str().to_string(),
            Setting::Cache => if self.no_cache { "off" } else { "on" }.to_string(),
            Setting::Mode => mode_text(self.async_mode).to_string(),
        }
    }

    /// The settings row's cells, in the order of `Setting::ALL`.
    pub fn cells(&self) -> Vec<layout::Cell> {
        Setting::ALL
            .iter()
            .map(|s| layout::Cell {
                label: s.label(),
                value: self.value_text(*s),
            })
            .collect()
    }
}
