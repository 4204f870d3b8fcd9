//! Every integration test file runs: `Cargo.toml` turns automatic test discovery off so the
//! files can share a few binaries (`tests/groups/`), and this checks that none is left out.

use std::path::Path;

#[test]
fn every_test_file_belongs_to_a_test_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let mut included = String::new();
    for entry in std::fs::read_dir(root.join("tests/groups")).unwrap() {
        included.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let in_group = included.contains(&format!("#[path = \"../{name}\"]"));
        let own_binary = manifest.contains(&format!("path = \"tests/{name}\""));
        if !in_group && !own_binary {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "not in any test binary: {missing:?}");
}
