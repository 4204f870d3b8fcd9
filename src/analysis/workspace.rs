//! The workspace file, `vantage.toml` in the current folder (or a path given with
//! `--workspace`): the brands tracked in answers, each a `[[brands]]` table with a `name`,
//! optional `aliases` and `domains`.
//!
//! It is edited with `toml_edit`, so a brand added or removed leaves the user's comments,
//! order and layout as they were. Reading and editing are pure; [`Workspace::load`] and
//! [`Workspace::save`] are the only file access.
//!
//! ```toml
//! # Hiking boots we follow.
//! [[brands]]
//! name = "Merrell"
//! domains = ["merrell.com"]
//! ```
//!
//! It also names the sets that `vantage track` runs: `[[sets]]` tables with a `name`,
//! `prompts` and/or `terms`, and optionally `models`, `devices`, `locations`
//! (`cc:subdivision:city`, as `compare` takes them) and the `brands` to watch (names of
//! `[[brands]]`; all of them when left out), and `samples`, how many times a run asks each
//! prompt from each vantage point (1 when left out).
//!
//! ```toml
//! [[sets]]
//! name = "boots"
//! prompts = ["best hiking boots"]
//! terms = ["hiking boots"]
//! models = ["chatgpt", "gemini"]
//! locations = ["us:ny:New+York", "de::Berlin"]
//! brands = ["Merrell"]
//! samples = 5
//! ```

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml_edit::{Array, ArrayOfTables, DocumentMut, Item, Table, value};

use super::alerts::{Alert, Condition, Measure};
use super::mentions::Brand;
use super::overview::AI_OVERVIEW;
use super::samples;
use super::sources::{Classifier, SourceKind};
use crate::api::{Location, Model};

/// The file's name in the current folder.
pub const WORKSPACE_FILE: &str = "vantage.toml";

const BRANDS_KEY: &str = "brands";
const SETS_KEY: &str = "sets";
const SOURCES_KEY: &str = "sources";
const WEBHOOK_KEY: &str = "webhook";

/// A tracking set: what to ask or search, from which vantage points, watching which brands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackSet {
    pub name: String,
    pub prompts: Vec<String>,
    pub terms: Vec<String>,
    /// Empty: the service's default model (unless `overview` is the only one named).
    pub models: Vec<Model>,
    /// `ai-overview` among the models: Google's AI Overview read for each prompt and location.
    pub overview: bool,
    /// Empty: the service picks. Searches take no device.
    pub devices: Vec<String>,
    /// Empty: the service picks a location.
    pub locations: Vec<Location>,
    /// Names of tracked brands to watch; empty watches them all.
    pub brands: Vec<String>,
    /// How many times a run asks each prompt from each vantage point (searches once), with
    /// the cache off when more than one: 1 to [`samples::MAX_SAMPLES`].
    pub samples: usize,
    /// What to watch for in each run (`[[sets.alerts]]`); written by hand, kept as written
    /// when the app or `track set` change the set.
    pub alerts: Vec<Alert>,
}

impl Default for TrackSet {
    fn default() -> TrackSet {
        TrackSet {
            name: String::new(),
            prompts: Vec::new(),
            terms: Vec::new(),
            models: Vec::new(),
            overview: false,
            devices: Vec::new(),
            locations: Vec::new(),
            brands: Vec::new(),
            samples: 1,
            alerts: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkspaceError {
    #[error(
        "The workspace file {path} could not be read ({reason}). Check the path and its permissions."
    )]
    Read { path: PathBuf, reason: String },
    #[error(
        "The workspace file {path} is not valid TOML at line {line}: {reason}. Fix that line, or move the file away to start with no tracked brands."
    )]
    Syntax {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error(
        "The workspace file {path}, line {line}, key `{key}`: {problem}. Fix that entry in the file."
    )]
    Field {
        path: PathBuf,
        line: usize,
        key: String,
        problem: String,
    },
    #[error("The brand {name} is already tracked in {path}; remove it first to change it.")]
    Duplicate { path: PathBuf, name: String },
    #[error("A set named {name} is already in {path}; remove it first to change it.")]
    DuplicateSet { path: PathBuf, name: String },
    #[error(
        "The workspace file {path} could not be written ({reason}); the brands were not saved. Check that its folder can be written."
    )]
    Write { path: PathBuf, reason: String },
    #[error(
        "The workspace file {path} changed on disk after it was read (an editor, or another vantage), so this change was not written over it. It is read again: make the change once more."
    )]
    ChangedOnDisk { path: PathBuf },
}

/// The workspace file as read, with the brands it tracks.
#[derive(Clone, Debug)]
pub struct Workspace {
    path: PathBuf,
    doc: DocumentMut,
    brands: Vec<Brand>,
    sets: Vec<TrackSet>,
    /// Where the alerts that fire are posted (`webhook = "…"`).
    webhook: Option<String>,
    /// The brand marked `own = true`: the user's, whose site cited is "own".
    own: Option<String>,
    /// Kinds of cited sites the file adds to the shipped table (`[sources]`).
    source_kinds: Vec<(String, SourceKind)>,
    /// The file's text as read (or as last written): what a change is made on. None for a
    /// file not there.
    read: Option<String>,
}

/// `explicit` when given (`--workspace`, `VANTAGE_WORKSPACE`), else the nearest
/// `vantage.toml` in `folder` or one of its parents, as git finds a repository.
pub fn locate(explicit: Option<&Path>, folder: &Path) -> Option<PathBuf> {
    match explicit {
        Some(path) => Some(path.to_path_buf()),
        None => folder
            .ancestors()
            .map(|dir| dir.join(WORKSPACE_FILE))
            .find(|p| p.is_file()),
    }
}

fn line_of(text: &str, span: Option<Range<usize>>) -> usize {
    crate::user_file::line_of(text, span.map_or(0, |s| s.start))
}

impl Workspace {
    /// An empty workspace that will be written to `path`.
    pub fn empty(path: &Path) -> Workspace {
        Workspace {
            path: path.to_path_buf(),
            doc: DocumentMut::new(),
            brands: Vec::new(),
            sets: Vec::new(),
            webhook: None,
            own: None,
            source_kinds: Vec::new(),
            read: None,
        }
    }

    /// Reads the file at `path`; a missing file is an empty workspace.
    pub fn load(path: &Path) -> Result<Workspace, WorkspaceError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Workspace::parse(path, &text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                Ok(Workspace::empty(path))
            }
            Err(error) => Err(WorkspaceError::Read {
                path: path.to_path_buf(),
                reason: error.to_string(),
            }),
        }
    }

    /// Parses the text of the file at `path` (named in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Workspace, WorkspaceError> {
        let parsed = toml_edit::Document::parse(text.to_string()).map_err(|error| {
            WorkspaceError::Syntax {
                path: path.to_path_buf(),
                line: line_of(text, error.span()),
                reason: error.message().trim().to_string(),
            }
        })?;
        let brands = read_brands(path, text, parsed.as_table())?;
        let own = read_own(path, text, parsed.as_table())?;
        let source_kinds = read_source_kinds(path, text, parsed.as_table())?;
        let sets = read_sets(path, text, parsed.as_table(), &brands)?;
        let webhook = read_webhook(path, text, parsed.as_table())?;
        Ok(Workspace {
            path: path.to_path_buf(),
            doc: parsed.into_mut(),
            brands,
            sets,
            webhook,
            own,
            source_kinds,
            read: Some(text.to_string()),
        })
    }

    /// The file's text as read, or as last written: what [`Workspace::save_over`] checks the
    /// file against.
    pub fn as_read(&self) -> Option<&str> {
        self.read.as_deref()
    }

    /// Takes the text as it will be written as the text read: the next change is made on it.
    pub fn mark_written(&mut self) {
        self.read = Some(self.to_text());
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn brands(&self) -> &[Brand] {
        &self.brands
    }

    /// The URL the alerts that fire are posted to, if the file names one.
    pub fn webhook(&self) -> Option<&str> {
        self.webhook.as_deref()
    }

    pub fn sets(&self) -> &[TrackSet] {
        &self.sets
    }

    /// The brand marked `own = true`, if any.
    pub fn own(&self) -> Option<&str> {
        self.own.as_deref()
    }

    /// How this workspace classes cited sites: its own brand, the others as competitors,
    /// its `[sources]`, then the shipped table.
    pub fn classifier(&self) -> Classifier {
        Classifier::new(&self.brands, self.own(), self.source_kinds.clone())
    }

    /// The set of this name (ignoring case).
    pub fn set(&self, name: &str) -> Option<&TrackSet> {
        self.sets.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The brands a set watches: those it names, else every tracked brand.
    /// The brands a set reads: those it watches (every tracked one when it names none), and
    /// those its alerts watch.
    pub fn brands_of(&self, set: &TrackSet) -> Vec<Brand> {
        if set.brands.is_empty() {
            return self.brands.clone();
        }
        let alerted = set.alerts.iter().filter_map(|a| a.brand.as_deref());
        let named: Vec<&str> = set
            .brands
            .iter()
            .map(String::as_str)
            .chain(alerted)
            .collect();
        self.brands
            .iter()
            .filter(|b| named.iter().any(|n| n.eq_ignore_ascii_case(&b.name)))
            .cloned()
            .collect()
    }

    /// Adds a set at the end of the file; a name already used (ignoring case) is refused.
    pub fn add_set(&mut self, set: TrackSet) -> Result<(), WorkspaceError> {
        if self.set(&set.name).is_some() {
            return Err(WorkspaceError::DuplicateSet {
                path: self.path.clone(),
                name: set.name,
            });
        }
        let mut table = Table::new();
        write_set(&mut table, &set);
        let item = self
            .doc
            .as_table_mut()
            .entry(SETS_KEY)
            .or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()));
        match item.as_array_of_tables_mut() {
            Some(list) => list.push(table),
            // Checked when read: `sets` is a list of tables if it is there at all.
            None => *item = Item::ArrayOfTables(ArrayOfTables::from_iter([table])),
        }
        self.sets.push(set);
        Ok(())
    }

    /// Changes the set named `original` (ignoring case) where it stands, keeping its
    /// comments and the order of its keys; a new name another set has is refused.
    pub fn replace_set(&mut self, original: &str, set: TrackSet) -> Result<(), WorkspaceError> {
        let Some(index) = self
            .sets
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(original))
        else {
            return self.add_set(set);
        };
        let taken = self
            .sets
            .iter()
            .enumerate()
            .any(|(i, s)| i != index && s.name.eq_ignore_ascii_case(&set.name));
        if taken {
            return Err(WorkspaceError::DuplicateSet {
                path: self.path.clone(),
                name: set.name,
            });
        }
        if let Some(table) = self.set_table(original) {
            write_set(table, &set);
        }
        self.sets[index] = set;
        Ok(())
    }

    /// Removes the set of this name (ignoring case); false when there is none. Its runs
    /// stay in the store.
    pub fn remove_set(&mut self, name: &str) -> bool {
        let before = self.sets.len();
        self.sets.retain(|s| !s.name.eq_ignore_ascii_case(name));
        if let Some(list) = self
            .doc
            .get_mut(SETS_KEY)
            .and_then(Item::as_array_of_tables_mut)
        {
            list.retain(|table| !named(table, name));
        }
        self.sets.len() != before
    }

    fn set_table(&mut self, name: &str) -> Option<&mut Table> {
        self.doc
            .get_mut(SETS_KEY)
            .and_then(Item::as_array_of_tables_mut)
            .and_then(|list| list.iter_mut().find(|table| named(table, name)))
    }

    /// Adds a brand at the end of the list; a name already tracked (ignoring case) is refused.
    pub fn add_brand(&mut self, brand: Brand) -> Result<(), WorkspaceError> {
        if self
            .brands
            .iter()
            .any(|b| b.name.eq_ignore_ascii_case(&brand.name))
        {
            return Err(WorkspaceError::Duplicate {
                path: self.path.clone(),
                name: brand.name,
            });
        }
        let mut table = Table::new();
        table.insert("name", value(brand.name.as_str()));
        if !brand.aliases.is_empty() {
            table.insert("aliases", value(string_array(&brand.aliases)));
        }
        if !brand.domains.is_empty() {
            table.insert("domains", value(string_array(&brand.domains)));
        }
        let item = self
            .doc
            .as_table_mut()
            .entry(BRANDS_KEY)
            .or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()));
        match item.as_array_of_tables_mut() {
            Some(list) => list.push(table),
            // Checked when read: `brands` is a list of tables if it is there at all.
            None => *item = Item::ArrayOfTables(ArrayOfTables::from_iter([table])),
        }
        self.brands.push(brand);
        Ok(())
    }

    /// Removes the brand of this name (ignoring case); false when none is tracked.
    pub fn remove_brand(&mut self, name: &str) -> bool {
        let before = self.brands.len();
        self.brands.retain(|b| !b.name.eq_ignore_ascii_case(name));
        if let Some(list) = self
            .doc
            .get_mut(BRANDS_KEY)
            .and_then(Item::as_array_of_tables_mut)
        {
            let named = |table: &Table| {
                table
                    .get("name")
                    .and_then(Item::as_str)
                    .is_some_and(|n| n.trim().eq_ignore_ascii_case(name))
            };
            // Comments above the first brand head the file: they stay when it goes.
            let header = list
                .get(0)
                .filter(|first| named(first))
                .and_then(|first| first.decor().prefix())
                .and_then(|prefix| prefix.as_str())
                .map(str::to_string);
            list.retain(|table| !named(table));
            if let (Some(header), Some(first)) = (header, list.get_mut(0)) {
                let own = first
                    .decor()
                    .prefix()
                    .and_then(|p| p.as_str())
                    .unwrap_or("");
                let joined = format!("{header}{own}");
                first.decor_mut().set_prefix(joined);
            }
        }
        self.brands.len() != before
    }

    /// Changes the brand named `original` (ignoring case) where it stands, keeping its
    /// comments; a new name already tracked by another brand is refused.
    pub fn replace_brand(&mut self, original: &str, brand: Brand) -> Result<(), WorkspaceError> {
        let Some(index) = self
            .brands
            .iter()
            .position(|b| b.name.eq_ignore_ascii_case(original))
        else {
            return self.add_brand(brand);
        };
        let taken = self
            .brands
            .iter()
            .enumerate()
            .any(|(i, b)| i != index && b.name.eq_ignore_ascii_case(&brand.name));
        if taken {
            return Err(WorkspaceError::Duplicate {
                path: self.path.clone(),
                name: brand.name,
            });
        }
        let table = self
            .doc
            .get_mut(BRANDS_KEY)
            .and_then(Item::as_array_of_tables_mut)
            .and_then(|list| {
                list.iter_mut().find(|table| {
                    table
                        .get("name")
                        .and_then(Item::as_str)
                        .is_some_and(|n| n.trim().eq_ignore_ascii_case(original))
                })
            });
        if let Some(table) = table {
            table.insert("name", value(brand.name.as_str()));
            for (key, items) in [("aliases", &brand.aliases), ("domains", &brand.domains)] {
                if items.is_empty() {
                    table.remove(key);
                } else {
                    table.insert(key, value(string_array(items)));
                }
            }
        }
        self.brands[index] = brand;
        Ok(())
    }

    /// The file's text as it would be written.
    pub fn to_text(&self) -> String {
        self.doc.to_string()
    }

    /// Writes the file as [`Workspace::save`] does, unless it changed on disk since `read`
    /// (the text the change was made on; none when there was no file): then nothing is
    /// written over what someone else wrote.
    pub fn save_over(&self, read: Option<&str>) -> Result<(), WorkspaceError> {
        let now = match std::fs::read_to_string(&self.path) {
            Ok(text) => Some(text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => {
                return Err(WorkspaceError::Read {
                    path: self.path.clone(),
                    reason: error.to_string(),
                });
            }
        };
        if now.as_deref() != read {
            return Err(WorkspaceError::ChangedOnDisk {
                path: self.path.clone(),
            });
        }
        self.save()
    }

    /// Writes the file: to a temporary file beside it, then renamed over it, so a crash
    /// never leaves half a file.
    pub fn save(&self) -> Result<(), WorkspaceError> {
        let failed = |error: std::io::Error| WorkspaceError::Write {
            path: self.path.clone(),
            reason: error.to_string(),
        };
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".saving");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.to_text()).map_err(failed)?;
        std::fs::rename(&temporary, &self.path).map_err(|error| {
            let _ = std::fs::remove_file(&temporary);
            failed(error)
        })
    }
}

/// `cc:subdivision:city` with `+` for spaces: what `compare` and the sets take.
pub fn location_spec(location: &Location) -> String {
    let part = |p: &Option<String>| p.as_deref().unwrap_or("").replace(' ', "+");
    let mut spec = part(&location.country);
    if location.subdivision.is_some() || location.city.is_some() {
        spec.push(':');
        spec.push_str(&part(&location.subdivision));
    }
    if location.city.is_some() {
        spec.push(':');
        spec.push_str(&part(&location.city));
    }
    spec
}

/// The longest set `track run` takes: beyond it a typo in a list (a thousand cities) would
/// spend a month of credits.
pub const MAX_SET_COMBINATIONS: usize = 20_000;

impl TrackSet {
    /// How many calls one run of the set makes, samples included.
    pub fn combinations(&self) -> usize {
        self.answer_cells() * self.samples.max(1) + self.terms.len() * self.locations.len().max(1)
    }

    /// The calls of a run in words: "12 calls (4 answers asked 3 times, 0 searches)".
    pub fn calls_in_words(&self) -> String {
        let calls = self.combinations();
        let searches = self.terms.len() * self.locations.len().max(1);
        let answers = calls - searches;
        let samples = self.samples.max(1);
        let what = if samples > 1 {
            format!(
                "{} answers asked {samples} times, {searches} searches",
                answers / samples
            )
        } else {
            format!("{answers} answers, {searches} searches")
        };
        format!("{calls} calls ({what})")
    }

    /// How many answers one sample of a run reads: each prompt from each model, device and
    /// location, and its AI Overview from each location.
    pub fn answer_cells(&self) -> usize {
        let factor = |n: usize| n.max(1);
        let chatbots = if self.overview && self.models.is_empty() {
            0
        } else {
            factor(self.models.len())
        };
        let overview = usize::from(self.overview) * factor(self.locations.len());
        self.prompts.len()
            * (chatbots * factor(self.devices.len()) * factor(self.locations.len()) + overview)
    }
}

fn read_sets(
    path: &Path,
    text: &str,
    root: &Table,
    brands: &[Brand],
) -> Result<Vec<TrackSet>, WorkspaceError> {
    let field = field_error(path, text);
    let Some((key, item)) = root.get_key_value(SETS_KEY) else {
        return Ok(Vec::new());
    };
    let Some(list) = item.as_array_of_tables() else {
        return Err(field(
            key.span(),
            SETS_KEY,
            "should be a list of [[sets]] tables, each with a name",
        ));
    };
    let mut sets: Vec<TrackSet> = Vec::with_capacity(list.len());
    for table in list {
        let name_span = table.get_key_value("name").and_then(|(k, _)| k.span());
        let name = match table.get("name").map(|item| item.as_str().map(str::trim)) {
            None => return Err(field(table.span(), "sets.name", "is missing from this set")),
            Some(Some(name)) if !name.is_empty() && name.chars().count() <= 64 => name.to_string(),
            Some(_) => {
                return Err(field(
                    name_span,
                    "sets.name",
                    "should be a non-empty string of at most 64 characters",
                ));
            }
        };
        if sets.iter().any(|s| s.name.eq_ignore_ascii_case(&name)) {
            return Err(field(
                name_span,
                "sets.name",
                &format!("{name} is listed twice"),
            ));
        }
        // Each list with the span of its key, for errors about one of its items.
        let strings =
            |key_name: &str| -> Result<(Vec<String>, Option<Range<usize>>), WorkspaceError> {
                let Some((key, item)) = table.get_key_value(key_name) else {
                    return Ok((Vec::new(), name_span.clone()));
                };
                let key_path = format!("sets.{key_name}");
                let wrong = || {
                    field(
                        key.span(),
                        &key_path,
                        "should be a list of strings, like [\"a\", \"b\"]",
                    )
                };
                let array = item.as_array().ok_or_else(wrong)?;
                let items = array
                    .iter()
                    .map(|v| v.as_str().map(|s| s.trim().to_string()).ok_or_else(wrong))
                    .filter(|s| s.as_ref().map_or(true, |s| !s.is_empty()))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((items, key.span()))
            };
        let (prompts, _) = strings("prompts")?;
        let (terms, _) = strings("terms")?;
        if prompts.is_empty() && terms.is_empty() {
            return Err(field(
                name_span,
                "sets.prompts",
                &format!("the set {name} has neither prompts nor terms; give at least one"),
            ));
        }
        let (model_names, span) = strings("models")?;
        let overview = model_names
            .iter()
            .any(|m| m.trim().eq_ignore_ascii_case(AI_OVERVIEW));
        let models = model_names
            .iter()
            .filter(|m| !m.trim().eq_ignore_ascii_case(AI_OVERVIEW))
            .map(|m| {
                m.parse::<Model>().map_err(|_| {
                    field(
                        span.clone(),
                        "sets.models",
                        &format!(
                            "{m:?} is not a model; use chatgpt, gemini, perplexity, copilot or {AI_OVERVIEW}"
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (devices, _) = strings("devices")?;
        let (location_specs, span) = strings("locations")?;
        let locations = location_specs
            .iter()
            .map(|spec| {
                crate::geo::parse_location(spec)
                    .map_err(|problem| field(span.clone(), "sets.locations", &problem))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (watched, span) = strings("brands")?;
        if let Some(unknown) = watched
            .iter()
            .find(|n| !brands.iter().any(|b| b.name.eq_ignore_ascii_case(n)))
        {
            return Err(field(
                span,
                "sets.brands",
                &format!("{unknown} is not one of the [[brands]] in this file; add it there first"),
            ));
        }
        let samples = match table.get_key_value("samples") {
            None => 1,
            Some((key, item)) => {
                let wrong = |problem: &str| field(key.span(), "sets.samples", problem);
                let Some(n) = item.as_integer() else {
                    return Err(wrong("should be a whole number, like samples = 5"));
                };
                let n = usize::try_from(n).unwrap_or(0);
                samples::check_samples(n).map_err(|problem| wrong(&problem))?;
                n
            }
        };
        let alerts = read_alerts(table, &field, brands)?;
        let set = TrackSet {
            name,
            prompts,
            terms,
            models,
            overview,
            devices,
            locations,
            brands: watched,
            samples,
            alerts,
        };
        if set.combinations() > MAX_SET_COMBINATIONS {
            return Err(field(
                name_span,
                "sets",
                &format!(
                    "the set {} makes {} calls a run, more than the {MAX_SET_COMBINATIONS} allowed; split it",
                    set.name,
                    set.combinations()
                ),
            ));
        }
        sets.push(set);
    }
    Ok(sets)
}

/// A set's `[[sets.alerts]]`, each checked: a tracked brand (or, for `rank`, a domain), a
/// measure, exactly one of `below`, `above` and `drops_by`, and filters that are models and
/// places.
fn read_alerts(
    set: &Table,
    field: &impl Fn(Option<Range<usize>>, &str, &str) -> WorkspaceError,
    brands: &[Brand],
) -> Result<Vec<Alert>, WorkspaceError> {
    let Some((key, item)) = set.get_key_value("alerts") else {
        return Ok(Vec::new());
    };
    let Some(list) = item.as_array_of_tables() else {
        return Err(field(
            key.span(),
            "sets.alerts",
            "should be [[sets.alerts]] tables, each with a brand, a measure and a threshold",
        ));
    };
    let mut alerts = Vec::with_capacity(list.len());
    for table in list {
        let at = |name: &str| {
            table
                .get_key_value(name)
                .and_then(|(k, _)| k.span())
                .or_else(|| table.span())
        };
        let text = |name: &str| -> Result<Option<String>, WorkspaceError> {
            match table.get(name) {
                None => Ok(None),
                Some(item) => item
                    .as_str()
                    .map(|s| Some(s.trim().to_string()))
                    .ok_or_else(|| {
                        field(
                            at(name),
                            &format!("sets.alerts.{name}"),
                            "should be a string",
                        )
                    }),
            }
        };
        let strings = |name: &str| -> Result<Vec<String>, WorkspaceError> {
            let Some(item) = table.get(name) else {
                return Ok(Vec::new());
            };
            let wrong = || {
                field(
                    at(name),
                    &format!("sets.alerts.{name}"),
                    "should be a list of strings, like [\"a\", \"b\"]",
                )
            };
            item.as_array()
                .ok_or_else(wrong)?
                .iter()
                .map(|v| v.as_str().map(|s| s.trim().to_string()).ok_or_else(wrong))
                .collect()
        };
        let measure_text = text("measure")?.ok_or_else(|| {
            field(
                table.span(),
                "sets.alerts.measure",
                &format!("is missing: one of {}", Measure::NAMES),
            )
        })?;
        let measure = Measure::parse(&measure_text).ok_or_else(|| {
            field(
                at("measure"),
                "sets.alerts.measure",
                &format!("{measure_text:?} is not a measure; use {}", Measure::NAMES),
            )
        })?;
        let brand = match text("brand")? {
            None => None,
            Some(name) => match brands.iter().find(|b| b.name.eq_ignore_ascii_case(&name)) {
                Some(b) => Some(b.name.clone()),
                None => {
                    return Err(field(
                        at("brand"),
                        "sets.alerts.brand",
                        &format!(
                            "{name} is not one of the [[brands]] in this file; add it there first"
                        ),
                    ));
                }
            },
        };
        let domain = text("domain")?.filter(|d| !d.is_empty());
        match (&brand, &domain, measure) {
            (None, None, _) => {
                return Err(field(
                    table.span(),
                    "sets.alerts.brand",
                    "is missing: name the tracked brand the alert watches (or, for rank, a domain)",
                ));
            }
            (None, Some(_), m) if !m.is_rank() => {
                return Err(field(
                    at("domain"),
                    "sets.alerts.domain",
                    "a domain is watched by its rank only: use measure = \"best_rank\" or \"mean_rank\", or a brand",
                ));
            }
            (Some(name), None, m)
                if m.is_rank()
                    && brands
                        .iter()
                        .any(|b| b.name == *name && b.domains.is_empty()) =>
            {
                return Err(field(
                    at("brand"),
                    "sets.alerts.brand",
                    &format!(
                        "{name} has no domains in [[brands]], so it has no rank to watch; add its domains"
                    ),
                ));
            }
            _ => {}
        }
        let mut conditions = Vec::new();
        for name in Condition::KEYS {
            let Some(item) = table.get(name) else {
                continue;
            };
            let value = item
                .as_float()
                .or_else(|| item.as_integer().map(|n| n as f64))
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    field(
                        at(name),
                        &format!("sets.alerts.{name}"),
                        "should be a number, not negative, like 30 or 2.5",
                    )
                })?;
            conditions.push(match name {
                "below" => Condition::Below(value),
                "above" => Condition::Above(value),
                _ => Condition::DropsBy(value),
            });
        }
        let condition = match conditions.as_slice() {
            [one] => *one,
            [] => {
                return Err(field(
                    table.span(),
                    "sets.alerts",
                    "needs a threshold: below = …, above = …, or drops_by = … (since the run before)",
                ));
            }
            _ => {
                return Err(field(
                    table.span(),
                    "sets.alerts",
                    "takes one of below, above and drops_by; make another alert for the other",
                ));
            }
        };
        let models = strings("models")?;
        if let Some(unknown) = models
            .iter()
            .find(|m| !m.eq_ignore_ascii_case(AI_OVERVIEW) && m.parse::<Model>().is_err())
        {
            return Err(field(
                at("models"),
                "sets.alerts.models",
                &format!(
                    "{unknown:?} is not a model; use chatgpt, gemini, perplexity, copilot or {AI_OVERVIEW}"
                ),
            ));
        }
        let locations = strings("locations")?
            .iter()
            .map(|spec| {
                crate::geo::parse_location(spec)
                    .map_err(|problem| field(at("locations"), "sets.alerts.locations", &problem))
            })
            .collect::<Result<Vec<_>, _>>()?;
        alerts.push(Alert {
            brand,
            domain,
            measure,
            condition,
            models: models.iter().map(|m| m.to_ascii_lowercase()).collect(),
            locations,
        });
    }
    Ok(alerts)
}

/// The error of a key at a span of this file: the file, the line and the problem.
fn field_error<'a>(
    path: &'a Path,
    text: &'a str,
) -> impl Fn(Option<Range<usize>>, &str, &str) -> WorkspaceError + 'a {
    move |span, key, problem| WorkspaceError::Field {
        path: path.to_path_buf(),
        line: line_of(text, span),
        key: key.to_string(),
        problem: problem.to_string(),
    }
}

/// Whether a `[[brands]]` or `[[sets]]` table has this name (ignoring case).
fn named(table: &Table, name: &str) -> bool {
    table
        .get("name")
        .and_then(Item::as_str)
        .is_some_and(|n| n.trim().eq_ignore_ascii_case(name))
}

/// Writes a set's fields into its table: keys already there keep their place and comments,
/// an emptied list goes, a new one comes last.
fn write_set(table: &mut Table, set: &TrackSet) {
    set_value(table, "name", value(set.name.as_str()));
    let lists: [(&str, Vec<String>); 6] = [
        ("prompts", set.prompts.clone()),
        ("terms", set.terms.clone()),
        (
            "models",
            set.models
                .iter()
                .map(|m| m.as_str().to_string())
                .chain(set.overview.then(|| AI_OVERVIEW.to_string()))
                .collect(),
        ),
        ("devices", set.devices.clone()),
        (
            "locations",
            set.locations.iter().map(location_spec).collect(),
        ),
        ("brands", set.brands.clone()),
    ];
    for (key, items) in lists {
        if items.is_empty() {
            table.remove(key);
        } else {
            set_value(table, key, value(string_array(&items)));
        }
    }
    if set.samples > 1 {
        set_value(table, "samples", value(set.samples as i64));
    } else {
        table.remove("samples");
    }
}

/// Sets a key's value keeping the comment after it on its line.
fn set_value(table: &mut Table, key: &str, item: Item) {
    match table.get_mut(key) {
        Some(existing) => {
            let suffix = existing
                .as_value()
                .and_then(|v| v.decor().suffix())
                .and_then(|s| s.as_str())
                .map(str::to_string);
            *existing = item;
            if let (Some(suffix), Some(v)) = (suffix, existing.as_value_mut()) {
                v.decor_mut().set_suffix(suffix);
            }
        }
        None => {
            table.insert(key, item);
        }
    }
}

fn string_array(items: &[String]) -> Array {
    items.iter().map(String::as_str).collect()
}

/// The one brand marked `own = true`; two are refused with the second's line.
/// `webhook = "https://…"`: where the alerts of every set are posted, for the workspace.
fn read_webhook(path: &Path, text: &str, root: &Table) -> Result<Option<String>, WorkspaceError> {
    let field = field_error(path, text);
    let Some((key, item)) = root.get_key_value(WEBHOOK_KEY) else {
        return Ok(None);
    };
    let wrong = |problem: &str| field(key.span(), WEBHOOK_KEY, problem);
    let Some(url) = item.as_str().map(str::trim) else {
        return Err(wrong(
            "should be a URL in quotes, like \"https://hooks.example.com/…\"",
        ));
    };
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "https" | "http") => Ok(Some(url.to_string())),
        Ok(parsed) => Err(wrong(&format!(
            "the scheme {:?} is not http(s)",
            parsed.scheme()
        ))),
        Err(error) => Err(wrong(&format!("{url:?} is not a URL ({error})"))),
    }
}

fn read_own(path: &Path, text: &str, root: &Table) -> Result<Option<String>, WorkspaceError> {
    let field = field_error(path, text);
    let Some(list) = root.get(BRANDS_KEY).and_then(Item::as_array_of_tables) else {
        return Ok(None);
    };
    let mut own: Option<String> = None;
    for table in list {
        let Some((key, item)) = table.get_key_value("own") else {
            continue;
        };
        let Some(is_own) = item.as_bool() else {
            return Err(field(key.span(), "brands.own", "should be true or false"));
        };
        let name = table.get("name").and_then(Item::as_str).unwrap_or_default();
        if is_own {
            if let Some(first) = &own {
                return Err(field(
                    key.span(),
                    "brands.own",
                    &format!("only one brand is yours, and {first} already is"),
                ));
            }
            own = Some(name.trim().to_string());
        }
    }
    Ok(own)
}

/// `[sources]`: `"domain" = "kind"` pairs that add to the shipped table of site kinds.
fn read_source_kinds(
    path: &Path,
    text: &str,
    root: &Table,
) -> Result<Vec<(String, SourceKind)>, WorkspaceError> {
    let field = field_error(path, text);
    let Some((key, item)) = root.get_key_value(SOURCES_KEY) else {
        return Ok(Vec::new());
    };
    let Some(table) = item.as_table() else {
        return Err(field(
            key.span(),
            SOURCES_KEY,
            "should be a table of \"domain\" = \"kind\", like [sources] \"trailblog.example\" = \"editorial\"",
        ));
    };
    let mut kinds = Vec::new();
    for (domain, value) in table.iter() {
        let span = table.key(domain).and_then(|k| k.span());
        let Some(kind) = value.as_str().and_then(SourceKind::parse) else {
            return Err(field(
                span,
                "sources",
                &format!(
                    "{domain} should be one of \"editorial\", \"user-generated\", \"retailer\", \"reference\" or \"other\""
                ),
            ));
        };
        kinds.push((domain.trim().to_ascii_lowercase(), kind));
    }
    Ok(kinds)
}

fn read_brands(path: &Path, text: &str, root: &Table) -> Result<Vec<Brand>, WorkspaceError> {
    let field = field_error(path, text);
    let Some((key, item)) = root.get_key_value(BRANDS_KEY) else {
        return Ok(Vec::new());
    };
    let Some(list) = item.as_array_of_tables() else {
        return Err(field(
            key.span(),
            BRANDS_KEY,
            "should be a list of [[brands]] tables, each with a name",
        ));
    };
    let mut brands: Vec<Brand> = Vec::with_capacity(list.len());
    for table in list {
        let name = match table.get_key_value("name") {
            None => {
                return Err(field(
                    table.span(),
                    "brands.name",
                    "is missing from this brand",
                ));
            }
            Some((key, item)) => match item.as_str().map(str::trim) {
                Some(name) if !name.is_empty() => name.to_string(),
                _ => {
                    return Err(field(
                        key.span(),
                        "brands.name",
                        "should be a non-empty string",
                    ));
                }
            },
        };
        if brands.iter().any(|b| b.name.eq_ignore_ascii_case(&name)) {
            let span = table.get_key_value("name").and_then(|(k, _)| k.span());
            return Err(field(
                span,
                "brands.name",
                &format!("{name} is listed twice"),
            ));
        }
        let strings = |key_name: &str| -> Result<Vec<String>, WorkspaceError> {
            let Some((key, item)) = table.get_key_value(key_name) else {
                return Ok(Vec::new());
            };
            let key_path = format!("brands.{key_name}");
            let wrong = || {
                field(
                    key.span(),
                    &key_path,
                    "should be a list of strings, like [\"a\", \"b\"]",
                )
            };
            let array = item.as_array().ok_or_else(wrong)?;
            array
                .iter()
                .map(|v| v.as_str().map(|s| s.trim().to_string()).ok_or_else(wrong))
                .filter(|s| s.as_ref().map_or(true, |s| !s.is_empty()))
                .collect()
        };
        let aliases = strings("aliases")?;
        let domains = strings("domains")?;
        brands.push(Brand {
            name,
            aliases,
            domains,
        });
    }
    Ok(brands)
}

#[cfg(test)]
#[path = "workspace_tests.rs"]
mod tests;
