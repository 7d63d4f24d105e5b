//! Answers to an action client's requests (goal, cancel and result responses), sent only
//! once the client's response reader has been discovered.
//!
//! A DDS service has a race in discovery: a client sees the server's request reader and
//! response writer, sends its request, and the server can answer before its response
//! writer has matched the client's response reader; a volatile writer then never delivers
//! that answer and the client waits forever (a goal that is never accepted, a result that
//! never comes). rmw_fastrtps_cpp clients put their response reader's GUID in each
//! request's related sample identity, and Fast DDS servers wait for it to match before
//! answering. [`Outbox`] does the same for Skipper's servers: an answer whose client
//! reader this participant's discovery does not know yet is held and sent as soon as it
//! does (checked whenever the server is served or ticked), or dropped after [`HOLD_MAX`]
//! (the client is gone). Requests that name no reader (other DDS clients) are answered
//! at once.
//!
//! The same discovery data gives the type hash each of a client's endpoints announces
//! (rmw puts `typehash=RIHS01_...;` in their USER_DATA): [`Outbox::check_client`]
//! compares them with the server's own ([`ClientType`]), so that a server can refuse a
//! client built from other definitions of its type.

use crate::action::{ActionType, RawServer};
use ros2_client::action::{CancelGoalResponse, GetResultResponse, SendGoalResponse};
use ros2_client::dds::rustdds::{DomainParticipant, GUID};
use ros2_client::RmwRequestId;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// How long an answer waits for its client's reader to be discovered.
pub const HOLD_MAX: Duration = Duration::from_secs(10);
/// Known readers kept before the set starts again (it refills from discovery).
const KNOWN_MAX: usize = 4096;

/// One endpoint an action client has, and the type hash it should announce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientType {
    /// the DDS topic after the action's name (`/_action/send_goalRequest`), with its
    /// prefix before the name (`rq`)
    pub topic: (&'static str, &'static str),
    /// whether the client writes it (requests) or reads it (replies, feedback)
    pub writer: bool,
    /// the type (`pkg/action/Name_SendGoal_Request`)
    pub type_name: String,
    /// its RIHS01 hash
    pub hash: String,
}

/// The readers this node's DDS participant has discovered, and what was found of each
/// client's types.
pub struct Peers {
    participant: DomainParticipant,
    known: HashSet<GUID>,
    clients: HashMap<[u8; 12], Result<(), String>>,
}

impl Peers {
    /// The peers `participant` discovers.
    pub fn new(participant: DomainParticipant) -> Self {
        Self {
            participant,
            known: HashSet::new(),
            clients: HashMap::new(),
        }
    }

    /// Whether the reader `guid` has been discovered (remembered once seen, so the
    /// discovery database is read only for readers not seen before).
    pub fn knows_reader(&mut self, guid: GUID) -> bool {
        if self.known.contains(&guid) {
            return true;
        }
        let found = self
            .participant
            .discovered_readers()
            .iter()
            .any(|r| r.reader_proxy.remote_reader_guid == guid);
        if found {
            if self.known.len() >= KNOWN_MAX {
                self.known.clear();
            }
            self.known.insert(guid);
        }
        found
    }

    /// Whether the client of participant `prefix` (its GUID prefix) announced the hashes
    /// `types` of action `action` (`/robot1/goto`) has: `Err` names the first type that
    /// differs.
    /// Endpoints not discovered or that announce no hash are not held against it; the
    /// answer is kept once its goal request writer has been seen.
    pub fn check_client(
        &mut self,
        prefix: [u8; 12],
        action: &str,
        types: &[ClientType],
    ) -> Result<(), String> {
        if let Some(r) = self.clients.get(&prefix) {
            return r.clone();
        }
        let mut announced: Vec<(String, bool, Option<String>)> = Vec::new();
        for r in self.participant.discovered_readers() {
            if prefix_of(r.reader_proxy.remote_reader_guid) == prefix {
                let hash = crate::typedesc::hash_in_user_data(&r.user_data).map(String::from);
                announced.push((r.subscription_topic_data.topic_name().clone(), false, hash));
            }
        }
        for w in self.participant.discovered_writers() {
            if prefix_of(w.writer_proxy.remote_writer_guid) == prefix {
                let hash = crate::typedesc::hash_in_user_data(&w.user_data).map(String::from);
                announced.push((w.publication_topic_data.topic_name.clone(), true, hash));
            }
        }
        let mut seen_request = false;
        let mut verdict = Ok(());
        for t in types {
            let topic = format!("{}{action}{}", t.topic.0, t.topic.1);
            for (_, _, hash) in announced
                .iter()
                .filter(|(n, w, _)| *n == topic && *w == t.writer)
            {
                seen_request |= t.writer;
                match hash {
                    Some(h) if *h != t.hash && verdict.is_ok() => {
                        verdict = Err(format!(
                            "the client's {} has type hash {h}, this server's {}",
                            t.type_name, t.hash
                        ))
                    }
                    _ => {}
                }
            }
        }
        if seen_request {
            if self.clients.len() >= KNOWN_MAX {
                self.clients.clear();
            }
            self.clients.insert(prefix, verdict.clone());
        }
        verdict
    }
}

/// The participant part of an endpoint's GUID (its first 12 bytes).
fn prefix_of(guid: GUID) -> [u8; 12] {
    let b = guid.to_bytes();
    let mut p = [0u8; 12];
    p.copy_from_slice(&b[..12]);
    p
}

/// One answer.
pub enum Reply<A: ActionType> {
    /// to send_goal
    Goal(SendGoalResponse),
    /// to cancel_goal
    Cancel(CancelGoalResponse),
    /// to get_result
    Result(GetResultResponse<A::Result>),
}

/// The client reader a request asks its answer to go to, if it names one (the related
/// sample identity of an rmw_fastrtps_cpp request carries a reader's GUID, not a
/// writer's).
pub fn response_reader(req: &RmwRequestId) -> Option<GUID> {
    let guid = GUID::from(req.writer_gid);
    guid.entity_id.entity_kind.is_reader().then_some(guid)
}

/// Answers, sent at once or held until their client's reader is discovered.
pub struct Outbox<A: ActionType> {
    peers: Option<Peers>,
    held: Vec<(Instant, RmwRequestId, Reply<A>)>,
}

impl<A: ActionType> Outbox<A> {
    /// Answers checked against `peers`; without peers every answer goes at once.
    pub fn new(peers: Option<Peers>) -> Self {
        Self {
            peers,
            held: Vec::new(),
        }
    }

    /// Whether answers are waiting.
    pub fn is_holding(&self) -> bool {
        !self.held.is_empty()
    }

    /// Answer `req` with `reply` now if its client can receive it, else hold it.
    pub fn send(&mut self, server: &mut RawServer<A>, req: RmwRequestId, reply: Reply<A>) {
        if self.can_receive(&req) {
            write(server, req, reply);
        } else {
            self.held.push((Instant::now(), req, reply));
        }
    }

    /// Send the held answers whose clients can now receive them; drop those held longer
    /// than [`HOLD_MAX`]. Returns how many were dropped.
    pub fn flush(&mut self, server: &mut RawServer<A>) -> usize {
        let mut dropped = 0;
        for (at, req, reply) in std::mem::take(&mut self.held) {
            if self.can_receive(&req) {
                write(server, req, reply);
            } else if at.elapsed() > HOLD_MAX {
                dropped += 1;
            } else {
                self.held.push((at, req, reply));
            }
        }
        dropped
    }

    /// Whether the client of `req` announced the type hashes `types` of action `action`
    /// ([`Peers::check_client`]); `Ok` when it cannot tell.
    pub fn check_client(
        &mut self,
        req: &RmwRequestId,
        action: &str,
        types: &[ClientType],
    ) -> Result<(), String> {
        match (&mut self.peers, response_reader(req)) {
            (Some(p), Some(reader)) if !types.is_empty() => {
                p.check_client(prefix_of(reader), action, types)
            }
            _ => Ok(()),
        }
    }

    fn can_receive(&mut self, req: &RmwRequestId) -> bool {
        match (&mut self.peers, response_reader(req)) {
            (Some(p), Some(reader)) => p.knows_reader(reader),
            _ => true,
        }
    }
}

fn write<A: ActionType>(server: &mut RawServer<A>, req: RmwRequestId, reply: Reply<A>) {
    // a failed write (the client went away) leaves nothing to do: the client times out
    let _ = match reply {
        Reply::Goal(r) => server.send_goal_response(req, r).map_err(drop),
        Reply::Cancel(r) => server.send_cancel_response(req, r).map_err(drop),
        Reply::Result(r) => server.send_result(req, r).map_err(drop),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use ros2_client::Gid;

    fn req(guid: [u8; 16]) -> RmwRequestId {
        RmwRequestId {
            writer_gid: Gid::from(guid),
            sequence_number: 1,
        }
    }

    #[test]
    fn a_request_naming_a_reader_asks_for_that_reader() {
        // entity kinds (RTPS 9.3.1.2): 0x04 / 0x07 readers, 0x03 / 0x02 writers
        let mut g = [1u8; 16];
        g[15] = 0x04;
        assert_eq!(response_reader(&req(g)), Some(GUID::from_bytes(g)));
        g[15] = 0x07;
        assert!(response_reader(&req(g)).is_some());
        g[15] = 0x03;
        assert_eq!(response_reader(&req(g)), None);
        g[15] = 0x02;
        assert_eq!(response_reader(&req(g)), None);
    }
}
