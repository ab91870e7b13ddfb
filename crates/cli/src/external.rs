//! Bots in another process that speak the engine protocol (ENGINE.md): what `parchis arena --engine
//! NAME=COMMAND` seats. One process per seat and game, started with the game and told to quit at its end.

use parchis_bots::{Bot, BotMaker};
use parchis_rules::{Game, Move};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The protocol's first line, with its version.
pub const HELLO: &str = "parchis-engine 1";

/// How to start an engine, and how long it may think.
pub struct External {
    /// The entry's name (`--engine NAME=…`).
    pub name: String,
    /// A shell command line (`sh -c`), so that arguments and paths are written as in a terminal.
    pub command: String,
    /// How long the engine may take to say `ready`, and to answer each `go`.
    pub timeout: Duration,
}

impl BotMaker for External {
    fn name(&self) -> &str {
        &self.name
    }

    fn make(&self, seed: u64) -> Result<Box<dyn Bot>, String> {
        let mut child = shell(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The engine's own messages go where ours go: its author sees them.
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", self.command))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("the engine's input and output could not be opened".into());
        };
        // Lines are read on a thread of their own so that waiting for one can time out.
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut bot = EngineBot {
            child,
            stdin,
            lines,
            timeout: self.timeout,
            failed: None,
        };
        bot.say(&format!("{HELLO}\n"))?;
        bot.wait_for(|line| (line == "ready").then_some(()), "`ready`")?;
        bot.say(&format!("newgame {seed}\n"))?;
        Ok(Box::new(bot))
    }
}

/// `command` run by the platform's shell.
fn shell(command: &str) -> Command {
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/C", command]);
        c
    } else {
        let mut c = Command::new("sh");
        c.args(["-c", command]);
        c
    }
}

/// One engine process playing one seat of one game.
struct EngineBot {
    /// The process, killed if it does not quit when told.
    child: Child,
    /// Where the arena's lines go.
    stdin: ChildStdin,
    /// The engine's lines, as its reader thread got them.
    lines: Receiver<String>,
    /// See [`External::timeout`].
    timeout: Duration,
    /// Set once the engine failed: from then on it is not asked again (see [`Bot::failure`]).
    failed: Option<String>,
}

impl EngineBot {
    fn say(&mut self, text: &str) -> Result<(), String> {
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine stopped reading ({e})"))
    }

    /// Reads lines until `wanted` accepts one; `info` and `id` lines, and empty ones, are passed over.
    fn wait_for<T>(
        &mut self,
        mut wanted: impl FnMut(&str) -> Option<T>,
        what: &str,
    ) -> Result<T, String> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no {what} within {} ms", self.timeout.as_millis()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(match status {
                        Some(s) => format!("the engine exited ({s}) before {what}"),
                        None => format!("the engine closed its output before {what}"),
                    });
                }
            };
            let line = line.trim();
            if let Some(found) = wanted(line) {
                return Ok(found);
            }
            let known = line.is_empty() || line.starts_with("info") || line.starts_with("id ");
            if !known {
                return Err(format!("expected {what}, the engine said `{line}`"));
            }
        }
    }

    fn ask(&mut self, game: &Game, legal: &[Move]) -> Result<Move, String> {
        let texts: Vec<String> = legal.iter().map(|m| game.move_text(m)).collect();
        self.say(&format!(
            "position {}\nlegal {}\ngo\n",
            game.notation(),
            texts.join(" ")
        ))?;
        let answer = self.wait_for(
            |line| line.strip_prefix("move ").map(|m| m.trim().to_owned()),
            "`move …`",
        )?;
        legal
            .iter()
            .zip(&texts)
            .find(|(_, text)| **text == answer)
            .map(|(m, _)| *m)
            .ok_or_else(|| {
                format!(
                    "`move {answer}` is not one of the legal moves ({}) of {}",
                    texts.join(" "),
                    game.notation()
                )
            })
    }
}

impl Bot for EngineBot {
    fn name(&self) -> &str {
        "engine"
    }

    fn choose(&mut self, game: &Game, legal: &[Move]) -> Move {
        if self.failed.is_none() {
            match self.ask(game, legal) {
                Ok(m) => return m,
                Err(e) => self.failed = Some(e),
            }
        }
        legal[0]
    }

    fn failure(&self) -> Option<String> {
        self.failed.clone()
    }
}

impl Drop for EngineBot {
    fn drop(&mut self) {
        let _ = self.say("quit\n");
        // A second to go of its own accord, then it is stopped.
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
