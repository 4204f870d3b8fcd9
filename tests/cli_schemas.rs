//! The files a user writes, held to what vantage prints of them: `vantage schema` accepts
//! every file the documentation shows and refuses mistakes; `vantage keys` prints the keys in
//! effect and refuses a broken keys.toml.

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

fn schema_of(file: &str) -> jsonschema::Validator {
    let out = Command::new(env!("CARGO_BIN_EXE_vantage"))
        .args(["schema", file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    jsonschema::options().build(&schema).unwrap()
}

fn toml_as_json(text: &str) -> Value {
    serde_json::to_value(toml::from_str::<toml::Value>(text).unwrap()).unwrap()
}

/// The README and the pages of docs/, as one text: the TOML files they show.
fn documented_text() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
        .iter()
        .map(|page| std::fs::read_to_string(page).unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `vantage schema workspace|config` print JSON Schemas an editor can check a file with:
/// every workspace file the documentation shows and every key of the config pass, a
/// mistake does not.
#[test]
fn the_schemas_accept_the_documented_files_and_refuse_mistakes() {
    let workspace = schema_of("workspace");
    let documented = documented_text();
    // Every TOML block of the documentation that is a workspace file.
    let blocks: Vec<&str> = documented
        .split("```toml\n")
        .skip(1)
        .filter_map(|rest| rest.split("\n```").next())
        .filter(|b| b.contains("[[brands]]") || b.contains("[[sets]]"))
        .collect();
    assert!(blocks.len() >= 2, "{blocks:?}");
    for block in &blocks {
        // The alert example has "…" where the set's keys go.
        let block = block.replace(
            "# …prompts, models, locations, brands as above",
            "prompts = [\"a\"]",
        );
        let value = toml_as_json(&block);
        let errors: Vec<String> = workspace
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?} in\n{block}");
    }
    for wrong in [
        "[[sets]]\nname = \"s\"\nprompts = [\"a\"]\n[[sets.alerts]]\nbrand = \"X\"\nmeasure = \"visibility\"\nbelow = 3\nabove = 9\n",
        "[[sets]]\nname = \"s\"\nprompts = [\"a\"]\nmodels = [\"gpt-5\"]\n",
        "[[sets]]\nname = \"s\"\n",
        "webhook = \"ftp://example.com\"\n",
    ] {
        assert!(!workspace.is_valid(&toml_as_json(wrong)), "{wrong}");
    }
    let config = schema_of("config");
    let every_key = "render_url = \"https://a.example\"\nsearch_url = \"https://a.example\"\ntoken = \"t\"\ntimeout_secs = 30\nproxy_host = \"p\"\nisp_proxy_host = \"i\"\nproxy_username = \"u\"\nproxy_key = \"k\"\nhistory_max_entries = 100\nreading_width = 90\ntheme = \"light\"\n[prices]\nai = 5\nsearch = 1\nbrowser = 1\nusage = 0\nridiculous_speed = 2\n";
    assert!(config.is_valid(&toml_as_json(every_key)));
    assert!(!config.is_valid(&toml_as_json("colour = \"blue\"\n")));
    assert!(!config.is_valid(&toml_as_json("[prices]\ngpt = 5\n")));
    assert!(!config.is_valid(&toml_as_json("[prices]\nai = -5\n")));
    // The same file is one vantage reads: the schema names the keys the config takes.
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("config.toml");
    std::fs::write(&file, every_key).unwrap();
    let read = Command::new(env!("CARGO_BIN_EXE_vantage"))
        .env("VANTAGE_CONFIG", &file)
        .env("VANTAGE_DATA_DIR", dir.path().join("data"))
        .env_remove("VANTAGE_TOKEN")
        .env_remove("MASSIVE_TOKEN")
        .args(["--demo", "history"])
        .output()
        .unwrap();
    assert_eq!(read.status.code(), Some(0), "{read:?}");
}

/// `vantage schema keys|theme` are written from the keymap table and the theme's styles:
/// the template of every default and the documentation's files pass, a mistake does not.
#[test]
fn the_keys_and_theme_schemas_accept_the_template_and_the_documented_files() {
    let keys = schema_of("keys");
    let template = Command::new(env!("CARGO_BIN_EXE_vantage"))
        .args(["keys", "--template"])
        .output()
        .unwrap();
    assert_eq!(template.status.code(), Some(0));
    // The template with every line uncommented is the defaults, written out.
    let uncommented: String = String::from_utf8(template.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| match line.strip_prefix("# ") {
            Some(rest) if rest.contains(" = ") => rest.split("  # ").next(),
            _ if line.starts_with('[') => Some(line),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let errors: Vec<String> = keys
        .iter_errors(&toml_as_json(&uncommented))
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let documented = documented_text();
    let block = |marker: &str| -> String {
        documented
            .split("```toml\n")
            .skip(1)
            .filter_map(|rest| rest.split("\n```").next())
            .find(|b| b.starts_with(marker))
            .unwrap_or_else(|| panic!("no documented block starting with {marker}"))
            .to_string()
    };
    assert!(keys.is_valid(&toml_as_json(&block("# keys.toml"))));
    assert!(!keys.is_valid(&toml_as_json("[normal]\nquitt = \"Q\"\n")));
    assert!(keys.is_valid(&toml_as_json("[chat]\nsend = \"ctrl-s\"\n")));
    assert!(!keys.is_valid(&toml_as_json("[jobs]\nsend = \"ctrl-s\"\n")));
    assert!(!keys.is_valid(&toml_as_json("[nromal]\nquit = \"Q\"\n")));
    let theme = schema_of("theme");
    assert!(theme.is_valid(&toml_as_json(&block("# paper.toml"))));
    assert!(!theme.is_valid(&toml_as_json("acent = { fg = \"red\" }\n")));
    assert!(!theme.is_valid(&toml_as_json("base = \"sepia\"\n")));
}

/// `vantage keys` prints the keys in effect: the file's where it moved them; a broken file
/// is named by line on stderr, the defaults printed, and the exit code says so.
#[test]
fn vantage_keys_prints_the_keys_in_effect_and_refuses_a_broken_file() {
    let dir = TempDir::new().unwrap();
    let config = dir.path().join("config.toml");
    let keys = |file: &str| {
        std::fs::write(dir.path().join("keys.toml"), file).unwrap();
        Command::new(env!("CARGO_BIN_EXE_vantage"))
            .env("VANTAGE_CONFIG", &config)
            .env("VANTAGE_DATA_DIR", dir.path().join("data"))
            .arg("keys")
            .output()
            .unwrap()
    };
    let moved = keys("[normal]\nquit = \"Q\"\n");
    assert_eq!(moved.status.code(), Some(0), "{moved:?}");
    let table = String::from_utf8(moved.stdout).unwrap();
    assert!(table.contains("| Q | `quit` | quit |"), "{table}");
    assert!(!table.contains("| q | `quit` |"), "{table}");
    assert!(table.contains("keys.toml"), "{table}");
    let broken = keys("[normal]\nquit = \"Q\"\nhelp = \"Q\"\n");
    assert_eq!(broken.status.code(), Some(2), "{broken:?}");
    let said = String::from_utf8(broken.stderr).unwrap();
    assert!(said.contains("line 3, at `help`"), "{said}");
    assert!(
        String::from_utf8(broken.stdout)
            .unwrap()
            .contains("| q | `quit` | quit |")
    );
}
