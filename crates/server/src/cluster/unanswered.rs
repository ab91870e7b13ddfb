//! The commands a relayed socket's gateway passed on to the room and has not seen answered yet, so
//! that none is left without an answer when the attachment ends.
//!
//! A client's command goes to the room's owner over NATS with no reply of its own: the owner answers it
//! on the socket (an `ack` or an `error`, through the room's feed). An owner that dies (`kill -9`)
//! before it answered, or before the command even reached it (a gateway learns of a death only when
//! the heartbeat goes stale, about 5 s later, and passes commands on meanwhile), never does. When the
//! attachment ends so, the gateway answers each command still waiting with `storage_unavailable`,
//! `maybe_stored`: the owner may have stored it before dying (its ack lost), or not; a roll or move
//! sent again with its version is then taken once, or refused `stale_version` if it was stored (never
//! applied twice). The gateway never sends a command again by itself: a roll without a version would
//! be taken as the next roll.

use std::sync::{Arc, Mutex};

use serde::Deserialize;
use serde_json::Value;

use crate::rooms::messages;
use crate::rooms::protocol::{CommandError, Outbound};

/// Most commands remembered as waiting for their answer, per attachment.
const MOST_WAITING: usize = 256;

/// One attachment's commands waiting for their answer (cheap to clone; shared by the gateway and
/// the feed that delivers the answers).
#[derive(Clone, Default)]
pub(super) struct Unanswered(Arc<Mutex<Waiting>>);

#[derive(Default)]
struct Waiting {
    /// The ids of the commands passed on and not answered, oldest first (ids may repeat).
    ids: Vec<Value>,
    /// The attachment ended: whatever the old owner still sends the socket is dropped.
    ended: bool,
}

/// The fields of an `ack` or `error` that say which command it answers.
#[derive(Deserialize)]
struct Answer {
    id: Value,
}

impl Unanswered {
    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A command `id` is passed on to the room.
    pub fn sent(&self, id: &Value) {
        let mut waiting = self.lock();
        // Every command is answered, so the list holds what is in flight; the bound only keeps a
        // long-lived socket's memory in check should an answer ever go missing (the oldest go first).
        if waiting.ids.len() >= MOST_WAITING {
            waiting.ids.remove(0);
        }
        waiting.ids.push(id.clone());
    }

    /// The room sends the socket `text`; `false` if the attachment has ended (it is not delivered,
    /// as its command was answered already). An answer takes its command off the list.
    pub fn delivers(&self, text: &str) -> bool {
        let mut waiting = self.lock();
        if waiting.ended {
            return false;
        }
        // Answers alone start so (`type` is written first); nothing else is read.
        let answer =
            text.starts_with(r#"{"type":"ack","#) || text.starts_with(r#"{"type":"error","#);
        if answer
            && !waiting.ids.is_empty()
            && let Ok(Answer { id }) = serde_json::from_str(text)
            && let Some(at) = waiting.ids.iter().position(|waits| *waits == id)
        {
            waiting.ids.remove(at);
        }
        true
    }

    /// The attachment ended without the room answering them: an error for each command still waiting,
    /// oldest first. Nothing the room sends on this attachment is delivered afterwards.
    pub fn end(&self) -> Vec<Outbound> {
        let mut waiting = self.lock();
        waiting.ended = true;
        let error = CommandError::storage_unavailable(
            true,
            "the room's server stopped before it answered this command: it may have been applied or \
             not; the room runs again in a moment (a new snapshot), then send it again if it is \
             still due",
        );
        std::mem::take(&mut waiting.ids)
            .iter()
            .map(|id| messages::error(id, &error))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rooms::protocol::ErrorCode;

    fn text(message: Outbound) -> String {
        let Outbound::Text(text) = message else {
            panic!("a text")
        };
        text.to_string()
    }

    #[test]
    fn commands_not_answered_when_the_attachment_ends_get_an_error_and_later_answers_are_dropped() {
        let unanswered = Unanswered::default();
        for id in [json!(1), json!("two"), Value::Null, json!(1)] {
            unanswered.sent(&id);
        }
        assert!(unanswered.delivers(&text(messages::ack(&json!(1), 7))));
        let refused = CommandError::new(ErrorCode::MustMove, "move");
        assert!(unanswered.delivers(&text(messages::error(&Value::Null, &refused))));
        // Not an answer, though it names an id.
        assert!(unanswered.delivers(r#"{"type":"chat","id":"two"}"#));
        let errors: Vec<Value> = unanswered
            .end()
            .into_iter()
            .map(|m| serde_json::from_str(&text(m)).unwrap())
            .collect();
        let ids: Vec<&Value> = errors.iter().map(|e| &e["id"]).collect();
        assert_eq!(ids, [&json!("two"), &json!(1)]);
        assert_eq!(errors[0]["code"], "storage_unavailable");
        assert_eq!(errors[0]["reason"], "maybe_stored");
        // The old owner's late ack is not delivered after the error.
        assert!(!unanswered.delivers(&text(messages::ack(&json!("two"), 8))));
        assert!(unanswered.end().is_empty());
    }
}
