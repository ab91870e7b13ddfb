//! The ranges, lengths and patterns the server's validation enforces, written into the document from
//! the same constants the validation uses, so that the two cannot drift apart: a client (or a fuzzer)
//! that keeps to the document is not refused for the shape of what it sends.

use utoipa::Modify;
use utoipa::openapi::path::ParameterIn;
use utoipa::openapi::schema::{Object, Schema};
use utoipa::openapi::{OpenApi, RefOr};

use crate::password;
use crate::rooms::chat::MAX_CHAT_CHARS;
use crate::routes::accounts::USERNAME_CHARS;
use crate::routes::leaderboard::MAX_DAYS;
use crate::routes::players::MAX_NAME_CHARS;
use crate::settings::{PLAYERS, TURN_TIME_RANGE};

/// A display name: up to [`MAX_NAME_CHARS`] characters, no control character, something visible (what
/// `routes::players::display_name` checks; surrounding spaces are trimmed first).
fn display_name(field: &mut Object) {
    field.min_length = Some(1);
    field.max_length = Some(MAX_NAME_CHARS);
    field.pattern =
        Some(r"^[^\x00-\x1F\x7F-\x9F]*[^\s\x00-\x1F\x7F-\x9F][^\x00-\x1F\x7F-\x9F]*$".to_owned());
}

/// A new password: [`password::MIN_CHARS`] to [`password::MAX_CHARS`] characters.
fn new_password(field: &mut Object) {
    field.min_length = Some(password::MIN_CHARS);
    field.max_length = Some(password::MAX_CHARS);
}

/// Writes the constraints into `openapi` (see the module's documentation).
pub struct Constraints;

impl Modify for Constraints {
    fn modify(&self, openapi: &mut OpenApi) {
        for schema in [
            "CreatePlayerRequest",
            "RenamePlayerRequest",
            "AddLocalPlayerRequest",
        ] {
            property(openapi, schema, "display_name", display_name);
        }
        property(openapi, "CredentialsRequest", "username", |field| {
            // Letters, digits, `_`, `-` and `.`, spaces around them trimmed.
            field.pattern = Some(format!(
                r"^\s*[A-Za-z0-9_.\-]{{{},{}}}\s*$",
                USERNAME_CHARS.start(),
                USERNAME_CHARS.end()
            ));
        });
        property(openapi, "CredentialsRequest", "password", new_password);
        property(
            openapi,
            "ChangePasswordRequest",
            "new_password",
            new_password,
        );
        for schema in ["CreateRoomRequest", "QuickMatchRequest"] {
            property(openapi, schema, "players", |field| {
                field.minimum = Some((*PLAYERS.start()).into());
                field.maximum = Some((*PLAYERS.end()).into());
            });
        }
        property(openapi, "CreateRoomRequest", "turn_time_secs", |field| {
            field.minimum = Some((*TURN_TIME_RANGE.start()).into());
            field.maximum = Some((*TURN_TIME_RANGE.end()).into());
        });
        // An empty password is no password (`password_required`).
        property(openapi, "EraseRequest", "password", |field| {
            field.min_length = Some(1)
        });
        property(openapi, "ReportRequest", "reason", |field| {
            field.max_length = Some(MAX_CHAT_CHARS);
        });
        query_parameter(openapi, "/api/leaderboard", "days", |field| {
            field.minimum = Some(1.into());
            field.maximum = Some(MAX_DAYS.into());
        });
    }
}

/// The schema of `field` in the component `schema`, given to `change`. Panics when there is none: the
/// document's test then names what was renamed.
fn property(openapi: &mut OpenApi, schema: &str, field: &str, change: impl FnOnce(&mut Object)) {
    let object = openapi
        .components
        .as_mut()
        .and_then(|c| c.schemas.get_mut(schema))
        .and_then(|s| match s {
            RefOr::T(Schema::Object(object)) => Some(object),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no object schema {schema}"));
    match object.properties.get_mut(field) {
        Some(RefOr::T(Schema::Object(field))) => change(field),
        _ => panic!("{schema} has no plain field {field}"),
    }
}

/// The schema of the query parameter `name` of `GET path`, given to `change`.
fn query_parameter(
    openapi: &mut OpenApi,
    path: &str,
    name: &str,
    change: impl FnOnce(&mut Object),
) {
    let parameter = openapi
        .paths
        .paths
        .get_mut(path)
        .and_then(|item| item.get.as_mut())
        .and_then(|operation| operation.parameters.as_mut())
        .and_then(|parameters| {
            parameters.iter_mut().find_map(|p| match p {
                RefOr::T(p) if p.name == name && p.parameter_in == ParameterIn::Query => Some(p),
                _ => None,
            })
        })
        .unwrap_or_else(|| panic!("GET {path} has no query parameter {name}"));
    match parameter.schema.as_mut() {
        Some(RefOr::T(Schema::Object(field))) => change(field),
        _ => panic!("GET {path}'s {name} is not a plain schema"),
    }
}
