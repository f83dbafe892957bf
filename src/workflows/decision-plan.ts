/**
 * Checks a decision input against what is pending and turns it into a plan, or refuses it whole with a reason.
 * Pure: the update validator, the update handler and the signal handler all call it, so every channel refuses
 * the same inputs with the same words. It never throws: an input it cannot judge is refused.
 */
import { IDENTITY_NAME_RULE, isIdentityName } from '../bounds/identity-names.js';
import { jsonDepthExceeds } from '../bounds/json-depth.js';
import { protoKeyRefusal } from '../bounds/proto-keys.js';
import { keysNotIn } from '../bounds/unknown-keys.js';
import { utf8Length } from '../bounds/truncate.js';
import { decisionInputTooLarge } from '../contract/decision-size.js';
import { LIMITS } from '../contract/limits.js';
import { parseDecisionInput } from '../contract/seed-decisions.js';
import { undecodableMessage, undecodableReason } from '../contract/undecodable-payload.js';
import { DecisionRefusedError } from '../errors.js';
import { argsHash } from '../policy/args-hash.js';
import { NO_FACTS } from '../policy/call-facts.js';
import { classifyCall } from '../policy/classify-call.js';
import { decisionRules, effectOf, mayDecide, mayWithdraw, type Verdict } from '../policy/may-decide.js';
import type { GateSettings } from '../schemas/call-record.js';
import type { DecideInput, Decision } from '../schemas/decision.js';
import type { PendingApproval } from '../schemas/pending-approval.js';
import { parseToolArguments } from '../tools/tool-arguments.js';
import { decisionBinding } from '../signing/decision-claims.js';
import { verifyDecisionToken, type VerifiedDecider } from '../signing/verify-decision.js';
import type { PlanContext, PlannedDecision, SigningContext } from './decision-context.js';
import { checkMatch } from './decision-match.js';
import { planBreakpoint } from './breakpoint-plan.js';
import { countApproval } from './decision-quorum.js';
import { opposedStanding } from './opposed-standing.js';
import { proposalGate } from './proposal-gate.js';

export type { PlanContext, PlannedDecision, SigningContext };

export type Plan =
  { ok: true; input: DecideInput; decisions: PlannedDecision[] } | { ok: false; error: DecisionRefusedError; input?: DecideInput };

export function planDecisions(raw: unknown, ctx: PlanContext): Plan {
  try {
    return plan(raw, ctx);
  } catch (err) {
    return refuse('internal', `The decision could not be checked (${String(err)}); nothing was applied.`);
  }
}

function plan(raw: unknown, ctx: PlanContext): Plan {
  const undecoded = undecodableReason(raw);
  if (undecoded !== undefined) return refuse('malformed', undecodableMessage('decision input', undecoded));
  if (jsonDepthExceeds(raw)) return refuse('malformed', 'Malformed decision input: it nests deeper than 64 levels.');
  const tooLarge = decisionInputTooLarge(raw);
  if (tooLarge) return refuse('too_large', tooLarge);
  const protoKey = ctx.refusesProtoKeys ? protoKeyRefusal('decision input', raw) : undefined;
  if (protoKey) return refuse('malformed', protoKey);
  // The seeds' shapes (LangChain's resume, LangGraph's HumanResponse) become ours before anything else is checked.
  const parsed = parseDecisionInput(raw);
  if (!parsed.ok) return refuse(parsed.code, parsed.message);
  const input = parsed.input;
  const badName = ctx.refusesMalformedNames ? namesOf(input).find((name) => !isName(name, ctx)) : undefined;
  if (badName !== undefined) return { ok: false, error: notAName(`Malformed decision input: ${JSON.stringify(badName)}`) };
  const calls = checkMatch(input, ctx);
  if (!Array.isArray(calls)) return { ok: false, error: calls, input };

  const decisions: PlannedDecision[] = [];
  for (const [i, decision] of input.decisions.entries()) {
    const planned = checkOne(decision, calls[i]!, input, ctx);
    if (planned instanceof DecisionRefusedError) return { ok: false, error: planned, input };
    decisions.push(planned);
  }
  const opposed = ctx.refusesOpposedAlways ? opposedStanding(decisions) : undefined;
  if (opposed) return { ok: false, error: opposed, input };
  return { ok: true, input, decisions };
}

/** A name by the rule the run took (identity-names.ts): the hidden characters added in patch set 14 count since. */
function isName(name: string, ctx: PlanContext): boolean {
  return isIdentityName(name, { everyHidden: ctx.refusesHiddenNames === true });
}

/** Every name the input gives for who decides: compared exactly, so each must be a name (identity-names.ts). */
function namesOf(input: DecideInput): string[] {
  return [
    ...(input.approver === undefined ? [] : [input.approver]),
    ...(input.groups ?? []),
    ...input.decisions.flatMap((d) => (d.approver === undefined ? [] : [d.approver])),
  ];
}

function notAName(what: string): DecisionRefusedError {
  return new DecisionRefusedError('malformed', `${what} is not a name (${IDENTITY_NAME_RULE}).`);
}

function refuse(code: DecisionRefusedError['code'], message: string): Plan {
  return { ok: false, error: new DecisionRefusedError(code, message) };
}

function checkOne(decision: Decision, call: PendingApproval, input: DecideInput, ctx: PlanContext): PlannedDecision | DecisionRefusedError {
  const label = `${call.toolName} (${call.id})`;
  if (!call.allowedDecisions.includes(decision.type)) {
    return new DecisionRefusedError(
      'decision_not_allowed',
      `${decision.type} is not allowed for ${label}; allowed: ${call.allowedDecisions.join(', ')}.`,
    );
  }
  if (decision.argsHash !== undefined && decision.argsHash !== call.argsHash) {
    return new DecisionRefusedError(
      'args_hash_mismatch',
      `The argsHash sent for ${label} does not match its arguments (expected ${call.argsHash}): the arguments shown to you were not these. Reload and decide again.`,
    );
  }
  if (decision.toolName !== undefined && decision.toolName !== call.toolName) {
    return new DecisionRefusedError(
      'tool_mismatch',
      `Your decision names the tool ${decision.toolName}, but ${label} is a call of ${call.toolName}: the call shown to you was not this one. Reload and decide again.`,
    );
  }
  const signed = checkToken(decision, call, ctx, label);
  if (signed instanceof DecisionRefusedError) return signed;
  // A token's identity is compared as exactly as a claimed one (an OpenID Connect provider's claims included).
  const badSigned =
    signed && ctx.refusesMalformedNames ? [signed.approver, ...(signed.groups ?? [])].find((n) => !isName(n, ctx)) : undefined;
  if (badSigned !== undefined) return notAName(`The token for ${label} names ${JSON.stringify(badSigned)}, which`);
  // A verified token says who decides; otherwise the caller does.
  const approver = signed?.approver ?? decision.approver ?? input.approver;
  const who = { approver, groups: signed?.groups ?? input.groups ?? [] };
  const token = signed && { token: { id: signed.tokenId, expiresAt: signed.expiresAt } };
  const checks = call.checks ?? 1;
  const runsTheTool = decision.type === 'approve' || decision.type === 'edit';
  if (call.preparing && runsTheTool) {
    return new DecisionRefusedError(
      'not_ready',
      `${label} is being prepared for approvers: what its tool depends on is looked up first. Decide again in a moment.`,
    );
  }
  const withdrawn = ctx.proposersMayWithdraw && decision.type === 'reject' && !decision.always && mayWithdraw(call, who);
  const rules = decisionRules(checks);
  const { typedApprovers } = rules;
  const verdict: Verdict = withdrawn ? { ok: true } : mayDecide(call, who, effectOf(decision.type), rules);
  if (!verdict.ok) return authorityRefusal(verdict, approver, decision.type, label);
  const quorum = countApproval(decision, call, approver, label);
  if (quorum instanceof DecisionRefusedError) return quorum;

  if (call.breakpoint) return planBreakpoint(decision, { ...call, breakpoint: call.breakpoint }, { approver, ...token }, ctx);
  if (decision.type !== 'edit') {
    return {
      call,
      decision,
      approver,
      ...(who.groups.length > 0 && { groups: who.groups }),
      toolName: call.toolName,
      args: call.args,
      argsHash: call.argsHash,
      ...token,
      ...(quorum && { quorum }),
    };
  }
  const toolName = decision.name ?? call.toolName;
  const available = call.subAgentWorkflowId ? (ctx.subAgentTools?.get(call.subAgentWorkflowId) ?? []) : ctx.available;
  const newArgs = decision.args ?? call.args;
  if (jsonDepthExceeds(newArgs) || utf8Length(JSON.stringify(newArgs)) > LIMITS.argumentsBytes) {
    return new DecisionRefusedError(
      'too_large',
      `The edited arguments for ${toolName} are over the limit of ${LIMITS.argumentsBytes} bytes (or nest over 64 deep).`,
    );
  }
  const mcpTools = call.subAgentWorkflowId ? [] : ctx.mcpTools;
  const checked = parseToolArguments(toolName, newArgs, ctx.specs, available, mcpTools, {
    plainJsonOnly: ctx.refusesUnplainArgs ?? false,
    schemaChecks: ctx.schemaChecks ?? 'backtracking',
  });
  if (!checked.ok) {
    const code = checked.problem === 'unknown_tool' ? 'unknown_tool' : 'invalid_edit_args';
    const message =
      code === 'unknown_tool'
        ? `Cannot edit ${label} into ${toolName}: this agent has no such tool (tools: ${available.join(', ')}).`
        : `The edited arguments for ${toolName} are invalid:\n${checked.message.split('\n').slice(1, -1).join('\n')}`;
    return new DecisionRefusedError(code, message);
  }
  // An approver who wrote them meant something by them: the call must not run as if they had not been written.
  const dropped = ctx.refusesUnknownEditArgs ? keysNotIn(newArgs, checked.args) : [];
  if (dropped.length) {
    return new DecisionRefusedError(
      'invalid_edit_args',
      `The edited arguments for ${toolName} are invalid:\n✖ ${toolName} takes no ${dropped.map((k) => `\`${k}\``).join(', ')}`,
    );
  }
  const planned = { call, decision, approver, toolName, args: checked.args, argsHash: argsHash(checked.args), ...token };
  // What runs after an edit is judged by the policy of what it becomes (a sub-agent's run judges its own calls).
  const hints = mcpTools?.find((tool) => tool.name === toolName)?.annotations;
  const facts = { ...(ctx.facts ?? NO_FACTS), callId: call.id };
  const target =
    checks >= 2 && ctx.policy && !call.subAgentWorkflowId
      ? classifyCall(ctx.policy, toolName, checked.args, facts, hints, {
          failSafe: ctx.gatesFailSafe ?? false,
          foldsText: ctx.gatesFoldText ?? false,
        })
      : undefined;
  if (!target?.gated) return planned;
  const targetAuthority = {
    ...(target.settings.approvers && { approvers: target.settings.approvers }),
    ...(call.excludedApprovers && { excludedApprovers: call.excludedApprovers }),
  };
  // What the edit becomes needs several approvals (rules v4): one person's edit cannot be all of them.
  const needsQuorum = checks >= 4 && (target.settings.requiredApprovals ?? 1) > 1;
  if (needsQuorum || (checks >= 3 && toolName !== call.toolName)) {
    // As if the model had proposed the edited call. A call that could never be approved is not worth proposing.
    const allowed = target.settings.allowedDecisions;
    if (!allowed.includes('approve')) {
      return new DecisionRefusedError(
        'decision_not_allowed',
        `${toolName} calls cannot be approved (allowed: ${allowed.join(', ')}), so ${label} cannot be edited into one.`,
      );
    }
    // The edit is its approval only if this approver could approve it and its tool lets people write its arguments;
    // otherwise it waits for the target's approvers, the editor excluded (no approving one's own proposal).
    const direct = !needsQuorum && allowed.includes('edit') && mayDecide(targetAuthority, who, 'runs', { typedApprovers }).ok;
    return direct
      ? planned
      : { ...planned, proposal: { gate: proposalGate(target.settings, ctx.deadlinesApproveNoProposal === true), rule: target.rule } };
  }
  if (target.settings.approvers) {
    // Tiers of the call's ladder that it reached (escalation.ts) may approve it as it is; within its tool they may
    // edit it too, where the edited call's own gate has the same tiers (runs since patch set 9).
    const reached = ctx.escalatedMayEdit && toolName === call.toolName ? reachedTiers(call, target.settings) : [];
    const approvers = [...new Set([...target.settings.approvers, ...reached])];
    const refused = mayDecide({ approvers }, who, 'refuses', { typedApprovers });
    if (!refused.ok) return authorityRefusal(refused, approver, decision.type, `the edited call (${toolName})`);
  }
  return planned;
}

/**
 * The approvers of the escalation tiers the call has reached, each counted only if `gate`'s ladder has the same tier
 * at the same place: a call that waits again under another tool's gate (consent.ts) lends no tier to this one.
 */
function reachedTiers(call: PendingApproval, gate: GateSettings): string[] {
  const ladder = gate.escalate ?? [];
  return (call.escalations ?? []).flatMap((tier, i) =>
    tier.reached && ladder[i] && sameMembers(ladder[i].approvers, tier.approvers) ? tier.approvers : [],
  );
}

const sameMembers = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * The decision's token, verified against exactly this decision, when the run requires one or the decision carries
 * one (a token that does not verify is never ignored). Undefined when tokens play no part.
 */
function checkToken(
  decision: Decision,
  call: PendingApproval,
  {
    signing,
    refusesUncheckedTokens,
    tokensCheckedByOwner,
  }: Pick<PlanContext, 'signing' | 'refusesUncheckedTokens' | 'tokensCheckedByOwner'>,
  label: string,
): VerifiedDecider | DecisionRefusedError | undefined {
  // A token says who decides; one the run cannot check must not pass as if it had been checked, nor be dropped. A
  // sub-agent's call goes on with its token to the run that owns it, which checks it (run-decisions.ts, forward).
  if (!signing && decision.token !== undefined && call.subAgentWorkflowId && tokensCheckedByOwner?.has(call.id)) return undefined;
  if (!signing && decision.token !== undefined && refusesUncheckedTokens) {
    return new DecisionRefusedError(
      'tokens_unchecked',
      `${label}: this run checks no signed decisions (it started before its worker trusted a signer); send it without a token.`,
    );
  }
  if (!signing || (!signing.required && decision.token === undefined)) return undefined;
  if (!signing.trust)
    return new DecisionRefusedError('token_refused', `${label}: this run trusts no signer, so it cannot check the token.`);
  const shownId = `${signing.shownIdPrefix}${call.id}`;
  const binding = decisionBinding(signing.rootWorkflowId, call.argsHash, { ...decision, id: shownId });
  const check = verifyDecisionToken(decision.token, binding, signing.trust, signing.now, { usedTokenIds: signing.usedTokenIds });
  return check.ok ? check.decider : new DecisionRefusedError('token_refused', `${label}: ${check.message} (${check.code})`);
}

/** The words of a refusal on authority grounds, the same for every channel. */
function authorityRefusal(
  verdict: Extract<Verdict, { ok: false }>,
  approver: string | undefined,
  type: string,
  label: string,
): DecisionRefusedError {
  switch (verdict.code) {
    case 'approver_required':
      return new DecisionRefusedError('approver_required', `${label} ${verdict.reason}; say who you are (approver).`);
    case 'approver_not_allowed':
      return new DecisionRefusedError('approver_not_allowed', `${approver} may not decide ${label}; ${verdict.reason}.`);
    case 'already_approved':
      return new DecisionRefusedError('already_approved', `${approver} has already approved ${label}; it waits for other approvers.`);
    case 'four_eyes': {
      const act = type === 'respond' ? 'respond to' : type;
      return new DecisionRefusedError(
        'four_eyes',
        verdict.proposer
          ? `${approver} wrote ${label} ${verdict.atBreakpoint ? 'at a breakpoint' : 'by an edit'} and may not ${act} it; another approver must.`
          : `${approver} requested this run and may not ${act} its own ${label}; another approver must.`,
      );
    }
  }
}
