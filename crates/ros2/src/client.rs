//! A ROS 2 action client for the command line (`skipper action send --ros2`): find the
//! server's action type on the graph, send one goal, report feedback as it arrives and
//! the result, cancel on a timeout or an interrupt.

use crate::action::ActionType;
use crate::error::Ros2Error;
use crate::node::Ros2Node;
use ros2_client::action::{ActionClientQosPolicies, GoalStatusEnum};
use ros2_client::{ActionTypeName, Name, ServiceMapping};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a cancel may take to be confirmed by a result.
const CANCEL_WAIT: Duration = Duration::from_secs(5);
/// How often the client looks for responses.
const POLL: Duration = Duration::from_millis(5);

/// The action type `server` serves, as `(package, action)`, found from the type of its
/// feedback topic on the graph within `wait`.
pub fn action_type(
    node: &Ros2Node,
    server: &str,
    wait: Duration,
) -> Result<(String, String), Ros2Error> {
    let topic = format!("{server}/_action/feedback");
    // discovery names topics by their DDS names (`rt/...`)
    let dds = format!("rt{topic}");
    let start = Instant::now();
    loop {
        for t in node.discovered_topics() {
            if t.name == topic || t.name == dds {
                // `skipper_msgs::action::dds_::Goto_FeedbackMessage_`
                let parsed = t
                    .type_name
                    .split_once("::action::dds_::")
                    .and_then(|(p, rest)| Some((p, rest.strip_suffix("_FeedbackMessage_")?)));
                return match parsed {
                    Some((p, a)) => Ok((p.to_string(), a.to_string())),
                    None => Err(Ros2Error::Config(format!(
                        "{server} is not an action server (its feedback topic has type {})",
                        t.type_name
                    ))),
                };
            }
        }
        if start.elapsed() >= wait {
            return Err(Ros2Error::Config(format!(
                "no action server at {server}: nothing on the graph publishes {topic}"
            )));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// How a goal ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending<R> {
    /// The server did not accept it.
    Rejected,
    /// It ended with this status and result.
    Done(GoalStatusEnum, R),
    /// Canceled here (timeout or interrupt) and the server confirmed no end in time.
    Unconfirmed,
}

/// What happened, as it happens.
#[derive(Debug, Clone)]
pub enum Event<F> {
    /// The goal was accepted.
    Accepted,
    /// Feedback.
    Feedback(F),
    /// A cancel was sent (true: because of the timeout).
    Canceling(bool),
}

/// Send `goal` of action `ty` to `server` and follow it to its end. `stop` (Ctrl-C) or
/// `timeout` cancels it.
#[allow(clippy::too_many_arguments)]
pub fn send<A: ActionType>(
    node: &mut Ros2Node,
    ty: &A,
    server: &str,
    goal: A::Goal,
    wait: Duration,
    timeout: Option<Duration>,
    stop: &AtomicBool,
    mut on: impl FnMut(Event<A::Feedback>),
) -> Result<Ending<A::Result>, Ros2Error> {
    crate::names::check_name(server).map_err(Ros2Error::Config)?;
    let name = Name::parse(server).map_err(|e| Ros2Error::Config(format!("{server}: {e}")))?;
    let qos = ActionClientQosPolicies {
        goal_service: crate::qos::default(),
        result_service: crate::qos::default(),
        cancel_service: crate::qos::default(),
        feedback_subscription: crate::qos::default(),
        status_subscription: crate::qos::latched(),
    };
    let client = node
        .inner()
        .create_action_client::<A::Goal, A::Result, A::Feedback>(
            ServiceMapping::Enhanced,
            &name,
            &ActionTypeName::new(ty.package(), ty.name()),
            qos,
        )
        .map_err(|e| Ros2Error::create(format!("action client {server}"), e))?;
    let ready = {
        let (tx, rx) = futures::channel::oneshot::channel::<()>();
        std::thread::spawn(move || {
            std::thread::sleep(wait);
            let _ = tx.send(());
        });
        let services = async {
            client
                .goal_client()
                .wait_for_service(node.inner_ref())
                .await;
            client
                .result_client()
                .wait_for_service(node.inner_ref())
                .await;
        };
        matches!(
            futures::executor::block_on(futures::future::select(Box::pin(services), rx)),
            futures::future::Either::Left(_)
        )
    };
    if !ready {
        return Err(Ros2Error::Config(format!(
            "the action server {server} did not answer within {wait:?}"
        )));
    }
    let (req, goal_id) = client
        .send_goal(goal)
        .map_err(|e| Ros2Error::create("a goal request", format!("{e:?}")))?;
    let start = Instant::now();
    let accepted = loop {
        if let Ok(Some(r)) = client.receive_goal_response(req) {
            break r.accepted;
        }
        if start.elapsed() >= wait {
            return Err(Ros2Error::Config(format!(
                "the action server {server} did not answer the goal within {wait:?}"
            )));
        }
        std::thread::sleep(POLL);
    };
    if !accepted {
        return Ok(Ending::Rejected);
    }
    on(Event::Accepted);
    let result_req = client
        .request_result(goal_id)
        .map_err(|e| Ros2Error::create("a result request", format!("{e:?}")))?;
    let start = Instant::now();
    let mut canceled: Option<Instant> = None;
    loop {
        while let Ok(Some(f)) = ty.decoding(|| client.receive_feedback(goal_id)) {
            on(Event::Feedback(f));
        }
        if let Ok(Some((status, result))) = ty.decoding(|| client.receive_result(result_req)) {
            return Ok(Ending::Done(status, result));
        }
        let timed_out = timeout.is_some_and(|t| start.elapsed() >= t);
        match canceled {
            None if timed_out || stop.load(Ordering::SeqCst) => {
                let _ = client.cancel_goal(goal_id);
                on(Event::Canceling(timed_out));
                canceled = Some(Instant::now());
            }
            Some(at) if at.elapsed() >= CANCEL_WAIT => return Ok(Ending::Unconfirmed),
            _ => {}
        }
        std::thread::sleep(POLL);
    }
}
