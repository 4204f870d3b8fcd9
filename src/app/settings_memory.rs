//! What the app remembers between sessions: the last vantage point, format and sync/async
//! mode of Chat, Search and Page (with Search's pages, awaiting and mode, and the countries Page compares)
//! and the axes of Compare. Kept in a small file in the data dir (not the config file,
//! which is the user's to write). `update` notices a change after each message and asks for a
//! save; `tui` reads the file before the first frame. Parsing and applying live here, the file
//! itself is touched only by `tui`.

use serde::{Deserialize, Serialize};

use crate::api::{AiFormat, Awaiting, BrowserFormat, IpType, Location, Model, SearchFormat};
use crate::present::compare::CompareMode;

use super::App;

/// The file beside the store.
pub const FILE_NAME: &str = "last-settings.json";

/// Bumped when a field changes meaning; a file of another version is set aside, not misread.
const VERSION: u32 = 1;

/// The remembered settings, as written to the file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Remembered {
    pub version: u32,
    pub chat: ChatMemory,
    pub search: SearchMemory,
    pub compare: CompareMemory,
    pub page: PageMemory,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChatMemory {
    pub model: Option<Model>,
    pub device: Option<String>,
    pub location: Location,
    pub format: AiFormat,
    /// Sync or async (`a`), as Search's and Page's are kept.
    pub async_mode: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchMemory {
    pub ip: Option<IpType>,
    pub location: Location,
    pub format: SearchFormat,
    pub serps: Option<u32>,
    pub awaiting: Vec<Awaiting>,
    pub async_mode: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PageMemory {
    pub device: Option<String>,
    pub location: Location,
    pub format: BrowserFormat,
    pub async_mode: bool,
    pub also_from: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompareMemory {
    pub mode: ModeMemory,
    pub models: Vec<Model>,
    pub devices: Vec<String>,
    pub locations: Vec<Location>,
}

/// What Compare compares (its own name in the file, so the app's enum may change freely).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModeMemory {
    #[default]
    Answers,
    Search,
}

impl Remembered {
    /// The settings on screen now.
    pub fn of(app: &App) -> Remembered {
        let chat = &app.chat.settings;
        let search = &app.search.settings;
        let axes = &app.compare.axes;
        Remembered {
            version: VERSION,
            chat: ChatMemory {
                model: chat.model,
                device: chat.device.clone(),
                location: chat.location.clone(),
                format: chat.format,
                async_mode: chat.async_mode,
            },
            search: SearchMemory {
                ip: search.ip,
                location: search.location.clone(),
                format: search.format,
                serps: search.serps,
                awaiting: search.awaiting.clone(),
                async_mode: search.async_mode,
            },
            page: PageMemory {
                device: app.page.settings.device.clone(),
                location: app.page.settings.location.clone(),
                format: app.page.settings.format,
                async_mode: app.page.settings.async_mode,
                also_from: app.page.settings.also_from.clone(),
            },
            compare: CompareMemory {
                mode: match app.compare.mode {
                    CompareMode::Answers => ModeMemory::Answers,
                    CompareMode::Search => ModeMemory::Search,
                },
                models: axes.models.clone(),
                devices: axes.devices.clone(),
                locations: axes.locations.clone(),
            },
        }
    }

    /// Puts the settings back into their tabs, and remembers them as saved.
    pub fn apply(self, app: &mut App) {
        let chat = &mut app.chat.settings;
        chat.model = self.chat.model;
        chat.device = self.chat.device.clone();
        chat.location = self.chat.location.clone();
        chat.format = self.chat.format;
        chat.async_mode = self.chat.async_mode;
        let search = &mut app.search.settings;
        search.ip = self.search.ip;
        search.location = self.search.location.clone();
        search.format = self.search.format;
        search.serps = self.search.serps;
        search.awaiting = self.search.awaiting.clone();
        search.async_mode = self.search.async_mode;
        let page = &mut app.page.settings;
        page.device = self.page.device.clone();
        page.location = self.page.location.clone();
        page.format = self.page.format;
        page.async_mode = self.page.async_mode;
        page.also_from = self.page.also_from.clone();
        let compare = &mut app.compare;
        compare.mode = match self.compare.mode {
            ModeMemory::Answers => CompareMode::Answers,
            ModeMemory::Search => CompareMode::Search,
        };
        compare.axes.models = self.compare.models.clone();
        compare.axes.devices = self.compare.devices.clone();
        compare.axes.locations = self.compare.locations.clone();
        compare.columns.clear();
        compare.rebuild();
        app.remembered = Remembered::of(app);
        // A mode kept from the last session is said at once: Enter queues a job instead of
        // waiting for the answer, and that answer lands in Jobs.
        let queued: Vec<&str> = [
            ("Chat", app.chat.settings.async_mode),
            ("Search", app.search.settings.async_mode),
            ("Page", app.page.settings.async_mode),
        ]
        .into_iter()
        .filter_map(|(tab, on)| on.then_some(tab))
        .collect();
        if !queued.is_empty() {
            let toggle = app.key_of(
                super::keymap::Context::Form,
                super::keymap::Action::ToggleAsync,
            );
            app.flash_info(format!(
                "{} {} still in async mode from last time: Enter queues a job, whose answer lands in Jobs ({toggle} in the settings switches back).",
                queued.join(" and "),
                crate::plural::noun(queued.len() as u64, "is", "are")
            ));
        }
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail, but an empty file is harmless.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads the file's text. A damaged file, one of another version or with fields this
    /// version does not know, is refused with a sentence for the status bar.
    pub fn from_json(text: &str) -> Result<Remembered, String> {
        let refused = |why: String| {
            format!(
                "The remembered settings ({FILE_NAME} in the data folder) were not used: {why}. They are replaced when a setting next changes."
            )
        };
        let remembered: Remembered =
            serde_json::from_str(text).map_err(|e| refused(e.to_string()))?;
        if remembered.version != VERSION {
            return Err(refused(format!(
                "version {} is not the {VERSION} this build reads",
                remembered.version
            )));
        }
        Ok(remembered)
    }
}

/// After a message: a save of the settings when they differ from the last saved (or
/// restored) ones, else nothing. Cheap enough to ask after every message.
pub(super) fn save_if_changed(app: &mut App) -> Option<super::Effect> {
    let now = Remembered::of(app);
    if now == app.remembered {
        return None;
    }
    app.remembered = now.clone();
    Some(super::Effect::Os(super::OsEffect::SaveSettings(Box::new(
        now,
    ))))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::app::{Connection, Effect, Msg, OsEffect, update};

    fn app() -> App {
        let connection = Connection {
            demo: true,
            host: "127.0.0.1:1".into(),
            token: Some("demo".into()),
            token_hint: "the config file".into(),
        };
        App::new(connection, Instant::now())
    }

    fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
        update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
    }

    fn saves(effects: &[Effect]) -> Vec<Remembered> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Os(OsEffect::SaveSettings(r)) => Some((**r).clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn choosing_a_model_asks_for_one_save_and_typing_asks_for_none() {
        let mut app = app();
        assert!(saves(&press(&mut app, KeyCode::Char('h'))).is_empty());
        press(&mut app, KeyCode::Esc);
        press(&mut app, KeyCode::Char('m'));
        for c in "gem".chars() {
            assert!(saves(&press(&mut app, KeyCode::Char(c))).is_empty());
        }
        let saved = saves(&press(&mut app, KeyCode::Enter));
        assert_eq!(saved.len(), 1, "one save when the model changes");
        assert_eq!(saved[0].chat.model, Some(Model::Gemini));
        // Nothing changed since: no second save.
        assert!(saves(&press(&mut app, KeyCode::Down)).is_empty());
    }

    #[test]
    fn chat_s_sync_async_switch_is_saved() {
        let mut app = app();
        press(&mut app, KeyCode::Esc);
        let saved = saves(&press(&mut app, KeyCode::Char('a')));
        assert_eq!(saved.len(), 1, "the mode is a remembered setting");
        assert!(saved[0].chat.async_mode);
    }

    #[test]
    fn an_async_mode_kept_from_last_time_is_said_at_start() {
        let mut app = app();
        app.chat.settings.async_mode = true;
        let kept = Remembered::of(&app);
        let mut next = self::app();
        kept.apply(&mut next);
        assert!(next.chat.settings.async_mode);
        let said = next
            .flash
            .as_ref()
            .map(|f| f.text.clone())
            .unwrap_or_default();
        assert!(
            said.contains("Chat is still in async mode")
                && said.contains("lands in Jobs (a in the settings"),
            "{said}"
        );
        // In sync mode, nothing to say.
        let mut quiet = self::app();
        Remembered::of(&self::app()).apply(&mut quiet);
        assert!(quiet.flash.is_none());
    }

    #[test]
    fn settings_round_trip_through_the_file_and_back_into_the_tabs() {
        let mut app = app();
        app.chat.settings.model = Some(Model::Perplexity);
        app.chat.settings.device = Some("iPhone 15".into());
        app.chat.settings.location.country = Some("DE".into());
        app.chat.settings.location.city = Some("Berlin".into());
        app.chat.settings.format = AiFormat::Rendered;
        app.chat.settings.async_mode = true;
        app.search.settings.location.country = Some("FR".into());
        app.search.settings.format = SearchFormat::Html;
        app.search.settings.ip = Some(IpType::Isp);
        app.search.settings.serps = Some(3);
        app.search.settings.awaiting = vec![Awaiting::Ai];
        app.search.settings.async_mode = true;
        app.page.settings.also_from = vec!["DE".into(), "JP".into()];
        app.page.settings.async_mode = true;
        app.page.settings.device = Some("iPhone 15".into());
        app.page.settings.format = BrowserFormat::Markdown;
        app.compare.axes.models = vec![Model::Gemini, Model::Copilot];
        app.compare.axes.devices = vec!["Pixel 8".into()];
        app.compare.axes.locations = vec![Location {
            country: Some("US".into()),
            subdivision: Some("CO".into()),
            city: None,
        }];
        app.compare.mode = CompareMode::Search;
        let before = Remembered::of(&app);
        let text = before.to_json();
        let back = Remembered::from_json(&text).unwrap();
        assert_eq!(back, before);

        let mut restarted = super::tests::app();
        back.apply(&mut restarted);
        assert_eq!(restarted.chat.settings, app.chat.settings);
        assert!(
            restarted.chat.settings.async_mode,
            "Chat's mode is restored"
        );
        assert_eq!(
            restarted.search.settings.location,
            app.search.settings.location
        );
        assert_eq!(restarted.search.settings.serps, Some(3));
        assert_eq!(restarted.search.settings.awaiting, [Awaiting::Ai]);
        assert!(restarted.search.settings.async_mode);
        assert_eq!(restarted.page.settings.also_from, ["DE", "JP"]);
        assert!(restarted.page.settings.async_mode);
        assert_eq!(restarted.page.settings.format, BrowserFormat::Markdown);
        assert_eq!(restarted.compare.axes, app.compare.axes);
        assert_eq!(restarted.compare.mode, CompareMode::Search);
        assert_eq!(
            restarted.compare.columns.len(),
            app.compare.axes.locations.len().max(1) * app.compare.axes.ips.len().max(1),
            "columns are rebuilt from the restored axes"
        );
        // Restored settings are not saved again at once.
        let effects = update(&mut restarted, Msg::Tick);
        assert!(saves(&effects).is_empty());
    }

    #[test]
    fn a_damaged_or_unknown_file_is_refused_with_a_sentence() {
        for text in [
            "",
            "{ not json",
            r#"{"version": 7}"#,
            r#"{"version": 1, "chat": {"model": "eliza"}}"#,
            r#"{"version": 1, "colour": "blue"}"#,
        ] {
            let refused = Remembered::from_json(text).unwrap_err();
            assert!(refused.contains(FILE_NAME), "{text}: {refused}");
        }
        // A file that leaves a section out keeps that section's defaults.
        let partial = Remembered::from_json(r#"{"version": 1, "chat": {"model": "gemini"}}"#);
        assert_eq!(partial.unwrap().chat.model, Some(Model::Gemini));
    }
}
