//! The client's per-goal communication state machine (rules C-1, C-3): the state a goal
//! is in as the client sees it, and the fixed table of what a received status does in
//! each state (ros/actionlib's `_transitions`).

use skipper_ros1_wire::msg::actionlib_msgs::StatusCode;
use std::fmt;

/// CommState (C-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommState {
    /// sent, no status seen yet
    WaitingForGoalAck,
    /// the server has it, not yet active
    Pending,
    /// being executed
    Active,
    /// finished on the server; the result has not arrived yet
    WaitingForResult,
    /// cancel sent, not yet acknowledged
    WaitingForCancelAck,
    /// the server is recalling it
    Recalling,
    /// the server is preempting it
    Preempting,
    /// the result arrived (or the goal was lost)
    Done,
}

impl CommState {
    /// The ROS name.
    pub fn name(self) -> &'static str {
        match self {
            CommState::WaitingForGoalAck => "WAITING_FOR_GOAL_ACK",
            CommState::Pending => "PENDING",
            CommState::Active => "ACTIVE",
            CommState::WaitingForResult => "WAITING_FOR_RESULT",
            CommState::WaitingForCancelAck => "WAITING_FOR_CANCEL_ACK",
            CommState::Recalling => "RECALLING",
            CommState::Preempting => "PREEMPTING",
            CommState::Done => "DONE",
        }
    }
}

impl fmt::Display for CommState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a received status does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// nothing
    NoOp,
    /// a status that cannot follow this state (logged, ignored)
    Invalid,
    /// go through these states in order
    To(&'static [CommState]),
}

/// The transition table (C-3).
pub fn next(state: CommState, status: StatusCode) -> Next {
    use CommState as C;
    use Next::{Invalid, NoOp, To};
    use StatusCode as S;
    match (state, status) {
        (_, S::Lost) => Invalid,
        (C::WaitingForGoalAck, s) => match s {
            S::Pending => To(&[C::Pending]),
            S::Active => To(&[C::Active]),
            S::Rejected => To(&[C::Pending, C::WaitingForResult]),
            S::Recalling => To(&[C::Pending, C::Recalling]),
            S::Recalled => To(&[C::Pending, C::WaitingForResult]),
            S::Preempted => To(&[C::Active, C::Preempting, C::WaitingForResult]),
            S::Succeeded | S::Aborted => To(&[C::Active, C::WaitingForResult]),
            S::Preempting => To(&[C::Active, C::Preempting]),
            S::Lost => Invalid,
        },
        (C::Pending, s) => match s {
            S::Pending => NoOp,
            S::Active => To(&[C::Active]),
            S::Rejected => To(&[C::WaitingForResult]),
            S::Recalling => To(&[C::Recalling]),
            S::Recalled => To(&[C::Recalling, C::WaitingForResult]),
            S::Preempted => To(&[C::Active, C::Preempting, C::WaitingForResult]),
            S::Succeeded | S::Aborted => To(&[C::Active, C::WaitingForResult]),
            S::Preempting => To(&[C::Active, C::Preempting]),
            S::Lost => Invalid,
        },
        (C::Active, s) => match s {
            S::Pending | S::Rejected | S::Recalling | S::Recalled | S::Lost => Invalid,
            S::Active => NoOp,
            S::Preempted => To(&[C::Preempting, C::WaitingForResult]),
            S::Succeeded | S::Aborted => To(&[C::WaitingForResult]),
            S::Preempting => To(&[C::Preempting]),
        },
        (C::WaitingForResult, s) => match s {
            S::Pending | S::Recalling | S::Preempting | S::Lost => Invalid,
            _ => NoOp,
        },
        (C::WaitingForCancelAck, s) => match s {
            S::Pending | S::Active => NoOp,
            S::Rejected => To(&[C::WaitingForResult]),
            S::Recalling => To(&[C::Recalling]),
            S::Recalled => To(&[C::Recalling, C::WaitingForResult]),
            S::Preempted | S::Succeeded | S::Aborted => To(&[C::Preempting, C::WaitingForResult]),
            S::Preempting => To(&[C::Preempting]),
            S::Lost => Invalid,
        },
        (C::Recalling, s) => match s {
            S::Pending | S::Active | S::Lost => Invalid,
            S::Rejected | S::Recalled => To(&[C::WaitingForResult]),
            S::Recalling => NoOp,
            S::Preempted | S::Succeeded | S::Aborted => To(&[C::Preempting, C::WaitingForResult]),
            S::Preempting => To(&[C::Preempting]),
        },
        (C::Preempting, s) => match s {
            S::Preempted | S::Succeeded | S::Aborted => To(&[C::WaitingForResult]),
            S::Preempting => NoOp,
            _ => Invalid,
        },
        (C::Done, s) => match s {
            S::Pending | S::Active | S::Recalling | S::Preempting | S::Lost => Invalid,
            _ => NoOp,
        },
    }
}

/// C-4: states in which a goal missing from the server's status list is LOST.
pub fn lost_if_missing(state: CommState) -> bool {
    matches!(
        state,
        CommState::Pending
            | CommState::Active
            | CommState::WaitingForCancelAck
            | CommState::Recalling
            | CommState::Preempting
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use CommState as C;
    use StatusCode as S;

    /// The rows the reference quotes (C-3), cell by cell.
    #[test]
    fn key_rows_of_the_table() {
        assert_eq!(
            next(C::WaitingForGoalAck, S::Pending),
            Next::To(&[C::Pending])
        );
        assert_eq!(
            next(C::WaitingForGoalAck, S::Preempting),
            Next::To(&[C::Active, C::Preempting])
        );
        assert_eq!(
            next(C::WaitingForGoalAck, S::Preempted),
            Next::To(&[C::Active, C::Preempting, C::WaitingForResult])
        );
        assert_eq!(next(C::Active, S::Preempting), Next::To(&[C::Preempting]));
        assert_eq!(
            next(C::Active, S::Preempted),
            Next::To(&[C::Preempting, C::WaitingForResult])
        );
        for s in [S::Pending, S::Rejected, S::Recalling, S::Recalled] {
            assert_eq!(next(C::Active, s), Next::Invalid);
        }
        assert_eq!(next(C::WaitingForCancelAck, S::Active), Next::NoOp);
        assert_eq!(
            next(C::WaitingForCancelAck, S::Recalled),
            Next::To(&[C::Recalling, C::WaitingForResult])
        );
        for s in StatusCode::ALL
            .into_iter()
            .filter(|s| s.is_terminal() && *s != S::Lost)
        {
            assert_eq!(next(C::WaitingForResult, s), Next::NoOp);
            assert_eq!(next(C::Done, s), Next::NoOp);
        }
    }

    /// Every sequence ends in a state from which the same status is a no-op or leads on
    /// to WAITING_FOR_RESULT, and no sequence revisits the state it started from.
    #[test]
    fn sequences_are_consistent() {
        let all = [
            C::WaitingForGoalAck,
            C::Pending,
            C::Active,
            C::WaitingForResult,
            C::WaitingForCancelAck,
            C::Recalling,
            C::Preempting,
            C::Done,
        ];
        let mut cells = 0;
        for st in all {
            for s in StatusCode::ALL {
                if let Next::To(seq) = next(st, s) {
                    cells += 1;
                    assert!(!seq.is_empty());
                    let last = seq[seq.len() - 1];
                    assert_ne!(last, C::Done, "the table never reaches DONE");
                    assert!(
                        matches!(next(last, s), Next::NoOp),
                        "{st} + {s} ends in {last}"
                    );
                    if s.is_terminal() {
                        assert_eq!(last, C::WaitingForResult);
                    }
                }
            }
        }
        assert_eq!(cells, 37);
        assert!(
            lost_if_missing(C::Active)
                && !lost_if_missing(C::WaitingForGoalAck)
                && !lost_if_missing(C::WaitingForResult)
        );
    }
}
