//! The answers a route gives because of what it is rather than what it does: a body to read, a token to
//! check, an id in its path, a query to parse, a write to count, a database to reach. Each operation gets
//! them in its responses unless it documents that status itself, so the document lists every status the
//! server may send (the routes' own annotations say the rest).

use utoipa::Modify;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::response::ResponseBuilder;
use utoipa::openapi::{Content, Ref, RefOr};

/// Adds the generic answers to every operation (see the module's documentation).
pub struct CommonAnswers;

impl Modify for CommonAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations = [
                (false, &mut item.get),
                (true, &mut item.post),
                (true, &mut item.put),
                (true, &mut item.patch),
                (true, &mut item.delete),
            ];
            for (write, operation) in operations {
                if let Some(operation) = operation {
                    add_answers(path, write, operation);
                }
            }
        }
    }
}

/// The generic answers of one operation: `write` for a POST, PUT, PATCH or DELETE.
fn add_answers(path: &str, write: bool, operation: &mut Operation) {
    let mut answers: Vec<(&str, &str)> = Vec::new();
    if operation.request_body.is_some() {
        answers.extend([
            (
                "415",
                "The body is not sent as `Content-Type: application/json` (`unsupported_media_type`)",
            ),
            ("400", "The body is not JSON (`malformed_json`), or could not be read (`unreadable_body`)"),
            (
                "422",
                "JSON of the wrong shape: not an object, a field missing, of the wrong type or out of the range this document gives it (`invalid_body`)",
            ),
            ("413", "The body is larger than the server reads (`payload_too_large`)"),
        ]);
    }
    let bearer = operation.security.iter().flatten().any(|requirement| {
        serde_json::to_value(requirement).is_ok_and(|v| v.get("bearer").is_some())
    });
    if bearer {
        answers.push((
            "401",
            "No `Authorization: Bearer` header where one is needed (`missing_token`), a token that is not valid (`invalid_token`), or a device signed out for being unused too long (`session_expired`)",
        ));
    }
    if path.contains('{') {
        answers.push((
            "404",
            "Nothing has that id (`not_found`, or the route's own code)",
        ));
    }
    let query = operation
        .parameters
        .iter()
        .flatten()
        .any(|p| matches!(p, RefOr::T(p) if p.parameter_in == ParameterIn::Query));
    if query {
        answers.push((
            "422",
            "A query parameter missing, of the wrong type or out of range (`invalid_query`)",
        ));
    }
    if write {
        answers.push((
            "429",
            "Too many writes from this address in the last minute (`rate_limited`, with `Retry-After`), or too many connections from it (`too_many_connections`)",
        ));
    } else {
        answers.push((
            "429",
            "Too many connections from this address (`too_many_connections`)",
        ));
    }
    answers.extend([
        ("408", "The request took longer than `HTTP_REQUEST_TIMEOUT_SECS` to arrive and be answered (`request_timeout`)"),
        (
            "503",
            "The database is out of reach for a moment (`storage_unavailable`, with `Retry-After`), or the server holds as many connections as it may (`server_full`)",
        ),
        ("500", "A fault of the server itself (`internal_error`)"),
    ]);
    for (status, description) in answers {
        operation
            .responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| {
                ResponseBuilder::new()
                    .description(description)
                    .content(
                        "application/json",
                        Content::new(Some(Ref::from_schema_name("ErrorBody"))),
                    )
                    .build()
                    .into()
            });
    }
}
