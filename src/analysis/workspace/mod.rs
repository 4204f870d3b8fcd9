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

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};

use super::alerts::Alert;
use super::mentions::Brand;
use super::sources::{Classifier, SourceKind};
use crate::api::{Location, Model};

mod alert_tables;
mod check;
mod tables;
pub mod trust;

pub use check::{Refusal, SetItemsRef, SetList, first_refused, parse_domains};

use tables::{
    named, read_brands, read_own, read_sets, read_source_kinds, read_webhook, string_array,
    write_set,
};

/// The file's name in the current folder.
pub const WORKSPACE_FILE: &str = "vantage.toml";

const BRANDS_KEY: &str = "brands";
const SETS_KEY: &str = "sets";
const SOURCES_KEY: &str = "sources";
const WEBHOOK_KEY: &str = "webhook";

/// The share of its planned cells, in percent, a run holds to be complete when its set
/// does not say (`complete = N`).
pub const DEFAULT_COMPLETE: u8 = 90;

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
    /// The percent of its planned cells a run must hold to be read as complete
    /// ([`DEFAULT_COMPLETE`] unless `complete = N`): a run that holds fewer is drawn as
    /// incomplete, and no alert fires from it alone.
    pub complete: u8,
    /// `samples = "auto"`: each answer asked `samples` times first (the plan's first), then
    /// again where the answers split, round by round (`analysis::adaptive`).
    pub auto: Option<crate::analysis::adaptive::Plan>,
    /// What to watch for in each run (`[[sets.alerts]]`), made in the file or the Track
    /// tab's set form; those not changed keep their tables as written.
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
            complete: DEFAULT_COMPLETE,
            auto: None,
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
        "There is no workspace file at {path}. Check the path given with --workspace (or VANTAGE_WORKSPACE)."
    )]
    Missing { path: PathBuf },
    #[error(
        "{path} is a folder, not a workspace file. Give the path of the file itself (a vantage.toml) with --workspace."
    )]
    NotAFile { path: PathBuf },
    #[error(
        "The workspace file {path} is not text: it holds bytes that are not UTF-8, or NUL bytes. Is it the right file? A workspace file is TOML, such as vantage.toml."
    )]
    NotText { path: PathBuf },
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
    #[error(
        "The workspace file {path} was found in a folder above this one, but {why}: it is not used, and nothing was run or written. If it is yours, fix its owner or mode (chmod go-w), give it with --workspace, or list it under safe_workspaces in the config file; else make a vantage.toml here."
    )]
    Untrusted { path: PathBuf, why: String },
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

impl WorkspaceError {
    /// What is wrong, without the file and line: for a change not yet written, whose
    /// lines are not the file's (the set form, `track set`).
    pub fn problem(&self) -> String {
        match self {
            WorkspaceError::Field { key, problem, .. } => {
                format!("{}: {problem}", key.trim_start_matches("sets."))
            }
            other => other.to_string(),
        }
    }
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

/// The workspace a command reads: the file `explicit` names (`--workspace`,
/// `VANTAGE_WORKSPACE`), which must be there, else the nearest `vantage.toml`; none when no
/// path is given and none is found. A file that cannot be read as a workspace (missing when
/// named, a folder, not text, not valid) is an error naming it and what is wrong.
pub fn read_located(
    explicit: Option<&Path>,
    folder: &Path,
) -> Result<Option<Workspace>, WorkspaceError> {
    let Some(path) = locate(explicit, folder)? else {
        return Ok(None);
    };
    match read_text(&path)? {
        Some(text) => Workspace::parse(&path, &text).map(Some),
        None => Err(WorkspaceError::Missing { path }),
    }
}

/// The text of the file at `path`; none when there is no file there. A folder, or bytes
/// that are not text, are refused with what is wrong rather than the system's words.
fn read_text(path: &Path) -> Result<Option<String>, WorkspaceError> {
    if path.is_dir() {
        return Err(WorkspaceError::NotAFile {
            path: path.to_path_buf(),
        });
    }
    match crate::user_file::read_text(path) {
        Ok(Some(text)) if !text.contains('\0') => Ok(Some(text)),
        Ok(Some(_)) => Err(WorkspaceError::NotText {
            path: path.to_path_buf(),
        }),
        Err(error) if error.kind() == std::io::ErrorKind::InvalidData => {
            Err(WorkspaceError::NotText {
                path: path.to_path_buf(),
            })
        }
        Ok(None) => Ok(None),
        Err(error) => Err(WorkspaceError::Read {
            path: path.to_path_buf(),
            reason: error.to_string(),
        }),
    }
}

/// `explicit` when given (`--workspace`, `VANTAGE_WORKSPACE`), else the nearest
/// `vantage.toml` in `folder` or one of its parents, as git finds a repository.
///
/// A file found above `folder` is used only when it is trusted ([`trust`]): else the error
/// says which file and why.
pub fn locate(explicit: Option<&Path>, folder: &Path) -> Result<Option<PathBuf>, WorkspaceError> {
    if let Some(path) = explicit {
        return Ok(Some(path.to_path_buf()));
    }
    let Some(found) = folder
        .ancestors()
        .map(|dir| dir.join(WORKSPACE_FILE))
        .find(|p| p.is_file())
    else {
        return Ok(None);
    };
    if found.parent() != Some(folder)
        && let Some(why) = trust::refusal(&found)
    {
        return Err(trust::refused(&found, why));
    }
    Ok(Some(found))
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
        match read_text(path)? {
            Some(text) => Workspace::parse(path, &text),
            None => Ok(Workspace::empty(path)),
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

    /// The brands a set's answers are read for, by every view of it (so that none reads
    /// them again for other brands): those the set watches (every tracked brand for a set
    /// the file does not name), and the own brand, for its gaps.
    pub fn read_for(&self, set: &str) -> Vec<Brand> {
        let mut brands = match self.set(set) {
            Some(s) => self.brands_of(s),
            None => self.brands.clone(),
        };
        if let Some(own) = self.own()
            && !brands.iter().any(|b| b.name == own)
            && let Some(brand) = self.brands.iter().find(|b| b.name == own)
        {
            brands.push(brand.clone());
        }
        brands
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
        write_set(&mut table, &set, &[]);
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
        let before = self.sets[index].alerts.clone();
        if let Some(table) = self.set_table(original) {
            write_set(table, &set, &before);
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

    /// Marks the brand of this name (ignoring case) as the user's own (`own = true`), and
    /// takes the mark from any other, since only one brand is yours; none takes it from all.
    /// The brand's table keeps its other keys and comments.
    pub fn set_own(&mut self, name: Option<&str>) {
        let Some(list) = self
            .doc
            .get_mut(BRANDS_KEY)
            .and_then(Item::as_array_of_tables_mut)
        else {
            self.own = None;
            return;
        };
        let mut found = false;
        for table in list.iter_mut() {
            if name.is_some_and(|name| named(table, name)) {
                tables::set_value(table, "own", value(true));
                found = true;
            } else {
                table.remove("own");
            }
        }
        self.own = name.filter(|_| found).and_then(|name| {
            self.brands
                .iter()
                .find(|b| b.name.eq_ignore_ascii_case(name))
                .map(|b| b.name.clone())
        });
    }

    /// Removes the brand of this name (ignoring case); false when none is tracked.
    pub fn remove_brand(&mut self, name: &str) -> bool {
        if self
            .own
            .as_deref()
            .is_some_and(|o| o.eq_ignore_ascii_case(name))
        {
            self.own = None;
        }
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
        // The own brand renamed stays the own brand (its table keeps `own = true`).
        if self
            .own
            .as_deref()
            .is_some_and(|o| o.eq_ignore_ascii_case(original))
        {
            self.own = Some(brand.name.clone());
        }
        // Keys set in place keep the comments after them.
        if let Some(table) = table {
            tables::set_value(table, "name", value(brand.name.as_str()));
            for (key, items) in [("aliases", &brand.aliases), ("domains", &brand.domains)] {
                if items.is_empty() {
                    table.remove(key);
                } else {
                    tables::set_value(table, key, value(string_array(items)));
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
        let now = read_text(&self.path)?;
        if now.as_deref() != read {
            return Err(WorkspaceError::ChangedOnDisk {
                path: self.path.clone(),
            });
        }
        self.save()
    }

    /// Writes the file through [`crate::safe_file`]: whole or not at all, its mode and a
    /// symlink to it kept.
    pub fn save(&self) -> Result<(), WorkspaceError> {
        crate::safe_file::write(&self.path, self.to_text()).map_err(|error| WorkspaceError::Write {
            path: self.path.clone(),
            reason: error.to_string(),
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
    /// The most credits one run can spend: every answer asked the most times with
    /// `samples = "auto"`, else what it makes.
    pub fn most_credits(&self, prices: &crate::price::Prices) -> u64 {
        match &self.auto {
            Some(plan) => self.calls_at(plan.most).credits(prices),
            None => self.calls_by_kind().credits(prices),
        }
    }

    /// How many calls one run of the set makes, samples included (with `samples = "auto"`,
    /// its first round).
    pub fn combinations(&self) -> usize {
        self.answer_cells() * self.samples.max(1) + self.terms.len() * self.locations.len().max(1)
    }

    /// The calls of a run by kind: the chatbots' answers (each sample a call), and the
    /// searches (the AI Overviews, sampled too, and the tracked terms).
    pub fn calls_by_kind(&self) -> crate::price::Calls {
        self.calls_at(self.samples)
    }

    /// The calls of a run by kind were each answer asked `samples` times.
    pub fn calls_at(&self, samples: usize) -> crate::price::Calls {
        let factor = |n: usize| n.max(1);
        let samples = factor(samples);
        let overviews =
            usize::from(self.overview) * self.prompts.len() * factor(self.locations.len());
        let terms = self.terms.len() * factor(self.locations.len());
        let answers = (self.answer_cells() - overviews) * samples;
        crate::price::Calls {
            answers: answers as u64,
            searches: (overviews * samples + terms) as u64,
            pages: 0,
        }
    }

    /// What a run costs in words: "10 calls (8 answers × 5 + 2 searches × 1 = 42 credits)",
    /// with "; each answer asked 3 times" when it has samples.
    pub fn cost_in_words(&self, prices: &crate::price::Prices) -> String {
        let words = self.calls_by_kind().in_words(prices);
        if let Some(plan) = &self.auto {
            return format!(
                "{words} at fewest to {} at most: samples spent where they tell, each answer asked {} times first, then again where its answers split, until every brand's visibility by model and by place is within ±{} points, at most {} times",
                self.calls_at(plan.most).in_words(prices),
                plan.first,
                plan.precision,
                plan.most
            );
        }
        match self.samples {
            0 | 1 => words,
            samples => format!(
                "{}; each answer asked {samples} times)",
                words.trim_end_matches(')')
            ),
        }
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

#[cfg(test)]
mod tests;
