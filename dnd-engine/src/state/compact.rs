//! The compact texts the snapshot and the tool results use for what a narrator reads at a
//! glance: hit points ("21/28", "21/28 +5 temp"), item stacks ("Javelin ×4"), an inventory
//! ("Javelin ×4, Rope, hempen (50 feet), Torch") and exits ("north → ice-bridge (locked)").
//! Each is written here and read back here only, so a reader (the offline game master) and a
//! writer cannot drift apart.

use super::ItemStack;

/// "21/28".
pub fn hit_points(current: u32, max: u32) -> String {
    format!("{current}/{max}")
}

/// "21/28", or "21/28 +5 temp" with temporary hit points.
pub fn hit_points_with_temporary(current: u32, max: u32, temporary: u32) -> String {
    if temporary > 0 {
        format!("{current}/{max} +{temporary} temp")
    } else {
        hit_points(current, max)
    }
}

/// Reads [`hit_points`] or [`hit_points_with_temporary`] back: (current, max).
pub fn read_hit_points(text: &str) -> Option<(u32, u32)> {
    let first = text.split_whitespace().next()?;
    let (current, max) = first.split_once('/')?;
    Some((current.parse().ok()?, max.parse().ok()?))
}

/// "Javelin ×4" (loose loot always shows its count).
pub fn stack(name: &str, quantity: u32) -> String {
    format!("{name} ×{quantity}")
}

/// Reads [`stack`] back; a name without a count is one.
pub fn read_stack(text: &str) -> (String, u32) {
    match text.rsplit_once(" ×") {
        Some((name, n)) => match n.parse::<u32>() {
            Ok(n) => (name.to_owned(), n),
            Err(_) => (text.to_owned(), 1),
        },
        None => (text.to_owned(), 1),
    }
}

/// An inventory: each stack, its count shown when more than one, joined by ", ".
pub fn items(stacks: &[ItemStack]) -> String {
    stacks
        .iter()
        .map(|s| {
            if s.quantity == 1 {
                s.name.clone()
            } else {
                stack(&s.name, s.quantity)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads [`items`] back. A comma followed by a lower-case word belongs to the name before it
/// ("Rope, hempen (50 feet)"), as item names are capitalised.
pub fn read_items(text: &str) -> Vec<(String, u32)> {
    let mut names: Vec<String> = Vec::new();
    for piece in text.split(", ") {
        let starts_lower = piece.chars().next().is_some_and(char::is_lowercase);
        match names.last_mut() {
            Some(last) if starts_lower => {
                last.push_str(", ");
                last.push_str(piece);
            }
            _ if piece.trim().is_empty() => {}
            _ => names.push(piece.to_owned()),
        }
    }
    names.iter().map(|n| read_stack(n)).collect()
}

/// A condition with its cause: "paralyzed (Hold Person, from Hedda; 10 rounds left; ends on a
/// Wisdom save (DC 13) at the end of each of its turns)", "prone (a situation; ends on standing
/// up (half its movement))", "exhaustion (level 2; ends on a long rest, one level)".
pub fn condition(c: &super::ConditionSource) -> String {
    format!("{} ({})", c.condition.name(), condition_cause(c))
}

/// The cause part of [`condition`], for a reader that names the condition itself (the `play`
/// panel): "Hold Person, from Hedda; 10 rounds left; ends on ...".
pub fn condition_cause(c: &super::ConditionSource) -> String {
    let mut text = c.source.clone();
    match c.rounds_left {
        Some(1) => text.push_str("; 1 round left"),
        Some(n) => text.push_str(&format!("; {n} rounds left")),
        None => {}
    }
    if let Some(ends) = &c.ends {
        text.push_str("; ends on ");
        text.push_str(ends);
    }
    text
}

/// Reads [`condition`] back: the condition it names, if it names one (not "dying", "dead" or
/// another timed effect's text).
pub fn read_condition(text: &str) -> Option<crate::rules::Condition> {
    let name = text.split_once(" (").map_or(text, |(name, _)| name);
    crate::rules::Condition::parse(name)
}

/// "north → ice-bridge", with " (locked)" when locked.
pub fn exit(direction: &str, to: &str, locked: bool) -> String {
    let lock = if locked { " (locked)" } else { "" };
    format!("{direction} → {to}{lock}")
}

/// Reads [`exit`] back: (direction, the room it leads to, locked).
pub fn read_exit(text: &str) -> Option<(String, String, bool)> {
    let (direction, rest) = text.split_once(" → ")?;
    let to = rest.strip_suffix(" (locked)");
    Some((
        direction.to_owned(),
        to.unwrap_or(rest).to_owned(),
        to.is_some(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_reads_back_as_written() {
        assert_eq!(read_hit_points(&hit_points(21, 28)), Some((21, 28)));
        assert_eq!(
            read_hit_points(&hit_points_with_temporary(21, 28, 5)),
            Some((21, 28))
        );
        assert_eq!(read_hit_points("dead"), None);
        assert_eq!(read_stack(&stack("Javelin", 4)), ("Javelin".into(), 4));
        assert_eq!(read_stack("Torch"), ("Torch".into(), 1));
        let pack = [
            ItemStack {
                name: "Javelin".into(),
                quantity: 4,
                note: String::new(),
                magic: None,
                used_today: 0,
            },
            ItemStack {
                name: "Rope, hempen (50 feet)".into(),
                quantity: 1,
                note: String::new(),
                magic: None,
                used_today: 0,
            },
            ItemStack {
                name: "Torch".into(),
                quantity: 5,
                note: String::new(),
                magic: None,
                used_today: 0,
            },
        ];
        assert_eq!(
            read_items(&items(&pack)),
            vec![
                ("Javelin".into(), 4),
                ("Rope, hempen (50 feet)".into(), 1),
                ("Torch".into(), 5)
            ]
        );
        assert_eq!(read_items(""), Vec::<(String, u32)>::new());
        assert_eq!(
            read_exit(&exit("rime door", "glacier-heart", true)),
            Some(("rime door".into(), "glacier-heart".into(), true))
        );
        assert_eq!(
            read_exit(&exit("east", "hall-of-echoes", false)),
            Some(("east".into(), "hall-of-echoes".into(), false))
        );
    }
}
