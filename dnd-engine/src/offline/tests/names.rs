//! The offline game master and player know no adventure by name: no title, room id or name,
//! NPC id or name, monster id or name, flag, puzzle id or answer, trap or object id, or ending
//! of a built-in adventure appears in the code of `offline/`. The list is taken from the
//! adventures' data, so it follows the data. The tests (`tests.rs`, `tests/`) are left out:
//! they play the built-in adventure on purpose.

use std::path::Path;

use serde_json::Value;

use crate::adventure::Adventure;

/// The built-in adventure, and every adventure file beside it in `src/adventure/` (where the
/// built-in ones are compiled from), so a second one is checked as soon as it is there.
fn built_ins() -> Vec<Adventure> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/adventure");
    let mut adventures = vec![Adventure::built_in()];
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("adventure/ reads")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let adventure = Adventure::load(&path).expect("a built-in adventure loads");
        if !adventures.contains(&adventure) {
            adventures.push(adventure);
        }
    }
    adventures
}

/// Every name the adventure's data gives, as the check looks for it.
fn names_of(adventure: &Adventure) -> Vec<String> {
    let mut names = vec![adventure.title.clone()];
    for room in &adventure.rooms {
        names.push(room.id.clone());
        names.push(room.title.clone());
        for f in &room.features {
            if f.trap.is_some() || f.object.is_some() {
                names.push(f.id.clone());
                names.push(f.name.clone());
            }
        }
        for m in &room.monsters {
            names.push(m.id.clone());
            names.extend(m.name.clone());
        }
    }
    for npc in &adventure.npcs {
        names.push(npc.id.clone());
        names.push(npc.name.clone());
    }
    names.extend(adventure.flags.keys().cloned());
    for p in &adventure.puzzles {
        names.push(p.id.clone());
        names.extend(p.answers.iter().cloned());
    }
    for e in &adventure.endings {
        names.push(e.id.clone());
        names.push(e.title.clone());
    }
    // Flags the story sets or waits on, wherever they are named (goal steps, effects).
    let json = serde_json::to_value(adventure).expect("an adventure serializes");
    flags_in(&json, &mut names);
    // Generic words shorter than four letters ("ice") say nothing about an adventure.
    names.retain(|n| n.chars().filter(|c| c.is_alphanumeric()).count() >= 4);
    names.sort();
    names.dedup();
    names
}

/// The values of every `flag` and `trigger_flag` key in the data.
fn flags_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if let ("flag" | "trigger_flag", Value::String(s)) = (key.as_str(), v) {
                    out.push(s.clone());
                }
                flags_in(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| flags_in(v, out)),
        _ => {}
    }
}

/// Where `name` stands in `text` as whole words, any case.
fn mentions(text: &str, name: &str) -> bool {
    let (text, name) = (text.to_lowercase(), name.to_lowercase());
    let part_of_word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let mut from = 0;
    while let Some(pos) = text[from..].find(&name) {
        let at = from + pos;
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        if !before.is_some_and(part_of_word) && !after.is_some_and(part_of_word) {
            return true;
        }
        from = at + name.len().max(1);
    }
    false
}

#[test]
fn the_offline_code_names_nothing_of_the_built_in_adventure() {
    let names: Vec<String> = built_ins().iter().flat_map(names_of).collect();
    assert!(names.len() > 20, "{names:?}");
    // The check finds a name where it stands, and only as whole words.
    let sample = format!("We go to {} now.", names[0].to_uppercase());
    assert!(mentions(&sample, &names[0]), "{sample}");
    assert!(!mentions(&format!("x{}x", names[0]), &names[0]));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/offline");
    let mut read = 0;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("offline/ reads") {
        let path = entry.expect("an entry").path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default();
        if path.is_dir() || !file.ends_with(".rs") || file == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        read += 1;
        for name in names.iter().filter(|n| mentions(&text, n)) {
            found.push(format!("{file}: {name:?}"));
        }
    }
    assert!(read >= 10, "only {read} files read in {}", dir.display());
    assert!(found.is_empty(), "adventure names in offline/: {found:#?}");
}
