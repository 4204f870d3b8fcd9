use super::*;

const FILE: &str = "# Boots we follow.\n\
    [[brands]]\n\
    name = \"Salomon\"   # the French one\n\
    domains = [\"salomon.com\"]\n\
    \n\
    # Keep Merrell second.\n\
    [[brands]]\n\
    name = \"Merrell\"\n\
    aliases = [\"Merrel\"]\n";

fn path() -> PathBuf {
    PathBuf::from("vantage.toml")
}

#[test]
fn reads_brands_in_order() {
    let workspace = Workspace::parse(&path(), FILE).unwrap();
    let names: Vec<&str> = workspace.brands().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Salomon", "Merrell"]);
    assert_eq!(workspace.brands()[0].domains, ["salomon.com"]);
    assert_eq!(workspace.brands()[1].aliases, ["Merrel"]);
}

#[test]
fn comments_and_order_survive_an_edit() {
    let mut workspace = Workspace::parse(&path(), FILE).unwrap();
    workspace
        .add_brand(Brand {
            name: "Lowa".to_string(),
            aliases: vec!["Löwa".to_string()],
            domains: vec!["lowa.com".to_string()],
        })
        .unwrap();
    assert!(workspace.remove_brand("salomon"));
    let text = workspace.to_text();
    assert!(
        text.starts_with("# Boots we follow.\n\n# Keep Merrell second.\n[[brands]]\nname = \"Merrell\"\naliases = [\"Merrel\"]\n"),
        "{text}"
    );
    assert!(!text.contains("Salomon"), "{text}");
    assert!(
        text.contains(
            "\n[[brands]]\nname = \"Lowa\"\naliases = [\"Löwa\"]\ndomains = [\"lowa.com\"]\n"
        ),
        "{text}"
    );
    let again = Workspace::parse(&path(), &text).unwrap();
    let names: Vec<&str> = again.brands().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Merrell", "Lowa"]);
}

#[test]
fn a_brand_is_added_once() {
    let mut workspace = Workspace::parse(&path(), FILE).unwrap();
    let error = workspace.add_brand(Brand::named("MERRELL")).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("already tracked in vantage.toml"),
        "{error}"
    );
    assert!(!workspace.remove_brand("Hoka"));
}

#[test]
fn errors_name_the_file_line_and_key() {
    let error = Workspace::parse(
        &path(),
        "[[brands]]\nname = \"A\"\n[[brands]]\ndomains = \"a.com\"\nname = \"B\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("vantage.toml, line 4, key `brands.domains`"),
        "{error}"
    );
    let error = Workspace::parse(&path(), "[[brands]]\naliases = []\n")
        .unwrap_err()
        .to_string();
    assert!(error.contains("key `brands.name`: is missing"), "{error}");
    let error = Workspace::parse(&path(), "\n\nbrands = [\n")
        .unwrap_err()
        .to_string();
    assert!(error.contains("not valid TOML at line 3"), "{error}");
    let error = Workspace::parse(&path(), "brands = \"Salomon\"\n")
        .unwrap_err()
        .to_string();
    assert!(error.contains("line 1, key `brands`"), "{error}");
}

const SETS: &str = "[[brands]]\nname = \"Merrell\"\n\n\
    # Checked every morning.\n\
    [[sets]]\n\
    name = \"boots\"  # the main one\n\
    prompts = [\"best hiking boots\", \"waterproof boots\"]\n\
    terms = [\"hiking boots\"]\n\
    models = [\"chatgpt\", \"gemini\"]\n\
    locations = [\"us:ny:New+York\", \"de::Berlin\", \"fr\"]\n\
    brands = [\"merrell\"]\n";

#[test]
fn sets_read_with_their_vantage_points() {
    let workspace = Workspace::parse(&path(), SETS).unwrap();
    let set = workspace.set("BOOTS").unwrap();
    assert_eq!(set.prompts.len(), 2);
    assert_eq!(set.models, [Model::Chatgpt, Model::Gemini]);
    assert_eq!(set.locations[0].city.as_deref(), Some("New York"));
    assert_eq!(set.locations[1].country.as_deref(), Some("DE"));
    assert_eq!(set.combinations(), 2 * 2 * 3 + 3);
    assert_eq!(
        set.cost_in_words(&crate::price::Prices::default()),
        "15 calls (12 answers × 5 + 3 searches × 1 = 63 credits)"
    );
    assert_eq!(workspace.brands_of(set)[0].name, "Merrell");
    let specs: Vec<String> = set.locations.iter().map(location_spec).collect();
    assert_eq!(specs, ["US:NY:New+York", "DE::Berlin", "FR"]);
}

#[test]
fn ai_overview_is_one_more_model_of_a_set_and_writes_back() {
    let text = "[[sets]]\nname = \"o\"\nprompts = [\"x\"]\nmodels = [\"gemini\", \"AI-Overview\"]\nlocations = [\"us\", \"de\"]\n";
    let mut workspace = Workspace::parse(&path(), text).unwrap();
    let set = workspace.set("o").unwrap().clone();
    assert!(set.overview);
    assert_eq!(set.models, [Model::Gemini]);
    assert_eq!(set.combinations(), 2 + 2);
    let copy = TrackSet {
        name: "p".to_string(),
        samples: 5,
        ..set
    };
    workspace.add_set(copy.clone()).unwrap();
    let again = Workspace::parse(&path(), &workspace.to_text()).unwrap();
    assert_eq!(again.set("p"), Some(&copy));
    assert_eq!(
        copy.combinations(),
        (2 + 2) * 5,
        "samples repeat the answers"
    );
    // An AI Overview is read from a search, and priced as one.
    assert_eq!(
        copy.cost_in_words(&crate::price::Prices::default()),
        "20 calls (10 answers × 5 + 10 searches × 1 = 60 credits; each answer asked 5 times)"
    );
    assert_eq!(copy.calls_by_kind().total(), copy.combinations() as u64);
}

#[test]
fn set_errors_name_the_line_and_field() {
    let cases = [
        (
            "[[sets]]\nname = \"a\"\nmodels = [\"chatgpt\"]\n",
            "line 2, key `sets.prompts`",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nmodels = [\"gpt5\"]\n",
            "line 4, key `sets.models`: \"gpt5\" is not a model",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\n\nlocations = [\"::Paris\"]\n",
            "line 5, key `sets.locations`",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nbrands = [\"Hoka\"]\n",
            "line 4, key `sets.brands`: Hoka is not one of the [[brands]]",
        ),
        (
            "[[sets]]\nprompts = [\"x\"]\n",
            "key `sets.name`: is missing",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = \"x\"\n",
            "line 3, key `sets.prompts`",
        ),
        (
            "[[sets]]\nname = \"a\"\nterms = [\"x\"]\n[[sets]]\nname = \"A\"\nterms = [\"y\"]\n",
            "line 5, key `sets.name`: A is listed twice",
        ),
        ("sets = 3\n", "line 1, key `sets`"),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nsamples = 0\n",
            "line 4, key `sets.samples`: 0 samples: a cell can be asked 1 to 20 times",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nsamples = \"5\"\n",
            "line 4, key `sets.samples`: should be a whole number",
        ),
    ];
    for (text, expected) in cases {
        let error = Workspace::parse(&path(), text).unwrap_err().to_string();
        assert!(error.contains(expected), "{text}\n→ {error}");
    }
}

#[test]
fn a_set_added_keeps_the_comments_and_reads_back() {
    let mut workspace = Workspace::parse(&path(), SETS).unwrap();
    let set = TrackSet {
        name: "shoes".to_string(),
        terms: vec!["trail shoes".to_string()],
        locations: vec![crate::api::Location {
            country: Some("US".to_string()),
            subdivision: None,
            city: Some("San Francisco".to_string()),
        }],
        ..TrackSet::default()
    };
    workspace.add_set(set.clone()).unwrap();
    assert!(workspace.add_set(set.clone()).is_err());
    let text = workspace.to_text();
    assert!(text.contains("# Checked every morning."), "{text}");
    assert!(text.contains("name = \"boots\"  # the main one"), "{text}");
    let again = Workspace::parse(&path(), &text).unwrap();
    assert_eq!(again.set("shoes"), Some(&set));
    assert_eq!(again.sets().len(), 2);
}

#[test]
fn saved_file_reads_back_and_a_missing_one_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(WORKSPACE_FILE);
    assert_eq!(locate(None, dir.path()).unwrap(), None);
    let mut workspace = Workspace::load(&file).unwrap();
    assert!(workspace.brands().is_empty());
    workspace.add_brand(Brand::named("Salomon")).unwrap();
    workspace.save().unwrap();
    assert_eq!(locate(None, dir.path()).unwrap(), Some(file.clone()));
    assert_eq!(Workspace::load(&file).unwrap().brands()[0].name, "Salomon");
}

#[test]
fn the_own_brand_and_added_site_kinds_class_citations() {
    use crate::analysis::sources::SourceKind;
    let text = "[[brands]]\nname = \"Lowa\"\nown = true\ndomains = [\"lowa.com\"]\n\n[[brands]]\nname = \"Salomon\"\ndomains = [\"salomon.com\"]\n\n[sources]\n\"trailblog.example\" = \"editorial\"\n\"gearforum.example\" = \"ugc\"\n";
    let workspace = Workspace::parse(&path(), text).unwrap();
    assert_eq!(workspace.own(), Some("Lowa"));
    let classifier = workspace.classifier();
    assert_eq!(classifier.kind_of("https://lowa.com/x"), SourceKind::Own);
    assert_eq!(
        classifier.kind_of("https://www.salomon.com/"),
        SourceKind::Competitor
    );
    assert_eq!(
        classifier.kind_of("trailblog.example"),
        SourceKind::Editorial
    );
    assert_eq!(
        classifier.kind_of("gearforum.example"),
        SourceKind::UserGenerated
    );
    // Two own brands, or a kind that is not one, are refused with the line.
    let two = "[[brands]]\nname = \"A\"\nown = true\n\n[[brands]]\nname = \"B\"\nown = true\n";
    let error = Workspace::parse(&path(), two).unwrap_err().to_string();
    assert!(error.contains("line 7"), "{error}");
    assert!(error.contains("A already is"), "{error}");
    let wrong = "[sources]\n\"x.example\" = \"blog\"\n";
    let error = Workspace::parse(&path(), wrong).unwrap_err().to_string();
    assert!(error.contains("line 2"), "{error}");
    assert!(error.contains("x.example should be one of"), "{error}");
}

#[test]
fn a_set_is_changed_where_it_stands_and_removed_with_its_table() {
    let mut workspace = Workspace::parse(&path(), SETS).unwrap();
    let mut set = workspace.set("boots").unwrap().clone();
    set.prompts.push("boots for wide feet".to_string());
    set.terms.clear();
    set.samples = 3;
    workspace.replace_set("BOOTS", set.clone()).unwrap();
    let text = workspace.to_text();
    // The comments stay: above the table and after its name.
    assert!(
        text.contains("# Checked every morning.\n[[sets]]"),
        "{text}"
    );
    assert!(text.contains("name = \"boots\"  # the main one"), "{text}");
    assert!(text.contains("\"boots for wide feet\"]"), "{text}");
    assert!(!text.contains("terms"), "an emptied list goes: {text}");
    assert!(text.contains("samples = 3"), "{text}");
    let again = Workspace::parse(&path(), &text).unwrap();
    assert_eq!(again.set("boots"), Some(&set));
    // A second set may not take the name of another.
    let other = TrackSet {
        name: "shoes".to_string(),
        terms: vec!["trail shoes".to_string()],
        ..TrackSet::default()
    };
    workspace.add_set(other.clone()).unwrap();
    let clash = TrackSet {
        name: "Boots".to_string(),
        ..other
    };
    assert!(workspace.replace_set("shoes", clash).is_err());
    assert!(workspace.remove_set("SHOES"));
    assert!(!workspace.remove_set("shoes"));
    let text = workspace.to_text();
    assert!(!text.contains("shoes"), "{text}");
    assert_eq!(Workspace::parse(&path(), &text).unwrap().sets().len(), 1);
}

#[test]
fn a_file_reads_back_as_its_own_text_and_one_changed_on_disk_is_not_written_over() {
    let text = "# Boots.\r\n[[brands]]\r\nname = \"Merrell\"   # the Moab\r\n\r\n\r\n[[sets]]\nname=\"b\"\nterms=[ \"x\" ,\"y\" ]\n";
    let workspace = Workspace::parse(&path(), text).unwrap();
    assert_eq!(
        workspace.as_read(),
        Some(text),
        "the text the change is made on"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(WORKSPACE_FILE);
    std::fs::write(&file, text).unwrap();
    let mut workspace = Workspace::load(&file).unwrap();
    let read = workspace.as_read().unwrap().to_string();
    workspace.add_brand(Brand::named("Lowa")).unwrap();
    // Someone else writes the file meanwhile.
    std::fs::write(&file, format!("{text}\n# edited elsewhere\n")).unwrap();
    let error = workspace.save_over(Some(&read)).unwrap_err().to_string();
    assert!(error.contains("changed on disk"), "{error}");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("edited elsewhere")
    );
    // Read again, the change goes through.
    let mut again = Workspace::load(&file).unwrap();
    let read = again.as_read().unwrap().to_string();
    again.add_brand(Brand::named("Lowa")).unwrap();
    again.save_over(Some(&read)).unwrap();
    assert!(std::fs::read_to_string(&file).unwrap().contains("Lowa"));
}

#[test]
fn alerts_and_the_webhook_are_read_and_a_wrong_one_is_refused_with_its_line() {
    let base = "webhook = \"https://hooks.example.com/T000/B000\"\n\n[[brands]]\nname = \"Salomon\"\ndomains = [\"salomon.com\"]\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best hiking boots\"]\n\n[[sets.alerts]]\nbrand = \"salomon\"\nmeasure = \"visibility\"\nbelow = 30\nmodels = [\"chatgpt\"]\nlocations = [\"us\"]\n\n[[sets.alerts]]\ndomain = \"rei.com\"\nmeasure = \"rank\"\ndrops_by = 2.5\n";
    let workspace = Workspace::parse(Path::new("/w/vantage.toml"), base).unwrap();
    assert_eq!(
        workspace.webhook(),
        Some("https://hooks.example.com/T000/B000")
    );
    let alerts = &workspace.set("boots").unwrap().alerts;
    assert_eq!(alerts.len(), 2);
    assert_eq!(
        alerts[0].to_string(),
        "Salomon visibility below 30 % (chatgpt; US)"
    );
    // `rank`, as files written before the mean was offered say it, is the best rank.
    assert_eq!(alerts[1].to_string(), "rei.com best rank drops by 2.5");
    let mean = Workspace::parse(
        Path::new("/w/vantage.toml"),
        &base.replace("measure = \"rank\"", "measure = \"mean_rank\""),
    )
    .unwrap();
    assert_eq!(
        mean.set("boots").unwrap().alerts[1].to_string(),
        "rei.com mean rank drops by 2.5"
    );
    // Editing the set keeps its alerts as written.
    let mut edited = workspace.clone();
    let mut set = edited.set("boots").unwrap().clone();
    set.prompts.push("hiking boots".into());
    edited.replace_set("boots", set).unwrap();
    assert!(
        edited
            .to_text()
            .contains("[[sets.alerts]]\nbrand = \"salomon\"")
    );
    for (wrong, line, says) in [
        (
            base.replace("\"visibility\"", "\"reach\""),
            13,
            "is not a measure",
        ),
        (
            base.replace("below = 30", "below = 30\nabove = 90"),
            11,
            "takes one of below",
        ),
        (
            base.replace("brand = \"salomon\"", "brand = \"Hoka\""),
            12,
            "not one of the [[brands]]",
        ),
        (base.replace("below = 30", "below = -1"), 14, "not negative"),
        (
            base.replace("\"https://hooks", "\"ftp://hooks"),
            1,
            "not http(s)",
        ),
    ] {
        let error = Workspace::parse(Path::new("/w/vantage.toml"), &wrong)
            .expect_err(says)
            .to_string();
        assert!(error.contains(says), "{error}");
        assert!(error.contains(&format!("line {line}")), "{error}");
    }
}

#[test]
fn the_nearest_workspace_file_above_a_folder_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let deeper = dir.path().join("a").join("b");
    std::fs::create_dir_all(&deeper).unwrap();
    assert_eq!(locate(None, &deeper).unwrap(), None);
    let top = dir.path().join(WORKSPACE_FILE);
    std::fs::write(&top, "").unwrap();
    assert_eq!(locate(None, &deeper).unwrap(), Some(top.clone()));
    // The nearest wins.
    let middle = dir.path().join("a").join(WORKSPACE_FILE);
    std::fs::write(&middle, "").unwrap();
    assert_eq!(locate(None, &deeper).unwrap(), Some(middle));
    assert_eq!(
        locate(Some(&top), &deeper).unwrap(),
        Some(top.clone()),
        "an explicit file wins"
    );
}

/// One brand is yours: marking another takes the mark from the first, in the file as in
/// the reading; a rename keeps it, a removal drops it; comments stay.
#[test]
fn the_own_brand_is_one_and_moves_with_set_own() {
    let mut workspace = Workspace::parse(&path(), FILE).unwrap();
    assert_eq!(workspace.own(), None);
    workspace.set_own(Some("salomon"));
    assert_eq!(workspace.own(), Some("Salomon"));
    workspace.set_own(Some("Merrell"));
    let text = workspace.to_text();
    assert_eq!(text.matches("own = true").count(), 1, "{text}");
    assert!(text.contains("# the French one"), "{text}");
    let again = Workspace::parse(&path(), &text).unwrap();
    assert_eq!(again.own(), Some("Merrell"));
    let mut renamed = again.clone();
    let mut brand = renamed.brands()[1].clone();
    brand.name = "Merrell Boots".to_string();
    renamed.replace_brand("Merrell", brand).unwrap();
    assert_eq!(renamed.own(), Some("Merrell Boots"));
    let reread = Workspace::parse(&path(), &renamed.to_text()).unwrap();
    assert_eq!(reread.own(), Some("Merrell Boots"));
    renamed.remove_brand("merrell boots");
    assert_eq!(renamed.own(), None);
    let mut none = again;
    none.set_own(None);
    assert!(!none.to_text().contains("own"), "{}", none.to_text());
}

/// Alerts made, changed and removed with the set are written as `[[sets.alerts]]` and read
/// back the same; those untouched keep their text and comments; a wrong one is refused by
/// the file's own check, in its words.
#[test]
fn alerts_written_with_the_set_read_back_and_a_wrong_one_is_refused() {
    use crate::analysis::alerts::{Condition, Measure};
    let file = "[[brands]]\nname = \"Lowa\"\ndomains = [\"lowa.com\"]\n[[brands]]\nname = \"Hoka\"\n\n[[sets]]\nname = \"boots\"\nprompts = [\"best boots\"]\n\n# Keep this one.\n[[sets.alerts]]\nbrand = \"lowa\"\nmeasure = \"visibility\"\nbelow = 30\n\n[[sets]]\nname = \"after\"\nterms = [\"boots\"]\n";
    let workspace = Workspace::parse(&path(), file).unwrap();
    let mut set = workspace.set("boots").unwrap().clone();
    let drop = workspace
        .check_alert(&Alert {
            brand: Some("hoka".into()),
            domain: None,
            measure: Measure::ShareOfVoice,
            condition: Condition::DropsBy(10.0),
            models: vec!["chatgpt".into()],
            locations: Vec::new(),
        })
        .unwrap();
    assert_eq!(
        drop.to_string(),
        "Hoka share of voice drops by 10 points (chatgpt)"
    );
    set.alerts.push(drop.clone());
    let mut edited = workspace.clone();
    edited.replace_set("boots", set.clone()).unwrap();
    let text = edited.to_text();
    assert!(
        text.contains("# Keep this one.\n[[sets.alerts]]\nbrand = \"lowa\""),
        "{text}"
    );
    assert!(text.contains("drops_by = 10\n"), "{text}");
    let again = Workspace::parse(&path(), &text).unwrap();
    assert_eq!(again.set("boots").unwrap().alerts, set.alerts);
    assert_eq!(again.set("after").unwrap().terms, ["boots"]);
    // Changed, then removed.
    set.alerts[1].condition = Condition::Below(2.5);
    set.alerts.remove(0);
    let mut edited = again.clone();
    edited.replace_set("boots", set.clone()).unwrap();
    let again = Workspace::parse(&path(), &edited.to_text()).unwrap();
    assert_eq!(again.set("boots").unwrap().alerts, set.alerts);
    set.alerts.clear();
    edited.replace_set("boots", set).unwrap();
    assert!(!edited.to_text().contains("alerts"), "{}", edited.to_text());
    // Refused as a hand-written file is: a rank of a brand with no domains, a negative
    // threshold, a brand not tracked.
    let refused = |alert: Alert| workspace.check_alert(&alert).unwrap_err();
    let rank = Alert {
        measure: Measure::BestRank,
        ..drop.clone()
    };
    assert!(refused(rank).contains("Hoka has no domains"));
    let negative = Alert {
        condition: Condition::Below(-1.0),
        ..drop.clone()
    };
    assert_eq!(
        refused(negative),
        "alerts.below: should be a number, not negative, like 30 or 2.5"
    );
    let unknown = Alert {
        brand: Some("Asics".into()),
        ..drop
    };
    assert!(refused(unknown).contains("Asics is not one of the [[brands]]"));
}

#[test]
fn samples_auto_and_a_complete_share_are_read_written_and_checked() {
    let text = "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nmodels = [\"chatgpt\", \"gemini\"]\nsamples = \"auto\"\nprecision = 8\ncomplete = 80\n";
    let mut workspace = Workspace::parse(&path(), text).unwrap();
    let set = workspace.set("a").unwrap().clone();
    let plan = set.auto.expect("samples = \"auto\"");
    assert_eq!((plan.precision, plan.first, plan.most), (8, 3, 10));
    assert_eq!(set.samples, 3, "the first round");
    assert_eq!(set.complete, 80);
    assert_eq!(set.combinations(), 6);
    let prices = crate::price::Prices::default();
    assert_eq!(set.most_credits(&prices), 2 * 10 * 5);
    let cost = set.cost_in_words(&prices);
    assert!(cost.starts_with("6 calls"), "{cost}");
    assert!(cost.contains("at fewest to 20 calls"), "{cost}");
    assert!(
        cost.contains("within ±8 points, at most 10 times"),
        "{cost}"
    );
    // Written back as it reads.
    workspace.replace_set("a", set.clone()).unwrap();
    let again = Workspace::parse(&path(), &workspace.to_text()).unwrap();
    assert_eq!(again.set("a"), Some(&set));
    // A fixed number again drops the automatic keys.
    let mut fixed = set.clone();
    fixed.auto = None;
    fixed.samples = 4;
    workspace.replace_set("a", fixed).unwrap();
    let written = workspace.to_text();
    assert!(written.contains("samples = 4"), "{written}");
    assert!(!written.contains("precision"), "{written}");
    for (text, expected) in [
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nsamples = \"auto\"\nmost = 2\n",
            "key `sets.samples`: 2 at most: every cell is asked 3 times first",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nsamples = \"auto\"\nprecision = 0\n",
            "key `sets.samples`: a precision of 0 points",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\nprecision = 5\n",
            "key `sets.precision`: applies to samples = \"auto\" only",
        ),
        (
            "[[sets]]\nname = \"a\"\nprompts = [\"x\"]\ncomplete = 0\n",
            "key `sets.complete`: should be the percent",
        ),
    ] {
        let error = Workspace::parse(&path(), text).unwrap_err().to_string();
        assert!(error.contains(expected), "{text}\n→ {error}");
    }
}
