//! Messages: the agent's received-messages (rule I7, O16, O17) and the post office that
//! carries `send-message` between the agents of one world.
//!
//! Skipper goes beyond the reference here (which only speaks `say` and ignores other
//! destinations): a destination naming another agent delivers to that agent, a missing
//! destination broadcasts to every other agent, and an unknown name is an error. A
//! message sent in cycle `c` reaches its recipients at their input update of cycle
//! `c + 1`, whatever order the agents step in, so runs stay deterministic. Messages told
//! from outside (a client of `skipper link serve`) arrive at the next input update.
//!
//! A mailbox can be closed while its robot has no agent (`skipper link serve` before an
//! agent connects, after it leaves or halts): its name stays known, and what is sent to
//! it is dropped rather than piling up.

use crate::tree::WmeId;
use std::sync::{Arc, Mutex};

/// A message on its way.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// the sender's name (`http` for messages from outside)
    pub from: Arc<str>,
    /// the words
    pub words: Vec<Arc<str>>,
    /// the cycle it was sent in (0: from outside, deliver at once)
    pub sent: u64,
}

/// A received message on the input-link.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// its id (from 0, never reused)
    pub id: i64,
    /// who sent it
    pub from: Arc<str>,
    /// its words
    pub words: Vec<Arc<str>>,
    pub(crate) wme: Option<WmeId>,
}

#[derive(Debug)]
struct Mailbox {
    name: Arc<str>,
    open: bool,
    mail: Vec<Envelope>,
}

#[derive(Debug, Default)]
struct Inner {
    boxes: Vec<Mailbox>,
}

impl Inner {
    fn find(&mut self, name: &str) -> Option<&mut Mailbox> {
        self.boxes.iter_mut().find(|b| &*b.name == name)
    }
}

/// Carries messages between the agents of one world (and from outside to them).
#[derive(Debug, Clone, Default)]
pub struct PostOffice(Arc<Mutex<Inner>>);

/// Split text into words at white space (as the reference's HTTP front-end did).
pub fn words(text: &str) -> Vec<Arc<str>> {
    text.split_whitespace().map(Arc::from).collect()
}

impl PostOffice {
    /// A post office with no agents.
    pub fn new() -> Self {
        Self::default()
    }

    /// Register an agent by name, with an open mailbox (a second registration of a name
    /// is ignored).
    pub fn register(&self, name: &str) {
        if let Ok(mut p) = self.0.lock() {
            if p.find(name).is_none() {
                p.boxes.push(Mailbox {
                    name: Arc::from(name),
                    open: true,
                    mail: Vec::new(),
                });
            }
        }
    }

    /// Open or close a mailbox. A closed one drops what is sent to it (and what it
    /// held); its name stays known.
    pub fn set_open(&self, name: &str, open: bool) {
        if let Ok(mut p) = self.0.lock() {
            if let Some(b) = p.find(name) {
                b.open = open;
                if !open {
                    b.mail.clear();
                }
            }
        }
    }

    /// The registered names.
    pub fn names(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|p| p.boxes.iter().map(|b| b.name.to_string()).collect())
            .unwrap_or_default()
    }

    /// Is this name registered?
    pub fn knows(&self, name: &str) -> bool {
        self.0
            .lock()
            .is_ok_and(|p| p.boxes.iter().any(|b| &*b.name == name))
    }

    /// Send from `from`: to the agent named `to`, or to every other agent when `to` is
    /// `None`. Returns how many agents it went to; an unknown name is an error.
    pub fn send(
        &self,
        from: &str,
        to: Option<&str>,
        words: &[Arc<str>],
        cycle: u64,
    ) -> Result<usize, String> {
        let Ok(mut p) = self.0.lock() else {
            return Err("the post office is unavailable".into());
        };
        let from: Arc<str> = Arc::from(from);
        let env = Envelope {
            from: from.clone(),
            words: words.to_vec(),
            sent: cycle,
        };
        match to {
            Some(name) => {
                let Some(b) = p.find(name) else {
                    return Err(format!("unknown destination `{name}`: expected `say` or the name of an agent in this world"));
                };
                if !b.open {
                    return Ok(0);
                }
                b.mail.push(env);
                Ok(1)
            }
            None => {
                let mut n = 0;
                for b in p.boxes.iter_mut() {
                    if b.open && *b.name != *from {
                        b.mail.push(env.clone());
                        n += 1;
                    }
                }
                Ok(n)
            }
        }
    }

    /// A message from outside (`from` defaults to `http`), delivered at the next update.
    pub fn tell(&self, to: &str, from: Option<&str>, text: &str) -> Result<(), String> {
        let w = words(text);
        let Ok(mut p) = self.0.lock() else {
            return Err("the post office is unavailable".into());
        };
        let Some(b) = p.find(to) else {
            return Err(format!("no agent named `{to}`"));
        };
        if !b.open {
            return Err(format!("`{to}` has no agent now"));
        }
        b.mail.push(Envelope {
            from: Arc::from(from.unwrap_or("http")),
            words: w,
            sent: 0,
        });
        Ok(())
    }

    /// Move the messages for `name` sent before `cycle` into `out`.
    pub fn collect(&self, name: &str, cycle: u64, out: &mut Vec<Envelope>) {
        let Ok(mut p) = self.0.lock() else { return };
        let Some(b) = p.find(name) else {
            return;
        };
        let b = &mut b.mail;
        if b.is_empty() {
            return;
        }
        let mut k = 0;
        while k < b.len() {
            if b.get(k).is_some_and(|e| e.sent < cycle) {
                out.push(b.remove(k));
            } else {
                k += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_skips_the_sender_and_waits_a_cycle() {
        let p = PostOffice::new();
        for n in ["a", "b", "c"] {
            p.register(n);
        }
        assert_eq!(p.send("a", None, &words("hello there"), 5), Ok(2));
        let mut out = Vec::new();
        p.collect("b", 5, &mut out);
        assert!(out.is_empty(), "not in the cycle it was sent");
        p.collect("b", 6, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(&*out[0].from, "a");
        out.clear();
        p.collect("a", 6, &mut out);
        assert!(out.is_empty());
        assert!(p.send("a", Some("zed"), &words("x"), 1).is_err());
        assert_eq!(p.send("a", Some("c"), &words("x"), 1), Ok(1));
        p.tell("c", None, "from outside").unwrap();
        p.collect("c", 1, &mut out);
        assert_eq!(out.len(), 1, "told messages come at once");
        assert_eq!(&*out[0].from, "http");
        // a closed mailbox: the name is known, mail is dropped, tells are refused
        p.set_open("c", false);
        assert_eq!(p.send("a", Some("c"), &words("x"), 2), Ok(0));
        assert_eq!(p.send("a", None, &words("x"), 2), Ok(1), "only b gets it");
        assert!(p.tell("c", None, "hi").is_err());
        p.set_open("c", true);
        out.clear();
        p.collect("c", 10, &mut out);
        assert!(out.is_empty(), "nothing piled up while closed");
    }
}
