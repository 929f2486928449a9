//! Preparing spells after a long rest (`prepare_spells`), as the SRD gives it: a cleric
//! prepares from the whole cleric list, as many as its Wisdom modifier + level, its domain
//! spells always prepared; a wizard from its spellbook, which keeps what it no longer
//! prepares and whose rituals it may cast unprepared; once after each long rest, never in a
//! fight; and a model that cheats with it, refused with what is allowed, changing nothing.

use serde_json::{Value, json};

use dnd_engine::llm::ToolCall;

#[path = "support/table.rs"]
mod table;
use table::Table;

fn prepare(who: &str, spells: &[&str]) -> Value {
    json!({"character": who, "spells": spells})
}

fn long_rest(t: &mut Table, who: &str) {
    t.ok(
        "update_character",
        json!({"character": who, "update": "long_rest", "condition": null, "amount": null}),
    );
}

fn names(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).unwrap()
}

/// Hedda (cleric 3, Wisdom 16) prepares six spells of levels 1-2 from the cleric list; Bless,
/// Cure Wounds, Lesser Restoration and Spiritual Weapon (Life domain) and her cantrips stay.
#[test]
fn a_cleric_prepares_from_the_whole_list_after_a_long_rest() {
    let mut t = Table::game(&["hedda"], 1);
    let listed = t.ok(
        "prepare_spells",
        json!({"character": "hedda", "spells": null}),
    );
    assert_eq!(listed["most"], 6, "{listed}");
    assert_eq!(listed["changed"], false);
    assert_eq!(listed["may_change_now"], true);
    let options = names(&listed["options"]);
    assert!(options.contains(&"Hold Person".to_owned()), "{options:?}");
    assert!(options.contains(&"Command".to_owned()), "{options:?}");
    // Nothing of 3rd level (no slot), nothing off the cleric list, no domain spell.
    for absent in ["Spirit Guardians", "Magic Missile", "Bless", "Sacred Flame"] {
        assert!(
            !options.contains(&absent.to_owned()),
            "{absent}: {options:?}"
        );
    }
    let chosen = [
        "Command",
        "Hold Person",
        "Healing Word",
        "Guiding Bolt",
        "Silence",
        "Aid",
    ];
    let done = t.ok("prepare_spells", prepare("hedda", &chosen));
    assert_eq!(done["changed"], true);
    let spells = t.state.character("hedda").unwrap().spells.clone();
    for kept in ["Sacred Flame", "Bless", "Cure Wounds", "Spiritual Weapon"] {
        assert!(spells.iter().any(|s| s == kept), "{kept}: {spells:?}");
    }
    for c in chosen {
        assert!(spells.iter().any(|s| s == c), "{c}: {spells:?}");
    }
    assert!(!spells.iter().any(|s| s == "Sanctuary"), "{spells:?}");
    // Once per long rest.
    let again = t.refused("prepare_spells", prepare("hedda", &["Sanctuary"]));
    assert!(again.contains("since its last long rest"), "{again}");
    long_rest(&mut t, "hedda");
    t.ok("prepare_spells", prepare("hedda", &["Sanctuary"]));
    let spells = &t.state.character("hedda").unwrap().spells;
    assert!(spells.iter().any(|s| s == "Sanctuary"), "{spells:?}");
    assert!(!spells.iter().any(|s| s == "Command"), "{spells:?}");
}

#[test]
fn what_may_not_be_prepared_is_refused_with_what_may() {
    let mut t = Table::game(&["hedda", "isolde", "kraven"], 2);
    let before = t.state.characters.clone();
    let cases = [
        (prepare("hedda", &["Aid", "Aid"]), "Aid is listed twice"),
        (
            prepare(
                "hedda",
                &[
                    "Aid",
                    "Command",
                    "Bane",
                    "Silence",
                    "Augury",
                    "Hold Person",
                    "Sanctuary",
                ],
            ),
            "at most 6 spells (Wisdom modifier + level), not 7",
        ),
        (
            prepare("hedda", &["Spirit Guardians"]),
            "a level-3 Cleric spell it has no slot for",
        ),
        (prepare("hedda", &["Magic Missile"]), "may prepare: "),
        (
            prepare("hedda", &["Guidance"]),
            "a cantrip is known, not prepared",
        ),
        (prepare("hedda", &["Bless"]), "always prepared"),
        (prepare("kraven", &["Bless"]), "casts no spells"),
        (prepare("isolde", &["Burning Hands"]), "spellbook"),
    ];
    for (args, want) in cases {
        let e = t.refused("prepare_spells", args.clone());
        assert!(e.contains(want), "{args}: {e}");
    }
    assert_eq!(t.state.characters, before);
    // Not in a fight.
    let mut fight = Table::fight(&["hedda"], &["hedda", "frost-harpy"], 3);
    let e = fight.refused("prepare_spells", prepare("hedda", &["Aid"]));
    assert!(e.contains("not in a fight"), "{e}");
}

/// Isolde (wizard 3) prepares two of her six spells; the other four stay in her spellbook and
/// may be prepared again after a rest; a ritual in her book is cast without preparing it.
#[test]
fn a_wizard_prepares_from_her_spellbook_and_casts_its_rituals() {
    let mut t = Table::game(&["isolde"], 4);
    t.ok(
        "prepare_spells",
        prepare("isolde", &["Magic Missile", "Shield"]),
    );
    let isolde = t.state.character("isolde").unwrap().clone();
    assert!(
        !isolde.spells.iter().any(|s| s == "Sleep"),
        "{:?}",
        isolde.spells
    );
    for kept in ["Sleep", "Mage Armor", "Misty Step", "Scorching Ray"] {
        assert!(isolde.spellbook.iter().any(|s| s == kept), "{kept}");
    }
    long_rest(&mut t, "isolde");
    t.ok(
        "prepare_spells",
        prepare("isolde", &["Sleep", "Misty Step"]),
    );
    let spells = &t.state.character("isolde").unwrap().spells;
    assert!(spells.iter().any(|s| s == "Sleep"), "{spells:?}");
    // A ritual written in the book, not prepared: castable as a ritual only.
    t.hero_mut("isolde").spellbook.push("Detect Magic".into());
    let slot = t.refused(
        "cast_spell",
        table::cast("isolde", "Detect Magic", None, &[]),
    );
    assert!(slot.contains("does not know Detect Magic"), "{slot}");
    let mut ritual = table::cast("isolde", "Detect Magic", None, &[]);
    ritual["ritual"] = json!(true);
    let cast = t.ok("cast_spell", ritual);
    assert!(cast.to_string().contains("Detect Magic"), "{cast}");
}

/// A scripted model prepares Hedda's spells in a fight, then twice after one rest: each is
/// refused but the first lawful one, and the sheet shows only that.
#[tokio::test]
async fn a_model_cheating_with_prepared_spells_is_refused() {
    let before = table::seen_harpy(&["hedda"]);
    let cheats = vec![
        ToolCall::new(
            "a",
            "prepare_spells",
            prepare("hedda", &["Command", "Bane"]),
        ),
        ToolCall::new("b", "prepare_spells", prepare("hedda", &["Aid"])),
        ToolCall::new("c", "prepare_spells", prepare("hedda", &["Fireball"])),
    ];
    let table::Played { results, after, .. } =
        table::scripted_turn(&before, cheats, "Hedda", "I pray for new spells.").await;
    assert_eq!(results.len(), 3, "{results:#?}");
    assert!(results[0].contains("\"changed\":true"), "{}", results[0]);
    assert!(
        results[1].contains("since its last long rest"),
        "{}",
        results[1]
    );
    assert!(results[2].contains("\"error\""), "{}", results[2]);
    let spells = &after.character("hedda").unwrap().spells;
    assert!(spells.iter().any(|s| s == "Bane"), "{spells:?}");
    assert!(!spells.iter().any(|s| s == "Aid"), "{spells:?}");
}
