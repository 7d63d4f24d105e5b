//! Binding files: how an agent's symbols map onto a robot.
//!
//! A binding file sits beside the agents file with the same stem
//! (`agents.xabsl` → `agents.binding`) and uses the XABSL lexer (comments, names with
//! dots, numbers, strings):
//!
//! ```text
//! // an input symbol from the robot's signals (an expression; names are signals,
//! // input symbols bound above, constants of the agents, `pi`)
//! input ball.seen.distance = (ball.distance - 0.26) * 1000;
//! input ball.just_seen = rising(ball.seen);
//! // what a basic behavior asks of the robot (names are its parameters)
//! behavior walk: drive(speed_x / 1000, rotation_speed * pi / 180);
//! behavior grip: gripper(command);
//! // what an output symbol's values ask of the robot, or speak them
//! output head_control_mode: catch_ball -> gripper(close), release_ball -> gripper(open);
//! output team_message: say;
//! ```
//!
//! Functions: `abs min max clamp bit` and, keeping state from cycle to cycle,
//! `rising(b)` (true in the cycle `b` becomes true), `falling(b)`, `cycles_while(b)`
//! (consecutive cycles `b` has been true), `ms_while(b)`, `ms_since(b)` (ms since `b`
//! was last true; 0 while it is; 1e9 if never). Actuations: `drive(linear m/s, angular
//! rad/s)`, `stop()`, `gripper(open|close|stop|store|deploy|lift_up|lift_down|halt)`
//! (or an enumerated parameter whose element names are these), `say("text")`.
//!
//! An input symbol without a binding reads the signal of the same name.

use crate::ast::{Expr, Name};
use crate::diag::Diagnostic;
use crate::lexer::{tokenize, Keyword, Tok};
use crate::parser::Parser;
use crate::source::FileId;

/// A parsed binding file.
#[derive(Debug, Clone, Default)]
pub struct BindingFile {
    /// input bindings, in order
    pub inputs: Vec<InputBinding>,
    /// basic behavior bindings
    pub behaviors: Vec<BehaviorBinding>,
    /// output symbol bindings
    pub outputs: Vec<OutputBinding>,
}

/// `input NAME = EXPR;`
#[derive(Debug, Clone)]
pub struct InputBinding {
    /// the input symbol
    pub name: Name,
    /// its value
    pub expr: Expr,
}

/// `behavior NAME: ACTUATION, ...;`
#[derive(Debug, Clone)]
pub struct BehaviorBinding {
    /// the basic behavior
    pub name: Name,
    /// what it asks
    pub actuations: Vec<Actuation>,
}

/// `output NAME: say;` or `output NAME: ELEMENT -> ACTUATION, ...;`
#[derive(Debug, Clone)]
pub struct OutputBinding {
    /// the output symbol
    pub name: Name,
    /// speak the value when it changes
    pub say: bool,
    /// element → actuation, applied when the symbol is set to the element
    pub mappings: Vec<(Name, Actuation)>,
}

/// Something asked of the robot.
#[derive(Debug, Clone)]
pub enum Actuation {
    /// `drive(linear, angular)`: m/s and rad/s
    Drive(Expr, Expr, Name),
    /// `stop()`
    Stop(Name),
    /// `gripper(command)`: a command name or an enumerated parameter
    Gripper(Name, Name),
    /// `say("text")`
    Say(String, Name),
}

/// Parse a binding file.
pub fn parse_binding(text: &str, file: FileId) -> Result<BindingFile, Diagnostic> {
    let toks = tokenize(text, file)?;
    let mut p = Parser::over(toks, true);
    let mut b = BindingFile::default();
    loop {
        match p.peek() {
            Tok::Eof => break,
            Tok::Kw(Keyword::Input) => {
                p.bump();
                let name = name(&mut p, "the input symbol's name after `input`")?;
                p.expect(
                    Tok::Assign,
                    "`=` and the expression that gives the input's value",
                )?;
                let expr = p.expr()?;
                p.expect(Tok::Semi, "`;` after the input binding")?;
                b.inputs.push(InputBinding { name, expr });
            }
            Tok::Kw(Keyword::Behavior) => {
                p.bump();
                let name = name(&mut p, "the basic behavior's name after `behavior`")?;
                p.expect(Tok::Colon, "`:` and what the behavior asks of the robot")?;
                let mut actuations = vec![actuation(&mut p)?];
                while p.eat(Tok::Comma).is_some() {
                    actuations.push(actuation(&mut p)?);
                }
                p.expect(Tok::Semi, "`,` or `;` after an actuation")?;
                b.behaviors.push(BehaviorBinding { name, actuations });
            }
            Tok::Kw(Keyword::Output) => {
                p.bump();
                let name = name(&mut p, "the output symbol's name after `output`")?;
                p.expect(Tok::Colon, "`:` and `say` or `ELEMENT -> ACTUATION, ...`")?;
                let mut o = OutputBinding {
                    name,
                    say: false,
                    mappings: Vec::new(),
                };
                if p.peek() == Tok::Ident
                    && p.toks.get(p.pos).is_some_and(|t| t.text == "say")
                    && p.peek_at(1) == Tok::Semi
                {
                    p.bump();
                    o.say = true;
                } else {
                    loop {
                        let el =
                            self::name(&mut p, "an element of the output symbol's enumeration")?;
                        p.expect(Tok::Minus, "`->` after the element")?;
                        p.expect(Tok::Gt, "`->` after the element")?;
                        let a = actuation(&mut p)?;
                        o.mappings.push((el, a));
                        if p.eat(Tok::Comma).is_none() {
                            break;
                        }
                    }
                }
                p.expect(Tok::Semi, "`;` after the output binding")?;
                b.outputs.push(o);
            }
            _ => {
                return Err(p.error_here(
                    "`input NAME = EXPR;`, `behavior NAME: ACTUATION;` or `output NAME: ...;`",
                ))
            }
        }
    }
    Ok(b)
}

fn name(p: &mut Parser, what: &str) -> Result<Name, Diagnostic> {
    let t = p.expect(Tok::Ident, what)?;
    Ok(Name {
        text: t.text,
        span: t.span,
    })
}

fn actuation(p: &mut Parser) -> Result<Actuation, Diagnostic> {
    let n = name(
        p,
        "an actuation: `drive(v, w)`, `stop()`, `gripper(COMMAND)` or `say(\"text\")`",
    )?;
    p.expect(Tok::LParen, "`(` after the actuation")?;
    let a = match n.text.as_str() {
        "drive" => {
            let v = p.expr()?;
            p.expect(Tok::Comma, "`,` and the angular velocity (rad/s)")?;
            let w = p.expr()?;
            Actuation::Drive(v, w, n)
        }
        "stop" => Actuation::Stop(n),
        "gripper" => {
            let c = name(p, "a gripper command (open, close, stop, store, deploy, lift_up, lift_down, halt) or an enumerated parameter")?;
            Actuation::Gripper(c, n)
        }
        "say" => {
            let s = p.expect(Tok::Str, "the text to say, in quotes")?;
            Actuation::Say(s.text, n)
        }
        _ => {
            return Err(Diagnostic::error(
                "X8100",
                n.span,
                format!(
                    "unknown actuation `{}`: expected `drive(v, w)`, `stop()`, `gripper(COMMAND)` or `say(\"text\")`",
                    n.text
                ),
            ))
        }
    };
    p.expect(Tok::RParen, "`)` after the actuation")?;
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_binding() {
        let b = parse_binding(
            "input a.b = max(x.y * 1000, 0) + rising(s);\n\
             behavior walk: drive(sx / 1000, rot * pi / 180), say(\"go\");\n\
             behavior grip: gripper(command);\n\
             output mode: catch -> gripper(close), release -> stop();\n\
             output msg: say;\n",
            FileId(0),
        )
        .unwrap();
        assert_eq!(b.inputs.len(), 1);
        assert_eq!(b.behaviors[0].actuations.len(), 2);
        assert_eq!(b.outputs[0].mappings.len(), 2);
        assert!(b.outputs[1].say);
        let e = parse_binding("behavior w: fly(1);", FileId(0)).unwrap_err();
        assert_eq!(e.code, "X8100");
    }
}
