//! `keys.toml`: the user's own keys for the keymap's actions, by context and action
//! (`[normal] quit = "Q"`, several keys as a list), checked whole before any of it is used.
//! Also the names the file, `vantage keys` and its template write keys, actions and contexts
//! with.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crossterm::event::{KeyCode, KeyModifiers};
use serde::Deserialize;
use toml::Spanned;

use super::keymap::{Action, Binding, Context, DEFAULTS, Key, Keymap};
use crate::user_file::{FileMistake, FileMistakes};

/// Where a key without Ctrl or Alt would be taken from the text a user types.
const TYPING: [Context; 5] = [
    Context::Global,
    Context::Editing,
    Context::Popup,
    Context::Finding,
    Context::BrandEditor,
];

/// The contexts a context is always looked up before, whose actions it may take too.
fn falls_back_to(context: Context) -> &'static [Context] {
    match context {
        Context::Chat | Context::Search | Context::Page => &[Context::Form],
        _ => &[],
    }
}

/// The contexts, in the table's order.
pub fn contexts() -> Vec<Context> {
    let mut seen = Vec::new();
    for binding in DEFAULTS {
        if !seen.contains(&binding.context) {
            seen.push(binding.context);
        }
    }
    seen
}

/// `BrandEditor` → `brand_editor`.
fn snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A context as the file names it: `normal`, `set_editor`.
pub fn context_name(context: Context) -> String {
    snake(&format!("{context:?}"))
}

/// An action as the file names it: `quit`, `select_tab_1`, `edit_proxy_target_url`.
pub fn action_name(action: Action) -> String {
    match action {
        Action::SelectTab(index) => format!("select_tab_{}", index + 1),
        Action::EditProxy(field) => format!("edit_proxy_{}", snake(&format!("{field:?}"))),
        other => snake(&format!("{other:?}")),
    }
}

/// Key names beside single characters, as the file writes them and as help shows them.
const NAMED: [(&str, KeyCode, &str); 15] = [
    ("enter", KeyCode::Enter, "Enter"),
    ("esc", KeyCode::Esc, "Esc"),
    ("tab", KeyCode::Tab, "Tab"),
    ("backtab", KeyCode::BackTab, "Shift+Tab"),
    ("backspace", KeyCode::Backspace, "Backspace"),
    ("delete", KeyCode::Delete, "Del"),
    ("insert", KeyCode::Insert, "Ins"),
    ("up", KeyCode::Up, "↑"),
    ("down", KeyCode::Down, "↓"),
    ("left", KeyCode::Left, "←"),
    ("right", KeyCode::Right, "→"),
    ("home", KeyCode::Home, "Home"),
    ("end", KeyCode::End, "End"),
    ("pageup", KeyCode::PageUp, "PgUp"),
    ("pagedown", KeyCode::PageDown, "PgDn"),
];

const KEY_GRAMMAR: &str = "a key is one character (\"q\", \"Q\", \"?\"), space, enter, esc, tab, backtab, backspace, delete, insert, up, down, left, right, home, end, pageup, pagedown or f1 to f12, after any of ctrl-, alt- and shift-";

/// `"ctrl-s"`, `"Q"`, `"alt-enter"`, `"shift-tab"`, `"f5"`, `"space"`.
pub fn parse_key(text: &str) -> Result<Key, String> {
    let mut modifiers = KeyModifiers::NONE;
    let mut rest = text;
    loop {
        let lower = rest.to_ascii_lowercase();
        let (modifier, len) = if lower.starts_with("ctrl-") {
            (KeyModifiers::CONTROL, 5)
        } else if lower.starts_with("alt-") {
            (KeyModifiers::ALT, 4)
        } else if lower.starts_with("shift-") {
            (KeyModifiers::SHIFT, 6)
        } else {
            break;
        };
        if rest.len() == len {
            break;
        }
        modifiers |= modifier;
        rest = &rest[len..];
    }
    let mut chars = rest.chars();
    let code = match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_control() && c != ' ' => {
            if modifiers.contains(KeyModifiers::CONTROL) || modifiers.contains(KeyModifiers::ALT) {
                KeyCode::Char(if modifiers.contains(KeyModifiers::SHIFT) {
                    c.to_ascii_uppercase()
                } else {
                    c
                })
            } else if modifiers.contains(KeyModifiers::SHIFT) {
                KeyCode::Char(c.to_ascii_uppercase())
            } else {
                KeyCode::Char(c)
            }
        }
        _ => {
            let lower = rest.to_ascii_lowercase();
            if lower == "space" {
                KeyCode::Char(' ')
            } else if lower == "tab" && modifiers.contains(KeyModifiers::SHIFT) {
                modifiers -= KeyModifiers::SHIFT;
                KeyCode::BackTab
            } else if let Some((_, code, _)) = NAMED.iter().find(|(name, _, _)| *name == lower) {
                *code
            } else if let Some(n) = lower
                .strip_prefix('f')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=12).contains(n))
            {
                KeyCode::F(n)
            } else {
                return Err(format!(
                    "`{}` is not a key: {KEY_GRAMMAR}",
                    text.escape_debug()
                ));
            }
        }
    };
    Ok(Key { code, modifiers })
}

/// How help and the status bar write a key: `Ctrl+S`, `Q`, `Alt+Enter`, `↑`.
pub fn key_label(key: &Key) -> String {
    let mut label = String::new();
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        label.push_str("Ctrl+");
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        label.push_str("Alt+");
    }
    let shifted_name = key.modifiers.contains(KeyModifiers::SHIFT)
        && !matches!(key.code, KeyCode::Char(_) | KeyCode::BackTab);
    if shifted_name {
        label.push_str("Shift+");
    }
    match key.code {
        KeyCode::Char(' ') => label.push_str("Space"),
        KeyCode::Char(c) if key.modifiers.contains(KeyModifiers::CONTROL) => {
            label.push(c.to_ascii_uppercase())
        }
        KeyCode::Char(c) => label.push(c),
        KeyCode::F(n) => {
            let _ = write!(label, "F{n}");
        }
        code => label.push_str(
            NAMED
                .iter()
                .find(|(_, named, _)| *named == code)
                .map_or("?", |(_, _, shown)| shown),
        ),
    }
    label
}

/// How the file writes a key: `ctrl-s`, `Q`, `alt-enter`, `shift-tab`.
pub fn key_name(key: &Key) -> String {
    let mut name = String::new();
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        name.push_str("ctrl-");
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        name.push_str("alt-");
    }
    match key.code {
        KeyCode::Char(' ') => name.push_str("space"),
        KeyCode::Char(c) => name.push(c),
        KeyCode::F(n) => {
            let _ = write!(name, "f{n}");
        }
        KeyCode::BackTab => name.push_str("shift-tab"),
        code => {
            if key.modifiers.contains(KeyModifiers::SHIFT) {
                name.push_str("shift-");
            }
            name.push_str(
                NAMED
                    .iter()
                    .find(|(_, named, _)| *named == code)
                    .map_or("?", |(written, _, _)| written),
            )
        }
    }
    name
}

/// The label of several keys, each once: `↑ k`, `Ctrl+S w`.
fn label_of_keys(keys: &[Key]) -> String {
    let mut labels: Vec<String> = Vec::with_capacity(keys.len());
    for key in keys {
        let label = key_label(key);
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    labels.join(" ")
}

/// One action's keys in the file: `"Q"` or `["Q", "ctrl-q"]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum KeysValue {
    One(String),
    Many(Vec<String>),
}

type KeysTable = BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, Spanned<KeysValue>>>;

/// The keymap with the file's keys in place of the defaults they name, or every mistake of
/// the file in line order (then nothing of it is used). A line TOML cannot read ends the
/// reading: it is the one mistake said.
pub fn keymap_from(text: &str, path: &Path) -> Result<Keymap, FileMistakes> {
    let table: KeysTable = toml::from_str(text).map_err(|error| {
        let mut mistake = FileMistake::from_toml(path, text, &error);
        if mistake.problem.contains("did not match any variant") {
            mistake.problem = "the keys should be one key in quotes or a list of them".into();
        } else if mistake.problem.contains("expected a map") {
            mistake.problem = "keys go under a context, as `[normal]` then `quit = \"Q\"`".into();
        }
        FileMistakes::from(mistake)
    })?;
    let mut mistakes = Vec::new();
    let known = contexts();
    let mut bindings = Keymap::default().all().to_vec();
    // Which line moved each binding, to name it when two end up on one key.
    let mut moved_at: Vec<Option<(usize, String)>> = vec![None; bindings.len()];
    for (context_key, actions) in &table {
        let mistake = |offset: usize, key: &str, problem: String| {
            FileMistake::new(path, text, offset, Some(key), problem)
        };
        let Some(context) = known
            .iter()
            .copied()
            .find(|c| context_name(*c) == *context_key.get_ref())
        else {
            let names: Vec<String> = known
                .iter()
                .filter(|c| **c != Context::TextField)
                .map(|c| context_name(*c))
                .collect();
            mistakes.push(mistake(
                context_key.span().start,
                context_key.get_ref(),
                format!(
                    "`{}` is not a context; the contexts are {}",
                    context_key.get_ref(),
                    names.join(", ")
                ),
            ));
            continue;
        };
        if context == Context::TextField {
            mistakes.push(mistake(
                context_key.span().start,
                context_key.get_ref(),
                "a text field's editing keys are its own and cannot be moved".into(),
            ));
            continue;
        }
        'action: for (action_key, value) in actions {
            let at = action_key.span().start;
            let name = action_key.get_ref();
            let own = bindings
                .iter()
                .position(|b| b.context == context && action_name(b.action) == *name);
            // A tab's own context may also take an action of the form under it, for that tab
            // alone: `[chat] send = "ctrl-s"` sends from Chat, not from Search.
            let under = || {
                let source = DEFAULTS.iter().find(|d| {
                    falls_back_to(context).contains(&d.context) && action_name(d.action) == *name
                })?;
                bindings.push(Binding {
                    context,
                    keys: Vec::new(),
                    label: String::new(),
                    action: source.action,
                    help: source.help,
                });
                moved_at.push(None);
                Some(bindings.len() - 1)
            };
            let Some(index) = own.or_else(under) else {
                let names: Vec<String> = bindings
                    .iter()
                    .filter(|b| b.context == context)
                    .map(|b| action_name(b.action))
                    .collect();
                // The contexts the action is one of, to point at the right section.
                let mut elsewhere: Vec<String> = bindings
                    .iter()
                    .filter(|b| b.context != Context::TextField && action_name(b.action) == *name)
                    .map(|b| format!("[{}]", context_name(b.context)))
                    .collect();
                elsewhere.dedup();
                let problem = if elsewhere.is_empty() {
                    format!(
                        "`{}` is not an action of {}; its actions are {}",
                        name.escape_debug(),
                        context_name(context),
                        names.join(", ")
                    )
                } else {
                    let more = if elsewhere.len() > 3 { ", …" } else { "" };
                    elsewhere.truncate(3);
                    format!(
                        "`{name}` is not an action of {} (it is one of {}{more})",
                        context_name(context),
                        elsewhere.join(", ")
                    )
                };
                mistakes.push(mistake(at, name, problem));
                continue;
            };
            let written: Vec<&str> = match value.get_ref() {
                KeysValue::One(one) => vec![one.as_str()],
                KeysValue::Many(many) => many.iter().map(String::as_str).collect(),
            };
            let mut keys = Vec::with_capacity(written.len());
            for key_text in written {
                let key = match parse_key(key_text) {
                    Ok(key) => key,
                    Err(problem) => {
                        mistakes.push(mistake(at, name, problem));
                        continue 'action;
                    }
                };
                let plain = matches!(key.code, KeyCode::Char(_))
                    && !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                if plain && TYPING.contains(&context) {
                    mistakes.push(mistake(
                        at,
                        name,
                        format!(
                            "`{key_text}` alone in {} would be taken from the text you type; use it with ctrl- or alt-",
                            context_name(context)
                        ),
                    ));
                    continue 'action;
                }
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            bindings[index].label = label_of_keys(&keys);
            bindings[index].keys = keys;
            moved_at[index] = Some((at, name.clone()));
        }
    }
    // Two actions on one key in one context: the later line is named.
    for (i, a) in bindings.iter().enumerate() {
        for (j, b) in bindings.iter().enumerate().skip(i + 1) {
            if a.context != b.context || a.context == Context::TextField {
                continue;
            }
            let Some(shared) = a.keys.iter().find(|k| b.keys.contains(k)) else {
                continue;
            };
            let (at, name) = match (&moved_at[i], &moved_at[j]) {
                (Some(x), Some(y)) => {
                    if x.0 > y.0 {
                        x.clone()
                    } else {
                        y.clone()
                    }
                }
                (Some(x), None) | (None, Some(x)) => x.clone(),
                (None, None) => continue,
            };
            mistakes.push(FileMistake::new(
                path,
                text,
                at,
                Some(&name),
                format!(
                    "`{}` would do both {} and {} in {}; give one of them another key",
                    key_name(shared),
                    action_name(a.action),
                    action_name(b.action),
                    context_name(a.context)
                ),
            ));
        }
    }
    if let Some(mistakes) = FileMistakes::in_line_order(mistakes) {
        return Err(mistakes);
    }
    bindings.retain(|b| !b.keys.is_empty());
    Ok(Keymap::from_bindings(bindings))
}

/// A `keys.toml` of every default, commented out: uncomment a line to change it.
pub fn template() -> String {
    let mut out = String::from(
        "# vantage's keys. Uncomment a line and change its keys; several keys: [\"Q\", \"ctrl-q\"].\n\
         # For an editor that checks this file, `vantage schema keys > keys.schema.json` beside it\n\
         # and make the first line: #:schema ./keys.schema.json\n",
    );
    // The grammar, wrapped as the rest of the file is.
    let mut line = String::from("#");
    for word in KEY_GRAMMAR.split(' ') {
        if line.len() + word.len() > 92 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    let _ = writeln!(out, "{line}.");
    out.push_str("# The first context that binds a key wins: a tab's own before normal, normal before global.\n");
    for context in contexts() {
        if context == Context::TextField {
            continue;
        }
        let _ = write!(
            out,
            "\n# {}\n[{}]\n",
            context.title(),
            context_name(context)
        );
        for binding in DEFAULTS.iter().filter(|b| b.context == context) {
            let keys: Vec<String> = binding
                .keys
                .iter()
                .map(|k| format!("{:?}", key_name(k)))
                .collect();
            let value = if keys.len() == 1 {
                keys[0].clone()
            } else {
                format!("[{}]", keys.join(", "))
            };
            let _ = writeln!(
                out,
                "# {} = {value}  # {}",
                action_name(binding.action),
                binding.help
            );
        }
    }
    out
}

/// The keymap as Markdown tables, a table per context: what `vantage keys` prints and the
/// keys reference (docs/keys.md) shows.
pub fn tables(keymap: &Keymap) -> String {
    let mut out = String::new();
    for context in contexts() {
        let rows: Vec<&Binding> = keymap.bindings(context).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "{}### {} (`{}`)\n\n| Keys | Action | What it does |\n|---|---|---|\n",
            if out.is_empty() { "" } else { "\n" },
            context.title(),
            context_name(context)
        );
        for binding in rows {
            let action = if context == Context::TextField {
                "—".to_string()
            } else {
                format!("`{}`", action_name(binding.action))
            };
            let _ = writeln!(
                out,
                "| {} | {action} | {} |",
                binding.label.replace('|', "\\|"),
                binding.help
            );
        }
    }
    out
}

/// Every context and its actions, for the JSON Schema of `keys.toml`.
pub fn schema() -> serde_json::Value {
    let key_pattern = serde_json::json!({
        "type": "string",
        "description": KEY_GRAMMAR,
        "minLength": 1
    });
    let keys = serde_json::json!({
        "oneOf": [key_pattern, {"type": "array", "items": key_pattern}]
    });
    let mut properties = serde_json::Map::new();
    for context in contexts() {
        if context == Context::TextField {
            continue;
        }
        let mut actions = serde_json::Map::new();
        let taken = DEFAULTS.iter().filter(|b| b.context == context).chain(
            DEFAULTS
                .iter()
                .filter(|b| falls_back_to(context).contains(&b.context)),
        );
        for binding in taken {
            if actions.contains_key(&action_name(binding.action)) {
                continue;
            }
            let mut value = keys.clone();
            if let Some(object) = value.as_object_mut() {
                object.insert(
                    "description".into(),
                    format!("{} (default {})", binding.help, binding.label).into(),
                );
            }
            actions.insert(action_name(binding.action), value);
        }
        properties.insert(
            context_name(context),
            serde_json::json!({
                "type": "object",
                "description": context.title(),
                "additionalProperties": false,
                "properties": actions
            }),
        );
    }
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "vantage keys.toml",
        "description": "Key bindings by context and action; every key optional.",
        "type": "object",
        "additionalProperties": false,
        "properties": properties
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEvent;

    fn path() -> &'static Path {
        Path::new("/home/u/.config/vantage/keys.toml")
    }

    fn press(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn quit_moved_to_shift_q_leaves_q_free_and_help_shows_q() {
        let keys = keymap_from("[normal]\nquit = \"Q\"\n", path()).unwrap();
        assert_eq!(keys.lookup(&[Context::Normal], &press('q')), None);
        let upper = KeyEvent::new(KeyCode::Char('Q'), KeyModifiers::SHIFT);
        assert_eq!(keys.lookup(&[Context::Normal], &upper), Some(Action::Quit));
        assert_eq!(keys.label_of(Context::Normal, Action::Quit, ""), "Q");
        // Ctrl+C still quits everywhere: that binding is global's, not normal's.
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(keys.lookup(&[Context::Global], &ctrl_c), Some(Action::Quit));
    }

    #[test]
    fn a_tab_takes_an_action_of_the_form_for_itself_alone() {
        let keys = keymap_from("[chat]\nsend = \"ctrl-s\"\n", path()).unwrap();
        let ctrl_s = KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL);
        let chat = [Context::Viewer, Context::Chat, Context::Form];
        assert_eq!(keys.lookup(&chat, &ctrl_s), Some(Action::Send));
        let search = [Context::Viewer, Context::Search, Context::Form];
        assert_eq!(keys.lookup(&search, &ctrl_s), None);
        // The form's own key still sends, and help lists the new key under Chat.
        let again = KeyEvent::new(KeyCode::Char('R'), KeyModifiers::SHIFT);
        assert_eq!(keys.lookup(&chat, &again), Some(Action::Send));
        assert_eq!(keys.label_of(Context::Chat, Action::Send, ""), "Ctrl+S");
        // A key the form gives another action is refused in the tab's context as well.
        let clash = keymap_from("[chat]\nsend = \"m\"\n", path()).unwrap_err();
        assert!(clash.all()[0].problem.contains("both"), "{clash}");
    }

    #[test]
    fn several_keys_for_one_action() {
        let keys = keymap_from("[form]\nsend = [\"enter\", \"ctrl-s\"]\n", path()).unwrap();
        let ctrl_s = KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL);
        assert_eq!(keys.lookup(&[Context::Form], &ctrl_s), Some(Action::Send));
        assert_eq!(
            keys.label_of(Context::Form, Action::Send, ""),
            "Enter Ctrl+S"
        );
    }

    #[test]
    fn every_mistake_names_its_line_and_key() {
        let cases = [
            (
                "[normal]\nquit = \"Q\"\n[chatt]\nsend = \"x\"",
                3,
                "chatt",
                "not a context",
            ),
            (
                "[normal]\n\nquitt = \"Q\"",
                3,
                "quitt",
                "not an action of normal",
            ),
            (
                "[jobs]\nsend = \"ctrl-s\"",
                2,
                "send",
                "(it is one of [editing], [form], ",
            ),
            ("[normal]\nquit = \"ctrl-\"", 2, "quit", "is not a key"),
            ("[normal]\nquit = \"hyper-q\"", 2, "quit", "is not a key"),
            ("[normal]\nquit = \"y\"", 2, "quit", "both quit and copy"),
            (
                "[global]\nquit = \"q\"",
                2,
                "quit",
                "taken from the text you type",
            ),
            (
                "[text_field]\nedit_text = \"ctrl-b\"",
                1,
                "text_field",
                "cannot be moved",
            ),
        ];
        for (text, line, key, problem) in cases {
            let mistakes = keymap_from(text, path()).unwrap_err();
            assert_eq!(mistakes.all().len(), 1, "{text:?}: {mistakes}");
            let mistake = &mistakes.all()[0];
            assert_eq!(mistake.line, line, "{text:?}: {mistake}");
            assert_eq!(mistake.key.as_deref(), Some(key), "{text:?}: {mistake}");
            assert!(mistake.problem.contains(problem), "{text:?}: {mistake}");
            assert!(mistake.to_string().contains("keys.toml"), "{mistake}");
        }
        for (text, line) in [
            ("[normal]\nquit = 3", 2),
            ("quit = \"Q\"", 1),
            ("[normal\n", 1),
        ] {
            let mistake = keymap_from(text, path()).unwrap_err();
            assert_eq!(mistake.all()[0].line, line, "{text:?}: {mistake}");
        }
    }

    #[test]
    fn every_mistake_of_a_file_is_said_in_line_order() {
        // The contexts are read in name order (alpha, chat, global, normal): the lines not.
        let text = "[normal]\nquitt = \"Q\"\n[chat]\nsend = \"hyper-x\"\n[alpha]\nx = \"y\"\n\
                    [global]\nquit = \"q\"\n";
        let mistakes = keymap_from(text, path()).unwrap_err();
        let lines: Vec<(usize, Option<&str>)> = mistakes
            .all()
            .iter()
            .map(|m| (m.line, m.key.as_deref()))
            .collect();
        assert_eq!(
            lines,
            [
                (2, Some("quitt")),
                (4, Some("send")),
                (5, Some("alpha")),
                (8, Some("quit"))
            ],
            "{mistakes}"
        );
        let sentence = mistakes.to_string();
        assert!(
            sentence.contains("has 4 mistakes: line 2, at `quitt`"),
            "{sentence}"
        );
    }

    #[test]
    fn every_default_key_reads_back_as_itself() {
        for binding in DEFAULTS {
            for key in binding.keys {
                let name = key_name(key);
                let read = parse_key(&name).unwrap();
                assert_eq!(
                    (read.code, read.modifiers - KeyModifiers::SHIFT),
                    (key.code, key.modifiers - KeyModifiers::SHIFT),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn names_are_unique_and_the_template_reads_back_as_the_defaults() {
        let names: Vec<String> = contexts().into_iter().map(context_name).collect();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique);
        let uncommented: String = template()
            .lines()
            .map(|line| match line.strip_prefix("# ") {
                Some(rest) if rest.contains(" = ") && !rest.starts_with('#') => {
                    rest.split("  # ").next().unwrap_or("").to_string()
                }
                _ if line.starts_with('[') => line.to_string(),
                _ => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let keys = keymap_from(&uncommented, path()).unwrap();
        // The same keys; the labels may be written another way ("↑ Ctrl+P" for "↑").
        for (read, default) in keys.all().iter().zip(DEFAULTS) {
            assert_eq!(read.keys, default.keys, "{:?}", default.action);
        }
    }

    #[test]
    fn hostile_text_is_refused_not_panicked_on() {
        for text in [
            "\u{0}",
            "[normal]\nquit = \"\u{1b}[2J\"",
            "[[normal]]",
            "[normal]\nquit = []",
        ] {
            let _ = keymap_from(text, path());
        }
    }
}
