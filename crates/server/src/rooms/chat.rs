//! A room's chat: what its seated players write to each other. Not part of the
//! versioned game state (a message changes nothing in the game and must not
//! make a chosen move stale), so it travels as its own messages: `chat` for a
//! new one, `chat_history` with the last ones to every client that (re)connects.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::messages;
use super::protocol::{CommandError, ErrorCode, Outbound};
use crate::db::ChatRow;

/// Longest message, in characters: a line, not a letter.
pub const MAX_CHAT_CHARS: usize = 200;
/// How many messages a (re)connecting client is shown, and the room keeps in memory.
pub const CHAT_HISTORY: usize = 50;
/// A seat may send this many messages per [`CHAT_WINDOW`]…
const CHAT_BURST: usize = 5;
/// …so a player can answer quickly but not flood the table.
const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// The room's recent chat and each seat's recent sends.
#[derive(Debug, Default)]
pub struct ChatLog {
    /// The last [`CHAT_HISTORY`] messages, oldest first.
    recent: VecDeque<ChatRow>,
    /// `seq` of the last stored message (0: none yet), so the next one is `last_seq + 1`.
    last_seq: i64,
    /// When each seat sent its messages inside the current window (the rate limit).
    sent: Vec<VecDeque<Instant>>,
    /// The `chat_history` frame of `recent`, serialised once and shared by every (re)connecting client
    /// until the next message (`None`: not built since).
    history_frame: Option<Outbound>,
}

impl ChatLog {
    /// The log of a room with `seats` seats whose stored chat ends with `recent` (oldest first). The
    /// messages of erased players (stored with no text) keep their numbers but are not shown.
    pub fn new(seats: usize, recent: Vec<ChatRow>) -> Self {
        let last_seq = recent.last().map_or(0, |m| m.seq);
        let mut recent: VecDeque<ChatRow> = recent.into();
        recent.retain(|m| !m.text.is_empty());
        while recent.len() > CHAT_HISTORY {
            recent.pop_front();
        }
        ChatLog {
            recent,
            last_seq,
            sent: vec![VecDeque::new(); seats],
            history_frame: None,
        }
    }

    /// The `seq` the next message gets.
    pub fn next_seq(&self) -> i64 {
        self.last_seq + 1
    }

    /// Refuses a message from `seat` if it has sent `CHAT_BURST` in the last `CHAT_WINDOW`.
    pub fn check_rate(&mut self, seat: usize, now: Instant) -> Result<(), CommandError> {
        let Some(sent) = self.sent.get_mut(seat) else {
            return Ok(());
        };
        while sent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= CHAT_WINDOW)
        {
            sent.pop_front();
        }
        if sent.len() >= CHAT_BURST {
            return Err(CommandError::new(
                ErrorCode::ChatTooFast,
                format!(
                    "At most {CHAT_BURST} messages every {} seconds; wait a moment.",
                    CHAT_WINDOW.as_secs()
                ),
            ));
        }
        Ok(())
    }

    /// Records a stored message (and the send, for the rate limit).
    pub fn push(&mut self, row: ChatRow, now: Instant) {
        if let Some(sent) = usize::try_from(row.seat)
            .ok()
            .and_then(|s| self.sent.get_mut(s))
        {
            sent.push_back(now);
        }
        self.last_seq = row.seq;
        if self.recent.len() == CHAT_HISTORY {
            self.recent.pop_front();
        }
        self.recent.push_back(row);
        self.history_frame = None;
    }

    /// Drops what `player_id` wrote (they were erased); their numbers are not given again. Whether any
    /// message went.
    pub fn forget_player(&mut self, player_id: &str) -> bool {
        let before = self.recent.len();
        self.recent.retain(|m| m.player_id != player_id);
        let changed = self.recent.len() != before;
        if changed {
            self.history_frame = None;
        }
        changed
    }

    /// `{"type":"chat_history","messages":[…]}`: the last messages, oldest first.
    pub fn history(&mut self) -> Outbound {
        let recent = &self.recent;
        self.history_frame
            .get_or_insert_with(|| messages::chat_history(recent))
            .clone()
    }
}

/// What a player typed, made into one clean line: control characters (new lines included) become
/// spaces, runs of spaces one, direction overrides (which could make a message look like another
/// player's) and invisible spaces are dropped. Refused when nothing visible is left or it is longer
/// than [`MAX_CHAT_CHARS`].
pub fn clean(text: &str) -> Result<String, CommandError> {
    let mut out = String::with_capacity(text.len().min(4 * MAX_CHAT_CHARS));
    let mut chars = 0;
    let mut pending_space = false;
    for c in text.chars() {
        if is_direction_control(c) || is_invisible_space(c) {
            continue;
        }
        if c.is_control() || c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            out.push(' ');
            chars += 1;
            pending_space = false;
        }
        out.push(c);
        chars += 1;
        if chars > MAX_CHAT_CHARS {
            return Err(CommandError::new(
                ErrorCode::ChatTooLong,
                format!("A chat message is at most {MAX_CHAT_CHARS} characters."),
            ));
        }
    }
    // Joiners, marks and the like are kept (emoji sequences and some scripts need them), but alone they
    // show nothing.
    if out.chars().all(shows_nothing) {
        return Err(CommandError::new(
            ErrorCode::ChatEmpty,
            "A chat message needs some text.",
        ));
    }
    Ok(out)
}

/// Zero-width space, word joiner and byte-order mark: they show nothing (a message of them alone
/// would look blank).
pub(crate) fn is_invisible_space(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}')
}

/// A character that draws nothing by itself: format characters (joiners, direction marks, soft hyphen,
/// invisible operators), combining marks and variation selectors with nothing to attach to, Hangul
/// fillers and the blank Braille pattern. A text of nothing else looks empty.
pub(crate) fn shows_nothing(c: char) -> bool {
    c.is_whitespace()
        || is_invisible_space(c)
        || is_direction_control(c)
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200C}'..='\u{200F}' | '\u{2061}'..='\u{2064}'
            | '\u{206A}'..='\u{206F}' | '\u{2800}' | '\u{3164}' | '\u{FFA0}'
            | '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}' | '\u{FE00}'..='\u{FE0F}' | '\u{FE20}'..='\u{FE2F}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// Unicode's explicit direction embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
pub(crate) fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: i64, seat: i64) -> ChatRow {
        ChatRow {
            seq,
            seat,
            player_id: format!("p{seat}"),
            display_name: format!("Player {seat}"),
            text: "hola".into(),
            at: 0,
        }
    }

    #[test]
    fn a_message_becomes_one_trimmed_line() {
        assert_eq!(
            clean("  ¡Buena   jugada!\n\t¿otra?  ").unwrap(),
            "¡Buena jugada! ¿otra?"
        );
        assert_eq!(clean("a\u{0}b").unwrap(), "a b");
    }

    #[test]
    fn direction_overrides_and_invisible_spaces_are_dropped_but_emoji_joiners_kept() {
        assert_eq!(clean("\u{202E}hola\u{2066}").unwrap(), "hola");
        assert_eq!(clean("ho\u{200B}la").unwrap(), "hola");
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(clean(family).unwrap(), family);
    }

    #[test]
    fn an_empty_or_blank_message_is_refused() {
        for text in [
            "",
            "   ",
            "\n\t",
            "\u{202E}",
            "\u{200B}\u{200B}",
            "\u{FEFF} \u{200D}",
            "\u{200E}",
            "\u{200F}\u{061C}",
            "\u{00AD}",
            "\u{034F}",
            "\u{3164}\u{115F}",
            "\u{2800}",
            "\u{180E}",
            "\u{2061}",
            "\u{FE0F}",
            "\u{0301}",
        ] {
            assert_eq!(
                clean(text).unwrap_err().code,
                ErrorCode::ChatEmpty,
                "{text:?}"
            );
        }
    }

    #[test]
    fn marks_and_joiners_inside_real_text_are_kept() {
        for text in ["e\u{0301}", "👍\u{FE0F}", "👩\u{200D}👩\u{200D}👧", "ﻻ"] {
            assert_eq!(clean(text).unwrap(), text);
        }
    }

    #[test]
    fn a_message_is_at_most_200_characters_not_bytes() {
        let longest = "ñ".repeat(MAX_CHAT_CHARS);
        assert_eq!(clean(&longest).unwrap(), longest);
        let longer = "ñ".repeat(MAX_CHAT_CHARS + 1);
        assert_eq!(clean(&longer).unwrap_err().code, ErrorCode::ChatTooLong);
    }

    #[test]
    fn a_seat_may_send_five_messages_per_ten_seconds() {
        let mut log = ChatLog::new(2, Vec::new());
        let start = Instant::now();
        for i in 0..5 {
            log.check_rate(0, start).unwrap();
            log.push(row(log.next_seq(), 0), start + Duration::from_millis(i));
        }
        assert_eq!(
            log.check_rate(0, start).unwrap_err().code,
            ErrorCode::ChatTooFast
        );
        log.check_rate(1, start)
            .expect("another seat is not held back");
        log.check_rate(0, start + CHAT_WINDOW + Duration::from_millis(1))
            .expect("the window has passed");
    }

    #[test]
    fn an_erased_players_messages_are_not_shown_and_their_numbers_not_reused() {
        let mut erased = row(2, 1);
        erased.text.clear();
        let mut log = ChatLog::new(2, vec![row(1, 0), erased]);
        assert_eq!(log.recent.len(), 1, "the blanked message is not shown");
        assert_eq!(log.next_seq(), 3, "its number is not given again");
        log.push(row(3, 1), Instant::now());
        let writer = log.recent[1].player_id.clone();
        assert!(log.forget_player(&writer));
        assert!(log.recent.iter().all(|m| m.player_id != writer));
        assert_eq!(log.next_seq(), 4);
        assert!(!log.forget_player(&writer), "nothing left to forget");
    }

    #[test]
    fn the_log_keeps_the_last_fifty_and_numbers_on_from_storage() {
        let stored: Vec<ChatRow> = (1..=60).map(|s| row(s, 0)).collect();
        let mut log = ChatLog::new(4, stored);
        assert_eq!(log.next_seq(), 61);
        log.push(row(61, 1), Instant::now());
        assert_eq!(log.recent.len(), CHAT_HISTORY);
        assert_eq!(log.recent.front().unwrap().seq, 12);
        assert_eq!(log.recent.back().unwrap().seq, 61);
    }
}
