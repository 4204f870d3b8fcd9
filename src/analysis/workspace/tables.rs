//! How each table of the workspace file is read and checked (`[[brands]]`, `[[sets]]` and
//! their alerts, `[sources]`, `webhook`, the own brand) and how a set is written back, keeping
//! the user's layout.

use std::ops::Range;
use std::path::Path;

use toml_edit::{Array, Item, Table, value};

use super::super::alerts::{Alert, Condition, Measure};
use super::super::mentions::Brand;
use super::super::overview::AI_OVERVIEW;
use super::super::sources::SourceKind;
use super::super::{adaptive, samples};
use super::{
    BRANDS_KEY, MAX_SET_COMBINATIONS, SETS_KEY, SOURCES_KEY, TrackSet, WEBHOOK_KEY, WorkspaceError,
    line_of, location_spec,
};
use crate::api::Model;

pub(super) fn read_sets(
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
        let mut auto = None;
        let samples = match table.get_key_value("samples") {
            None => 1,
            Some((key, item)) => {
                let wrong = |problem: &str| field(key.span(), "sets.samples", problem);
                if item.as_str() == Some("auto") {
                    let precision = match table.get_key_value("precision") {
                        None => i64::from(adaptive::DEFAULT_PRECISION),
                        Some((key, item)) => item.as_integer().ok_or_else(|| {
                            field(
                                key.span(),
                                "sets.precision",
                                "should be whole percentage points, like precision = 10",
                            )
                        })?,
                    };
                    let most = match table.get_key_value("most") {
                        None => adaptive::DEFAULT_MOST,
                        Some((key, item)) => item
                            .as_integer()
                            .and_then(|n| usize::try_from(n).ok())
                            .ok_or_else(|| {
                                field(
                                    key.span(),
                                    "sets.most",
                                    "should be a whole number, like most = 10",
                                )
                            })?,
                    };
                    let plan = adaptive::Plan::checked(precision, most).map_err(|p| wrong(&p))?;
                    auto = Some(plan);
                    plan.first
                } else {
                    let Some(n) = item.as_integer() else {
                        return Err(wrong(
                            "should be a whole number, like samples = 5, or \"auto\"",
                        ));
                    };
                    let n = usize::try_from(n).unwrap_or(0);
                    samples::check_samples(n).map_err(|problem| wrong(&problem))?;
                    n
                }
            }
        };
        for key in ["precision", "most"] {
            if auto.is_none()
                && let Some((key, _)) = table.get_key_value(key)
            {
                return Err(field(
                    key.span(),
                    &format!("sets.{}", key.get()),
                    "applies to samples = \"auto\" only",
                ));
            }
        }
        let complete = match table.get_key_value("complete") {
            None => super::DEFAULT_COMPLETE,
            Some((key, item)) => {
                let wrong = |problem: &str| field(key.span(), "sets.complete", problem);
                match item.as_integer().and_then(|n| u8::try_from(n).ok()) {
                    Some(n @ 1..=100) => n,
                    _ => {
                        return Err(wrong(
                            "should be the percent of its planned cells a run must hold to be complete, 1 to 100, like complete = 90",
                        ));
                    }
                }
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
            complete,
            auto,
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
pub(super) fn read_alerts(
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
pub(super) fn field_error<'a>(
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
pub(super) fn named(table: &Table, name: &str) -> bool {
    table
        .get("name")
        .and_then(Item::as_str)
        .is_some_and(|n| n.trim().eq_ignore_ascii_case(name))
}

/// Writes a set's fields into its table: keys already there keep their place and comments,
/// an emptied list goes, a new one comes last; its alerts as [`write_alerts`] writes them
/// over those it had (`alerts_before`).
pub(super) fn write_set(table: &mut Table, set: &TrackSet, alerts_before: &[Alert]) {
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
    match &set.auto {
        Some(plan) => {
            set_value(table, "samples", value("auto"));
            if plan.precision != adaptive::DEFAULT_PRECISION {
                set_value(table, "precision", value(i64::from(plan.precision)));
            } else {
                table.remove("precision");
            }
            if plan.most != adaptive::DEFAULT_MOST {
                set_value(table, "most", value(plan.most as i64));
            } else {
                table.remove("most");
            }
        }
        None => {
            table.remove("precision");
            table.remove("most");
            if set.samples > 1 {
                set_value(table, "samples", value(set.samples as i64));
            } else {
                table.remove("samples");
            }
        }
    }
    if set.complete != super::DEFAULT_COMPLETE {
        set_value(table, "complete", value(i64::from(set.complete)));
    } else {
        table.remove("complete");
    }
    super::alert_tables::write_alerts(table, &set.alerts, alerts_before);
}

/// Sets a key's value keeping the comment after it on its line.
pub(super) fn set_value(table: &mut Table, key: &str, item: Item) {
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

pub(super) fn string_array(items: &[String]) -> Array {
    items.iter().map(String::as_str).collect()
}

/// The one brand marked `own = true`; two are refused with the second's line.
/// `webhook = "https://…"`: where the alerts of every set are posted, for the workspace.
pub(super) fn read_webhook(
    path: &Path,
    text: &str,
    root: &Table,
) -> Result<Option<String>, WorkspaceError> {
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

pub(super) fn read_own(
    path: &Path,
    text: &str,
    root: &Table,
) -> Result<Option<String>, WorkspaceError> {
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
pub(super) fn read_source_kinds(
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

pub(super) fn read_brands(
    path: &Path,
    text: &str,
    root: &Table,
) -> Result<Vec<Brand>, WorkspaceError> {
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
