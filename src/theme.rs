//! Themes: the named styles the views draw with, the three built-in themes, and theme files
//! (TOML, every key optional, starting from a built-in one). Pure: reading the file is the
//! caller's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use toml::Spanned;

use crate::user_file::FileMistake;

/// The built-in themes, by the name the config file and `--theme` use.
pub const BUILT_IN: [&str; 3] = ["dark", "light", "high-contrast"];

/// Which theme to use: a built-in one or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    BuiltIn(&'static str),
    File(PathBuf),
}

impl ThemeChoice {
    /// `dark`, `light`, `high-contrast`, else a path (relative to `folder`).
    pub fn parse(value: &str, folder: &Path) -> ThemeChoice {
        match BUILT_IN.iter().find(|name| **name == value.trim()) {
            Some(name) => ThemeChoice::BuiltIn(name),
            None => ThemeChoice::File(folder.join(value.trim())),
        }
    }
}

impl Default for ThemeChoice {
    fn default() -> Self {
        ThemeChoice::BuiltIn("dark")
    }
}

/// Every style a view draws with, by the name a theme file gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub title: Style,
    pub dim: Style,
    pub muted: Style,
    pub accent: Style,
    pub selected: Style,
    pub focused_border: Style,
    pub border: Style,
    pub error: Style,
    pub warning_banner: Style,
    pub ok: Style,
    pub link: Style,
    pub key_hint: Style,
    pub matched: Style,
    pub demo_badge: Style,
    pub live_badge: Style,
    pub brand: Style,
    pub cautioned: Style,
    pub result_question: Style,
    pub result_news: Style,
    pub rating: Style,
    pub band_high: Style,
    pub band_middle: Style,
    pub band_low: Style,
    pub band_none: Style,
    pub band_unknown: Style,
    pub map_land: Style,
    /// Headings of an answer or a page.
    pub heading: Style,
    /// Code in an answer or a page.
    pub code: Style,
    /// Links inside an answer or a page.
    pub prose_link: Style,
    /// One colour per line of a chart, in order; more lines reuse them.
    pub series: Vec<Color>,
}

fn fg(color: Color) -> Style {
    Style::default().fg(color)
}

fn badge(bg: Color, fg: Color) -> Style {
    Style::default().bg(bg).fg(fg).add_modifier(Modifier::BOLD)
}

impl Default for Theme {
    fn default() -> Self {
        Theme::dark()
    }
}

impl Theme {
    /// The built-in theme of that name.
    pub fn built_in(name: &str) -> Option<Theme> {
        match name {
            "dark" => Some(Theme::dark()),
            "light" => Some(Theme::light()),
            "high-contrast" => Some(Theme::high_contrast()),
            _ => None,
        }
    }

    /// For a dark background: the terminal's own palette.
    pub fn dark() -> Theme {
        let bold_underlined = Modifier::BOLD | Modifier::UNDERLINED;
        Theme {
            title: Style::default().add_modifier(Modifier::BOLD),
            dim: fg(Color::DarkGray),
            muted: fg(Color::Gray),
            accent: fg(Color::Cyan),
            // White on blue, written as blue on white reversed: a terminal without colour
            // drops the colours but keeps the reverse video, so the selection still shows.
            selected: Style::default()
                .fg(Color::Blue)
                .bg(Color::White)
                .add_modifier(Modifier::REVERSED | Modifier::BOLD),
            focused_border: fg(Color::Cyan),
            border: fg(Color::DarkGray),
            error: fg(Color::Red),
            warning_banner: badge(Color::Yellow, Color::Black),
            ok: fg(Color::Green),
            link: fg(Color::Blue).add_modifier(Modifier::UNDERLINED),
            key_hint: fg(Color::Yellow),
            // Underlined as well, so matched letters show on a selected row and without colour.
            matched: fg(Color::Yellow).add_modifier(bold_underlined),
            demo_badge: badge(Color::Magenta, Color::White),
            live_badge: badge(Color::Green, Color::Black),
            // Bold and underlined, so a brand shows without colour too; a caution in italics.
            brand: fg(Color::Magenta).add_modifier(bold_underlined),
            cautioned: fg(Color::Red).add_modifier(bold_underlined | Modifier::ITALIC),
            result_question: fg(Color::Magenta),
            result_news: fg(Color::Yellow),
            rating: fg(Color::Yellow),
            band_high: fg(Color::Green),
            band_middle: fg(Color::Yellow),
            band_low: fg(Color::LightRed),
            band_none: fg(Color::Red),
            band_unknown: fg(Color::Gray),
            map_land: fg(Color::DarkGray),
            heading: fg(Color::LightMagenta),
            code: fg(Color::Yellow),
            prose_link: fg(Color::Cyan),
            series: vec![
                Color::Cyan,
                Color::Yellow,
                Color::Magenta,
                Color::Green,
                Color::LightRed,
                Color::LightBlue,
            ],
        }
    }

    /// For a light background: no yellow or light grey text, which a white page washes out.
    pub fn light() -> Theme {
        let bold_underlined = Modifier::BOLD | Modifier::UNDERLINED;
        let orange = Color::Indexed(130);
        Theme {
            muted: fg(Color::Black),
            accent: fg(Color::Blue),
            focused_border: fg(Color::Blue),
            key_hint: fg(Color::Magenta).add_modifier(Modifier::BOLD),
            matched: fg(Color::Red).add_modifier(bold_underlined),
            brand: fg(Color::Blue).add_modifier(bold_underlined),
            result_question: fg(Color::Blue),
            result_news: fg(orange),
            rating: fg(orange),
            band_middle: fg(orange),
            band_low: fg(Color::Indexed(166)),
            band_unknown: fg(Color::DarkGray),
            map_land: fg(Color::Gray),
            heading: fg(Color::Magenta),
            code: fg(Color::Indexed(130)),
            prose_link: fg(Color::Blue),
            series: vec![
                Color::Blue,
                Color::Red,
                Color::Magenta,
                Color::Green,
                orange,
                Color::Black,
            ],
            ..Theme::dark()
        }
    }

    /// Bright colours and bold, no grey: for low vision and washed-out screens.
    pub fn high_contrast() -> Theme {
        let bold = Modifier::BOLD;
        let bold_underlined = Modifier::BOLD | Modifier::UNDERLINED;
        Theme {
            title: Style::default().add_modifier(bold_underlined),
            dim: fg(Color::White),
            muted: fg(Color::White),
            accent: fg(Color::LightCyan).add_modifier(bold),
            selected: Style::default()
                .fg(Color::LightYellow)
                .bg(Color::Black)
                .add_modifier(Modifier::REVERSED | bold),
            focused_border: fg(Color::LightYellow).add_modifier(bold),
            border: fg(Color::White),
            error: fg(Color::LightRed).add_modifier(bold),
            warning_banner: badge(Color::LightYellow, Color::Black),
            ok: fg(Color::LightGreen).add_modifier(bold),
            link: fg(Color::LightCyan).add_modifier(Modifier::UNDERLINED),
            key_hint: fg(Color::LightYellow).add_modifier(bold),
            matched: fg(Color::LightYellow).add_modifier(bold_underlined),
            demo_badge: badge(Color::LightMagenta, Color::Black),
            live_badge: badge(Color::LightGreen, Color::Black),
            brand: fg(Color::LightMagenta).add_modifier(bold_underlined),
            cautioned: fg(Color::LightRed).add_modifier(bold_underlined | Modifier::ITALIC),
            result_question: fg(Color::LightMagenta),
            result_news: fg(Color::LightYellow),
            rating: fg(Color::LightYellow),
            band_high: fg(Color::LightGreen),
            band_middle: fg(Color::LightYellow),
            band_low: fg(Color::LightRed),
            band_none: fg(Color::Red).add_modifier(bold),
            band_unknown: fg(Color::White),
            map_land: fg(Color::Gray),
            heading: fg(Color::LightMagenta),
            code: fg(Color::LightYellow),
            prose_link: fg(Color::LightCyan),
            series: vec![
                Color::LightCyan,
                Color::LightYellow,
                Color::LightMagenta,
                Color::LightGreen,
                Color::LightRed,
                Color::White,
            ],
        }
    }

    /// The colour of the `index`th line of a chart.
    pub fn series_color(&self, index: usize) -> Color {
        match self.series.len() {
            0 => Color::Reset,
            n => self.series[index % n],
        }
    }

    fn style_mut(&mut self, name: &str) -> Option<&mut Style> {
        Some(match name {
            "title" => &mut self.title,
            "dim" => &mut self.dim,
            "muted" => &mut self.muted,
            "accent" => &mut self.accent,
            "selected" => &mut self.selected,
            "focused_border" => &mut self.focused_border,
            "border" => &mut self.border,
            "error" => &mut self.error,
            "warning_banner" => &mut self.warning_banner,
            "ok" => &mut self.ok,
            "link" => &mut self.link,
            "key_hint" => &mut self.key_hint,
            "matched" => &mut self.matched,
            "demo_badge" => &mut self.demo_badge,
            "live_badge" => &mut self.live_badge,
            "brand" => &mut self.brand,
            "cautioned" => &mut self.cautioned,
            "result_question" => &mut self.result_question,
            "result_news" => &mut self.result_news,
            "rating" => &mut self.rating,
            "band_high" => &mut self.band_high,
            "band_middle" => &mut self.band_middle,
            "band_low" => &mut self.band_low,
            "band_none" => &mut self.band_none,
            "band_unknown" => &mut self.band_unknown,
            "map_land" => &mut self.map_land,
            "heading" => &mut self.heading,
            "code" => &mut self.code,
            "prose_link" => &mut self.prose_link,
            _ => return None,
        })
    }
}

/// The styles a theme file may set, with what each colours: the schema and the refusals
/// list them.
pub const STYLES: [(&str, &str); 29] = [
    ("title", "titles of panes and sections"),
    ("dim", "secondary text: hints, counts, times"),
    ("muted", "text a little less prominent than the body"),
    ("accent", "the focused item's details, web results"),
    ("selected", "the selected row or tab"),
    ("focused_border", "the border of the focused pane"),
    ("border", "the border of other panes"),
    ("error", "errors and failed calls"),
    (
        "warning_banner",
        "the banner of a warning (live calls spend credits)",
    ),
    ("ok", "success: done jobs, 2xx statuses"),
    ("link", "links"),
    ("key_hint", "keys in hints and help"),
    ("matched", "letters a filter or a search matched"),
    ("demo_badge", "the DEMO badge"),
    ("live_badge", "the LIVE badge"),
    ("brand", "a tracked brand where an answer names it"),
    ("cautioned", "a tracked brand an answer cautions against"),
    ("result_question", "the ASK badge of a related question"),
    ("result_news", "the NEWS badge of a top story"),
    ("rating", "a result's star rating"),
    (
        "band_high",
        "a vantage point where the brand is named most (map)",
    ),
    ("band_middle", "a vantage point in the middle band (map)"),
    ("band_low", "a vantage point in the low band (map)"),
    (
        "band_none",
        "a vantage point where the brand is never named (map)",
    ),
    ("band_unknown", "a vantage point without answers (map)"),
    ("map_land", "the coastlines of the world map"),
    ("heading", "headings of an answer or a page (the colour)"),
    ("code", "code in an answer or a page (the colour)"),
    (
        "prose_link",
        "links inside an answer or a page (the colour)",
    ),
];

const MODIFIERS: [&str; 9] = [
    "bold",
    "dim",
    "italic",
    "underlined",
    "slow_blink",
    "rapid_blink",
    "reversed",
    "hidden",
    "crossed_out",
];

const COLOR_GRAMMAR: &str =
    "a colour is a name (red, dark-gray, light-blue, reset…), #rrggbb, or 0 to 255";

/// One style as a theme file writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    modifiers: Vec<String>,
}

fn color(text: &str) -> Result<Color, String> {
    Color::from_str(text.trim())
        .map_err(|_| format!("`{}` is not a colour: {COLOR_GRAMMAR}", text.escape_debug()))
}

fn style_of(spec: StyleSpec) -> Result<Style, String> {
    let mut style = Style::default();
    if let Some(text) = &spec.fg {
        style = style.fg(color(text)?);
    }
    if let Some(text) = &spec.bg {
        style = style.bg(color(text)?);
    }
    for name in &spec.modifiers {
        let modifier = MODIFIERS
            .iter()
            .find(|known| **known == name.as_str())
            .and_then(|known| Modifier::from_name(&known.to_ascii_uppercase()))
            .ok_or_else(|| {
                format!(
                    "`{}` is not a modifier; the modifiers are {}",
                    name.escape_debug(),
                    MODIFIERS.join(", ")
                )
            })?;
        style = style.add_modifier(modifier);
    }
    Ok(style)
}

/// A theme file: `base` (a built-in theme to start from, default dark), then any style by
/// name as `{ fg, bg, modifiers }`, and `series`, the chart's colours. A style given replaces
/// the base's whole, so a bold can be taken away. The first mistake refuses the whole file.
pub fn theme_from(text: &str, path: &Path) -> Result<Theme, FileMistake> {
    let table: BTreeMap<Spanned<String>, Spanned<toml::Value>> =
        toml::from_str(text).map_err(|error| FileMistake::from_toml(path, text, &error))?;
    let mistake = |key: &Spanned<String>, problem: String| {
        FileMistake::new(path, text, key.span().start, Some(key.get_ref()), problem)
    };
    let mut theme = Theme::dark();
    if let Some((key, value)) = table.iter().find(|(key, _)| key.get_ref() == "base") {
        let base = value
            .get_ref()
            .as_str()
            .and_then(Theme::built_in)
            .ok_or_else(|| {
                mistake(
                    key,
                    format!(
                        "the base is one of the built-in themes: {}",
                        BUILT_IN.join(", ")
                    ),
                )
            })?;
        theme = base;
    }
    for (key, value) in &table {
        let name = key.get_ref().as_str();
        match name {
            "base" => {}
            "series" => {
                let colors = value
                    .get_ref()
                    .as_array()
                    .ok_or_else(|| mistake(key, "series is a list of colours".into()))?;
                theme.series = colors
                    .iter()
                    .map(|c| {
                        c.as_str()
                            .ok_or_else(|| COLOR_GRAMMAR.to_string())
                            .and_then(color)
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|problem| mistake(key, problem))?;
            }
            _ => {
                let Some(slot) = theme.style_mut(name) else {
                    let names: Vec<&str> = STYLES.iter().map(|(name, _)| *name).collect();
                    return Err(mistake(
                        key,
                        format!(
                            "`{}` is not a style; the styles are base, series, {}",
                            name.escape_debug(),
                            names.join(", ")
                        ),
                    ));
                };
                let spec: StyleSpec = value.get_ref().clone().try_into().map_err(
                    |error: toml::de::Error| {
                        let first = error.message().lines().next().unwrap_or("").to_string();
                        mistake(
                            key,
                            format!("a style is {{ fg = \"…\", bg = \"…\", modifiers = [\"bold\"] }} ({first})"),
                        )
                    },
                )?;
                *slot = style_of(spec).map_err(|problem| mistake(key, problem))?;
            }
        }
    }
    Ok(theme)
}

/// The theme file's JSON Schema, for editors that check TOML.
pub fn schema() -> serde_json::Value {
    let color = serde_json::json!({"type": "string", "description": COLOR_GRAMMAR});
    let style = |what: &str| {
        serde_json::json!({
            "type": "object",
            "description": what,
            "additionalProperties": false,
            "properties": {
                "fg": color,
                "bg": color,
                "modifiers": {"type": "array", "items": {"enum": MODIFIERS}}
            }
        })
    };
    let mut properties = serde_json::Map::new();
    properties.insert(
        "base".into(),
        serde_json::json!({"enum": BUILT_IN, "description": "the built-in theme to start from (default dark)"}),
    );
    properties.insert(
        "series".into(),
        serde_json::json!({"type": "array", "items": color, "description": "the colours of a chart's lines, in order"}),
    );
    for (name, what) in STYLES {
        properties.insert(name.into(), style(what));
    }
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "vantage theme",
        "description": "A theme: a built-in base and the styles it changes; every key optional.",
        "type": "object",
        "additionalProperties": false,
        "properties": properties
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> &'static Path {
        Path::new("/home/u/.config/vantage/paper.toml")
    }

    #[test]
    fn a_file_changes_only_what_it_names_on_its_base() {
        let theme = theme_from(
            "base = \"light\"\naccent = { fg = \"#aa0000\", modifiers = [\"bold\"] }\nseries = [\"red\", \"12\"]\n",
            path(),
        )
        .unwrap();
        assert_eq!(
            theme.accent,
            Style::default()
                .fg(Color::Rgb(0xaa, 0, 0))
                .add_modifier(Modifier::BOLD)
        );
        assert_eq!(theme.series, vec![Color::Red, Color::Indexed(12)]);
        assert_eq!(theme.key_hint, Theme::light().key_hint);
    }

    #[test]
    fn every_style_name_is_one_a_file_can_set() {
        let mut theme = Theme::dark();
        for (name, _) in STYLES {
            assert!(theme.style_mut(name).is_some(), "{name}");
        }
    }

    #[test]
    fn mistakes_name_file_line_and_key() {
        let cases = [
            (
                "accent = { fg = \"cyan\" }\n\nacent = { fg = \"red\" }",
                3,
                "acent",
                "not a style",
            ),
            ("base = \"sepia\"", 1, "base", "built-in"),
            ("dim = { fg = \"mauve\" }", 1, "dim", "not a colour"),
            (
                "dim = { fg = \"red\", blink = true }",
                1,
                "dim",
                "a style is",
            ),
            (
                "dim = { modifiers = [\"shiny\"] }",
                1,
                "dim",
                "not a modifier",
            ),
            ("\nseries = \"red\"", 2, "series", "list of colours"),
        ];
        for (text, line, key, problem) in cases {
            let mistake = theme_from(text, path()).unwrap_err();
            assert_eq!(mistake.line, line, "{text:?}: {mistake}");
            assert_eq!(mistake.key.as_deref(), Some(key), "{text:?}: {mistake}");
            assert!(mistake.problem.contains(problem), "{text:?}: {mistake}");
            assert!(mistake.to_string().contains("paper.toml"), "{mistake}");
        }
        let broken = theme_from("dim = {\n", path()).unwrap_err();
        assert!(broken.line >= 1, "{broken}");
    }

    #[test]
    fn choices_are_built_in_names_or_paths_beside_the_config() {
        let folder = Path::new("/c");
        assert_eq!(
            ThemeChoice::parse("light", folder),
            ThemeChoice::BuiltIn("light")
        );
        assert_eq!(
            ThemeChoice::parse("paper.toml", folder),
            ThemeChoice::File(PathBuf::from("/c/paper.toml"))
        );
    }
}
