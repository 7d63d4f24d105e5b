//! Choosing the root option and its parameters at run time (for `run_option` goals):
//! the option becomes the only root action and is called every cycle with the given
//! parameter values, as if a state called it with constants.

use super::{Engine, RootAction};
use crate::model::OptionId;
use crate::Error;

impl Engine {
    /// Make `option` the only root action, called with `params` (one value per
    /// parameter, in the option's declaration order; booleans 0/1, enumerated values
    /// element indices). Option states are kept; call [`Engine::reset`] as well to start
    /// every option afresh. A later binding change ([`Engine::bind_input`],
    /// [`Engine::define_input`]) calls the root option with default parameters again.
    pub fn set_root_option(&mut self, option: OptionId, params: &[f64]) -> Result<(), Error> {
        let Some(o) = self.program.options.get(option) else {
            return Err(Error::Engine(format!("there is no option number {option}")));
        };
        if o.params.len() != params.len() {
            return Err(Error::Engine(format!(
                "option `{}` has {} parameter(s), not {}",
                o.name,
                o.params.len(),
                params.len()
            )));
        }
        let first = self.code.options.get(option).map_or(0, |o| o.first_param);
        self.set_root_actions(&[RootAction::Option(option)]);
        for (slot, value) in self.root_params.iter_mut() {
            let k = slot.wrapping_sub(first) as usize;
            if let Some(&v) = params.get(k) {
                *value = v;
            }
        }
        Ok(())
    }

    /// Whether `option` ran in the last cycle and is in a target state.
    pub fn option_reached_target(&self, option: OptionId) -> bool {
        let s = self.active_state(option);
        self.was_active(option)
            && self
                .program
                .options
                .get(option)
                .and_then(|x| x.states.get(s))
                .is_some_and(|s| s.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::MemLoader;
    use std::sync::Arc;

    fn engine() -> Engine {
        let mut files = MemLoader::new();
        files.add(
            "agents.xabsl",
            "include \"go.xabsl\";\ninclude \"top.xabsl\";\nagent a(\"A\", top);\n",
        );
        files.add(
            "top.xabsl",
            "option top { initial state s { action { } } }\n",
        );
        files.add(
            "go.xabsl",
            "option go { float @speed; bool @back;\n\
             initial state s { decision { if (@speed > 1 && @back) goto done; else stay; } action { } }\n\
             target state done { action { } } }\n",
        );
        let c = crate::compile("agents.xabsl", &files);
        assert!(!c.diagnostics.has_errors(), "{}", c.render());
        let mut e = Engine::new(Arc::new(c.program)).unwrap();
        assert!(e.select_agent("a"));
        e
    }

    #[test]
    fn the_root_option_runs_with_the_given_parameters() {
        let mut e = engine();
        let go = e
            .program()
            .options
            .iter()
            .position(|o| o.name == "go")
            .unwrap();
        let speed = e.program().options[go]
            .params
            .iter()
            .position(|p| p.short == "speed")
            .unwrap();
        let mut params = vec![0.0; 2];
        params[speed] = 0.5;
        params[1 - speed] = 1.0;
        e.set_root_option(go, &params).unwrap();
        e.execute(100);
        assert_eq!(e.path().first().map(|p| p.option), Some(go));
        assert_eq!(e.option_parameter(go, speed), 0.5);
        assert!(!e.option_reached_target(go));
        params[speed] = 2.0;
        e.set_root_option(go, &params).unwrap();
        e.execute(200);
        assert_eq!(e.option_parameter(go, speed), 2.0);
        assert!(e.option_reached_target(go));
        // a fresh start with other parameters leaves the target state
        params[speed] = 0.0;
        e.set_root_option(go, &params).unwrap();
        e.reset();
        e.execute(300);
        assert!(!e.option_reached_target(go));
        assert!(e.set_root_option(go, &[1.0]).is_err());
        assert!(e.set_root_option(99, &[]).is_err());
    }
}
