//! Native code for the instruction list: every option becomes one machine-code function,
//! compiled with Cranelift on the engine's first cycle.
//!
//! The functions do what the interpreter does, instruction by instruction, without its
//! dispatch: slots are loads and stores at fixed offsets of the slot array, conditions
//! are compares and branches, an option call is a call of the callee's function (the
//! options call each other without cycles, so the call depth is bounded), and the
//! bookkeeping the interpreter shares with this (entering an option, the decision taking
//! effect, leaving, basic behaviors, host functions, `action_done`, `%`) is the same Rust
//! code, called from the machine code. So the two ways of running cannot disagree on the
//! reference's rules; a test runs both on every agent we have, cycle by cycle.
//!
//! An option function starts with the bookkeeping of entering and jumps to the decision
//! of its active state; the decision's `goto` records the path and jumps to the actions
//! of the chosen state (known when the code is built unless a cooperative state may
//! refuse); the actions end by leaving the option.
//!
//! The code has no relocations: helpers and option functions are called through
//! absolute addresses (the option table is a boxed slice that never moves), so it is
//! placed in memory as it is and made executable. Where Cranelift does not support the
//! host, or something cannot be compiled, the engine stays with the interpreter.

use super::vm::{leave_option, modulo, Ins, Vm};
use super::Runtime;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    self, types, AbiParam, Block, InstBuilder, JumpTableData, MemFlagsData, SigRef, Value,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use std::collections::BTreeSet;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// What the machine code works on, passed to every helper.
struct Cx<'a> {
    vm: &'a Vm,
    rt: &'a mut Runtime,
    sl: *mut f64,
    len: usize,
    /// a host function panicked: the payload, raised again when the cycle is over
    panic: Option<Box<dyn std::any::Any + Send>>,
}

/// An option's function: (context, slots, depth on the path).
type OptionFn = unsafe extern "C" fn(*mut Cx<'_>, *mut f64, u32);

/// The option functions of a program in executable memory.
pub(crate) struct Native {
    /// the machine code (kept alive; never written after it was made executable)
    _code: memmap2::Mmap,
    /// the address of each option's function
    entries: Box<[usize]>,
}

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Native({} options)", self.entries.len())
    }
}

impl Native {
    /// Compile every option of `vm`; `None` where this host has no Cranelift backend or
    /// the code cannot be compiled (the interpreter runs it then).
    pub(crate) fn compile(vm: &Vm) -> Option<Native> {
        // option calls are machine calls: a chain deeper than this stays interpreted
        // (its frames are on the heap) rather than risk the thread's stack
        if vm.depth > MAX_CALL_DEPTH {
            return None;
        }
        let isa = isa()?;
        let n = vm.option_states.len();
        let entries = vec![0usize; n].into_boxed_slice();
        let table = entries.as_ptr() as i64;
        let mut fbc = FunctionBuilderContext::new();
        let mut bodies: Vec<Vec<u8>> = Vec::with_capacity(n);
        for o in 0..n as u32 {
            let func = Lower::function(vm, &isa, &mut fbc, o, table)?;
            let mut ctx = Context::for_function(func);
            let compiled = ctx.compile(&*isa, &mut ControlPlane::default()).ok()?;
            if !compiled.buffer.relocs().is_empty() {
                return None;
            }
            bodies.push(compiled.code_buffer().to_vec());
        }
        let align = |x: usize| (x + 63) & !63;
        let total: usize = bodies.iter().map(|b| align(b.len())).sum::<usize>().max(64);
        let mut map = memmap2::MmapMut::map_anon(total).ok()?;
        let mut offsets = Vec::with_capacity(n);
        let mut at = 0;
        for b in &bodies {
            map.get_mut(at..at + b.len())?.copy_from_slice(b);
            offsets.push(at);
            at += align(b.len());
        }
        let code = map.make_exec().ok()?;
        let base = code.as_ptr() as usize;
        let mut entries = entries;
        for (e, off) in entries.iter_mut().zip(offsets) {
            *e = base + off;
        }
        Some(Native {
            _code: code,
            entries,
        })
    }

    /// Run option `o` (called from the root) and everything it calls.
    pub(crate) fn run_option(&self, vm: &Vm, sl: &mut [f64], rt: &mut Runtime, o: u32) {
        let Some(&entry) = self.entries.get(o as usize) else {
            return;
        };
        let mut cx = Cx {
            vm,
            rt,
            sl: sl.as_mut_ptr(),
            len: sl.len(),
            panic: None,
        };
        let p = cx.sl;
        // SAFETY: `entry` is the start of the function compiled for option `o` with the
        // signature of `OptionFn`, in memory that lives as long as `self`. The code
        // reads and writes slots at offsets below `len` (every slot number is masked as
        // the interpreter masks it, and the array is `smask + 1` long, checked by
        // `run_option` of the interpreter before it gets here), calls only the helpers
        // below with the context it was given, and the option functions of the table.
        unsafe {
            let f: OptionFn = std::mem::transmute::<usize, OptionFn>(entry);
            f(&mut cx, p, 0);
        }
        if let Some(payload) = cx.panic.take() {
            resume_unwind(payload);
        }
    }
}

/// The longest chain of option calls native code may make (a real agent's is a few
/// dozen at most; each level costs a machine stack frame of about a hundred bytes).
const MAX_CALL_DEPTH: usize = 512;

/// Cranelift's backend for this machine, optimising for speed.
fn isa() -> Option<OwnedTargetIsa> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    // Cranelift's IR verifier checks our lowering in debug builds (and the tests)
    let verify = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    flags.set("enable_verifier", verify).ok()?;
    let builder = cranelift_native::builder().ok()?;
    builder.finish(settings::Flags::new(flags)).ok()
}

// ------------------------------------------------------------------ helpers

/// The context of a helper call.
///
/// SAFETY (for every helper): `cx` is the `Cx` that `Native::run_option` passed to the
/// machine code, alive for the whole call; the machine code does not touch it, and no
/// helper runs while another one does, so this is the only reference to it.
unsafe fn cx<'a, 'b>(cx: *mut Cx<'a>) -> &'b mut Cx<'a> {
    unsafe { &mut *cx }
}

/// The slots (beside the rest of the context).
fn slots<'b>(c: &Cx<'_>) -> &'b mut [f64] {
    // SAFETY: `sl` and `len` are those of the slot slice `run_option` was given, which
    // is borrowed for the whole call; the machine code is suspended while a helper runs,
    // and no other field of the context points into it.
    unsafe { std::slice::from_raw_parts_mut(c.sl, c.len) }
}

/// Run a helper's body for the machine code, which must never be unwound through: a
/// panic is caught, kept in the context and raised again by `run_option` when the cycle
/// is over; until then every helper does nothing and the machine code gets `fallback`
/// (for `enter` and `decide` the "cannot" answer, so it returns as soon as it can).
/// Every helper goes through here, so none can abort the process.
fn guarded<T>(
    c: *mut Cx<'_>,
    helper: &'static str,
    fallback: T,
    body: impl FnOnce(&mut Cx<'_>) -> T,
) -> T {
    let c = unsafe { cx(c) };
    if c.panic.is_some() {
        return fallback;
    }
    match catch_unwind(AssertUnwindSafe(|| {
        #[cfg(test)]
        tests::maybe_panic(helper);
        #[cfg(not(test))]
        let _ = helper;
        body(&mut *c)
    })) {
        Ok(v) => v,
        Err(payload) => {
            c.panic = Some(payload);
            fallback
        }
    }
}

extern "C" fn h_enter(c: *mut Cx<'_>, o: u32) -> u32 {
    guarded(c, "enter", u32::MAX, |c| {
        let (vm, sl) = (c.vm, slots(c));
        vm.enter_option(sl, c.rt, o).unwrap_or(u32::MAX)
    })
}

extern "C" fn h_decide(c: *mut Cx<'_>, o: u32, current: u32, next: u32, depth: u32) -> u32 {
    guarded(c, "decide", u32::MAX, |c| {
        let (vm, sl) = (c.vm, slots(c));
        vm.decide(sl, c.rt, o, current, next, depth)
            .unwrap_or(u32::MAX)
    })
}

extern "C" fn h_leave(c: *mut Cx<'_>, o: u32) {
    guarded(c, "leave", (), |c| leave_option(c.rt, o))
}

extern "C" fn h_behavior(c: *mut Cx<'_>, b: u32, changed: u32) {
    guarded(c, "behavior", (), |c| {
        super::vm::behavior(c.rt, b as usize, changed != 0)
    })
}

extern "C" fn h_host(c: *mut Cx<'_>, h: u32) -> f64 {
    guarded(c, "host", 0.0, |c| {
        let vm = c.vm;
        vm.call_host(slots(c), h)
    })
}

extern "C" fn h_done(c: *mut Cx<'_>, first: u32, n: u32) -> u32 {
    guarded(c, "done", 0, |c| {
        u32::from(c.vm.action_done(c.rt, first, n))
    })
}

extern "C" fn h_done1(c: *mut Cx<'_>, o: u32) -> u32 {
    guarded(c, "done1", 0, |c| u32::from(c.vm.done1(c.rt, o)))
}

extern "C" fn h_mod(c: *mut Cx<'_>, x: f64, y: f64) -> f64 {
    guarded(c, "mod", 0.0, |c| modulo(c.rt, x, y))
}

extern "C" fn h_conflict(c: *mut Cx<'_>, ci: u32) -> u32 {
    guarded(c, "conflict", 0, |c| {
        u32::from(c.rt.coop.get(ci as usize).is_some_and(|x| x.conflict))
    })
}

// ------------------------------------------------------------------ lowering

/// Signatures of the calls the machine code makes.
struct Sigs {
    /// (cx, u32) -> u32: enter, done1, conflict
    u_u: SigRef,
    /// (cx, u32, u32, u32, u32) -> u32: decide
    decide: SigRef,
    /// (cx, u32): leave
    u: SigRef,
    /// (cx, u32, u32): behavior
    uu: SigRef,
    /// (cx, u32, u32) -> u32: done
    uu_u: SigRef,
    /// (cx, u32) -> f64: host
    u_f: SigRef,
    /// (cx, f64, f64) -> f64: modulo
    ff_f: SigRef,
    /// (cx, slots, u32): an option
    option: SigRef,
}

/// Building one option's function.
struct Lower<'a, 'b> {
    vm: &'a Vm,
    b: FunctionBuilder<'b>,
    sigs: Sigs,
    cx: Value,
    sl: Value,
    depth: Value,
    o: u32,
    table: i64,
    mem: MemFlagsData,
}

impl<'a, 'b> Lower<'a, 'b> {
    fn function(
        vm: &'a Vm,
        isa: &OwnedTargetIsa,
        fbc: &'b mut FunctionBuilderContext,
        o: u32,
        table: i64,
    ) -> Option<ir::Function> {
        let cc = isa.default_call_conv();
        let ptr = isa.pointer_type();
        let sig = |params: &[ir::Type], ret: Option<ir::Type>| {
            let mut s = ir::Signature::new(cc);
            s.params.push(AbiParam::new(ptr));
            s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
            s.returns.extend(ret.map(AbiParam::new));
            s
        };
        let (i32_, f64_) = (types::I32, types::F64);
        let mut func = ir::Function::with_name_signature(
            ir::UserFuncName::user(0, o),
            sig(&[ptr, i32_], None),
        );
        let mut b = FunctionBuilder::new(&mut func, fbc);
        let sigs = Sigs {
            u_u: b.import_signature(sig(&[i32_], Some(i32_))),
            decide: b.import_signature(sig(&[i32_, i32_, i32_, i32_], Some(i32_))),
            u: b.import_signature(sig(&[i32_], None)),
            uu: b.import_signature(sig(&[i32_, i32_], None)),
            uu_u: b.import_signature(sig(&[i32_, i32_], Some(i32_))),
            u_f: b.import_signature(sig(&[i32_], Some(f64_))),
            ff_f: b.import_signature(sig(&[f64_, f64_], Some(f64_))),
            option: b.import_signature(sig(&[ptr, i32_], None)),
        };
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (cx, sl, depth) = match params.as_slice() {
            [cx, sl, depth] => (*cx, *sl, *depth),
            _ => return None,
        };
        let mut l = Lower {
            vm,
            b,
            sigs,
            cx,
            sl,
            depth,
            o,
            table,
            mem: MemFlagsData::trusted(),
        };
        l.body()?;
        l.b.seal_all_blocks();
        l.b.finalize(isa.frontend_config());
        Some(func)
    }

    /// Call a helper at its absolute address.
    fn call(&mut self, sig: SigRef, f: usize, args: &[Value]) -> Option<Value> {
        let addr = self.b.ins().iconst(types::I64, f as i64);
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(self.cx);
        all.extend_from_slice(args);
        let call = self.b.ins().call_indirect(sig, addr, &all);
        self.b.inst_results(call).first().copied()
    }

    fn u32c(&mut self, x: u32) -> Value {
        self.b.ins().iconst(types::I32, i64::from(x))
    }

    fn off(&self, s: u32) -> i32 {
        ((s as usize & self.vm.smask) * 8) as i32
    }

    fn rd(&mut self, s: u32) -> Value {
        let off = self.off(s);
        self.b.ins().load(types::F64, self.mem, self.sl, off)
    }

    fn wr(&mut self, s: u32, v: Value) {
        let off = self.off(s);
        self.b.ins().store(self.mem, v, self.sl, off);
    }

    /// 1.0 if `c` (an i8 truth value), else 0.0.
    fn b2f(&mut self, c: Value) -> Value {
        let one = self.b.ins().f64const(1.0);
        let zero = self.b.ins().f64const(0.0);
        self.b.ins().select(c, one, zero)
    }

    /// `x as u32` (saturating, NaN to 0), as Rust converts.
    fn element(&mut self, x: Value) -> Value {
        self.b.ins().fcvt_to_uint_sat(types::I32, x)
    }

    fn nonzero(&mut self, x: Value) -> Value {
        let zero = self.b.ins().f64const(0.0);
        self.b.ins().fcmp(FloatCC::NotEqual, x, zero)
    }

    /// The whole function: enter, the states' code, leave.
    fn body(&mut self) -> Option<()> {
        let vm = self.vm;
        let (first, n) = *vm.option_states.get(self.o as usize)?;
        // blocks for each state's decision and actions
        let decisions: Vec<Block> = (0..n).map(|_| self.b.create_block()).collect();
        let actions: Vec<Block> = (0..n).map(|_| self.b.create_block()).collect();
        let out = self.b.create_block();
        let o = self.u32c(self.o);
        let cur = self.call(self.sigs.u_u, h_enter as *const () as usize, &[o])?;
        self.br_table(cur, first, &decisions, out);
        self.b.switch_to_block(out);
        self.b.ins().return_(&[]);
        for i in 0..n {
            let g = first + i;
            let st = *vm.states.get(g as usize)?;
            let end = self.end_of(st.actions)?;
            let (dec, act) = (*decisions.get(i as usize)?, *actions.get(i as usize)?);
            self.region(g, st.decision, end, dec, act, first, &actions)?;
        }
        Some(())
    }

    /// Jump to `blocks[x - first]`, or to `default` if out of range.
    fn br_table(&mut self, x: Value, first: u32, blocks: &[Block], default: Block) {
        let local = self.b.ins().iadd_imm_s(x, -i64::from(first));
        let calls: Vec<_> = blocks
            .iter()
            .map(|&bl| self.b.func.dfg.block_call(bl, &[]))
            .collect();
        let def = self.b.func.dfg.block_call(default, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        self.b.ins().br_table(local, jt);
    }

    /// The `End` of a state's actions.
    fn end_of(&self, actions: u32) -> Option<u32> {
        let ins = self.vm.ins.get(actions as usize..)?;
        let k = ins.iter().position(|i| matches!(i, Ins::End))?;
        Some(actions + k as u32)
    }

    /// The code of state `g`: its decision from `start`, its actions from `act_at`, up to
    /// and with `end`.
    #[allow(clippy::too_many_arguments)]
    fn region(
        &mut self,
        g: u32,
        start: u32,
        end: u32,
        dec: Block,
        act: Block,
        first: u32,
        actions: &[Block],
    ) -> Option<()> {
        let vm = self.vm;
        let act_at = vm.states.get(g as usize)?.actions;
        let code = vm.ins.get(start as usize..=end as usize)?;
        // where blocks begin: jump targets and the instructions after branches
        let mut starts = BTreeSet::new();
        for (k, i) in code.iter().enumerate() {
            let pc = start + k as u32;
            if let Some(t) = i.target() {
                if t < start || t > end {
                    return None;
                }
                starts.insert(t);
                starts.insert(pc + 1);
            }
        }
        starts.remove(&start);
        starts.remove(&act_at);
        let mut blocks = std::collections::HashMap::new();
        for &s in &starts {
            blocks.insert(s, self.b.create_block());
        }
        blocks.insert(start, dec);
        blocks.insert(act_at, act);
        let mut open = false;
        for (k, &i) in code.iter().enumerate() {
            let pc = start + k as u32;
            if let Some(&bl) = blocks.get(&pc) {
                if open {
                    self.b.ins().jump(bl, &[]);
                }
                self.b.switch_to_block(bl);
                open = true;
            }
            if !open {
                // unreachable (after a goto or a jump)
                continue;
            }
            let next = blocks.get(&(pc + 1)).copied();
            open = self.ins(i, g, first, actions, &blocks, next)?;
        }
        if open {
            // a state's code always ends with `End`
            return None;
        }
        Some(())
    }

    /// Lower one instruction; whether the code after it is reachable by falling
    /// through.
    fn ins(
        &mut self,
        i: Ins,
        g: u32,
        first: u32,
        actions: &[Block],
        blocks: &std::collections::HashMap<u32, Block>,
        next: Option<Block>,
    ) -> Option<bool> {
        use Ins::*;
        let to = |t: u32| blocks.get(&t).copied();
        macro_rules! cmp_jump {
            ($a:expr, $b:expr, $t:expr, $cc:expr, $neg:expr) => {{
                let (x, y) = (self.rd($a), self.rd($b));
                let c = self.b.ins().fcmp($cc, x, y);
                self.branch(c, $neg, to($t)?, next?);
                return Some(false);
            }};
        }
        macro_rules! arith {
            ($d:expr, $a:expr, $b:expr, $op:ident) => {{
                let (x, y) = (self.rd($a), self.rd($b));
                let v = self.b.ins().$op(x, y);
                self.wr($d, v);
            }};
        }
        macro_rules! set_cmp {
            ($d:expr, $a:expr, $b:expr, $cc:expr) => {{
                let (x, y) = (self.rd($a), self.rd($b));
                let c = self.b.ins().fcmp($cc, x, y);
                let v = self.b2f(c);
                self.wr($d, v);
            }};
        }
        match i {
            Goto(t) => {
                let st = self.vm.states.get(t as usize)?;
                let (o, cur, nx) = (self.u32c(self.o), self.u32c(g), self.u32c(t));
                let chosen = self.call(
                    self.sigs.decide,
                    h_decide as *const () as usize,
                    &[o, cur, nx, self.depth],
                )?;
                // a cooperative state may refuse: then the option stays where it is
                if st.is_coop && t != g {
                    let out = self.b.create_block();
                    self.br_table(chosen, first, actions, out);
                    self.b.switch_to_block(out);
                    self.b.ins().return_(&[]);
                } else {
                    let bl = *actions.get(t.checked_sub(first)? as usize)?;
                    self.b.ins().jump(bl, &[]);
                }
                return Some(false);
            }
            End => {
                let o = self.u32c(self.o);
                self.call(self.sigs.u, h_leave as *const () as usize, &[o]);
                self.b.ins().return_(&[]);
                return Some(false);
            }
            Jmp(t) => {
                let bl = to(t)?;
                self.b.ins().jump(bl, &[]);
                return Some(false);
            }
            Jz(s, t) => {
                let x = self.rd(s);
                let c = self.nonzero(x);
                self.branch(c, true, to(t)?, next?);
                return Some(false);
            }
            Jnz(s, t) => {
                let x = self.rd(s);
                let c = self.nonzero(x);
                self.branch(c, false, to(t)?, next?);
                return Some(false);
            }
            JLt(a, b, t) => cmp_jump!(a, b, t, FloatCC::LessThan, false),
            JNlt(a, b, t) => cmp_jump!(a, b, t, FloatCC::LessThan, true),
            JGt(a, b, t) => cmp_jump!(a, b, t, FloatCC::GreaterThan, false),
            JNgt(a, b, t) => cmp_jump!(a, b, t, FloatCC::GreaterThan, true),
            JLe(a, b, t) => cmp_jump!(a, b, t, FloatCC::LessThanOrEqual, false),
            JNle(a, b, t) => cmp_jump!(a, b, t, FloatCC::LessThanOrEqual, true),
            JGe(a, b, t) => cmp_jump!(a, b, t, FloatCC::GreaterThanOrEqual, false),
            JNge(a, b, t) => cmp_jump!(a, b, t, FloatCC::GreaterThanOrEqual, true),
            JEq(a, b, t) => cmp_jump!(a, b, t, FloatCC::Equal, false),
            JNe(a, b, t) => cmp_jump!(a, b, t, FloatCC::NotEqual, false),
            JEnumEq(a, b, t) | JEnumNe(a, b, t) => {
                let (x, y) = (self.rd(a), self.rd(b));
                let (x, y) = (self.element(x), self.element(y));
                let c = self.b.ins().icmp(IntCC::Equal, x, y);
                self.branch(c, matches!(i, JEnumNe(..)), to(t)?, next?);
                return Some(false);
            }
            JDone(f, n, t) | JNotDone(f, n, t) => {
                let (f, n) = (self.u32c(f), self.u32c(n));
                let d = self.call(self.sigs.uu_u, h_done as *const () as usize, &[f, n])?;
                let c = self.b.ins().icmp_imm_u(IntCC::NotEqual, d, 0);
                self.branch(c, matches!(i, JNotDone(..)), to(t)?, next?);
                return Some(false);
            }
            JDone1(o, t) | JNotDone1(o, t) => {
                let o = self.u32c(o);
                let d = self.call(self.sigs.u_u, h_done1 as *const () as usize, &[o])?;
                let c = self.b.ins().icmp_imm_u(IntCC::NotEqual, d, 0);
                self.branch(c, matches!(i, JNotDone1(..)), to(t)?, next?);
                return Some(false);
            }
            JIn(a, k, t) | JNotIn(a, k, t) => {
                let (x, lo, hi) = (self.rd(a), self.rd(k), self.rd(k + 1));
                let c1 = self.b.ins().fcmp(FloatCC::LessThanOrEqual, lo, x);
                let c2 = self.b.ins().fcmp(FloatCC::LessThan, x, hi);
                let c = self.b.ins().band(c1, c2);
                self.branch(c, matches!(i, JNotIn(..)), to(t)?, next?);
                return Some(false);
            }
            Add(d, a, b) => arith!(d, a, b, fadd),
            Sub(d, a, b) => arith!(d, a, b, fsub),
            Mul(d, a, b) => arith!(d, a, b, fmul),
            Div(d, a, b) => {
                let (x, y) = (self.rd(a), self.rd(b));
                let zero = self.b.ins().f64const(0.0);
                let tiny = self.b.ins().f64const(0.0000001);
                let c = self.b.ins().fcmp(FloatCC::Equal, y, zero);
                let y = self.b.ins().select(c, tiny, y);
                let v = self.b.ins().fdiv(x, y);
                self.wr(d, v);
            }
            Mod(d, a, b) => {
                let (x, y) = (self.rd(a), self.rd(b));
                let v = self.call(self.sigs.ff_f, h_mod as *const () as usize, &[x, y])?;
                self.wr(d, v);
            }
            Lt(d, a, b) => set_cmp!(d, a, b, FloatCC::LessThan),
            Gt(d, a, b) => set_cmp!(d, a, b, FloatCC::GreaterThan),
            Le(d, a, b) => set_cmp!(d, a, b, FloatCC::LessThanOrEqual),
            Ge(d, a, b) => set_cmp!(d, a, b, FloatCC::GreaterThanOrEqual),
            Eq(d, a, b) => set_cmp!(d, a, b, FloatCC::Equal),
            Ne(d, a, b) => set_cmp!(d, a, b, FloatCC::NotEqual),
            EnumEq(d, a, b) => {
                let (x, y) = (self.rd(a), self.rd(b));
                let (x, y) = (self.element(x), self.element(y));
                let c = self.b.ins().icmp(IntCC::Equal, x, y);
                let v = self.b2f(c);
                self.wr(d, v);
            }
            Sel(d, c, p) => {
                let (a, b) = self.vm.pairs.get(p as usize).copied().unwrap_or((0, 0));
                let cv = self.rd(c);
                let c = self.nonzero(cv);
                let (x, y) = (self.rd(a), self.rd(b));
                let v = self.b.ins().select(c, x, y);
                self.wr(d, v);
            }
            AndV(d, a, b) | OrV(d, a, b) => {
                let (x, y) = (self.rd(a), self.rd(b));
                let (x, y) = (self.nonzero(x), self.nonzero(y));
                let c = if matches!(i, AndV(..)) {
                    self.b.ins().band(x, y)
                } else {
                    self.b.ins().bor(x, y)
                };
                let v = self.b2f(c);
                self.wr(d, v);
            }
            Not(d, a) => {
                let x = self.rd(a);
                let zero = self.b.ins().f64const(0.0);
                let c = self.b.ins().fcmp(FloatCC::Equal, x, zero);
                let v = self.b2f(c);
                self.wr(d, v);
            }
            Bool(d, a) => {
                let x = self.rd(a);
                let c = self.nonzero(x);
                let v = self.b2f(c);
                self.wr(d, v);
            }
            ToU32(d, a) => {
                let x = self.rd(a);
                let u = self.element(x);
                let v = self.b.ins().fcvt_from_uint(types::F64, u);
                self.wr(d, v);
            }
            Mov(d, a) => {
                let x = self.rd(a);
                self.wr(d, x);
            }
            Done(d, f, n) => {
                let (f, n) = (self.u32c(f), self.u32c(n));
                let r = self.call(self.sigs.uu_u, h_done as *const () as usize, &[f, n])?;
                let v = self.b.ins().fcvt_from_uint(types::F64, r);
                self.wr(d, v);
            }
            Conflict(d, ci) => {
                let ci = self.u32c(ci);
                let r = self.call(self.sigs.u_u, h_conflict as *const () as usize, &[ci])?;
                let v = self.b.ins().fcvt_from_uint(types::F64, r);
                self.wr(d, v);
            }
            HostD(d, h) | HostB(d, h) | HostE(d, h) => {
                let h_ = self.u32c(h);
                let x = self.call(self.sigs.u_f, h_host as *const () as usize, &[h_])?;
                let v = match i {
                    HostD(..) => x,
                    HostB(..) => {
                        let c = self.nonzero(x);
                        self.b2f(c)
                    }
                    _ => {
                        let u = self.element(x);
                        self.b.ins().fcvt_from_uint(types::F64, u)
                    }
                };
                self.wr(d, v);
            }
            CallOption(o, f, n) => {
                for k in f..f + n {
                    let (d, s) = *self.vm.pairs.get(k as usize)?;
                    let x = self.rd(s);
                    self.wr(d, x);
                }
                let slot = self.table + 8 * i64::from(o);
                let addr = self.b.ins().iconst(types::I64, slot);
                let entry = self.b.ins().load(types::I64, self.mem, addr, 0);
                let depth = self.b.ins().iadd_imm_s(self.depth, 1);
                self.b
                    .ins()
                    .call_indirect(self.sigs.option, entry, &[self.cx, self.sl, depth]);
            }
            CallBehavior(bh, f, n) => {
                let mut changed = self.b.ins().iconst(types::I8, 0);
                for k in f..f + n {
                    let (d, s) = *self.vm.pairs.get(k as usize)?;
                    let x = self.rd(s);
                    let old = self.rd(d);
                    let c = self.b.ins().fcmp(FloatCC::NotEqual, old, x);
                    changed = self.b.ins().bor(changed, c);
                    self.wr(d, x);
                }
                let changed = self.b.ins().uextend(types::I32, changed);
                let bh = self.u32c(bh);
                self.call(
                    self.sigs.uu,
                    h_behavior as *const () as usize,
                    &[bh, changed],
                );
            }
        }
        Some(true)
    }

    /// Jump to `target` when `c` (an i8 truth value) is true (or false, if `negate`),
    /// else fall through to `next`.
    fn branch(&mut self, c: Value, negate: bool, target: Block, next: Block) {
        if negate {
            self.b.ins().brif(c, next, &[], target, &[]);
        } else {
            self.b.ins().brif(c, target, &[], next, &[]);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Fault injection: a panic forced in each helper in turn (the n-th helper call of a
    //! cycle) comes out of `Engine::execute` as a panic, after the machine code has
    //! returned; it never aborts the process.

    use crate::engine::{Backend, Engine};
    use std::cell::Cell;
    use std::sync::Arc;

    thread_local! {
        /// helper calls left before the forced panic (0: none forced)
        static PANIC_IN: Cell<u32> = const { Cell::new(0) };
        /// helper calls made so far
        static CALLS: Cell<u32> = const { Cell::new(0) };
        /// the helpers called so far
        static SEEN: std::cell::RefCell<std::collections::BTreeSet<&'static str>> =
            std::cell::RefCell::default();
    }

    /// Called by every helper: panics at the call `PANIC_IN` named.
    pub(super) fn maybe_panic(helper: &'static str) {
        CALLS.with(|c| c.set(c.get() + 1));
        SEEN.with(|s| s.borrow_mut().insert(helper));
        let left = PANIC_IN.with(Cell::get);
        if left == 1 {
            PANIC_IN.with(|p| p.set(0));
            panic!("forced in a helper");
        }
        if left > 1 {
            PANIC_IN.with(|p| p.set(left - 1));
        }
    }

    /// An agent that uses every helper: options called from options, a decision with a
    /// condition on an input, `action_done`, `%`, a basic behavior.
    fn agent() -> Arc<crate::model::Program> {
        let mut files = crate::loader::MemLoader::new();
        let sources = [
            (
                "s.xabsl",
                "/** symbols */\nnamespace s(\"S\") {\n  /** an input */\n  float input in.x;\n  /** an output */\n  float output out.y;\n}\n",
            ),
            (
                "bb.xabsl",
                "/** behaviors */\nnamespace bb(\"Behaviors\") {\n  /** idle */\n  behavior idle {\n  }\n}\n",
            ),
            (
                "leaf.xabsl",
                "/** the leaf */\noption leaf {\n  initial state a {\n    decision {\n      if (state_time > 200) goto b;\n      else stay;\n    }\n    action {\n      out.y = in.x % 3;\n      idle();\n    }\n  }\n  target state b {\n    decision {\n      stay;\n    }\n    action {\n      idle();\n    }\n  }\n}\n",
            ),
            (
                "root.xabsl",
                "/** the root */\noption root {\n  initial state run {\n    decision {\n      if (action_done && in.x > 1) goto done;\n      else stay;\n    }\n    action {\n      leaf();\n    }\n  }\n  state done {\n    decision {\n      stay;\n    }\n    action {\n      idle();\n    }\n  }\n}\n",
            ),
            (
                "agents.xabsl",
                "include \"s.xabsl\";\ninclude \"bb.xabsl\";\ninclude \"leaf.xabsl\";\ninclude \"root.xabsl\";\nagent a(\"A\", root);\n",
            ),
        ];
        for (name, text) in sources {
            files.add(name, text);
        }
        let c = crate::compile("agents.xabsl", &files);
        assert!(!c.diagnostics.has_errors(), "{}", c.render());
        Arc::new(c.program)
    }

    #[test]
    fn a_panic_in_any_helper_comes_out_of_the_cycle_and_never_aborts() {
        if !cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            return;
        }
        let p = agent();
        // how many helper calls a cycle makes, on a clean run
        let mut e = Engine::new(p.clone()).unwrap();
        e.set_backend(Backend::Native);
        let x = p.symbol("in.x").unwrap();
        e.set_input(x, 2.0);
        CALLS.with(|c| c.set(0));
        e.execute(0);
        assert_eq!(e.backend(), Backend::Native);
        let per_cycle = CALLS.with(Cell::get);
        let seen: Vec<_> = SEEN.with(|s| s.borrow().iter().copied().collect());
        assert_eq!(
            seen,
            ["behavior", "decide", "done1", "enter", "leave", "mod"],
            "the helpers a cycle of this agent calls (a panicking host function, through \
             `host`, is tests/native_backend.rs's; `done` and `conflict` are guarded alike)"
        );
        for n in 1..=per_cycle {
            let mut e = Engine::new(p.clone()).unwrap();
            e.set_backend(Backend::Native);
            e.set_input(x, 2.0);
            e.prepare();
            PANIC_IN.with(|c| c.set(n));
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| e.execute(0)));
            let payload = r.expect_err("the forced panic comes out of the cycle");
            assert_eq!(
                payload.downcast_ref::<&str>().copied(),
                Some("forced in a helper"),
                "call {n}"
            );
            // and the engine runs on
            PANIC_IN.with(|c| c.set(0));
            e.execute(100);
        }
    }
}
