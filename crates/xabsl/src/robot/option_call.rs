//! An option call from outside the agent (a `run_option` goal): the option's name and
//! its parameters as a JSON object, checked against the program.
//!
//! Parameters are named as callers write them (`angle`) or fully (`turn_and_release.angle`);
//! decimal parameters take JSON numbers, boolean ones `true`/`false`, enumerated ones an
//! element's name (`fast` or `mode.fast`). Parameters not given are 0, false or the first
//! element, as when a state calls the option without them.

use crate::model::{OptionId, Program, Type};
use serde_json::Value;

/// A checked option call: the option and one value per parameter (declaration order;
/// booleans 0/1, enumerated values element indices), ready for
/// [`crate::engine::Engine::set_root_option`].
#[derive(Debug, Clone, PartialEq)]
pub struct OptionCall {
    /// the option
    pub option: OptionId,
    /// its parameter values
    pub params: Vec<f64>,
}

/// Check a call of option `name` with `parameters` (a JSON object; empty text for
/// none). The error is a sentence for the caller.
pub fn parse_option_call(
    program: &Program,
    name: &str,
    parameters: &str,
) -> Result<OptionCall, String> {
    let Some(option) = program.options.iter().position(|o| o.name == name) else {
        let mut names: Vec<&str> = program.options.iter().map(|o| o.name.as_str()).collect();
        names.sort_unstable();
        return Err(format!(
            "there is no option called `{name}` (options: {})",
            names.join(", ")
        ));
    };
    let o = &program.options[option];
    let mut params = vec![0.0; o.params.len()];
    let text = parameters.trim();
    if text.is_empty() {
        return Ok(OptionCall { option, params });
    }
    let obj = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => m,
        Ok(_) => {
            return Err(format!(
                "the parameters must be a JSON object such as {{\"angle\": 90}}, not `{text}`"
            ))
        }
        Err(e) => return Err(format!("the parameters are not valid JSON: {e}")),
    };
    let list = || {
        if o.params.is_empty() {
            "it has none".to_string()
        } else {
            let v: Vec<&str> = o.params.iter().map(|p| p.short.as_str()).collect();
            format!("it has {}", v.join(", "))
        }
    };
    for (key, value) in &obj {
        let Some(k) = o
            .params
            .iter()
            .position(|p| p.short == *key || p.name == *key)
        else {
            return Err(format!(
                "option `{name}` has no parameter `{key}` ({})",
                list()
            ));
        };
        let p = &o.params[k];
        params[k] = match (p.ty, value) {
            (Type::Decimal, Value::Number(n)) => match n.as_f64() {
                Some(v) if v.is_finite() => v,
                _ => return Err(format!("parameter `{key}` must be a finite number")),
            },
            (Type::Decimal, _) => {
                return Err(format!("parameter `{key}` is a number, not {value}"))
            }
            (Type::Boolean, Value::Bool(b)) => f64::from(u8::from(*b)),
            (Type::Boolean, _) => {
                return Err(format!("parameter `{key}` is true or false, not {value}"))
            }
            (Type::Enum(e), v) => {
                let en = program.enums.get(e).ok_or("unknown enumeration")?;
                let Value::String(s) = v else {
                    return Err(format!(
                        "parameter `{key}` is an element of `{}`, given as a string, not {value}",
                        en.name
                    ));
                };
                match (0..en.elements.len()).find(|&i| en.short(i) == s || en.elements[i] == *s) {
                    Some(i) => i as f64,
                    None => {
                        let v: Vec<&str> = (0..en.elements.len()).map(|i| en.short(i)).collect();
                        return Err(format!(
                            "parameter `{key}` must be one of {}, not `{s}`",
                            v.join(", ")
                        ));
                    }
                }
            }
        };
    }
    Ok(OptionCall { option, params })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::MemLoader;

    fn program() -> Program {
        let mut files = MemLoader::new();
        files.add(
            "agents.xabsl",
            "include \"t.xabsl\";\ninclude \"go.xabsl\";\ninclude \"top.xabsl\";\nagent a(\"A\", top);\n",
        );
        files.add(
            "t.xabsl",
            "namespace t(\"T\") { enum gait { slow, fast }; }\n",
        );
        files.add(
            "top.xabsl",
            "option top { initial state s { action { go(speed = 1); } } }\n",
        );
        files.add(
            "go.xabsl",
            "option go { float @speed; bool @back; enum gait @gait;\n  initial target state s { action { } } }\n",
        );
        let c = crate::compile("agents.xabsl", &files);
        assert!(!c.diagnostics.has_errors(), "{}", c.render());
        c.program
    }

    #[test]
    fn parameters_by_name_and_type() {
        let p = program();
        let go = p.options.iter().position(|o| o.name == "go").unwrap();
        let c =
            parse_option_call(&p, "go", r#"{"speed": 0.5, "back": true, "gait": "fast"}"#).unwrap();
        assert_eq!(c.option, go);
        let names: Vec<&str> = p.options[go]
            .params
            .iter()
            .map(|x| x.short.as_str())
            .collect();
        let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
        assert_eq!(c.params[at("speed")], 0.5);
        assert_eq!(c.params[at("back")], 1.0);
        assert_eq!(c.params[at("gait")], 1.0);
        // full names, missing parameters default, empty text
        let c = parse_option_call(&p, "go", r#"{"go.gait": "gait.slow"}"#).unwrap();
        assert_eq!(c.params, vec![0.0; 3]);
        assert_eq!(
            parse_option_call(&p, "go", " ").unwrap().params,
            vec![0.0; 3]
        );
    }

    #[test]
    fn bad_calls_say_what_is_wrong() {
        let p = program();
        let err = |o: &str, j: &str| parse_option_call(&p, o, j).unwrap_err();
        assert!(err("nope", "").contains("no option called `nope` (options: go, top)"));
        assert!(err("go", "{").contains("not valid JSON"));
        assert!(err("go", "[1]").contains("must be a JSON object"));
        assert!(
            err("go", r#"{"spd": 1}"#).contains("no parameter `spd` (it has speed, back, gait)")
        );
        assert!(err("top", r#"{"x": 1}"#).contains("it has none"));
        assert!(err("go", r#"{"speed": "1"}"#).contains("is a number"));
        assert!(err("go", r#"{"back": 1}"#).contains("true or false"));
        assert!(err("go", r#"{"gait": "trot"}"#).contains("one of slow, fast"));
        assert!(err("go", r#"{"gait": 1}"#).contains("given as a string"));
    }

    proptest::proptest! {
        /// Whatever a goal carries, the call is checked without a panic, and a call that
        /// passes has one finite value per parameter.
        #[test]
        fn any_goal_is_checked(name in "(go|top|x|)", text in "\\PC{0,40}", key in "(speed|back|gait|go.gait|z)", v in -1e9f64..1e9) {
            let p = program();
            for params in [text.clone(), format!("{{\"{key}\": {v}}}"), format!("{{\"{key}\": \"{text}\"}}")] {
                if let Ok(c) = parse_option_call(&p, &name, &params) {
                    proptest::prop_assert_eq!(c.params.len(), p.options[c.option].params.len());
                    proptest::prop_assert!(c.params.iter().all(|x| x.is_finite()));
                }
            }
        }
    }
}
