//! XABSL options as goals: an agent's controller offers the `run_option` goal kind, which
//! makes an option the agent's root option with parameters.
//!
//! With no goal the agent runs as written (its own root option). A goal makes the chosen
//! option the root, called with the goal's parameters (a JSON object, see
//! [`super::option_call`]), started afresh (every option in its initial state); it
//! succeeds when that option is in a target state, and the option goes on running (the
//! robot does what the target state says) until the next goal or a cancel. A newer goal
//! replaces the running one. A cancel ends the goal's option: no option runs, and the
//! robot is stopped once and stands until the next goal.
//!
//! - an unknown option or bad parameters: refused at once with the reason;
//! - feedback: the activation path (`option.state > option.state ...`) whenever it
//!   changes;
//! - succeeded (`reached_target_state` true) when the option is in a target state.

use super::controller::XabslController;
use super::option_call::{parse_option_call, OptionCall};
use crate::model::OptionId;
use crate::Program;
use skipper_core::goals::{
    Field, FieldType, GoalCheck, GoalId, GoalKind, GoalReport, GoalStart, Goals, Payload, Record,
};
use skipper_core::{Cycle, Drive};
use std::fmt::Write;
use std::sync::Arc;

/// `run_option`: run an XABSL option.
pub static RUN_OPTION: GoalKind = GoalKind {
    name: "run_option",
    type_name: "skipper_msgs/RunOption",
    doc: "run an XABSL option of the agent as its root option",
    goal: &[
        Field::new("option", FieldType::Text, "the option's name"),
        Field::new(
            "parameters",
            FieldType::Text,
            "its parameters as a JSON object ({\"angle\": 90}; empty for none)",
        ),
    ],
    result: &[Field::new(
        "reached_target_state",
        FieldType::Bool,
        "whether the option reached a target state",
    )],
    feedback: &[Field::new(
        "active_path",
        FieldType::Text,
        "the activation path (option.state > option.state ...)",
    )],
    ended: GoalKind::no_result,
};

/// Where an option goal stands, as views show it (the agent's state's `option_goal`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum OptionStatus {
    /// Running; the activation path as `option.state > option.state ...`.
    Active {
        /// goal id
        id: GoalId,
        /// the activation path
        path: String,
    },
    /// The option is in a target state (it goes on running).
    Succeeded {
        /// goal id
        id: GoalId,
        /// the activation path then
        path: String,
    },
    /// Stopped from outside; the robot stopped.
    Stopped {
        /// goal id
        id: GoalId,
    },
}

/// The goal side of an agent's controller.
#[derive(Debug, Default)]
pub(crate) struct OptionGoals {
    /// the goal whose option is the root, until it succeeds
    active: Option<(GoalId, OptionId)>,
    /// (option, state) of the path last reported, and its text
    path: Vec<(usize, usize)>,
    path_text: String,
    latest: Option<OptionStatus>,
}

impl OptionGoals {
    /// The latest goal's status, once a goal came.
    pub(crate) fn latest(&self) -> Option<&OptionStatus> {
        self.latest.as_ref()
    }
}

/// Checks option calls against the agent's program.
struct Check(Arc<Program>);

impl GoalCheck for Check {
    fn check(&self, _: &'static GoalKind, goal: &Record) -> Result<Payload, String> {
        let call = parse_option_call(&self.0, goal.text("option"), goal.text("parameters"))?;
        Ok(Box::new(call))
    }
}

impl XabslController {
    /// Rebuild the path text if the path changed; `true` if it did.
    fn update_path(&mut self) -> bool {
        let g = &mut self.goals;
        let path = self.engine.path();
        if path.len() == g.path.len()
            && path
                .iter()
                .zip(&g.path)
                .all(|(e, &(o, s))| e.option == o && e.state == s)
        {
            return false;
        }
        g.path.clear();
        g.path.extend(path.iter().map(|e| (e.option, e.state)));
        g.path_text.clear();
        let p = self.engine.program();
        for (i, &(o, s)) in g.path.iter().enumerate() {
            if i > 0 {
                g.path_text.push_str(" > ");
            }
            let Some(opt) = p.options.get(o) else {
                continue;
            };
            let st = opt.states.get(s).map_or("?", |s| s.name.as_str());
            let _ = write!(g.path_text, "{}.{st}", opt.name);
        }
        true
    }
}

impl Goals for XabslController {
    fn kinds(&self) -> Vec<&'static GoalKind> {
        vec![&RUN_OPTION]
    }

    fn checker(&self) -> Arc<dyn GoalCheck> {
        Arc::new(Check(self.engine.program().clone()))
    }

    fn begin(&mut self, start: GoalStart, _: &mut Cycle<'_>) -> Result<(), String> {
        let call = start
            .payload
            .downcast::<OptionCall>()
            .map_err(|_| "run_option: the goal was not checked".to_string())?;
        self.engine
            .set_root_option(call.option, &call.params)
            .map_err(|e| format!("run_option: {e}"))?;
        self.engine.reset();
        self.goals.active = Some((start.id, call.option));
        self.goals.path.clear();
        Ok(())
    }

    fn cancel(&mut self, _: &'static GoalKind, id: GoalId, c: &mut Cycle<'_>) -> String {
        self.goals.active = None;
        self.engine.set_root_actions(&[]);
        self.goals.latest = Some(OptionStatus::Stopped { id });
        c.actuation.drive = Some(Drive::Stop);
        c.events.push(
            c.now,
            "controller",
            serde_json::json!({"run_option": "stopped", "goal": id}),
        );
        "canceled; the robot stopped".into()
    }

    fn report(&mut self, _: &'static GoalKind, id: GoalId, out: &mut GoalReport) {
        let Some((active, option)) = self.goals.active.filter(|(a, _)| *a == id) else {
            return;
        };
        let changed = self.update_path();
        let path = self.goals.path_text.clone();
        let feedback = || Record::defaults(RUN_OPTION.feedback).with("active_path", path.clone());
        if self.engine.option_reached_target(option) {
            self.goals.active = None;
            self.goals.latest = Some(OptionStatus::Succeeded {
                id: active,
                path: path.clone(),
            });
            out.feedback(feedback());
            let name = self.engine.program().options[option].name.clone();
            out.succeed(
                Record::defaults(RUN_OPTION.result).with("reached_target_state", true),
                format!("option `{name}` reached a target state ({path})"),
            );
        } else if changed {
            self.goals.latest = Some(OptionStatus::Active {
                id: active,
                path: path.clone(),
            });
            out.feedback(feedback());
        }
    }
}
