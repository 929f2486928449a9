//! The routes: health, the OpenAPI document, the page's files, and the campaigns (create, list,
//! read, delete, undo). Turns, actions and the event stream are in `turns.rs`.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use dnd_engine::adventure::Adventure;
use dnd_engine::gm::Protocol;
use dnd_engine::state::DiceSeed;
use dnd_engine::store::{CampaignId, StoreError};
use serde::Deserialize;
use serde_json::json;

use crate::error::{ApiError, RawBody, parse_body};
use crate::live::{Frame, Live, unix_now};
use crate::seats::{Seat, Table, new_token, presented};
use crate::{Server, fair, turns, view};

/// The OpenAPI 3.1 document of the API.
pub const OPENAPI: &str = include_str!("../openapi.json");

/// Every route, with the shared server as state.
pub fn router() -> Router<Arc<Server>> {
    Router::new()
        .route("/", get(page))
        .route("/play/{id}", get(page))
        .route("/app.js", get(app_js))
        .route("/panels.js", get(panels_js))
        .route("/style.css", get(style_css))
        .route("/api/health", get(health))
        .route("/api/openapi.json", get(openapi))
        .route("/api/adventures", get(adventures))
        .route("/api/campaigns", post(create).get(list))
        .route("/api/campaigns/{id}", get(read).delete(delete))
        .route("/api/campaigns/{id}/turns", post(turns::turn))
        .route("/api/campaigns/{id}/actions", post(turns::action))
        .route("/api/campaigns/{id}/undo", post(undo))
        .route("/api/campaigns/{id}/events", get(turns::events))
        .route(
            "/api/campaigns/{id}/fair",
            get(fair::status).post(fair::turn_on),
        )
        .route(
            "/api/campaigns/{id}/fair/client-seed",
            post(fair::client_seed),
        )
        .route("/api/campaigns/{id}/fair/reveal", post(fair::reveal))
        .route("/api/campaigns/{id}/fair/log", get(fair::log))
        .route(
            "/api/campaigns/{id}/fair/verify",
            get(fair::verify_campaign),
        )
        .route("/api/fair/verify", post(fair::verify_posted))
        .fallback(not_found)
}

fn file(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn page() -> Response {
    file(
        "text/html; charset=utf-8",
        include_str!("../web/index.html"),
    )
}

async fn app_js() -> Response {
    file(
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    )
}

async fn panels_js() -> Response {
    file(
        "text/javascript; charset=utf-8",
        include_str!("../web/panels.js"),
    )
}

async fn style_css() -> Response {
    file("text/css; charset=utf-8", include_str!("../web/style.css"))
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such route; /api/openapi.json lists the API's",
    )
}

async fn health() -> Json<serde_json::Value> {
    Json(json!({"status": "ok"}))
}

async fn openapi() -> Response {
    file("application/json", OPENAPI)
}

/// The built-in adventures and their heroes' ids.
async fn adventures() -> Json<serde_json::Value> {
    let list: Vec<_> = Adventure::BUILT_IN
        .iter()
        .filter_map(|id| Adventure::built_in_named(id).map(|a| (id, a)))
        .map(|(id, a)| {
            json!({
                "id": id,
                "title": a.title,
                "heroes": a.character_ids(),
            })
        })
        .collect();
    Json(json!(list))
}

impl Server {
    /// The live part of campaign `id` (made on first use).
    pub fn live_of(&self, id: &str) -> Arc<Live> {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(live.entry(id.to_owned()).or_default())
    }

    /// The table of campaign `id` and the caller's seat: 404 for an unknown campaign, 401
    /// without a token, 403 with none of its seats' tokens.
    pub async fn authorize(
        &self,
        id: &str,
        headers: &HeaderMap,
    ) -> Result<(Table, Seat), ApiError> {
        let table = self
            .tables
            .table(id)
            .await?
            .ok_or_else(|| ApiError::campaign_not_found(id))?;
        let tokens = presented(headers)?;
        let seat = table.seat_of(&tokens)?.clone();
        Ok((table, seat))
    }
}

/// `POST /api/campaigns`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewCampaign {
    adventure: Option<String>,
    #[serde(default)]
    heroes: Vec<String>,
    protocol: Option<String>,
    seed: Option<u64>,
    #[serde(default)]
    companions: bool,
}

fn protocol(name: Option<&str>) -> Result<Protocol, ApiError> {
    Ok(match name.map(str::trim) {
        None | Some("two_phase" | "two-phase") => Protocol::TwoPhase,
        Some("plain" | "tool_loop" | "tool-loop") => Protocol::ToolLoop,
        Some("strict_json" | "strict-json") => Protocol::StrictJson,
        Some(other) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad_protocol",
                format!(
                    "no protocol {:?}; the protocols are two_phase (the default: narration, then \
                     suggested actions with odds), plain (narration with tools alone) and \
                     strict_json",
                    crate::short(other)
                ),
            ));
        }
    })
}

async fn create(
    State(server): State<Arc<Server>>,
    RawBody(body): RawBody,
) -> Result<Response, ApiError> {
    let request: NewCampaign = parse_body(&body)?;
    let unprocessable =
        |code, message: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message);
    if request.heroes.len() > 4 {
        return Err(unprocessable(
            "too_many_heroes",
            format!(
                "{} heroes were named; a campaign seats 1 to 4",
                request.heroes.len()
            ),
        ));
    }
    let protocol = protocol(request.protocol.as_deref())?;
    let adventure = dnd_table::campaign::built_in_adventure(request.adventure.as_deref())
        .map_err(|e| unprocessable("unknown_adventure", e))?;
    let adventure_id = request
        .adventure
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .unwrap_or(Adventure::BUILT_IN[0])
        .to_owned();
    let mut heroes = dnd_table::campaign::pick_heroes(&adventure, &request.heroes)
        .map_err(|e| unprocessable("unknown_hero", e))?;
    let humans = heroes.len();
    if request.companions {
        // The adventure's other heroes fill the empty seats, up to four.
        for id in adventure.character_ids() {
            if heroes.len() < 4 && !heroes.iter().any(|h| h == id) {
                heroes.push(id.to_owned());
            }
        }
    }
    let party: Vec<&str> = heroes.iter().map(String::as_str).collect();
    let mut initial = adventure
        .new_game(&party)
        .map_err(|e| unprocessable("bad_party", e.to_string()))?;
    if let Some(seed) = request.seed.or(server.seed) {
        // The campaign's own seed: its turns replay the same dice.
        initial.dice_seed = DiceSeed(seed.max(1));
    }
    let mut seats = Vec::with_capacity(heroes.len());
    for (i, id) in heroes.iter().enumerate() {
        let hero = initial
            .character(id)
            .map_or_else(|| id.clone(), |c| c.name.clone());
        let token = if i < humans { Some(new_token()?) } else { None };
        seats.push(Seat {
            hero,
            hero_id: id.clone(),
            token,
            token_sha256: None,
        });
    }
    let name = {
        let campaigns = server
            .store
            .list_campaigns()
            .await
            .map_err(|e| ApiError::internal(e.to_string()))?;
        dnd_table::campaign::unused_name(&campaigns, &heroes[0])
    };
    let campaign = server
        .store
        .create_campaign(&name, &initial)
        .await
        .map_err(|e| ApiError::internal(format!("cannot create the campaign: {e}")))?;
    let table = Table {
        adventure: adventure_id,
        protocol,
        seats,
        created: unix_now(),
    };
    if let Err(e) = server.tables.insert(&campaign.0, &table).await {
        // No campaign without its seats: nobody could ever open it.
        let _ = server.store.delete(&campaign).await;
        return Err(e);
    }
    let view = view::build(&server, &campaign.0, &table, table.seats.first()).await?;
    let seats: Vec<_> = table
        .seats
        .iter()
        .filter_map(|s| {
            s.token.as_ref().map(|token| {
                json!({
                    "hero": s.hero,
                    "hero_id": s.hero_id,
                    "token": token,
                    "link": format!("/play/{}#{token}", campaign.0),
                })
            })
        })
        .collect();
    let body = json!({"id": campaign.0, "seats": seats, "view": view});
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/campaigns`: the campaigns whose tokens the caller presents.
async fn list(
    State(server): State<Arc<Server>>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let tokens = presented(&headers)?;
    let mine = server.tables.mine(&tokens).await?;
    let mut out = Vec::with_capacity(mine.len());
    for (id, table) in mine {
        let turn = match server.store.load(&CampaignId(id.clone())).await {
            Ok(state) => state.turn,
            // Deleted from the store behind the server's back: not listed.
            Err(StoreError::NotFound(_)) => continue,
            Err(e) => return Err(ApiError::internal(e.to_string())),
        };
        let updated = server
            .live_of(&id)
            .updated
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or(table.created);
        out.push(json!({
            "id": id,
            "adventure": table.adventure,
            "heroes": table.seats.iter().map(|s| s.hero.as_str()).collect::<Vec<_>>(),
            "turn": turn,
            "updated": updated,
        }));
    }
    Ok(Json(json!(out)))
}

/// `GET /api/campaigns/{id}`.
async fn read(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<view::View>, ApiError> {
    let (table, seat) = server.authorize(&id, &headers).await?;
    Ok(Json(view::build(&server, &id, &table, Some(&seat)).await?))
}

/// `DELETE /api/campaigns/{id}`: not while a turn plays.
async fn delete(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    server.authorize(&id, &headers).await?;
    let live = server.live_of(&id);
    let _turn = live.try_lock()?;
    match server.store.delete(&CampaignId(id.clone())).await {
        Ok(()) | Err(StoreError::NotFound(_)) => {}
        Err(e) => return Err(ApiError::internal(e.to_string())),
    }
    server.tables.remove(&id).await?;
    server
        .live
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/campaigns/{id}/undo`: takes back the last turn in effect.
async fn undo(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<view::View>, ApiError> {
    let (table, seat) = server.authorize(&id, &headers).await?;
    let live = server.live_of(&id);
    let _turn = live.try_lock()?;
    // A revealed fair-dice seed is public: undoing its reveal would put it back in force.
    if let Err(e) = dnd_engine::fair::check_undo(&*server.store, &CampaignId(id.clone()), 1).await {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "fair_refused",
            e.to_string(),
        ));
    }
    match server.store.undo(&CampaignId(id.clone()), 1).await {
        Ok(_) => {}
        Err(StoreError::NothingToUndo { .. }) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "nothing_to_undo",
                "no turn has been played yet, so there is nothing to undo",
            ));
        }
        Err(e) => return Err(ApiError::internal(e.to_string())),
    }
    *live.suggestions.lock().unwrap_or_else(|e| e.into_inner()) = Default::default();
    live.touch();
    let shared = view::build(&server, &id, &table, None).await?;
    let _ = live.events.send(Frame::new(
        "view",
        serde_json::to_value(&shared).unwrap_or_default(),
    ));
    Ok(Json(shared.for_seat(&seat)))
}
