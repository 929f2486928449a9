//! Starting campaigns: an adventure picked by name, its heroes by id or name, a campaign
//! created on a store under a name no other campaign has.

use dnd_engine::adventure::Adventure;
use dnd_engine::state::GameState;
use dnd_engine::store::{CampaignId, CampaignInfo, GameStore};

use crate::storage;

/// The built-in adventure called `name` ("wailing-glacier", "wendle-hollow"), or the default
/// when none is given. Never a file: a name from a web request must not read the disk.
pub fn built_in_adventure(name: Option<&str>) -> Result<Adventure, String> {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        None => Ok(Adventure::built_in()),
        Some(name) => Adventure::built_in_named(name).ok_or_else(|| {
            format!(
                "no built-in adventure {name:?}; the adventures are: {}",
                Adventure::BUILT_IN.join(", ")
            )
        }),
    }
}

/// The ids of `adventure`'s pregenerated heroes named by `wanted` (each an id or a name, any
/// case; no hero twice); its first (default) hero when `wanted` is empty.
pub fn pick_heroes(adventure: &Adventure, wanted: &[String]) -> Result<Vec<String>, String> {
    let all: Vec<(&str, &str)> = adventure
        .characters
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str()))
        .collect();
    let choices = || {
        all.iter()
            .map(|(id, name)| format!("{id} ({name})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if wanted.is_empty() {
        return all
            .first()
            .map(|(id, _)| vec![(*id).to_owned()])
            .ok_or_else(|| format!("{} has no pregenerated heroes to play", adventure.title));
    }
    let mut ids: Vec<String> = Vec::with_capacity(wanted.len());
    for hero in wanted {
        let hero = hero.trim();
        let found = all.iter().find(|(id, name)| {
            id.eq_ignore_ascii_case(hero)
                || name.eq_ignore_ascii_case(hero)
                || name
                    .split_whitespace()
                    .next()
                    .is_some_and(|first| first.eq_ignore_ascii_case(hero))
        });
        let Some((id, _)) = found else {
            return Err(format!(
                "no hero {hero:?} in {}; choose from: {}",
                adventure.title,
                choices()
            ));
        };
        if ids.iter().any(|i| i == id) {
            return Err(format!("{id} is named twice; each seat needs its own hero"));
        }
        ids.push((*id).to_owned());
    }
    Ok(ids)
}

/// A name no campaign in `campaigns` has: `base-1`, `base-2`, ...
pub fn unused_name(campaigns: &[CampaignInfo], base: &str) -> String {
    (1..)
        .map(|n| format!("{base}-{n}"))
        .find(|name| storage::named(campaigns, name).is_empty())
        .unwrap_or_else(|| base.to_owned())
}

/// Creates a campaign of `adventure` with the heroes `heroes` (ids) on `store`, named after the
/// first hero (`kraven-1`, ...): its id, name and first state.
pub async fn new_campaign(
    store: &dyn GameStore,
    adventure: &Adventure,
    heroes: &[String],
) -> Result<(CampaignId, String, GameState), String> {
    let party: Vec<&str> = heroes.iter().map(String::as_str).collect();
    let state = adventure.new_game(&party).map_err(|e| e.to_string())?;
    let campaigns = store.list_campaigns().await.map_err(|e| e.to_string())?;
    let name = unused_name(&campaigns, party.first().copied().unwrap_or("party"));
    let id = store
        .create_campaign(&name, &state)
        .await
        .map_err(|e| e.to_string())?;
    Ok((id, name, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heroes_are_found_by_id_or_name_and_never_twice() {
        let adventure = Adventure::built_in();
        assert_eq!(pick_heroes(&adventure, &[]).unwrap(), ["kraven"]);
        let ids = pick_heroes(&adventure, &["ISOLDE".into(), "kraven".into()]).unwrap();
        assert_eq!(ids, ["isolde", "kraven"]);
        let twice = pick_heroes(&adventure, &["kraven".into(), "Kraven".into()]).unwrap_err();
        assert!(twice.contains("twice"), "{twice}");
        let unknown = pick_heroes(&adventure, &["gandalf".into()]).unwrap_err();
        assert!(
            unknown.contains("choose from") && unknown.contains("kraven"),
            "{unknown}"
        );
    }

    #[test]
    fn an_adventure_is_a_built_in_name_never_a_path() {
        assert!(built_in_adventure(Some("wendle-hollow")).is_ok());
        let path = built_in_adventure(Some("/etc/passwd")).unwrap_err();
        assert!(path.contains("wailing-glacier"), "{path}");
    }
}
