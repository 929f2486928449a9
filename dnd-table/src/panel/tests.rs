use dnd_engine::adventure::Adventure;
use dnd_engine::rules::check::check_from;

use super::*;

fn record(label: &str, total: i64, roller: Option<Target>, detail: RollDetail) -> RollRecord {
    RollRecord::new(label, total, roller, detail)
}

fn kraven() -> Option<Target> {
    Some(Target::Character("kraven".into()))
}

#[test]
fn a_check_shows_its_total_the_dc_and_the_die() {
    let d20 = D20Roll::from_faces(12, None, Advantage::Normal);
    let check = check_from(d20, 2, 12);
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let line = roll_line(
        &record(
            "Kraven Perception check",
            14,
            kraven(),
            RollDetail::Check(check),
        ),
        &state,
    );
    assert_eq!(line.text, "Kraven Perception check: 14 vs DC 12 ✓");
    assert_eq!(line.detail, "d20 12 +2");
    assert_eq!(line.tone, Tone::Good);
}

#[test]
fn a_monsters_success_is_bad_news_whatever_its_label_says() {
    // The tone comes from who rolled, not from guessing a name at the start of the label.
    let d20 = D20Roll::from_faces(15, None, Advantage::Normal);
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let save = roll_line(
        &record(
            "Kraven's foe saves",
            17,
            Some(Target::Monster("frost-harpy".into())),
            RollDetail::Save(check_from(d20, 2, 13)),
        ),
        &state,
    );
    assert_eq!(save.tone, Tone::Bad);
    let recharge = roll_line(
        &record(
            "frost-harpy recharge (Song)",
            6,
            Some(Target::Monster("frost-harpy".into())),
            RollDetail::Recharge(dnd_engine::rules::RechargeRoll {
                action: "Song".into(),
                roll: 6,
                min: 5,
                recharged: true,
            }),
        ),
        &state,
    );
    assert_eq!(
        recharge.text,
        "frost-harpy recharge (Song): 6 on a d6 — recharged"
    );
    assert_eq!(recharge.tone, Tone::Bad);
}

#[test]
fn a_record_from_before_rolls_were_typed_shows_its_label_and_total() {
    let state = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let line = roll_line(
        &record(
            "Something odd",
            7,
            None,
            RollDetail::Legacy(serde_json::json!({"x": 1})),
        ),
        &state,
    );
    assert_eq!(line.text, "Something odd: 7");
}

#[test]
fn changes_show_hit_points_items_and_moves() {
    let before = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let exit = before.party_location().unwrap().exits[0].clone();
    let changes = vec![
        Change::Damage {
            target: Target::Character("kraven".into()),
            amount: 5,
            critical: false,
        },
        Change::Gold {
            character: "kraven".into(),
            delta: 10,
        },
        Change::PartyMoved {
            exit: exit.direction.clone(),
        },
    ];
    let mut after = before.clone();
    for c in &changes {
        if after.apply(c).is_err() {
            // A locked first exit: the panel still reads the change.
        }
    }
    let lines = change_lines(&changes, &before, &after);
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    let max = before.characters[0].hp.max;
    assert_eq!(texts[0], format!("Kraven: HP {max} → {} of {max}", max - 5));
    assert_eq!(texts[1], "Kraven: +10 gp");
    let title = &before.location(&exit.to).unwrap().title;
    assert_eq!(texts[2], format!("→ {title}"));
}

#[test]
fn slots_falls_exhaustion_and_doors_read_right() {
    use dnd_engine::rules::Condition;
    let before = Adventure::built_in().new_game(&["isolde"]).unwrap();
    let slots = before.characters[0].spell_slots.available(1);
    let harpy = before.monsters[0].id.clone();
    let changes = vec![
        Change::SlotSpent {
            character: "isolde".into(),
            level: 1,
        },
        Change::SlotSpent {
            character: "isolde".into(),
            level: 1,
        },
        Change::ConditionAdded {
            target: Target::Character("isolde".into()),
            condition: Condition::Exhaustion,
        },
        Change::ExitUnlocked {
            location: "throne-of-rime".into(),
            direction: "rime door".into(),
        },
        Change::Damage {
            target: Target::Monster(harpy.clone()),
            amount: 500,
            critical: false,
        },
    ];
    let mut after = before.clone();
    for c in &changes {
        let _ = after.apply(c);
    }
    let texts: Vec<String> = change_lines(&changes, &before, &after)
        .into_iter()
        .map(|l| l.text)
        .collect();
    // Each spend counts down: not the turn's end count twice.
    assert!(
        texts.contains(&format!(
            "Isolde Vane: a level-1 spell slot spent ({} left)",
            slots - 1
        )),
        "{texts:?}"
    );
    assert!(
        texts.contains(&format!(
            "Isolde Vane: a level-1 spell slot spent ({} left)",
            slots - 2
        )),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Isolde Vane has 1 level of exhaustion".to_owned()),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"unlocked: the rime door".to_owned()),
        "{texts:?}"
    );
    let name = &before.monsters[0].name;
    assert!(
        texts.contains(&format!("{name} takes 500 damage, and falls")),
        "{texts:?}"
    );
    // Struck again once dead: no damage to the dead, no second fall.
    let again = change_lines(&changes[4..], &after, &after);
    assert!(
        again.iter().all(|l| !l.text.contains(name.as_str())),
        "{again:?}"
    );
}

#[test]
fn coins_taken_show_once_as_gold() {
    let before = Adventure::built_in().new_game(&["kraven"]).unwrap();
    // What `add_inventory` does with coins: into the pack, out again, into the purse.
    let changes = vec![
        Change::ItemAdded {
            character: "kraven".into(),
            item: dnd_engine::state::ItemStack::new("Gold pieces", 14),
        },
        Change::ItemRemoved {
            character: "kraven".into(),
            item: "Gold pieces".into(),
            quantity: 14,
        },
        Change::Gold {
            character: "kraven".into(),
            delta: 14,
        },
    ];
    let mut after = before.clone();
    after.apply_all(&changes).unwrap();
    let lines = change_lines(&changes, &before, &after);
    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["Kraven: +14 gp"]);
}

#[test]
fn conditions_show_their_cause_time_left_and_what_ends_them() {
    use dnd_engine::rules::{Ability, Condition};
    use dnd_engine::state::{Hold, RepeatSave, TimedEffect, TimedKind};
    let mut before = Adventure::built_in()
        .new_game(&["kraven", "hedda"])
        .unwrap();
    before
        .apply(&Change::Concentration {
            character: "hedda".into(),
            spell: Some("Hold Person".into()),
        })
        .unwrap();
    let hold = TimedEffect {
        source: "hedda".into(),
        spell: "Hold Person".into(),
        target: "kraven".into(),
        concentration: true,
        rounds_left: Some(10),
        ends_on_damage: false,
        level: 2,
        at_turn_end: false,
        kind: TimedKind::Condition {
            condition: Condition::Paralyzed,
            repeat_save: Some(RepeatSave {
                ability: Ability::Wisdom,
                dc: 13,
            }),
        },
    };
    let started = [Change::TimedEffectStarted {
        effect: hold.clone(),
    }];
    let mut after = before.clone();
    after.apply_all(&started).unwrap();
    let lines = change_lines(&started, &before, &after);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].text, "Kraven is paralyzed");
    assert_eq!(
        lines[0].detail,
        "Hold Person, from Hedda Stonebrow; 10 rounds left; ends on a Wisdom save (DC 13) at the end of each of its turns, or Hedda Stonebrow's concentration ending"
    );
    // The save ends it.
    let ended = [Change::TimedEffectEnded { effect: hold }];
    let mut freed = after.clone();
    freed.apply_all(&ended).unwrap();
    let lines = change_lines(&ended, &after, &freed);
    assert_eq!(
        lines[0].text,
        "Kraven is no longer paralyzed (Hold Person ends)"
    );
    // A monster's hold: the charm names the song and the singer.
    let harpy = before.monsters[0].id.clone();
    let song = [
        Change::HoldStarted {
            monster: harpy.clone(),
            hold: Hold {
                action: "Luring Song".into(),
                target: "kraven".into(),
                conditions: vec![Condition::Charmed],
            },
        },
        Change::ConditionAdded {
            target: Target::Character("kraven".into()),
            condition: Condition::Charmed,
        },
    ];
    let mut charmed = before.clone();
    charmed.apply_all(&song).unwrap();
    let lines = change_lines(&song, &before, &charmed);
    let line = lines
        .iter()
        .find(|l| l.text == "Kraven is charmed")
        .unwrap();
    assert!(
        line.detail
            .starts_with("Luring Song, from Frost Harpy; ends on a save"),
        "{line:?}"
    );
    // The sheet lists the same texts.
    let kraven = charmed.character("kraven").unwrap();
    let sheet = crate::sheet::condition_lines(&charmed, kraven);
    assert!(
        sheet[0].starts_with("Condition: charmed (Luring Song, from Frost Harpy;"),
        "{sheet:?}"
    );
    let hedda = charmed.character("hedda").unwrap();
    assert_eq!(
        crate::sheet::condition_lines(&charmed, hedda),
        vec!["Conditions: none"]
    );
}

#[test]
fn xp_gained_shows_the_next_threshold_and_a_level_its_hit_points() {
    let before = Adventure::built_in().new_game(&["kraven"]).unwrap();
    let gained = Change::XpGained {
        character: "kraven".into(),
        amount: 200,
    };
    let mut after = before.clone();
    after.apply(&gained).unwrap();
    let lines = change_lines(std::slice::from_ref(&gained), &before, &after);
    assert_eq!(lines[0].text, "Kraven: +200 XP, 1100 XP (level 4 at 2700)");
    assert_eq!(lines[0].tone, Tone::Good);
    let up = dnd_engine::state::LevelUp {
        character: "kraven".into(),
        level: 4,
        hp_gained: 8,
        slots: None,
        pact_slots: None,
        spells_learned: Vec::new(),
        subclass: None,
        ability_increases: Vec::new(),
        feat: None,
        ..Default::default()
    };
    let lines = change_lines(&[Change::LevelledUp(Box::new(up))], &after, &after);
    assert_eq!(lines[0].text, "Kraven reaches level 4 (+8 max HP)");
}
